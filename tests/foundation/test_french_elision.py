"""French elides "de", "le" and "la" before a member's name that starts with a vowel or an h
(bot.i18n.french): "Stats d'anna", "la carte d'**Émile**", never "Stats de anna". The helper
alone, ``t`` filling in a ``Name``, every board, private message, final board and replay step of
whole games in French whose players' names all start so, and /stats."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from language_checks import embed_text, item_texts
from random_games import random_steps
from shown import card

from bot.community.replays import log_record, steps
from bot.i18n import Name, t
from bot.i18n.french import de, elided, elides
from bot.session.sessions import PLAYING, Session

# Every name opens with a vowel, an accented one, a y or an h, in either case.
NAMES = {1: "anna", 2: "Émile", 3: "hugo", 4: "Yves", 5: "Ines", 6: "œdipe"}
NAMED = "|".join(map(re.escape, NAMES.values()))
# "de", "le" or "la" left whole before a name (markdown between them looked past).
UNELIDED = re.compile(rf"(?i)(?<![\w'’])(?:de|le|la)\s+[*_~`|]*(?:{NAMED})\b")
ELIDED = re.compile(rf"(?i)(?<![\w'’])[dl]'[*_~`|]*(?:{NAMED})\b")
TABLES = [("kabuki", 4, {}), ("masks", 3, {}), ("kingdom", 4, {"length": 2})]


@pytest.mark.parametrize(
    ("name", "elide"),
    [
        ("anna", True),
        ("Émile", True),
        ("hugo", True),
        ("Hélène", True),
        ("Yves", True),
        ("ÎLE", True),
        ("œdipe", True),
        ("Ünal", True),
        ("**anna**", True),
        ("__Oscar__", True),
        ("bob", False),
        ("Zoé", False),
        ("<@123>", False),
        ("🤖 Robo 1", False),
        ("**", False),
        ("", False),
    ],
)
def test_french_elides_before_a_vowel_or_an_h_looking_past_markdown(name, elide):
    assert elides(name) is elide
    assert de(name) == (f"d'{name}" if elide else f"de {name}")


def test_only_de_le_or_la_as_a_whole_word_right_before_the_name_is_elided():
    assert elided("la carte de **", "anna") == "la carte d'**"
    assert elided("De ", "anna") == "D'"
    assert elided("voir le ", "Hugo") == "voir l'"
    assert elided("à la ", "Inès") == "à l'"
    assert elided("le monde ", "anna") == "le monde "  # "de" inside a word
    assert elided("de la part de ", "bob") == "de la part de "
    assert elided("avec ", "anna") == "avec "


def test_t_elides_before_a_name_in_french_only():
    assert t("fr", "Stats for {name}", name=Name("anna")) == "Stats d'anna"
    assert t("fr", "Stats for {name}", name=Name("bob")) == "Stats de bob"
    assert t("fr", "**{name}**'s turn.", name=Name("Émile")) == "C'est au tour d'**Émile**."
    assert t("de", "Stats for {name}", name=Name("anna")) == "Statistik für anna"
    assert t("en", "Stats for {name}", name=Name("anna")) == "Stats for anna"


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["kabuki", "masks", "kingdom"])


def words(message: dict[str, Any]) -> str:
    """A private message's words (discord.py's send keyword arguments)."""
    embeds = message.get("embeds") or ([message["embed"]] if message.get("embed") is not None else [])
    items = message.get("items") or (message["view"].children if message.get("view") is not None else [])
    return "\n".join([message.get("content") or "", *map(embed_text, embeds), *item_texts(items)])


def board_words(board: Any) -> str:
    return "\n".join([board.content or "", embed_text(board.embed), *item_texts(board.items)])


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=[table[0] for table in TABLES])
async def test_whole_games_in_french_elide_before_every_name(simcord_env, kind, players, options):
    cog = simcord_env.bot.game_cogs[kind]
    options = {**cog.default_options(), **options}
    seated = dict(list(NAMES.items())[:players])
    texts: list[str] = []
    for seed in (3, 11):
        engine = cog.engine_cls.new(players, seed, options, 0)
        session = Session(kind, 1, 7, 1, options, seed, f"{seed:032x}", 0, players=list(seated))
        session.names, session.status, session.engine, session.locale = dict(seated), PLAYING, engine, "fr"
        texts.append(board_words(cog.render_board(session)))
        for events in random_steps(engine, random.Random(seed), players):
            for event in events:
                for to in event.to or ():
                    private = cog.render_private(session, to, event)
                    if private is not None:
                        texts.append(words(private))
            if not engine.is_over:
                texts.append(board_words(cog.render_board(session)))
        assert engine.is_over
        texts.append(board_words(cog.render_final(session, engine.result())))
        rec = log_record(engine, seed, "5" * 32)
        texts += [text for text, _ in steps(rec, list(seated.values()), "fr")]
    shown = "\n".join(texts)
    assert not UNELIDED.findall(shown)
    if kind != "masks":  # Monster Masks' French puts no "de" before a name
        assert ELIDED.search(shown), f"{kind}: no name was elided before; the test sees none"


async def test_stats_of_a_member_whose_name_starts_with_a_vowel(world, locales):
    alice, bob = world.members[:2]  # alice: a vowel
    locales.members[bob.id] = "fr"
    stats = card((await bob.slash(world.channel, "stats", member=alice)).response)
    assert stats.title == "Stats d'alice"
    assert card((await bob.slash(world.channel, "stats")).response).title == "Stats de bob"
