"""The small protocol every game engine speaks.

An engine is pure: no discord, asyncio, wall clock or global random. Players are seats
0..n-1; the session layer maps seats to Discord members. Time is an integer count of
milliseconds handed in by the caller (a press's snowflake timestamp, or the clock when a
timer fires), so any timing rule can be scripted in a test.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

Action = Mapping[str, Any]
"""An action is plain data, e.g. ``{"type": "place", "stack": 2}``."""


def N_(message: str) -> str:
    """Marks an engine's message (a refusal's id) for the catalogue extractor (bot/i18n/extract.py)
    and returns it: engines stay free of Babel and of any language."""
    return message


_FIELD = re.compile(r"\{(\w+)\}")


class IllegalAction(Exception):
    """Raised by ``apply`` when an action is not allowed now, and shown to the player privately.

    ``message`` is a message id: the English text with ``{fields}``, ``N_``-marked where the
    engine writes it (``IllegalAction(N_("Wait {seconds} s."), seconds=1.5)``); the session
    layer shows it in the presser's language (``bot.i18n.t(locale, message, **fields)``).
    ``reason`` is the English with its fields filled in (logs, replays' errors, tests). An engine
    not converted yet passes finished English and no fields: it is shown as it is."""

    def __init__(self, message: str, **fields: Any) -> None:
        reason = (
            _FIELD.sub(lambda m: str(fields[m[1]]) if m[1] in fields else m[0], message)
            if fields
            else message
        )
        super().__init__(reason)
        self.message = message
        self.fields = fields
        self.reason = reason


# Not frozen: engines make several events per move, and a frozen dataclass's __init__ costs about
# three times as much (0.8 µs against 0.25 µs; ~2 ms of a 16-player Kingdom game).
@dataclass(slots=True)
class Event:
    """Something that happened. ``to`` lists the seats allowed to see it; ``None`` means everyone."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True)
class Result:
    """The final outcome: one score per seat and the winning seats (ties share the victory)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)


class Dice:
    """Seeded randomness that survives a JSON round trip.

    Each draw seeds a fresh generator from ``(seed, draws)``, so the whole random state is two
    integers: a restored game continues with exactly the draws it would have made.
    """

    __slots__ = ("seed", "draws")

    def __init__(self, seed: int, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws

    def _next(self) -> random.Random:
        rng = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return rng

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        self._next().shuffle(out)
        return out

    def randrange(self, stop: int) -> int:
        return self._next().randrange(stop)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.randrange(len(items))]

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> Dice:
        return cls(int(data["seed"]), int(data["draws"]))


class GameEngine(ABC):
    """Base class of the three games (and of the test-only game in ``tests/``).

    Life cycle: ``new`` → any number of ``apply`` (player actions) and ``advance`` (time
    passing) → ``is_over`` → ``result``. ``to_json``/``from_json`` round-trip the whole state;
    a restored engine must continue exactly as the original would.
    """

    kind: ClassVar[str]  # short id used in commands, storage and custom_ids: "kabuki"
    title: ClassVar[str]  # display name: "Kabuki"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    lower_score_wins: ClassVar[bool] = False  # Death Over the Kingdom counts tokens against you

    @classmethod
    @abstractmethod
    def new(cls, players: int, seed: int, options: Mapping[str, Any], now: int) -> Self:
        """Set up a game for ``players`` seats. Raise ValueError for a bad count or option."""

    @abstractmethod
    def apply(self, seat: int, action: Action, now: int) -> list[Event]:
        """Apply one player's action made at ``now`` (ms); raise IllegalAction to refuse it."""

    def advance(self, now: int) -> list[Event]:
        """Let time pass up to ``now``: fire every deadline that is due. Default: no timers."""
        return []

    def next_deadline(self) -> int | None:
        """When ``advance`` next has something to do (ms), or None."""
        return None

    @abstractmethod
    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action ``seat`` may take right now (empty when it may do nothing)."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: the public, i.e. what the board may show)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON-serializable data."""

    def to_save(self) -> dict[str, Any]:
        """The state as saved after every press (bot.session.sessions): ``from_json`` must restore it
        once its ``"log"`` is back in it. An engine may leave out what follows from the log and
        never changes, so a save does not grow with the game. Default: the whole state."""
        return self.to_json()

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild an engine saved with ``to_json`` or ``to_save``."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """The final result; only valid once ``is_over``."""

    @classmethod
    def players_range(cls, options: Mapping[str, Any]) -> tuple[int, int]:
        """The fewest and most players ``options`` allow: what a lobby counts towards and when its
        Start works. Default: the game's own range, whatever the options."""
        return cls.min_players, cls.max_players

    @classmethod
    def check_players(cls, players: int) -> None:
        if not cls.min_players <= players <= cls.max_players:
            raise ValueError(f"{cls.title} needs {cls.min_players}–{cls.max_players} players, not {players}.")
