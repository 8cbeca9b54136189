"""What the catalogue tooling takes for a message: the literal messages of the code's own
``t(...)``, ``tn(...)``, ``N_(...)`` and ``NN_(...)`` calls, never a subscript, an attribute or
any other use of a name that happens to be ``t``, whatever the installed Babel's extractor would
take; and how a language's file is brought up to date (``updated``)."""

from __future__ import annotations

from babel.messages.catalog import Catalog

from bot.i18n.extract import ROOT, code_messages, file_messages, updated

MODULE = """
from bot.i18n import N_, NN_, t, tn

RULES = N_("The rules")
SCORE = NN_("{n} tap", "{n} taps")
t = {"mime": 1, "card": 2}  # a dict that happens to be named t
turns = [{"mime": t["mime"], "card": t["card"]} for t in history]
first = t["started_at"] if t else t[0]
other.t(locale, "An attribute is somebody else's t")
tn["slaps"]


def board(locale, n, name):
    line = t(locale, "Your data") + t(locale, name)  # a message that is no literal: nothing to extract
    line += f"{name}: {t(locale, 'In an f-string')}"  # Babel's own reader missed these
    return line + tn(locale, "{n} card", "{n} cards", n, card=t["card"])
"""


def test_only_the_codes_calls_are_messages(tmp_path):
    module = tmp_path / "module.py"
    module.write_text(MODULE, encoding="utf-8")
    assert [message for message, _line in file_messages(module)] == [
        "The rules",
        ("{n} tap", "{n} taps"),
        "Your data",
        "In an f-string",
        ("{n} card", "{n} cards"),
    ]


def test_the_masks_records_dict_named_t_gives_no_message():
    # bot/games/masks/simulate.py reads each turn as t["mime"], t["card"]…: Babel 2.19's own
    # extractor took those keys for messages to translate.
    assert file_messages(ROOT / "bot" / "games" / "masks" / "simulate.py") == []
    subscripts = {"mime", "card", "started_at", "slaps", "races", "revealed_at", "scorer", "won", "removed"}
    assert not subscripts & {message for _area, message, _path, _line in code_messages()}


def german(*entries: tuple[str, str]) -> Catalog:
    catalog = Catalog(locale="de")
    for english, translation in entries:
        catalog.add(english, translation, context="command")
    return catalog


def template_of(*messages: str) -> Catalog:
    catalog = Catalog()
    for message in messages:
        catalog.add(message, context="command")
    return catalog


KABUKI = ("Open a Kabuki lobby in this channel", "Eine Kabuki-Lobby in diesem Kanal öffnen")


def test_a_new_message_is_never_given_another_messages_translation_as_a_guess():
    # A new game's command string beside Kabuki's, in the one commands area: Babel's matching
    # took Kabuki's German for it, marked fuzzy, so the translator did not see it as new.
    ring = "Open a Ring the Bell lobby in this channel"
    # The guess Babel makes by itself, which updated() does not keep:
    by_babel = german(KABUKI)
    by_babel.update(template_of(KABUKI[0], ring))
    assert by_babel.get(ring, "command").string == KABUKI[1]
    catalog = updated(german(KABUKI), template_of(KABUKI[0], ring), "de")
    found = catalog.get(ring, "command")
    assert not found.string and not found.fuzzy
    assert catalog.get(KABUKI[0], "command").string == KABUKI[1]


def test_a_reworded_message_keeps_the_old_translation_as_a_fuzzy_guess():
    old, new = "Pick 1, 2 or 3.", "Pick 1, 2, or 3."
    catalog = updated(
        german(("Pick 1, 2 or 3.", "Wähl 1, 2 oder 3."), KABUKI), template_of(new, KABUKI[0]), "de"
    )
    found = catalog.get(new, "command")
    assert found.string == "Wähl 1, 2 oder 3." and found.fuzzy and found.previous_id == [old]
    assert not catalog.obsolete  # the old message became the guess
    # Gone without a successor, it stays as an obsolete entry for the translator.
    dropped = updated(german(("Pick 1, 2 or 3.", "Wähl 1, 2 oder 3.")), template_of(KABUKI[0]), "de")
    assert [m.id for m in dropped.obsolete.values()] == [old]
    assert not dropped.get(KABUKI[0], "command").string
