"""What the catalogue tooling takes for a message: the literal messages of the code's own
``t(...)``, ``tn(...)`` and ``N_(...)`` calls, never a subscript, an attribute or any other use of
a name that happens to be ``t``, whatever the installed Babel's extractor would take."""

from __future__ import annotations

from bot.i18n.extract import ROOT, code_messages, file_messages

MODULE = """
from bot.i18n import N_, t, tn

RULES = N_("The rules")
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
