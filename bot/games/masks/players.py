"""Computer players for Island of Monster Masks, and a table that plays a whole game with them.

A computer guesser cannot watch a Mime, so "reading the Mime" is modelled as a probability:
with probability ``skill`` it aims at the secret card's tile (if that tile is still free),
otherwise at a random free tile. Its press lands ``reaction_ms`` ± ``jitter_ms`` after it
starts looking, so two guessers aiming at the same tile produce a real timestamp race.
Seeded ``random.Random`` is fine here: only the engine must stay free of it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.masks.engine import MasksEngine


@dataclass
class ComputerGuesser:
    seat: int
    rng: random.Random
    skill: float = 0.6
    reaction_ms: int = 1500
    jitter_ms: int = 500

    def delay(self) -> int:
        """Milliseconds from looking at the board to the press landing (never zero: no psychics)."""
        return max(1, self.reaction_ms + self.rng.randint(-self.jitter_ms, self.jitter_ms))

    def pick(self, card: int, free: list[int]) -> int:
        """The tile to slap: the right one with probability ``skill`` (if free), else a random free one."""
        if self.rng.random() < self.skill and card in free:
            return card
        others = [t for t in free if t != card] or free
        return self.rng.choice(others)


@dataclass
class TableStats:
    slaps: int = 0
    races: int = 0  # races with more than one press
    lost: int = 0  # presses that lost a race


def play_game(
    players: int,
    seed: int,
    *,
    skill: float = 0.6,
    reaction_ms: int = 1500,
    jitter_ms: int | None = None,
    options: Mapping[str, Any] | None = None,
    start: int = 0,
) -> tuple[MasksEngine, TableStats]:
    """Play one whole game with computer guessers (the computer Mime never ends guessing early).

    Events are processed in time order: a press due before the engine's next deadline is
    applied first, otherwise the engine advances to that deadline. Presses are decided when they
    land, so a guesser sees the tiles taken up to that moment.
    """
    rng = random.Random(f"masks-table:{seed}")
    jitter = reaction_ms // 3 if jitter_ms is None else jitter_ms
    bots = [ComputerGuesser(seat, rng, skill, reaction_ms, jitter) for seat in range(players)]
    engine = MasksEngine.new(players, seed, options or {}, start)
    stats = TableStats()
    pending: dict[int, int] = {}  # seat -> when its next press lands

    def look(events: list[Any], now: int) -> None:
        for event in events:
            if event.kind == "turn_started":
                pending.clear()
                for seat in engine.guessers():
                    pending[seat] = now + bots[seat].delay()
            elif event.kind == "race_lost":
                seat = event.to[0]
                pending[seat] = now + bots[seat].delay()
                stats.lost += 1
            elif event.kind == "tile_taken":
                if event.data["rivals"]:
                    stats.races += 1
            elif event.kind == "reveal":
                pending.clear()

    look(engine.turn_events(), start)
    while not engine.is_over:
        deadline = engine.next_deadline()
        assert deadline is not None
        at, seat = min([(when, who) for who, when in pending.items()], default=(deadline, -1))
        if seat >= 0 and at < deadline:
            del pending[seat]
            assert engine.card is not None
            tile = bots[seat].pick(engine.card, engine.free_tiles())
            engine.apply(seat, {"type": "slap", "tile": tile}, at)
            stats.slaps += 1
        else:
            look(engine.advance(deadline), deadline)
    return engine, stats
