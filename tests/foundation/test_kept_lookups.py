"""``t`` and ``tn`` keep what they looked up (bot/i18n/catalogues.py): what they give must be what
a fresh lookup gives, in every language, and must follow a catalogue installed or removed and a
game registered or unregistered with its own catalogue after the first lookup."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.games import registry
from bot.i18n import catalogues
from bot.i18n.catalogues import (
    catalogue,
    catalogue_locale,
    compiled,
    install,
    kept,
    number,
    po_files,
    t,
    tn,
    uninstall,
)

LANGUAGES = ("en", "de", "fr", "en-US", "es-ES")
FIELD = re.compile(r"\{(\w+)\}")


def fresh(locale: str, text: str, fields: dict[str, object]) -> str:
    """The fill as it was before lookups were kept: one regular expression over the text."""

    def value(name: str) -> str:
        field = fields[name]
        return number(locale, field) if isinstance(field, float) else str(field)

    return FIELD.sub(lambda m: value(m[1]) if m[1] in fields else m[0], text) if fields else text


def every_message() -> list[tuple[str, str | None]]:
    """(singular, plural or None) of every message of every area's German catalogue."""
    found = set()
    for path in po_files("de"):
        with open(path, "rb") as po:
            for message in read_po(po, locale="de"):
                if not message.id:
                    continue
                if isinstance(message.id, tuple):
                    found.add((message.id[0], message.id[1]))
                else:
                    found.add((message.id, None))
    return sorted(found, key=str)


def fields_of(*texts: str) -> dict[str, object]:
    """Values for all the fields but the last one named (left as it is, as ``t`` leaves a field
    it is not given), a float among them (written in the language's way)."""
    names = sorted({name for text in texts for name in FIELD.findall(text)})
    values: dict[str, object] = {name: f"<{name}>" for name in names[:-1]}
    if names[:-1]:
        values[names[0]] = 2.5
    return values


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_message_reads_as_a_fresh_lookup_twice_over(locale):
    found = catalogue(locale)
    for singular, plural in every_message():
        for _ in range(2):  # looked up, then kept
            if plural is None:
                fields = fields_of(singular)
                assert t(locale, singular, **fields) == fresh(locale, found.gettext(singular), fields)
                continue
            fields = {k: v for k, v in fields_of(singular, plural).items() if k != "n"}
            for n in (0, 1, 2, 5):
                expected = fresh(locale, found.ngettext(singular, plural, n), {"n": n, **fields})
                assert tn(locale, singular, plural, n, **fields) == expected


def test_a_stray_brace_and_a_field_not_given_stay_as_written():
    catalog = Catalog(locale="fr")
    catalog.add("{a} and {b} {", "{b} {{ puis {a}} et {c}")
    install("fr-TEST", compiled(catalog, "fr"))
    try:
        assert t("fr-TEST", "{a} and {b} {", a=1, b="x") == "x {{ puis 1} et {c}"
        assert t("fr-TEST", "{a} and {b} {") == "{b} {{ puis {a}} et {c}"
        assert t("fr-TEST", "{a} and {b} {", a=0.5) == "{b} {{ puis 0,5} et {c}"
    finally:
        uninstall("fr-TEST")


def test_a_catalogue_installed_or_removed_after_a_lookup_is_followed():
    assert t("xx-KEPT", "Your data") == "Your data"  # no such language: English, kept
    assert tn("xx-KEPT", "{n} card", "{n} cards", 1) == "1 card"
    catalog = Catalog(locale="de")
    catalog.add("Your data", "Deine Daten, gehalten")
    catalog.add(("{n} card", "{n} cards"), ("{n} Karte, gehalten", "{n} Karten, gehalten"))
    install("xx-KEPT", compiled(catalog, "de"))
    try:
        assert t("xx-KEPT", "Your data") == "Deine Daten, gehalten"
        assert tn("xx-KEPT", "{n} card", "{n} cards", 1) == "1 Karte, gehalten"
    finally:
        uninstall("xx-KEPT")
    assert t("xx-KEPT", "Your data") == "Your data"
    assert tn("xx-KEPT", "{n} card", "{n} cards", 1) == "1 card"


def test_a_game_registered_or_unregistered_after_a_lookup_is_followed():
    game = registry.get("oddoneout")  # the test game, with its own catalogue files
    message = "Pick 1, 2 or 3: a pick nobody else makes scores its value."
    german = "Wähl 1, 2 oder 3: Eine Zahl, die sonst niemand wählt, zählt ihren Wert."
    assert t("de", message) == german
    registry.unregister(game.id)
    try:
        assert t("de", message) == message  # its catalogue went with it
    finally:
        registry.register(game)
    assert t("de", message) == german


def test_what_is_kept_stays_bounded(monkeypatch):
    monkeypatch.setattr(catalogues, "_KEEP", 50)
    for i in range(500):  # a message can be text handed in, never the same twice
        assert t("de", f"handed in {i}: {{x}}", x=i) == f"handed in {i}: {i}"
        assert len(catalogues._kept_texts) <= 50
    assert t("de", "Your data") == "Deine Daten"


def test_a_kept_function_is_kept_per_arguments_and_forgotten_with_the_lookups():
    calls = []

    @kept
    def line(locale: str, n: int) -> str:
        calls.append((locale, n))
        return tn(locale, "{n} card", "{n} cards", n)

    assert [line("de", 1), line("de", 2), line("fr", 2), line("de", 1)] == [
        "1 Karte",
        "2 Karten",
        "2 cartes",
        "1 Karte",
    ]
    assert calls == [("de", 1), ("de", 2), ("fr", 2)]  # the second ("de", 1) was kept
    catalog = Catalog(locale="de")
    catalog.add(("{n} card", "{n} cards"), ("{n} Karte, neu", "{n} Karten, neu"))
    install("de-KEPT", compiled(catalog, "de"))
    try:
        assert line("de-KEPT", 2) == "2 Karten, neu"
        assert line("de", 1) == "1 Karte"  # looked up again: the catalogues changed
        assert calls[-1] == ("de", 1)
    finally:
        uninstall("de-KEPT")
    assert line("de-KEPT", 2) == "2 Karten"  # no such catalogue now: its language's, German


def test_which_catalogue_a_locale_reads_follows_a_catalogue_installed_or_removed():
    assert catalogue_locale("xx-CODE") == "en"  # kept
    install("xx-CODE", compiled(Catalog(locale="de"), "de"))
    try:
        assert catalogue_locale("xx-CODE") == "xx-CODE"
    finally:
        uninstall("xx-CODE")
    assert catalogue_locale("xx-CODE") == "en"
    assert catalogue_locale(["not", "hashable"]) == "en"
