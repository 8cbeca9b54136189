"""Computer players for Kabuki.

A computer player learns only from public events (what a human at the table would see), keeps
its own picture of the four stacks and may forget buried cards. It answers three questions:
where to put the card on show, whether (and how fast) to press Stop, and how long to think.
Its randomness is its own seeded ``random.Random``, never the engine's dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.computers import Action, Memory, Plan
from bot.engine.protocol import Event
from bot.games.kabuki.engine import STACKS

UNKNOWN = -1  # a buried card the player has forgotten


@dataclass(frozen=True)
class Temper:
    """How a computer player behaves; times are in ms."""

    memory: float = 1.0  # chance to remember each card once it gets covered
    reaction_ms: tuple[int, int] = (250, 1200)  # delay before pressing Stop on a remembered match
    think_ms: tuple[int, int] = (200, 2500)  # delay after it may place before it places
    idle: float = 0.0  # chance to let the turn timer run out instead of placing
    bluff: float = 0.0  # chance to press Stop on a hunch when the stack holds forgotten cards

    def __post_init__(self) -> None:
        if not 0.0 <= self.memory <= 1.0:
            raise ValueError("memory must be between 0 and 1")
        for name in ("idle", "bluff"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")


class ComputerPlayer:
    def __init__(self, seat: int, seed: int, temper: Temper | None = None) -> None:
        self.seat = seat
        self.temper = temper or Temper()
        self.rng = random.Random(seed)
        # Remembered stacks, bottom to top; the top card is always visible, so never UNKNOWN.
        self.stacks: list[list[int]] = [[] for _ in range(STACKS)]

    def observe(self, event: Event) -> None:
        """Learn from a public event."""
        kind = event.kind
        if kind == "placed":
            stack = self.stacks[event.data["stack"]]
            memory = self.temper.memory
            if stack and memory < 1.0 and self.rng.random() >= memory:
                stack[-1] = UNKNOWN
            stack.append(event.data["card"])
        elif kind == "challenge":
            # The reveal refreshes the whole stack, and it is forgotten again card by card.
            keep = self.temper.memory
            cards = event.data["cards"]
            if keep < 1.0:
                top = len(cards) - 1
                cards = [c if i == top or self.rng.random() < keep else UNKNOWN for i, c in enumerate(cards)]
            self.stacks[event.data["stack"]] = list(cards)
        elif kind == "round_start":
            self.stacks = [[] for _ in range(STACKS)]

    def observe_all(self, events: Iterable[Event]) -> None:
        for event in events:
            if event.to is None:
                self.observe(event)

    def known_copies(self, stack: int, card: int) -> int:
        return self.stacks[stack].count(card)

    def choose_stack(self, card: int) -> int:
        """The stack where this card is least likely to be a mistake (as far as it remembers)."""
        best: list[int] = []
        best_key: tuple[int, int] | None = None
        for s, cards in enumerate(self.stacks):
            key = (cards.count(card), cards.count(UNKNOWN))
            if best_key is None or key < best_key:
                best, best_key = [s], key
            elif key == best_key:
                best.append(s)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def stop_delay(self, placer: int, stack: int) -> int | None:
        """ms after a placement to press Stop, or None: on a remembered match, or now and then a hunch."""
        if placer == self.seat:
            return None
        cards = self.stacks[stack]
        if not cards or cards[-1] not in cards[:-1]:
            bluff = self.temper.bluff
            if not (bluff and UNKNOWN in cards and self.rng.random() < bluff):
                return None
        low, high = self.temper.reaction_ms
        return self.rng.randint(low, high)

    def place_delay(self) -> int | None:
        """ms after placing becomes possible before it places, or None to sit idle."""
        if self.temper.idle and self.rng.random() < self.temper.idle:
            return None
        low, high = self.temper.think_ms
        return self.rng.randint(low, high)


# ---------------------------------------------------------------------- at a Discord table
# The policy the session layer plays an empty seat with (``GameDescriptor.computers``).

# Like a person at the table: most placements are remembered, some buried masks are not, and a
# Stop! on a match it remembers comes after a human reaction, well inside the default 3 s grace.
KABUKI_TEMPER = Temper(memory=0.8, reaction_ms=(400, 1200))


def _remembering(seat: int, seed: int, memory: Memory | None) -> ComputerPlayer:
    """A Discord seat's computer, with what it remembered so far (kept with the session)."""
    player = ComputerPlayer(seat, seed, KABUKI_TEMPER)
    if memory:
        player.stacks = [list(stack) for stack in memory]
    return player


def plan(
    view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Memory | None
) -> Plan | None:
    """Presses Stop! when the card just placed matches one it remembers under it on that stack;
    otherwise places the card on show where it remembers the fewest copies (and forgot least)."""
    player = _remembering(view["seat"], rng.getrandbits(64), memory)
    window = view.get("stop_window")
    stops = [a for a in legal if a["type"] == "stop"]
    if stops and window is not None:
        delay = player.stop_delay(window["placer"], window["stack"])
        if delay is not None:
            return delay, stops[0]
    places = {a["stack"]: a for a in legal if a["type"] == "place"}
    current = view.get("current")
    if not places or current is None:
        return None
    return rng.randint(1500, 4000), places[player.choose_stack(current["card"])]


def observe(seat: int, seed: int, memory: Memory | None, public: Sequence[Event]) -> Memory:
    """What seat ``seat`` remembers after seeing the ``public`` events, forgetting as the
    simulator's players do."""
    player = _remembering(seat, seed, memory)
    player.observe_all(public)
    return player.stacks
