"""Words shared by every printed count, so no board says "1 cards"."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word agreeing with it: ``plural(1, "card")`` is "1 card", ``plural(2, "card")``
    "2 cards"; give ``many`` where adding an s is wrong ("match", "matches") or the word does not
    change ("VP", "VP")."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
