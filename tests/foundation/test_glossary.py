"""Each language's glossary (``bot/locales/<code>/glossary.toml``): one word for each of the
games' and the bot's terms, used by every message of that language. A term said one way on the
board and another in ``/help`` is a failure here, naming the message."""

from __future__ import annotations

import re
import tomllib

import pytest
from babel.messages.pofile import read_po

from bot.i18n import DEFAULT, shipped
from bot.i18n.catalogues import LOCALE_DIR, po_files

LANGUAGES = [code for code in shipped() if code != DEFAULT]
# What is not words: {fields}, `code` (commands, file names), Discord markup (<t:…>, <@…>), links.
NOT_WORDS = re.compile(r"\{\w+\}|`[^`]*`|<[^>\s]*>|https?://\S+")


def glossary(code: str) -> list[dict]:
    with open(LOCALE_DIR / code / "glossary.toml", "rb") as file:
        return tomllib.load(file)["term"]


def messages(code: str):
    """(area, every English form, every translated form) of each message of a language."""
    for path in po_files(code):
        with open(path, "rb") as file:
            for message in read_po(file, locale=code):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                yield path.stem, ids, strings


def uses(term: dict, english: str) -> bool:
    english = NOT_WORDS.sub(" ", english)
    for phrase in term.get("other_sense", []):  # as written: "mime" the verb, not "Mime" the role
        english = re.sub(rf"\b{re.escape(phrase)}\b", " ", english)
    word = re.escape(term["en"])
    return re.search(rf"\b{word}(e?s)?\b", english, re.IGNORECASE) is not None


def misused(code: str) -> list[str]:
    return misused_in(code, glossary(code), messages(code))


def misused_in(code: str, terms: list[dict], catalogue) -> list[str]:
    found = []
    for area, ids, strings in catalogue:
        said = NOT_WORDS.sub(" ", " ".join(strings)).casefold()
        for term in terms:
            if term.get("areas") and area not in term["areas"]:
                continue
            words = [term[code], *term.get("forms", [])]
            if any(uses(term, english) for english in ids) and not any(w.casefold() in said for w in words):
                found.append(
                    f"{area}: {term['en']!r} is not {term[code]!r} in {ids[0][:70]!r} → {strings[0][:90]!r}"
                )
    return found


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_shipped_language_has_a_glossary_of_the_same_terms(code):
    terms = glossary(code)
    assert [term["en"] for term in terms] == [term["en"] for term in glossary(LANGUAGES[0])]
    for term in terms:
        assert term[code].strip() and set(term) <= {"en", code, "forms", "areas", "other_sense", "note"}, term


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_says_each_term_in_the_glossarys_word(code):
    assert misused(code) == []


def test_the_check_finds_a_term_said_another_way():
    term = {"en": "seed", "de": "Startwert"}
    assert uses(term, "Shuffle: seed {seed}") and uses(term, "the SEEDS") and not uses(term, "seedless")
    assert not uses(term, "{seed} only") and not uses(term, "`python -m bot seed`")
    mime = {"en": "Mime", "other_sense": ["mime", "mimes"]}
    assert uses(mime, "the Mime mimes") and not uses(mime, "mime a face; she mimes")
    german = [{"en": "seed", "de": "Startwert"}]
    assert misused_in("de", german, [("general", ("seed {seed}",), ("Seed {seed}",))]) == [
        "general: 'seed' is not 'Startwert' in 'seed {seed}' → 'Seed {seed}'"
    ]
