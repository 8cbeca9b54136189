"""/replay in every language: a private page speaks its viewer's Discord language (Kabuki's
board too, drawn by its renderer's ``locale=``), a replay posted in the channel speaks the
server's, no buried mask reaches the channel in any language, and the record and the shuffle's
verdict stay the same whatever the language."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from language_checks import assert_card_fits, embed_text, english_phrases, translated_games
from shown import above, cards, labels
from test_replay_command import (
    GAMES,
    as_shown,
    custom_ids,
    embeds_text,
    engine_at,
    keep,
    pager,
    pages_of,
    record_of,
)

from bot.community.replay_board import public_board, replay_moments
from bot.games.kabuki.board import mask
from bot.games.kabuki.pictures import MASKS
from bot.games.kingdom.cards import NAMES as KINGDOM_CARDS
from bot.games.masks.faces import MONSTERS
from bot.i18n import shipped, t
from bot.i18n.pseudo import untranslated

LABEL_MAX = 80

# Every registered game that has catalogues (bot/locales', or its own): a game registered with
# its catalogue is read in every language here by being registered.
TRANSLATED = [kind for kind in translated_games() if kind in GAMES]


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(GAMES)


async def french_server(world, simcord_env):
    """A moderator sets the server's language to French with /settings language:."""
    import discord

    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(simcord_env.create_user("boss"), roles=[role])
    await boss.slash(world.channel, "settings", language="fr")


async def test_each_viewer_reads_the_replay_in_their_language_and_the_channel_in_the_servers(
    world, locales, simcord_env
):
    rec = record_of("kabuki")
    names = await keep(world, rec, "k1")
    alice, bob, frank = world.members[0], world.members[1], world.members[5]
    locales.members.update({alice.id: "de", frank.id: "fr"})  # bob: English
    await french_server(world, simcord_env)

    german = (await alice.slash(world.channel, "replay")).response
    said = above(german)
    assert said.startswith("**Wiederholung: Kabuki**, beendet <t:")
    # The step's words, what the board hid and the verdict read German too.
    total = pager(rec, names, 1).split(" / ")[1]  # the record's steps, as the verdict counts them
    assert f"Schritt **1 / {total}: Runde 1: Der Nachziehstapel wird gemischt; " in said
    assert f"✅ Mischen bestätigt: Kabuki, Startwert {rec['seed']}: " in said
    assert "Schritte laufen durch die Spiellogik und folgen den Regeln" in said
    board, face_up = cards(german)
    assert face_up.description.startswith("Stapel, von unten nach oben:\n**1.** ")
    assert labels(german)[-2:] == ["Im Kanal posten", "Aufzeichnung herunterladen"]
    assert face_up.title == "Offen (das Spiel ist vorbei)"
    _, engine = engine_at(rec, names, pages_of(rec, names)[0].step)
    assert board.to_dict() == as_shown(public_board("kabuki", engine, names, "k1", "de").embed).to_dict()
    english = (await bob.slash(world.channel, "replay")).response
    assert (
        above(english).startswith("**Replay: Kabuki**")
        and cards(english)[1].title == "Face up (the game is over)"
    )
    assert custom_ids(english) == custom_ids(german)  # ids never change with the language

    # alice posts step 11: the channel reads French, the server's language.
    page = (await alice.click(german, label="+10")).response
    assert pager(rec, names, 11).replace("Steps", "Schritte").replace("Step", "Schritt") in above(page)
    public = (await alice.click(page, label="Im Kanal posten")).response
    assert not public.ephemeral
    posted = above(public)
    assert posted.startswith("📣 **alice** a publié cette rediffusion d'une partie terminée.")
    assert "**Revoir : Kabuki**" in posted
    assert (
        pager(rec, names, 11).replace("Step", "Étape")
        + f"\n✅ Mélange vérifié : Kabuki, graine {rec['seed']} : "
        in posted
    )
    assert labels(public) == ["La regarder vous-même"]
    _, engine = engine_at(rec, names, pages_of(rec, names)[10].step)
    assert [e.to_dict() for e in cards(public)] == [
        as_shown(public_board("kabuki", engine, names, "k1", "fr").embed).to_dict()
    ]
    # No buried mask in the channel, in any language's name for it.
    view = engine.view(None)
    shown = {s["top"] for s in view["stacks"]} | ({view["current"]["card"]} if view["current"] else set())
    buried = {c for stack in engine.stacks for c in stack[:-1]} - shown
    text = embeds_text(public) + posted
    assert buried and not any(mask(card, code) in text for card in buried for code in shipped())

    # Whoever presses Watch reads it in their own language.
    watched = (await bob.click(public, label="La regarder vous-même")).response
    assert watched.ephemeral and pager(rec, names, 11) in above(watched)
    watched = (await frank.click(public, label="La regarder vous-même")).response
    # French puts a space before a colon, as everywhere else in its messages.
    assert pager(rec, names, 11).replace("Step", "Étape") + " : " in above(watched)
    face_up = cards(watched)[1]
    assert face_up.title.startswith("Cartes visibles")
    assert face_up.description.startswith("Piles, de bas en haut :\n")
    assert labels(watched) == ["⏮", "◀", "▶", "⏭", "−10", "+10"]  # frank did not play: no Post, no Download

    # The record handed out is the same bytes whatever the language of the press.
    german_file = await alice.click(page, label="Aufzeichnung herunterladen")
    assert "📥 Die Aufzeichnung dieser Partie, genau wie gespeichert." in german_file.response.content
    assert "`python -m bot verify kabuki-k1.json`" in german_file.response.content
    english_file = await bob.click(english, label="Download record")
    cdn = world.env.backend.cdn
    [german_record], [english_record] = german_file.response.attachments, english_file.response.attachments
    assert cdn.get(german_record.url) == cdn.get(english_record.url)


@pytest.mark.parametrize("kind", TRANSLATED)
async def test_replay_pages_in_the_pseudo_locale_have_no_untranslated_english(
    world, locales, pseudo_locale, kind
):
    rec = record_of(kind)
    names = await keep(world, rec, "k1")
    alice = world.members[0]
    locales.members[alice.id] = pseudo_locale
    page = (await alice.slash(world.channel, "replay")).response
    for label in ("+10", "⏭"):
        # Every word on the page, the step's and the verdict's included, and the Face up embed.
        board, face_up = cards(page)
        text = "\n".join([above(page), face_up.title, face_up.description])
        assert untranslated(text, allowed=names) == [], text
        assert untranslated(" ".join(labels(page)), allowed=names) == []
        # The game's board is drawn in the viewer's language too.
        words = [board.title or "", board.description or "", board.footer.text or ""]
        words += [part for field in board.fields for part in (field.name, field.value)]
        assert untranslated("\n".join(words), allowed=names) == [], words
        assert assert_card_fits(page)  # Discord's 4,000 characters and 40 components, both cards in all
        assert all(len(label) <= LABEL_MAX for label in labels(page))
        page = (await alice.click(page, label=label)).response
    # Every page's words and face-up text, not only the ones pressed to.
    moments, broken = replay_moments(rec, names, "k1", pseudo_locale)
    assert moments and not broken
    for moment in moments:
        assert untranslated(moment.text + "\n" + moment.hidden, allowed=names) == [], moment.text


def card_names(kind: str) -> list[str]:
    """Every mask, monster or character of the game, by its English name."""
    if kind == "kabuki":
        return list(MASKS)
    if kind == "masks":
        return list(MONSTERS)
    return list(KINGDOM_CARDS)


FIRST_WORDS = {  # (the first step's words, the Face up text's start) in each language
    "kabuki": {
        "de": ("Runde 1: Der Nachziehstapel wird gemischt; ", "Stapel, von unten nach oben:"),
        "fr": ("Manche 1 : la pioche est mélangée ; ", "Piles, de bas en haut :"),
    },
    "masks": {
        "de": ("Der Nachziehstapel wird gemischt: 30 Karten; ", "Nachziehstapel, oberste Karte zuerst: "),
        "fr": ("La pioche est mélangée : 30 cartes ; ", "Pioche, du dessus vers le bas : "),
    },
    "kingdom": {
        "de": ("Runde 1: ", "\nNachziehstapel, oberste Karte zuerst: "),
        "fr": ("Manche 1 : ", "\nPioche, du dessus vers le bas : "),
    },
}


@pytest.mark.parametrize("code", ["de", "fr"])
@pytest.mark.parametrize("kind", TRANSLATED)
async def test_every_page_of_each_games_replay_shows_no_english_sentence_to_a_german_or_french_viewer(
    world, locales, kind, code
):
    rec = record_of(kind)
    names = await keep(world, rec, "k1")
    alice = world.members[0]
    locales.members[alice.id] = code
    page = (await alice.slash(world.channel, "replay")).response
    seen = []
    for label in ("+10", "⏭"):
        seen += [above(page), *(embed_text(embed) for embed in cards(page)), *labels(page)]
        page = (await alice.click(page, label=label)).response
    moments, broken = replay_moments(rec, names, "k1", code)
    assert moments and not broken
    seen += [moment.text + "\n" + moment.hidden for moment in moments]
    text = "\n".join(seen)
    phrases = english_phrases(code, kind, "general", "session")
    assert phrases and [phrase for phrase in phrases if phrase in text] == []


# What each game's replay says first in German and French, in its own words (a game not named
# in FIRST_WORDS is read by the test above alone).
@pytest.mark.parametrize("kind", list(FIRST_WORDS))
async def test_german_and_french_viewers_read_each_games_steps_and_face_up_cards_in_their_language(
    world, locales, kind
):
    rec = record_of(kind)
    await keep(world, rec, "k1")
    alice, bob = world.members[0], world.members[1]
    locales.members.update({alice.id: "de", bob.id: "fr"})
    for member, code in ((alice, "de"), (bob, "fr")):
        step_words, face_up = FIRST_WORDS[kind][code]
        page = (await member.slash(world.channel, "replay")).response
        said = above(page).split("\n")[1]
        colon = " : " if code == "fr" else ": "  # French spaces its colons
        assert said.split("**" + colon, 1)[1].startswith(step_words), said
        assert face_up in cards(page)[1].description
        seen = []
        for label in ("+10", "+10", "⏭"):
            seen.append(above(page) + "\n" + cards(page)[1].description)
            page = (await member.click(page, label=label)).response
        seen.append(above(page) + "\n" + cards(page)[1].description)
        text = "\n".join(seen)
        # The cards are named as the game's own board names them in that language.
        renamed = {name: t(code, name) for name in card_names(kind) if t(code, name) != name}
        assert renamed and any(local in text for local in renamed.values())
        english = [name for name in renamed if re.search(rf"\b{re.escape(name)}\b", text)]
        assert not [name for name in english if not any(name in local for local in renamed.values())], english
        verdict = {"de": "✅ Mischen bestätigt: ", "fr": "✅ Mélange vérifié : "}[code]
        assert verdict in above(page) and "Shuffle" not in above(page)


# SHA-256 of `python -m bot replay` / `verify` on each record before /replay spoke languages: the
# command line and the records stay English, byte for byte.
CLI_OUTPUT = {
    "kabuki": (
        "5a8278ade419c09d4db9b52444fb8a4ea4071fb1902c0afc2955b31512b5d119",
        "99715b2270a78b4383206c4e0464b480738d97c81c7492a0e39d4dd7f5ae6377",
    ),
    "masks": (
        "83540a85af668a9dd2224eb494b470a563b8e30adb9dde52133c6b92b8ebeefe",
        "73c697d97380cdd643c1fbefc6e16044f8fbcacfae1fdb0403e8c37cc371371e",
    ),
    "kingdom": (
        "7cf2c725bdf5f1c64354ec3aff961d1ca51b1efdebd663241c132b5e404511d9",
        "fa4befd5bed5541ca93a600b560df2deae948a6c9c4995c6700cd2c7eeab3519",
    ),
}


@pytest.mark.parametrize("kind", list(CLI_OUTPUT))
def test_the_command_line_replay_and_verify_print_what_they_printed_before(kind, tmp_path, capsys):
    from bot import __main__ as cli

    path = tmp_path / f"{kind}.json"
    path.write_text(json.dumps(record_of(kind)))
    for command, expected in zip(("replay", "verify"), CLI_OUTPUT[kind], strict=True):
        assert cli.main([command, str(path)]) == 0
        out = capsys.readouterr()
        assert hashlib.sha256((out.out + out.err).encode()).hexdigest() == expected, out.out[:500]
