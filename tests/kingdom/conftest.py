"""Scripted tables for Death Over the Kingdom: fixed deals so every rule can be checked by hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.games.kingdom.cards import CHARACTERS, COPIES
from bot.games.kingdom.engine import KingdomEngine


def rigged(hands: Sequence[int], deck: Sequence[int] = ()) -> list[int]:
    """A whole 26-card deal: ``hands`` in play order, then ``deck`` from the top, then the rest."""
    left = [c for c in range(len(CHARACTERS)) for _ in range(COPIES)]
    for c in [*hands, *deck]:
        left.remove(c)
    return [*hands, *deck, *left]


Table = Callable[..., KingdomEngine]


@pytest.fixture
def table() -> Table:
    """``table(hands, deck=(), mode="classic", more=[(hands, deck), ...], **options)``.

    The dealer is scripted: the last seat unless a ``dealer`` option says otherwise (a real
    game draws it), so by default ``hands`` is also in seat order. ``more`` rigs the following
    rounds. There is no turn timer unless ``turn_ms`` is given.
    """

    def make(
        hands: Sequence[int],
        deck: Sequence[int] = (),
        mode: str = "classic",
        players: int | None = None,
        more: Sequence[tuple[Sequence[int], Sequence[int]]] = (),
        **options: Any,
    ) -> KingdomEngine:
        decks = [rigged(hands, deck), *(rigged(h, d) for h, d in more)]
        count = players or len(hands)
        opts = {"mode": mode, "turn_ms": 0, "decks": decks, "dealer": count - 1, **options}
        return KingdomEngine.new(count, 7, opts, 0)

    return make


# ------------------------------------------------------------------ Discord (SimCord) helpers
@pytest.fixture
def simcord_bot(make_bot):

    return make_bot(["kingdom"])
