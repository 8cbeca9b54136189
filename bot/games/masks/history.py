"""A finished Monster Masks game's record (the ``--json`` format, docs/monster-masks.md) played
again through the engine: the record a game stores, each step of a replay, and the deal checked
from the seed. The record's ``log`` is the engine's own input log, so replaying is giving the
engine each step again and comparing what it deals and decides with what the record says.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine.protocol import IllegalAction
from bot.engine.replay import NO_CHANNEL, ReplayError
from bot.games.masks import board
from bot.games.masks.engine import MasksEngine
from bot.games.masks.faces import monster_name
from bot.games.masks.simulate import game_record
from bot.glue.board import Board
from bot.i18n import DEFAULT, t, tn

# The record's own fields, each of the JSON kind this code reads (and each item of a list), checked
# before replaying so a wrong one is named (bot.community.replays.record_problem).
FIELDS = {"deck": (list, int), "log": (list, dict), "turns": (list, dict)}


def log_record(engine: MasksEngine, seed: int) -> dict[str, Any]:
    """The record of a finished game, as ``simulate masks --json`` writes it."""
    return game_record(engine, seed)


def rerun(
    rec: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT
) -> Iterator[tuple[str, MasksEngine]]:
    """Each step of the game as (what happened in ``locale``, the engine just after it), from the deal on.
    Raises ReplayError at the first card or decision the record has and the engine does not."""
    log = rec["log"]
    first = log[0]
    engine = MasksEngine.new(rec["players"], rec["seed"], rec["options"], first["now"], deck=first["deck"])
    deck = list(rec["deck"])
    if engine.dealt != deck:
        k = next((k for k, (a, b) in enumerate(zip(deck, engine.dealt, strict=False)) if a != b), len(deck))
        shown = monster_name(deck[k]) if k < len(deck) else "missing"
        real = monster_name(engine.dealt[k]) if k < len(engine.dealt) else "nothing"
        raise ReplayError(f"card {k + 1} of the deck is {shown} in the record, the seed deals {real}")
    yield (
        tn(
            locale,
            "The deck is shuffled: {n} card; {name} is the first Mime",
            "The deck is shuffled: {n} cards; {name} is the first Mime",
            len(deck),
            name=names[0],
        ),
        engine,
    )
    for i, step in enumerate(log[1:], 1):
        if engine.is_over:  # else a log padded past the end would be replayed step by step
            raise ReplayError(f"log entry {i} comes after the game's end")
        try:
            if step["op"] == "apply":
                engine.apply(step["seat"], step["action"], step["now"])
            else:
                engine.advance(step["now"])
        except IllegalAction as refusal:
            raise ReplayError(f"log entry {i}: the engine refuses it: {refusal.reason}") from None
        yield describe(step, engine, names, locale), engine
    if not engine.is_over:
        raise ReplayError("the log stops before the deck ran out")
    replayed = game_record(engine, rec["seed"])
    for key, value in replayed.items():
        if rec.get(key) != value:
            raise ReplayError(f"{key} is {rec.get(key)!r} in the record, the engine gives {value!r}")


def dealt_cards(rec: Mapping[str, Any]) -> int:
    return len(rec["deck"])


def _monster(face: int, locale: str) -> str:
    return t(locale, monster_name(face))  # the monsters' names are the masks area's messages


def describe(
    step: Mapping[str, Any], engine: MasksEngine, names: Sequence[str], locale: str = DEFAULT
) -> str:
    """One step as a line of text, everything face up, in ``locale`` (English for the
    command-line ``replay``, the viewer's language on ``/replay``)."""
    if step["op"] == "apply":
        action = step["action"]
        if action["type"] == "slap":
            return t(
                locale,
                "{name} slaps {monster}",
                name=names[step["seat"]],
                monster=_monster(action["tile"], locale),
            )
        return t(locale, "{name} (the Mime) ends the guessing", name=names[step["seat"]])
    revealed = [h for h in engine.history[-2:] if h["revealed_at"] == step["now"]]
    if not revealed:
        turn = engine.history[-1]
        if turn["started_at"] == step["now"]:
            return t(locale, "Turn {turn}: {name} is the Mime", turn=turn["turn"], name=names[turn["mime"]])
        race = turn["races"][-1] if turn["races"] else None
        if race is None:
            return t(locale, "Time passes")
        return t(
            locale,
            "{name} holds {monster}",
            name=names[race["winner"]],
            monster=_monster(race["tile"], locale),
        )
    turn = revealed[0]
    card = _monster(turn["card"], locale)
    if turn["scorer"] is None:
        return t(
            locale, "Turn {turn}: the card was {monster}; nobody slapped it", turn=turn["turn"], monster=card
        )
    return t(
        locale,
        "Turn {turn}: the card was {monster}; {scorer} slapped it and scores with {mime}",
        turn=turn["turn"],
        monster=card,
        scorer=names[turn["scorer"]],
        mime=names[turn["mime"]],
    )


def hidden(engine: MasksEngine, names: Sequence[str], locale: str = DEFAULT) -> str:
    """What the board hides during play, shown in a replay: the Mime's card and the deck."""
    turn = engine.history[-1] if engine.history else None
    lines = []
    if turn is not None:
        lines.append(
            t(
                locale,
                "Turn {turn}'s card: **{monster}**",
                turn=turn["turn"],
                monster=_monster(turn["card"], locale),
            )
        )
    deck = ", ".join(_monster(c, locale) for c in engine.deck)
    lines.append(
        t(locale, "Deck, top first: {cards}", cards=deck) if deck else t(locale, "Deck, top first: empty")
    )
    return "\n".join(lines)


# The replay's board (``/replay``): the board the channel saw after a step, drawn from the public
# view alone, with no channel's buttons and no clock; the final board once the game is over.
def replay_board(engine: MasksEngine, names: Sequence[str], game_key: str, locale: str = DEFAULT) -> Board:
    view = engine.view(None)
    if engine.is_over:
        return board.render_final(view, names, locale=locale)
    return board.render(NO_CHANNEL, view, names, live=False, locale=locale)


def scripted(rec: Mapping[str, Any]) -> str:
    """A test's scripted deal the engine accepts, which re-dealing alone would not notice."""
    return "the log's first entry gives the deck" if rec["log"][0].get("deck") is not None else ""
