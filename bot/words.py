"""Words shared by every printed count, so no board says "1 cards"."""

from __future__ import annotations

# The longest per-turn timer a game offers, in seconds: a day, for slow servers.
LONGEST_TURN_S = 86_400


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word agreeing with it: ``plural(1, "card")`` is "1 card", ``plural(2, "card")``
    "2 cards"; give ``many`` where adding an s is wrong ("match", "matches") or the word does not
    change ("VP", "VP")."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def duration(ms: int) -> str:
    """A timer as members read it: "45 s", "0.25 s", "90 s", "10 min", "1 h 30 min", "24 h" (under
    an hour, a time that is no whole number of minutes stays in seconds, as the options take it)."""
    seconds = ms / 1000
    if seconds < 60 or (seconds < 3600 and seconds % 60):
        return f"{seconds:g} s"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [(hours, "h"), (minutes, "min"), (secs, "s")]
    return " ".join(f"{n} {unit}" for n, unit in parts if n)
