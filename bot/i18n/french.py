"""French elision before a member's name: "Stats d'anna", "la carte d'**Émile**", never "de
anna". A name is any member's display name, so the catalogue cannot write the elision itself: a
field given as a ``Name`` is checked when ``t`` fills it in, and a French "de", "le" or "la" just
before it (markdown such as ``**`` between them is looked past) is elided when the name starts
with a vowel or a mute h (a, e, i, o, u, y, h, and their accented forms, any case; the first
letter past the name's own markdown). Other languages, and other fields, are left as written.
"""

from __future__ import annotations

import re
import unicodedata

# The characters of Discord's markdown a name or the text before it may open with.
MARKUP = "*_~`|"
# "de", "le" or "la" as a whole word at the end of the text before a field, with the markup
# that opens the field after it: "la carte de **" → ("d", "**").
_BEFORE = re.compile(r"(?<![\w'’])([dl])[ea] ([" + re.escape(MARKUP) + r"]*)$", re.IGNORECASE)
_VOWELS = frozenset("aeiouyhæœ")


class Name(str):
    """A member's name (or several, joined) as a message's field: in French, the "de", "le" or
    "la" the translation puts before it is elided when it starts with a vowel or an h."""

    __slots__ = ()


def elides(name: str) -> bool:
    """Whether French elides before ``name``: its first letter (past markdown) is a vowel, y or
    h, accented or not, in any case."""
    letters = name.lstrip(MARKUP)
    if not letters:
        return False
    first = unicodedata.normalize("NFD", letters[0])[0].lower()
    return first in _VOWELS


def de(name: str) -> str:
    """French "de" and ``name``: "d'anna", "d'**Émile**", "de Bob"."""
    return elided("de ", name) + name


def elided(before: str, name: str) -> str:
    """``before``, the text just before the field ``name``, with its last "de", "le" or "la"
    elided if ``name`` asks it: "la carte de **" → "la carte d'**" before "anna"."""
    if not elides(name):
        return before
    return _BEFORE.sub(lambda found: f"{found.group(1)}'{found.group(2)}", before, count=1)


__all__ = ["MARKUP", "Name", "de", "elided", "elides"]
