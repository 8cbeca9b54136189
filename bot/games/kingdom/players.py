"""Simple computer players for Death Over the Kingdom (simulator, benchmark, tests, empty seats).

A player only uses what its seat may know: its own card, its Thief peek, and the public table
(cards shown face up). It reads those straight off the engine rather than building a whole
``view`` per move, which keeps a 16-player game fast enough to simulate thousands of times.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.engine.computers import Action, Memory, Plan
from bot.games.kingdom.cards import (
    BARD,
    CHARACTERS,
    DEATH,
    DRAGON,
    THIEF,
    TRADER,
    TURN_TRIGGER,
)
from bot.games.kingdom.engine import KingdomEngine

DEATH_WORTH = -5  # worse than any value: Death always loses


class Player(Protocol):
    def choose(self, engine: KingdomEngine, seat: int) -> dict[str, Any]: ...


def shown_chars(engine: KingdomEngine) -> set[int]:
    """Characters the whole table can see in players' hands right now."""
    hands = engine.hands
    return {c >> 1 for c in engine.face_up if c in hands}  # few cards are face up: walk those


def worth(char: int, shown: set[int]) -> int:
    """A guess at the card's final value from public facts: a card whose trigger is already
    shown in a hand will turn. Kings never leave their holder, so a shown King is sure to be in
    play; other shown cards may still move, so this is only a guess."""
    if char == DEATH:
        return DEATH_WORTH
    trigger = TURN_TRIGGER[char]
    if trigger >= 0 and trigger in shown:
        return CHARACTERS[char].turned  # type: ignore[return-value]
    return char


class RandomPlayer:
    """Any legal action, uniformly: the property tests' and fuzzers' player."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, engine: KingdomEngine, seat: int) -> dict[str, Any]:
        return self.rng.choice(engine.legal_actions(seat))


class SimplePlayer:
    """Stands on high cards, passes low ones on, uses powers when they likely help.

    ``stand_at``: the guessed value from which it keeps its card. ``whim``: how often it just
    plays a random legal action, so that games do not all look alike.
    """

    def __init__(self, seed: int, stand_at: int = 7, whim: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.stand_at = stand_at
        self.whim = whim

    def choose(self, engine: KingdomEngine, seat: int) -> dict[str, Any]:
        legal = engine.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        shown = shown_chars(engine)
        if engine.peek is not None:
            peeked = engine.hands[engine.peek["target"]]
            assert peeked is not None
            take = worth(peeked >> 1, shown) > worth(THIEF, shown)
            return legal[0] if take else legal[1]
        if self.rng.random() < self.whim:
            return self.rng.choice(legal)
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        char = engine.char(seat)
        assert char is not None
        mine = worth(char, shown)
        if char == TRADER and "trader" in by_type:
            return by_type["trader"][0]
        if char == THIEF and "thief" in by_type:
            return self.rng.choice(by_type["thief"])
        if char == BARD and "bard" in by_type and self.rng.random() < 0.5:
            return self.rng.choice(by_type["bard"])
        if mine >= self.stand_at:
            return by_type["stand"][0]
        if char == DRAGON and "dragon" in by_type and mine < self.stand_at and "exchange" not in by_type:
            return by_type["dragon"][0]
        for kind in ("exchange", "cut"):
            if kind in by_type:
                return by_type[kind][0]
        return by_type["stand"][0]


def make_players(kind: str, count: int, seed: int) -> list[Player]:
    """``kind``: "simple" or "random"; each seat gets its own seeded generator."""
    cls = {"simple": SimplePlayer, "random": RandomPlayer}[kind]
    return [cls(seed * 1000 + seat) for seat in range(count)]


# ---------------------------------------------------------------------- at a Discord table
# The policy the session layer plays an empty seat with (``GameDescriptor.computers``).


def plan(
    view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Memory | None
) -> Plan | None:
    """The simulator's simple player (``SimplePlayer``), read off the
    seat's own view: its card, its Thief peek and the cards shown face up."""
    if not legal:
        return None
    if legal[0]["type"] == "next":
        # Anyone may start the next round: leave the people at the table time to read the reveal.
        return rng.randint(8000, 12000), legal[0]
    me = view["me"]
    think = rng.randint(2000, 5000)
    if len(legal) == 1:
        return think, legal[0]
    shown = {s["shown"]["char"] for s in view["seats"] if s["shown"]}
    if me["peek"] is not None:
        take = worth(me["peek"]["char"], shown) > worth(THIEF, shown)
        return think, legal[0] if take else legal[1]
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    mine = worth(me["card"]["char"], shown)
    for power in ("trader", "thief", "bard"):
        if power in by_type and rng.random() < 0.5:
            return think, rng.choice(by_type[power])
    if mine >= 7:
        return think, by_type["stand"][0]
    for kind in ("dragon", "exchange", "cut"):
        if kind in by_type:
            return think, by_type[kind][0]
    return think, by_type["stand"][0]
