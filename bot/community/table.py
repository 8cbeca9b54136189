"""A table in a code block, as /leaderboard shows its page: columns aligned in Discord's monospace
font on a phone and a desktop alike, in an embed's description.

Monospace aligns only what it draws one column wide. A member's name may hold characters drawn
two columns wide (CJK, most emoji) or none (accents, joiners, variation selectors), and how wide
an emoji sequence is drawn differs between clients, so no padding can align what follows a name.
Decision: the name is the last column. Every other column holds digits and the bot's own words,
padded by their width in columns (``columns``); the name only has to end the line, and is cut with
"…" at ``name_columns`` (counting a wide character as two), so the line stays short enough not to
wrap on a desktop. See docs/standings.md, *The leaderboard's table*.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

FENCE = "```"
ELLIPSIS = "…"


def columns(text: str) -> int:
    """How many monospace columns ``text`` takes: two for a wide or full-width character (CJK,
    most emoji), none for a mark or a format character (accents, joiners, variation selectors),
    one for the others."""
    total = 0
    for c in text:
        if unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return total


def clipped(text: str, most: int) -> str:
    """``text`` in at most ``most`` columns: cut, with "…", where it is longer."""
    if columns(text) <= most:
        return text
    kept = ""
    for c in text:
        if columns(kept + c) > most - 1:
            break
        kept += c
    return kept.rstrip() + ELLIPSIS


def plain(name: str) -> str:
    """A member's name as a code block shows it: Markdown is shown as typed there, but a backtick
    would end the block (it becomes "ˋ", which looks alike) and a line break or a tab would break
    the row (they become spaces)."""
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in name).replace("`", "ˋ")
    return " ".join(text.split())


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * (width - columns(text))
    return space + text if right else text + space


def table(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool], name_columns: int
) -> str:
    """``rows`` under ``header`` as a code block, two spaces between columns. Every column but the
    last is padded to its widest cell (``right``: aligned to the right, for numbers); the last,
    the name, ends the line and is cut at ``name_columns``."""
    cells = [list(header), *([*row[:-1], clipped(plain(row[-1]), name_columns)] for row in rows)]
    widths = [max(columns(line[i]) for line in cells) for i in range(len(header) - 1)]
    lines = [
        "  ".join(
            [*(_pad(cell, w, r) for cell, w, r in zip(line[:-1], widths, right, strict=True)), line[-1]]
        )
        for line in cells
    ]
    return "\n".join([FENCE, *(line.rstrip() for line in lines), FENCE])


def width_before_name(header: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The columns a table's lines take before its last column (the name), separators included."""
    cells = [list(header), *(list(row) for row in rows)]
    return sum(max(columns(line[i]) for line in cells) + 2 for i in range(len(header) - 1))
