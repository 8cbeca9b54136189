"""The one font every picture draws with, and what it can draw.

Pillow's built-in font lacks characters the pictures use (the Kabuki board's "—" came out as a
missing-glyph box), so the bot ships DejaVu Sans (``bot/assets/fonts``, with its licence).
Player names are user input and may hold characters no shipped font has (emoji, CJK): ``drawable``
turns those into "?" instead of boxes. Which characters the font has is read from its own
character map, the table the renderer looks them up in.

How small a picture's words may be drawn follows from how Discord shows it: ``smallest_size``.
"""

from __future__ import annotations

import math
import struct
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

from PIL import ImageFont

FONT_FILE = Path(__file__).parent.parent / "assets" / "fonts" / "DejaVuSans.ttf"
MISSING = "?"
# Marks and format characters (a variation selector, a zero-width joiner) take no room of their
# own: where the font lacks one, it is left out rather than shown as a "?".
_SILENT = frozenset({"Mn", "Me", "Cf"})


# Discord shows an embed's picture at most about this many pixels wide on desktop (smaller on a
# phone), and a narrower one as drawn (never enlarged); its words must still read there.
SHOWN_WIDTH = 400
# The smallest text, in pixels as shown, that reads: a picture's every word is at least this big
# once Discord has shrunk it.
SHOWN_SMALLEST = 11


def smallest_size(width: int) -> int:
    """The smallest font size, in the picture's own pixels, for a word on a picture ``width``
    pixels wide: ``SHOWN_SMALLEST`` scaled by how much Discord shrinks it (width / 400). An
    800-pixel picture shows at half size, so its words need 22 pixels; a card 240 wide, 11."""
    return math.ceil(SHOWN_SMALLEST * max(1.0, width / SHOWN_WIDTH) - 1e-9)


@dataclass(frozen=True)
class Words:
    """One line of words as a picture draws it: centred on ``at`` at ``size`` pixels, inside
    ``box`` (left, top, right, bottom), the room it has: what a test measures it against."""

    text: str
    size: int
    at: tuple[float, float]
    box: tuple[float, float, float, float]
    fill: Any = None  # its colour


def fitted(text: str, size: int, least: int, width: float, lines: int = 1) -> tuple[int, list[str]]:
    """``text`` as it fits ``width`` pixels: at ``size`` on one line if it can, else wrapped at its
    spaces onto at most ``lines`` lines, else both again a pixel smaller, never below ``least``
    (where it may still be too wide: a test of the picture says so). The size and the lines."""
    for at in range(size, least - 1, -1):
        measure = font(at).getlength
        for count in range(1, lines + 1):
            wrapped = _wrapped(text, count, measure)
            if wrapped is not None and all(measure(line) <= width for line in wrapped):
                return at, wrapped
    return least, [text]


def _wrapped(text: str, count: int, measure) -> list[str] | None:
    """``text`` cut at its spaces into ``count`` lines, the widest as narrow as can be; None when
    it has too few words."""
    words = text.split()
    if count == 1 or len(words) < count:
        return [text] if count == 1 else None
    best: list[str] | None = None
    for cuts in combinations(range(1, len(words)), count - 1):
        edges = (0, *cuts, len(words))
        lines = [" ".join(words[a:b]) for a, b in pairwise(edges)]
        if best is None or max(map(measure, lines)) < max(map(measure, best)):
            best = lines
    return best


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The pictures' font at ``size`` pixels. Shared by every picture, also from worker threads:
    Pillow holds the GIL while FreeType draws, so one font object serves them all."""
    return ImageFont.truetype(str(FONT_FILE), size)


@cache
def characters() -> frozenset[int]:
    """Every code point the font maps to a glyph of its own."""
    return _cmap(FONT_FILE.read_bytes())


def missing(text: str) -> set[str]:
    """The characters of ``text`` the font would draw as a missing-glyph box."""
    have = characters()
    return {c for c in text if ord(c) not in have}


def drawable(text: str) -> str:
    """``text`` with each character the font lacks shown as "?" (or left out, for a mark or a
    joiner), so a player's name never draws as boxes."""
    have = characters()
    if all(ord(c) in have for c in text):
        return text
    return "".join(
        c if ord(c) in have else ("" if unicodedata.category(c) in _SILENT else MISSING) for c in text
    )


def _cmap(data: bytes) -> frozenset[int]:
    """The code points of a TrueType font's Unicode character map (a format 12 subtable, which
    covers every plane, or else a format 4 one, the Basic Multilingual Plane)."""
    (tables,) = struct.unpack_from(">H", data, 4)
    for i in range(tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            break
    else:
        raise ValueError("the font has no character map")
    (count,) = struct.unpack_from(">H", data, offset + 2)
    subtables: dict[int, dict[tuple[int, int], int]] = {4: {}, 12: {}}
    for i in range(count):
        platform, encoding, at = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        (form,) = struct.unpack_from(">H", data, offset + at)
        if form in subtables:
            subtables[form][(platform, encoding)] = offset + at
    unicode = ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3))
    for form, read in ((12, _format12), (4, _format4)):
        found = [subtables[form][key] for key in unicode if key in subtables[form]]
        if found:
            return read(data, found[0])
    raise ValueError("the font has no Unicode character map")


def _format12(data: bytes, at: int) -> frozenset[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    codes: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        codes.update(range(start + (glyph == 0), end + 1))  # glyph 0 is the missing-glyph box
    return frozenset(codes)


def _format4(data: bytes, at: int) -> frozenset[int]:
    (segments2,) = struct.unpack_from(">H", data, at + 6)
    n = segments2 // 2
    ends = struct.unpack_from(f">{n}H", data, at + 14)
    starts = struct.unpack_from(f">{n}H", data, at + 16 + segments2)
    deltas = struct.unpack_from(f">{n}h", data, at + 16 + 2 * segments2)
    range_at = at + 16 + 3 * segments2
    offsets = struct.unpack_from(f">{n}H", data, range_at)
    codes: set[int] = set()
    for i, (start, end, delta, offset) in enumerate(zip(starts, ends, deltas, offsets, strict=True)):
        for code in range(start, end + 1):
            if code == 0xFFFF:
                continue
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(">H", data, range_at + 2 * i + offset + 2 * (code - start))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return frozenset(codes)
