"""A pseudo-locale for tests: "en-XA", every catalogue message's English with each letter
accented and the whole wrapped in ⟦…⟧, its {fields} and Discord markup (<@id>, <t:…:R>) kept.

Render a screen in it and any plain English word left must have bypassed the catalogue: that is
what ``untranslated`` finds. The ⟦…⟧ also show where one message ends and the next begins, and
the accents make every message a little longer, like most translations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n.catalogues import compiled, install, uninstall

PSEUDO = "en-XA"
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥɋŕšťúʋŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤɊŔŠŤÚṼŴẊÝŽ",
)
# Kept as they are: a field to fill in, Discord's own markup, an address.
_KEEP = re.compile(r"\{\w+\}|<[^<>\s]+>|https?://\S+")


def pseudo_text(message: str) -> str:
    out, end = [], 0
    for kept in _KEEP.finditer(message):
        out += [message[end : kept.start()].translate(_ACCENTED), kept[0]]
        end = kept.end()
    out.append(message[end:].translate(_ACCENTED))
    return "⟦" + "".join(out) + "⟧"


def pseudo_catalogue(template_paths: Iterable[Path]) -> Translations:
    """The pseudo-locale's translations of every message in the templates (the areas' .pot)."""
    messages = []
    for path in template_paths:
        with open(path, "rb") as f:
            messages += list(read_po(f))
    catalog = Catalog(locale="en")  # English plural rules
    for message in messages:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            text: str | tuple[str, ...] = tuple(pseudo_text(form) for form in message.id)
        else:
            text = pseudo_text(message.id)
        catalog.add(message.id, text, context=message.context)
    return compiled(catalog, "en")


def install_pseudo() -> str:
    """Speak the pseudo-locale from now on (for members whose locale is ``PSEUDO``)."""
    from bot.i18n.extract import templates

    install(PSEUDO, pseudo_catalogue(templates()))
    return PSEUDO


def uninstall_pseudo() -> None:
    uninstall(PSEUDO)


# Data, not words: mentions, channels, roles, custom emoji, timestamps, addresses, hex digests.
_DATA = re.compile(r"<a?:\w+:\d+>|<[@#][!&]?\d+>|<t:\d+(?::\w)?>|https?://\S+|\b[0-9a-f]{8,}\b")
_WORD = re.compile(r"[^\W\d_]+")


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words in ``text`` rendered in the pseudo-locale: every letter a catalogue
    message put there is accented, so a word of two or more plain ASCII letters came from a
    string that bypassed the catalogue, unless it is data the caller ``allowed`` (members' names,
    a game's title where it is a proper name)."""
    ok = {word.casefold() for name in allowed for word in _WORD.findall(name)}
    words = _WORD.findall(_DATA.sub(" ", text))
    return [w for w in words if len(w) > 1 and w.isascii() and w.casefold() not in ok]
