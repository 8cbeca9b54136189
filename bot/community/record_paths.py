"""Where in a record a game's code was reading when the record turned out malformed.

A stranger's record can hold a value of the wrong kind anywhere (``"rounds": [{"actions": null}]``);
the game's code then fails with Python's words ("'NoneType' object has no attribute 'get'"),
which name no field. ``tracked`` copies the record into dicts and lists that remember the last
place read, so the failure can be said as the field it was reading: ``rounds[1].actions``.
The copies are real ``dict`` and ``list`` subclasses, so the games' code reads them unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


class _Trail:
    __slots__ = ("path",)

    def __init__(self) -> None:
        self.path: tuple[Any, ...] = ()


class _Object(dict):
    __slots__ = ("_at", "_trail")

    def __getitem__(self, key: Any) -> Any:
        self._trail.path = (*self._at, key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._trail.path = (*self._at, key)
        return super().get(key, default)


class _List(list):
    __slots__ = ("_at", "_trail")

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int):
            self._trail.path = (*self._at, index)
        return super().__getitem__(index)

    def __iter__(self) -> Iterator[Any]:
        for index, item in enumerate(super().__iter__()):
            self._trail.path = (*self._at, index)
            yield item


def tracked(rec: Any) -> Any:
    """``rec`` as dicts and lists that note each place read (``rec`` itself if already so)."""
    if isinstance(rec, (_Object, _List)):
        return rec
    return _copy(rec, (), _Trail())


def _copy(value: Any, at: tuple[Any, ...], trail: _Trail) -> Any:
    if isinstance(value, dict):
        made: Any = _Object((key, _copy(item, (*at, key), trail)) for key, item in value.items())
    elif isinstance(value, list):
        made = _List(_copy(item, (*at, index), trail) for index, item in enumerate(value))
    else:
        return value
    made._at, made._trail = at, trail
    return made


# What the failing operation wanted, read from Python's message: enough to say "not an object".
_WANTED = {
    "has no attribute 'get'": "an object",
    "has no attribute 'items'": "an object",
    "has no attribute 'keys'": "an object",
    "not iterable": "a list",
    "has no len()": "a list",
    "not subscriptable": "a list or an object",
    "indices must be integers": "a list",
    "not supported between": "a number",
    "unsupported operand": "a number",
    "cannot be interpreted as an integer": "a whole number",
    "unhashable": "a number or a string",
}


def where_wrong(rec: Any, error: Exception) -> str:
    """The malformed place ``error`` met in a ``tracked`` record, in words ("" if untracked)."""
    trail = getattr(rec, "_trail", None)
    if trail is None or not trail.path or isinstance(error, ValueError):
        return ""  # a ValueError is a game refusing a value in its own words: better than a place
    value: Any = rec
    for step in trail.path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            value = None
            break
    if isinstance(error, KeyError):
        return f"the record is incomplete: {_place(trail.path[:-1])} has no {error.args[0]!r} where the game needs one"
    if isinstance(error, IndexError):
        return f"the record is incomplete: {_place(trail.path[:-1])} is shorter than the game needs"
    place = _place(trail.path)
    wanted = next((kind for words, kind in _WANTED.items() if words in str(error)), "")
    shown = json.dumps(value, default=str)
    shown = shown if len(shown) <= 40 else shown[:37] + "…"
    if wanted:
        return f"the record has a value of the wrong kind at {place}: {shown}, where the game reads {wanted}"
    return f"the record has a value the game cannot read at {place}: {shown}"


def _place(path: tuple[Any, ...]) -> str:
    """``("rounds", 0, "actions")`` → ``rounds[1].actions`` (items counted from 1, as people do)."""
    text = ""
    for step in path:
        text += f"[{step + 1}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return f'"{text}"' if text else "the record"
