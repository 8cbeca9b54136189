"""A finished Odd One Out game's record and its replay: the record is the engine's own input log,
so replaying is giving a new engine each step again and comparing the scores it reaches."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine.protocol import IllegalAction
from bot.engine.replay import LOG_FORMAT, NO_CHANNEL, ReplayError
from bot.glue.board import Board
from bot.i18n import DEFAULT

from . import board
from .engine import ROUNDS, OddOneOutEngine


def log_record(engine: OddOneOutEngine, seed: int) -> dict[str, Any]:
    """The record of a finished game, as ``simulate oddoneout --json`` writes it."""
    s = engine.s
    return {
        "format": LOG_FORMAT,
        "game": OddOneOutEngine.kind,
        "seed": seed,
        "players": s["n"],
        "options": {"round_ms": s["round_ms"]},
        "log": [dict(entry) for entry in s["log"]],
        "scores": list(s["scores"]),
    }


def rerun(
    rec: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT
) -> Iterator[tuple[str, OddOneOutEngine]]:
    """Each step as (what happened, the engine just after it); a ReplayError where the record
    and the engine part."""
    log = rec["log"]
    engine = OddOneOutEngine.new(rec["players"], rec["seed"], rec["options"], log[0]["now"])
    yield f"The game begins: {rec['players']} players, {ROUNDS} rounds", engine
    for i, entry in enumerate(log[1:], 1):
        before = engine.s["round"]
        try:
            if entry["op"] == "apply":
                engine.apply(entry["seat"], entry["action"], entry["now"])
                text = f"{names[entry['seat']]} picks {entry['action']['value']}"
            else:
                engine.advance(entry["now"])
                text = "The round's time runs out"
        except IllegalAction as refusal:
            raise ReplayError(f"log entry {i}: the engine refuses it: {refusal.reason}") from None
        if engine.s["round"] != before:
            text += f"; round {engine.s['round']} is scored"
        yield text, engine
    if not engine.is_over:
        raise ReplayError("the log stops before the last round was scored")
    if engine.s["scores"] != list(rec["scores"]):
        raise ReplayError(f"the log scores {engine.s['scores']}, the record says {rec['scores']}")


def dealt_cards(rec: Mapping[str, Any]) -> int:
    return 0  # nothing is dealt


def hidden(engine: OddOneOutEngine, names: Sequence[str], locale: str = DEFAULT) -> str:
    """This round's picks so far, which the board keeps secret until the round is scored."""
    picks = engine.s["picks"]
    made = [f"{names[seat]}: {pick}" for seat, pick in enumerate(picks) if pick is not None]
    return "Picks this round: " + (", ".join(made) or "none yet")


def replay_board(
    engine: OddOneOutEngine, names: Sequence[str], game_key: str, locale: str = DEFAULT
) -> Board:
    return board.render(engine.view(None), names, NO_CHANNEL, live=False)
