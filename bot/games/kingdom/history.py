"""A finished Death Over the Kingdom game's record (the ``--json`` format,
docs/death-over-the-kingdom.md) played again through the engine: the record a game stores, each
step of a replay, and every shuffle, deal and draw checked from the seed.

The record keeps each round's shuffle, deal and actions, not times: replaying gives the engine
each logged action (a timed-out one by letting its timer run out), and compares what the engine
deals, draws and reveals with the record after every step.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine.protocol import IllegalAction
from bot.engine.replay import NO_CHANNEL, ReplayError
from bot.games.kingdom.board import card_name, final_board, kingdom_board
from bot.games.kingdom.board import describe as describe_action
from bot.games.kingdom.cards import NAMES
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.simulate import Recorder, record
from bot.glue.board import Board
from bot.i18n import DEFAULT, t

# The record's own fields, each of the JSON kind this code reads (and each item of a list), checked
# before replaying so a wrong one is named (bot.community.replays.record_problem).
FIELDS = {"first_dealer": (int, None), "rounds": (list, dict), "standings": (dict, None)}


def log_record(engine: KingdomEngine, seed: int) -> dict[str, Any]:
    """The record of a finished game, as ``simulate kingdom --json`` writes it (``bots`` is
    null: people played). Built by playing the engine's input log again with a recorder, which
    sees every event, the private ones included: the game is over."""
    start = engine.log[0]["new"]
    again = KingdomEngine.new(start["players"], start["seed"], start["options"], start["now"])
    recorder = Recorder()
    recorder.feed(again.opening)
    for entry in engine.log[1:]:
        if "advance" in entry:
            recorder.feed(again.advance(entry["advance"]))
        else:
            recorder.feed(again.apply(entry["seat"], entry["action"], entry["now"]))
    return record(again, recorder, seed, None)  # type: ignore[arg-type]


def rerun(
    rec: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT
) -> Iterator[tuple[str, KingdomEngine]]:
    """Each step of the game as (what happened in ``locale``, the engine just after it), from the first deal.
    Raises ReplayError at the first shuffle, card or action the engine does not reproduce."""
    engine = KingdomEngine.new(rec["players"], rec["seed"], rec["options"], 0)
    recorder = Recorder()
    recorder.feed(engine.opening)
    rounds = rec["rounds"]
    if recorder.rounds[0]["dealer"] != rec["first_dealer"]:
        raise ReplayError(
            f"the first dealer is seat {rec['first_dealer']} in the record, the seed draws {recorder.rounds[0]['dealer']}"
        )
    now = 0
    for number, rnd in enumerate(rounds, 1):
        if number > 1:
            if engine.phase == "reveal":
                now = engine.next_deadline() or now
                recorder.feed(engine.advance(now))
            if len(recorder.rounds) < number:
                raise ReplayError(f"round {number}: the engine's game ended after round {engine.round}")
        _compare(number, rnd, recorder.rounds[number - 1])
        yield (
            t(
                locale,
                "Round {round}: {name} deals; every player gets one card",
                round=number,
                name=names[rnd["dealer"]],
            ),
            engine,
        )
        for i, act in enumerate(rnd["actions"]):
            if act.get("auto") == "king":
                continue  # stood by the engine itself when the King reached its turn
            try:
                if act.get("timeout"):
                    now = engine.next_deadline() or now
                    recorder.feed(engine.advance(now))
                else:
                    action = {"type": act["type"], **({"target": act["target"]} if "target" in act else {})}
                    recorder.feed(engine.apply(act["seat"], action, now))
            except IllegalAction as refusal:
                raise ReplayError(
                    f"round {number}, action {i}: the engine refuses it: {refusal.reason}"
                ) from None
            _compare(number, rnd, recorder.rounds[number - 1])
            yield describe_action(act, names, locale).replace("**", ""), engine
    if not engine.is_over:
        raise ReplayError(f"the record stops after round {len(rounds)}, before the game's end")
    replayed = record(engine, recorder, rec["seed"], rec.get("bots"))
    for key, value in replayed.items():
        if rec.get(key) != value:
            raise ReplayError(f"{key} is {rec.get(key)!r} in the record, the engine gives {value!r}")


def _compare(number: int, logged: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    """The round so far as the engine played it against the record's (its actions up to where
    the engine is, its reveal once there is one)."""
    where = f"round {number}"
    shuffle, real = logged.get("shuffle") or [], dealt["shuffle"]
    if shuffle != real:
        k = next((k for k, (a, b) in enumerate(zip(shuffle, real, strict=False)) if a != b), len(shuffle))
        shown = NAMES[shuffle[k]] if k < len(shuffle) else "missing"
        raise ReplayError(
            f"{where}: card {k + 1} of the shuffle is {shown} in the record, the seed deals {NAMES[real[k]]}"
        )
    for key, value in dealt.items():
        if key == "actions":
            value, mine = value, logged["actions"][: len(value)]
            if mine != value:
                i = next((i for i, (a, b) in enumerate(zip(mine, value, strict=False)) if a != b), len(mine))
                raise ReplayError(
                    f"{where}, action {i}: {mine[i] if i < len(mine) else None} in the record, "
                    f"the engine gives {value[i]}"
                )
        elif (key != "reveal" or value is not None) and logged.get(key) != value:
            raise ReplayError(
                f"{where}: {key} is {logged.get(key)!r} in the record, the engine gives {value!r}"
            )


def dealt_cards(rec: Mapping[str, Any]) -> int:
    """Cards the seed placed: every round's shuffle (the deal and the deck below it)."""
    return sum(len(rnd["shuffle"]) for rnd in rec["rounds"])


def hidden(engine: KingdomEngine, names: Sequence[str], locale: str = DEFAULT) -> str:
    """What the board hides during play, shown in a replay: every hand and the deck."""
    lines = [
        f"{names[s]}: **{card_name(card >> 1, locale)}**"
        for s, card in enumerate(engine.hands)
        if card is not None
    ]
    deck = ", ".join(card_name(c >> 1, locale) for c in engine.deck)
    lines.append(
        t(locale, "Deck, top first: {cards}", cards=deck) if deck else t(locale, "Deck, top first: empty")
    )
    return "\n".join(lines)


# The replay's board (``/replay``): the board the channel saw after a step, drawn from the public
# view alone, with no channel's buttons and no clock; the final board once the game is over.
def replay_board(engine: KingdomEngine, names: Sequence[str], game_key: str, locale: str = DEFAULT) -> Board:
    view = engine.view(None)
    if engine.is_over:
        return final_board(view, names, engine.result().winners, game_key, locale=locale)
    return kingdom_board(view, names, NO_CHANNEL, game_key, live=False, locale=locale)


def scripted(rec: Mapping[str, Any]) -> str:
    """A test's scripted deal the engine accepts, which re-dealing alone would not notice."""
    options = rec["options"]
    if options.get("decks") or options.get("dealer") is not None:
        return "the options give the decks or the first dealer"
    return ""
