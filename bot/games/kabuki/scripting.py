"""Scripted deals for tests (here and in the Discord layer): fix the deck order and first player.

Only call these at the start of a round (before its first placement); the replay log is updated
too, so a scripted game still replays and passes ``replay.check_log``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.games.kabuki.engine import COPIES, MASK_KINDS, KabukiEngine


def full_deck(prefix: Sequence[int]) -> list[int]:
    """``prefix`` followed by the remaining cards of a 10 x 5 deck in mask order."""
    left = Counter({m: COPIES for m in range(MASK_KINDS)})
    left.subtract(prefix)
    if any(n < 0 for n in left.values()) or any(not 0 <= m < MASK_KINDS for m in prefix):
        raise ValueError(f"a deck holds {COPIES} copies of masks 0-{MASK_KINDS - 1}: {list(prefix)}")
    return list(prefix) + [m for m in range(MASK_KINDS) for _ in range(left[m])]


def script_round(engine: KabukiEngine, prefix: Sequence[int], first: int | None = None) -> None:
    """Make the current round deal ``prefix`` first (rest in mask order), starting with ``first``."""
    if engine.pos != 0:
        raise ValueError("script a round before its first placement")
    engine.deck = full_deck(prefix)
    header = engine.log[-1]
    assert header["e"] == "round" and header["round"] == engine.round
    header["deck"] = list(engine.deck)
    if first is not None:
        engine.active = first
        header["first"] = first
