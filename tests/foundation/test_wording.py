"""Words a native speaker trusts (issue 27): what German and French members stumbled on, as they
read it now, and /help telling every member where the bot's language is chosen."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from shown import card

from bot.i18n import t, tn
from bot.i18n.catalogues import po_files

KINGDOM_TURNS = [
    "End of round: turns if a King is in play.",
    "End of round: turns if a Princess is in play.",
    "End of round: every Dragon in play turns.",
]


def translations(code: str) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in po_files(code))


def test_german_cards_are_turned_over_not_turning_round():
    assert t("de", KINGDOM_TURNS[1]) == "Rundenende: wird umgedreht, wenn eine Prinzessin im Spiel ist."
    assert all("umgedreht" in t("de", text) for text in KINGDOM_TURNS)
    assert "wendet sich" not in translations("de") and "gewendet" not in translations("de")


def test_french_stats_say_when_a_member_joins_the_ranking():
    games = tn("fr", "{n} rated game", "{n} rated games", 2)
    assert t("fr", "{games}, ranked after {n}", games=games, n=3) == "2 parties classées, au classement dès 3"


def test_french_has_no_rare_words_nor_a_players_gender():
    said = translations("fr")
    assert "devineur" not in said and "pressé" not in said
    assert "a-t-il" not in said and "a été le plus rapide" not in said and "a été tiré" not in said
    asked = t(
        "fr",
        "✋ **Stop!** is open on stack {stack}: did **{placer}** cover the same mask?",
        stack=2,
        placer="clara",
    )
    assert (
        asked
        == "✋ **Stop!** est possible sur la pile 2 : la carte de **clara** a-t-elle recouvert le même masque ?"
    )
    assert t("fr", "every guesser slapped a tile") == "tous les autres joueurs ont frappé une tuile"


def test_french_puts_a_space_before_the_colon_of_a_replay_step():
    assert t("fr", "{where}: {what}", where="Étape **2 / 137**", what="…") == "Étape **2 / 137** : …"


@pytest.mark.parametrize(
    ("code", "settings"),
    [
        (
            "en-US",
            "`/settings [computers-rated:] [champion-role:] [clear-champion-role:] [turn-pings:] [language:]`",
        ),
        ("de", "[zug-erinnerung:] [sprache:]` — "),
        ("fr", "[rappels-de-tour:] [langue:]` — "),
    ],
)
async def test_help_says_where_the_bots_language_is_chosen(world, locales, code, settings):
    alice = world.members[0]
    locales.members[alice.id] = code
    text = card((await alice.slash(world.channel, "help")).response).description
    assert settings in text
    meaning = {
        "en-US": "the language of boards and announcements",
        "de": "die Sprache der Spielbretter und Ankündigungen",
        "fr": "la langue des plateaux et des annonces",
    }
    assert meaning[code] in text


NOT_WORDS = re.compile(r"\{\w+\}|`[^`]*`|<[^>\s]*>|https?://\S+|Stop!")  # Stop! is the game's name


def test_french_puts_a_space_before_every_colon_semicolon_and_mark():
    """French typography, as every French message already does it: "Étape **2 / 137** :"."""
    glued = []
    for path in po_files("fr"):
        with open(path, "rb") as file:
            for message in read_po(file, locale="fr"):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in strings if message.id else ():
                    said = NOT_WORDS.sub(" ", text)
                    glued += [
                        said[max(0, m.start() - 20) : m.end()] for m in re.finditer(r"\S[:;!?](\s|$)", said)
                    ]
    assert glued == []
