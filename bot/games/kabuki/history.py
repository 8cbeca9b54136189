"""A finished Kabuki game's record (the ``--json`` format, docs/kabuki.md) played again through
the engine: the record a game stores, each step of a replay, and the deal checked from the seed.

The log records outcomes (each round's shuffled deck, each placement, each Stop race with its
presses), so replaying feeds the engine those presses at their logged times and compares every
entry it writes with the record's: a card the seed does not deal is the first mismatch found.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine.protocol import IllegalAction
from bot.engine.replay import LOG_FORMAT, NO_CHANNEL, ReplayError
from bot.games.kabuki.board import mask, render
from bot.games.kabuki.engine import KabukiEngine
from bot.glue.board import Board
from bot.i18n import DEFAULT, Name, t, tn

# The record's own fields, each of the JSON kind this code reads (and each item of a list), checked
# before replaying so a wrong one is named (bot.community.replays.record_problem).
FIELDS = {"log": (list, dict)}


def log_record(engine: KabukiEngine, seed: int) -> dict[str, Any]:
    """The record of a finished game, as ``simulate kabuki --json`` writes it (without the
    simulator's ``memory``)."""
    result = engine.result()
    return {
        "format": LOG_FORMAT,
        "game": "kabuki",
        "seed": seed,
        "players": engine.players,
        "options": dict(engine.options),
        "log": list(engine.log),
        "totals": list(result.scores),
        "winners": list(result.winners),
    }


def rerun(
    rec: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT
) -> Iterator[tuple[str, KabukiEngine]]:
    """Each step of the game as (what happened in ``locale``, the engine just after it), from the deal on.
    Raises ReplayError where the engine, dealing from the record's seed, writes another entry."""
    log = rec["log"]
    engine = KabukiEngine.new(rec["players"], rec["seed"], rec["options"], log[0]["at"])
    for i, entry in enumerate(log):
        try:
            _drive(engine, entry, len(engine.log) > i)
        except IllegalAction as refusal:
            raise ReplayError(
                f"log entry {i} ({entry['e']}): the engine refuses it: {refusal.reason}"
            ) from None
        if len(engine.log) <= i:
            raise ReplayError(f"log entry {i} ({entry['e']}): the engine does not get there")
        _compare(i, entry, engine.log[i])
        if entry["e"] != "game_end":
            yield describe(entry, names, locale), engine
    if len(engine.log) != len(log) or not engine.is_over:
        raise ReplayError("the log stops before the game's end")


def _drive(engine: KabukiEngine, entry: Mapping[str, Any], written: bool) -> None:
    """Give the engine the input that made ``entry``, at its logged times (nothing if the
    engine wrote it already, as a round's start that follows its last reveal)."""
    if written:
        return
    kind = entry["e"]
    if kind == "place":
        engine.advance(entry["at"])
        if not entry["auto"]:
            engine.apply(entry["seat"], {"type": "place", "stack": entry["stack"]}, entry["at"])
    elif kind == "stop":
        for press in entry["presses"]:
            engine.advance(press["received"])
            engine.apply(press["seat"], {"type": "stop"}, press["at"])
        engine.advance(entry["at"])
    elif "at" in entry:
        engine.advance(entry["at"])


def _compare(i: int, logged: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    if logged == dealt:
        return
    where = f"log entry {i} ({logged.get('e')}, round {logged.get('round', '?')})"
    if logged.get("e") == "round" and logged.get("deck") != dealt.get("deck"):
        deck, real = logged.get("deck") or [], dealt["deck"]
        k = next(
            (k for k, (a, b) in enumerate(zip(deck, real, strict=False)) if a != b), min(len(deck), len(real))
        )
        shown = deck[k] if k < len(deck) else "nothing"
        raise ReplayError(
            f"{where}: card {k + 1} of the deck is {shown} in the log, the seed deals {real[k]}"
        )
    key = next((key for key in sorted(set(logged) | set(dealt)) if logged.get(key) != dealt.get(key)), "e")
    raise ReplayError(
        f"{where}: {key} is {logged.get(key)!r} in the log, the engine gives {dealt.get(key)!r}"
    )


def dealt_cards(rec: Mapping[str, Any]) -> int:
    """How many cards the seed dealt in this record (every round's deck)."""
    return sum(len(entry["deck"]) for entry in rec["log"] if entry["e"] == "round")


def describe(entry: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT) -> str:
    """One log entry as a line of text, everything face up, in ``locale`` (English for the
    command-line ``replay``, the viewer's language on ``/replay``)."""
    kind = entry["e"]
    if kind == "round":
        return tn(
            locale,
            "Round {round}: the deck is shuffled; {name} starts, {n} token each",
            "Round {round}: the deck is shuffled; {name} starts, {n} tokens each",
            entry["tokens"],
            round=entry["round"],
            name=names[entry["first"]],
        )
    if kind == "place":
        placed = {
            "name": names[entry["seat"]],
            "mask": mask(entry["card"], locale),
            "stack": entry["stack"] + 1,
        }
        if entry["auto"]:
            return t(locale, "{name} places {mask} on stack {stack} (turn timer)", **placed)
        return t(locale, "{name} places {mask} on stack {stack}", **placed)
    if kind == "stop":
        challenger = names[entry["challenger"]]
        outcome = (
            tn(
                locale,
                "{n} matching below: {placer} gives {moved} to {challenger}",
                "{n} matching below: {placer} gives {moved} to {challenger}",
                entry["k"],
                placer=names[entry["placer"]],
                moved=entry["moved"],
                challenger=challenger,
            )
            if entry["k"]
            else t(locale, "no match: {challenger} puts a token in the box", challenger=challenger)
        )
        return t(
            locale,
            "Stop! by {pressed}; {challenger} was first. Stack {stack}: {cards}. {outcome}",
            pressed=Name(", ".join(names[p["seat"]] for p in entry["presses"])),
            challenger=challenger,
            stack=entry["stack"] + 1,
            cards=" ".join(mask(c, locale) for c in entry["cards"]),
            outcome=outcome,
        )
    if kind == "round_end":
        reason = (
            t(locale, "a player ran out of tokens")
            if entry["reason"] == "zero_tokens"
            else t(locale, "the deck ran out")
        )
        return t(
            locale,
            "Round {round} ends ({reason}); totals {totals}",
            round=entry["round"],
            reason=reason,
            totals=", ".join(map(str, entry["totals"])),
        )
    winners = Name(", ".join(names[s] for s in entry["winners"]))
    return tn(
        locale,
        "Game over: {winners} wins",
        "Game over: {winners} win",
        len(entry["winners"]),
        winners=winners,
    )


def hidden(engine: KabukiEngine, names: Sequence[str], locale: str = DEFAULT) -> str:
    """What the board hides during play, shown in a replay: every card of every stack."""
    lines = [
        f"**{s + 1}.** " + (" ".join(mask(c, locale) for c in stack) or "—")
        for s, stack in enumerate(engine.stacks)
    ]
    return t(locale, "Stacks, bottom to top:") + "\n" + "\n".join(lines)


# The replay's board (``/replay``): the board the channel saw after a step, drawn from the public
# view alone, with no channel's buttons and no clock; the final board once the game is over.
def replay_board(engine: KabukiEngine, names: Sequence[str], game_key: str, locale: str = DEFAULT) -> Board:
    return render(engine.view(None), names, NO_CHANNEL, final=engine.is_over, live=False, locale=locale)
