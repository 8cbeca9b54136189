"""A finished Odd One Out game's record and its replay: the record is the engine's own input log,
so replaying is giving a new engine each step again and comparing the scores it reaches."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine.protocol import IllegalAction
from bot.engine.replay import LOG_FORMAT, NO_CHANNEL, ReplayError
from bot.glue.board import Board
from bot.i18n import DEFAULT, t, tn

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
    players = rec["players"]
    yield (
        tn(
            locale,
            "The game begins: {n} player, {rounds} rounds",
            "The game begins: {n} players, {rounds} rounds",
            players,
            rounds=ROUNDS,
        ),
        engine,
    )
    for i, entry in enumerate(log[1:], 1):
        before = engine.s["round"]
        try:
            if entry["op"] == "apply":
                engine.apply(entry["seat"], entry["action"], entry["now"])
            else:
                engine.advance(entry["now"])
        except IllegalAction as refusal:
            raise ReplayError(f"log entry {i}: the engine refuses it: {refusal.reason}") from None
        yield (
            step_words(entry, names, engine.s["round"] if engine.s["round"] != before else None, locale),
            engine,
        )
    if not engine.is_over:
        raise ReplayError("the log stops before the last round was scored")
    if engine.s["scores"] != list(rec["scores"]):
        raise ReplayError(f"the log scores {engine.s['scores']}, the record says {rec['scores']}")


def step_words(entry: Mapping[str, Any], names: Sequence[str], scored: int | None, locale: str) -> str:
    """What one log entry did, as a whole sentence (a translator reorders it): who picked what,
    or the round's time running out, and the round it scored if it ended one."""
    if entry["op"] == "apply":
        name, value = names[entry["seat"]], entry["action"]["value"]
        if scored is None:
            return t(locale, "{name} picks {value}", name=name, value=value)
        return t(
            locale, "{name} picks {value}; round {round} is scored", name=name, value=value, round=scored
        )
    if scored is None:
        return t(locale, "The round's time runs out")
    return t(locale, "The round's time runs out; round {round} is scored", round=scored)


def dealt_cards(rec: Mapping[str, Any]) -> int:
    return 0  # nothing is dealt


def hidden(engine: OddOneOutEngine, names: Sequence[str], locale: str = DEFAULT) -> str:
    """This round's picks so far, which the board keeps secret until the round is scored."""
    picks = engine.s["picks"]
    made = [f"{names[seat]}: {pick}" for seat, pick in enumerate(picks) if pick is not None]
    if not made:
        return t(locale, "Picks this round: none yet")
    return t(locale, "Picks this round: {picks}", picks=", ".join(made))


def replay_board(
    engine: OddOneOutEngine, names: Sequence[str], game_key: str, locale: str = DEFAULT
) -> Board:
    return board.render(engine.view(None), names, NO_CHANNEL, live=False, locale=locale)
