"""A fair race between near-simultaneous presses.

Discord delivers interactions only roughly in order, so the first press to *arrive* opens a
short collection window; every press received while it is open competes, and the earliest
Discord timestamp (the interaction snowflake's millisecond) wins, whatever the arrival order.
Equal timestamps fall back to arrival order. Engines own a ``Race`` in their state and close
it from ``advance`` once ``closes_at`` has passed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Entry:
    seat: int
    at: int  # Discord timestamp of the press, ms


@dataclass
class Race:
    closes_at: int
    entries: list[Entry] = field(default_factory=list)

    @classmethod
    def open(cls, seat: int, at: int, window_ms: int) -> Race:
        return cls(closes_at=at + window_ms, entries=[Entry(seat, at)])

    def has(self, seat: int) -> bool:
        return any(e.seat == seat for e in self.entries)

    def add(self, seat: int, at: int) -> None:
        self.entries.append(Entry(seat, at))

    def ranking(self) -> list[Entry]:
        """Entries fastest first; ``sorted`` is stable, so ties keep arrival order."""
        return sorted(self.entries, key=lambda e: e.at)

    def winner(self) -> Entry:
        return self.ranking()[0]

    def losers(self) -> list[tuple[Entry, int]]:
        """Each beaten entry with the milliseconds by which the winner beat it."""
        ranked = self.ranking()
        return [(e, e.at - ranked[0].at) for e in ranked[1:]]

    def to_json(self) -> dict[str, Any]:
        return {"closes_at": self.closes_at, "entries": [[e.seat, e.at] for e in self.entries]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Race | None:
        if data is None:
            return None
        return cls(int(data["closes_at"]), [Entry(int(s), int(a)) for s, a in data["entries"]])
