"""Island of Monster Masks in several languages through SimCord: on a German server the board,
the lobby, the emoji-mode notices, a computer Mime's post and the turn pings speak German to
everyone, while each member's private texts (the Mime's card, slaps, races, refusals, /rules)
speak their own Discord language; no language shows the secret card before its reveal; the
record verifies and holds no language."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest
from language_checks import LANGUAGES, World, assert_shown_in_no_language, rules_as_read, server
from masks_tables import SETTLE_S, Table
from shown import card as card_of
from shown import labels
from shown import text as words

from bot.community.replays import verify
from bot.games.masks.faces import MONSTERS
from bot.games.masks.pictures import board_png
from bot.games.masks.simulate import check_log
from bot.i18n import t
from bot.session.turn_pings import PING_AFTER_MS

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)

WIDE = 2000  # ms: a race window that stays open across clicks whatever the wall clock does
PAUSE = 5  # seconds: the pause after a reveal


def german_server(env: Any, locales: Any, channel: Any = None, mod: bool = False) -> World:
    """Berlin's #spiele: anna speaks French, bert German, carl and dora English; with ``mod``, a
    moderator "chef" who does not play."""
    names = ("anna", "bert", "carl", "dora")
    world = server(env, "Berlin", "de", "spiele", names, mod, **({"overwrites": channel} if channel else {}))
    locales.members.update({world.members[0].id: "fr", world.members[1].id: "de"})
    return world


async def open_game(world: World, n: int = 4, race_window_ms: int = WIDE, **options: Any) -> Table:
    host, *others = world.members[:n]
    await host.slash(world.channel, "masks new", **options)
    for member in others:
        await member.click(world.board(), label="Beitreten")
    world.env.bot.sessions.get(world.channel.id).options["race_window_ms"] = race_window_ms
    await host.click(world.board(), label="Starten")
    return Table(world, world.members[:n])


def embed_text(message: Any) -> str:
    """Every word the message shows: its card (or words alone) and its controls' labels."""
    return "\n".join([words(message), *(label or "" for label in labels(message))])


def public_text(world: World) -> str:
    return "\n".join(embed_text(m) for m in world.channel.history() if not m.flags.ephemeral)


def assert_secret_card_kept_in_every_language(table: Table, world: World) -> None:
    """The card is named in bold (as a card, not as a tile's label) in no public message, in no
    language, and no public message carries the card's picture."""
    card = MONSTERS[table.card()]
    public = [m for m in world.channel.history(viewer=world.members[3]) if not m.flags.ephemeral]
    text = "\n".join(embed_text(m) for m in public)
    assert_shown_in_no_language(text, card)
    assert all(a.filename != "card.png" for m in public for a in m.attachments)


async def test_a_german_board_and_each_members_private_texts_in_their_own_language(simcord_env, locales):
    world = german_server(simcord_env, locales)
    anna, bert, carl, dora = world.members
    await anna.slash(world.channel, "masks new")
    assert "Ratezeit: **1 Min.**" in embed_text(world.board())  # the lobby's options: the server's language
    assert card_of(world.board()).title == "Insel der Monstermasken — Lobby"  # the commands' name for it
    for member in (bert, carl, dora):
        await member.click(world.board(), label="Beitreten")
    world.env.bot.sessions.get(world.channel.id).options["race_window_ms"] = WIDE
    await anna.click(world.board(), label="Starten")
    table = Table(world, world.members)
    assert table.session.locale == "de"
    board = table.board()
    assert card_of(board).title == "Insel der Monstermasken — Zug 1 von 12"
    assert "ist der Mime" in card_of(board).description and "Meine Karte" in card_of(board).description
    shown = labels(board)
    assert shown[:2] == ["Grummel", "Kicher"] and shown[-2:] == ["Meine Karte", "Raten beenden"]
    assert (
        "Nachziehstapel: 23 Karten · aus dem Spiel: 0 · Mime: Kamera · Geräusche: nein"
        in card_of(board).footer.text
    )

    # anna pressed Start and is the Mime: her card came with that press, in French, to her only.
    card = table.card()
    [first] = [m for m in world.channel.history(viewer=anna) if m.flags.ephemeral]
    assert first.content == (
        f"🤫 Tour 1 : votre carte secrète est **{t('fr', MONSTERS[card])}**. Mimez ce visage — sans un mot !"
    )
    again = await anna.click(table.board(), label="Meine Karte")
    assert again.ephemeral and f"**{t('fr', MONSTERS[card])}**" in again.response.content
    looked = await bert.click(table.board(), label="Meine Karte")
    assert looked.response.content == "Nur der Mime darf die geheime Karte ansehen. Schau zu und schlag!"
    assert_secret_card_kept_in_every_language(table, world)

    # A race for one tile: bert first, carl 40 ms later; each is answered in their own language.
    tile = next(tile for tile in range(16) if tile != card)
    name = MONSTERS[tile]
    slapped = await table.slap(bert, tile)
    assert slapped.ephemeral and slapped.response.content.startswith(
        f"✋ Du hast **{t('de', name)}** geschlagen."
    )
    await simcord_env.advance_time(0.04)
    late = await table.slap(carl, tile)
    assert late.response.content.startswith(f"✋ You slapped **{name}**.")
    refused = await table.slap(anna, card)
    assert (
        refused.ephemeral
        and refused.response.content == "Vous êtes le Mime : mimez le visage, ne frappez pas !"
    )
    await simcord_env.advance_time(WIDE / 1000 + 0.1)
    lost = late.followups[-1]
    assert lost.ephemeral and lost.content.startswith(f"⚡ **bert** slapped **{name}** ")
    assert lost.content.endswith("ms before you. A slap can't be changed: you hold no tile this turn.")
    # The engine's refusals name the monster in the presser's language.
    again = await table.slap(bert, card)
    assert (
        again.response.content
        == f"Du hast schon {t('de', name)} geschlagen; ein Schlag lässt sich nicht ändern."
    )
    again = await table.slap(carl, card)
    assert again.response.content == (
        f"You lost the race for {name}: a slap can't be changed, so you hold no tile this turn."
    )
    text = embed_text(table.board())
    assert f"**bert** · ✋ {t('de', name)}" in text and "**carl** · ⚡ Wettlauf verloren" in text
    assert_secret_card_kept_in_every_language(table, world)
    # Nothing private reached the channel.
    assert "Du hast" not in public_text(world) and "Vous" not in public_text(world)

    await table.slap(dora, card)  # the last guesser: the card is revealed, in German
    await simcord_env.advance_time(WIDE / 1000 + 0.1)
    description = card_of(table.board()).description
    assert description.startswith(f"Zug 1: Die Karte war **{t('de', MONSTERS[card])}** (alle Ratenden")
    assert "**dora** hat sie erraten: je +1 Karte für **dora** und **anna**." in description
    # The board's picture names the faces in German, the revealed card ringed.
    (attachment,) = table.board().attachments
    assert simcord_env.backend.cdn.get(attachment.url) == board_png(card, "de")


async def test_a_whole_game_on_a_german_server_ends_in_german_and_its_record_has_no_language(
    simcord_env, locales
):
    world = german_server(simcord_env, locales)
    table = await open_game(world, n=3)
    turns = table.view["turns"]
    for turn in range(1, turns + 1):
        card = table.card()
        first, second = table.guessers()
        await table.slap(first, card)
        await table.slap(second, (card + 1) % 16)
        await simcord_env.advance_time(WIDE / 1000 + 0.1)
        if turn < turns:
            await simcord_env.advance_time(PAUSE)
    assert table.session is None
    final = card_of(world.board())
    assert final.title == "Insel der Monstermasken — Spielende"
    assert final.description.startswith(("🏆 Gewonnen hat: **", "🏆 Gewonnen haben: **"))
    assert final.fields[0].name == "Gesammelte Karten" and " — 6 Karten" in final.fields[0].value
    assert final.footer.text.startswith("9 Züge · 0 Karten aus dem Spiel")
    storage = simcord_env.bot.storage
    (listed,) = await storage.recent_games(world.guild.id, channel_id=world.channel.id)
    rec = (await storage.game_log(world.guild.id, listed.game_key)).log
    check_log(rec)
    assert verify(rec).verified
    stored = json.dumps(rec, ensure_ascii=False)
    for monster in MONSTERS:
        for locale in ("de", "fr"):
            if t(locale, monster) != monster:
                assert t(locale, monster) not in stored


async def test_emoji_mode_notices_and_a_computer_mimes_post_speak_the_servers_language(simcord_env, locales):
    world = german_server(simcord_env, locales)
    anna, bert = world.members[:2]
    await anna.slash(world.channel, "masks new", mime_mode="emoji")
    await anna.click(world.board(), label="Computer hinzufügen")
    lobby = embed_text(world.board())
    assert "🤖 Computer lesen die Emoji des Mimen (**normal**)" in lobby
    await bert.click(world.board(), label="Beitreten")
    await anna.click(world.board(), label="Starten")
    table = Table(world, [anna, None, bert])
    # anna mimes with words: removed, and the channel is told in German (the mention is a field).
    await anna.send(world.channel, "ein Gesicht mit Tränen")
    notice = world.channel.history()[-1]
    assert notice.content == (
        f"{anna.mention} du bist der Mime: nur Emoji, solange die anderen raten. Ich habe deine Nachricht entfernt."
    )
    await anna.click(table.board(), label="Raten beenden")
    await simcord_env.advance_time(PAUSE)  # the computer in seat 1 is the Mime now
    assert (
        "ist der Mime: Gleich spielt er seine Karte hier in Emoji vor." in card_of(table.board()).description
    )
    for _ in range(6):
        await simcord_env.advance_time(1)
        posts = [m for m in world.channel.history() if m.author.bot and " spielt vor: " in (m.content or "")]
        if posts:
            break
    [post] = posts
    assert post.content.startswith("🎭 **🤖 ")
    card = MONSTERS[table.card()]
    assert not any(t(locale, card).lower() in post.content.lower() for locale in LANGUAGES)


async def test_without_manage_messages_the_notice_speaks_the_servers_language(simcord_env, locales):
    world = german_server(
        simcord_env,
        locales,
        channel={simcord_env.bot.user: discord.PermissionOverwrite(manage_messages=False)},
    )
    await open_game(world, n=3, mime_mode="emoji")
    notices = [m.content for m in world.channel.history() if m.content.startswith("😀")]
    assert notices == [
        "😀 Emoji-Modus: Der Mime sollte hier während eines Zuges nur Emoji posten. Mir fehlt in diesem "
        "Kanal die Berechtigung **Nachrichten verwalten**, also kann ich andere Nachrichten nicht "
        "entfernen — bitte spielt fair!"
    ]


async def test_the_turn_ping_asks_in_the_servers_language(simcord_env, locales):
    world = german_server(simcord_env, locales)
    table = await open_game(world, n=3, guess_seconds=3600)
    await simcord_env.advance_time(PING_AFTER_MS / 1000 + 1)
    [ping] = [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]
    waiting = " ".join(f"<@{g.id}>" for g in table.guessers())
    assert f"{waiting}: schau dem Mimen zu und schlag ein Plättchen." in ping.content


async def test_rules_of_masks_speak_each_readers_language(simcord_env, locales):
    world = german_server(simcord_env, locales)
    anna, bert, carl = world.members[:3]
    read = await rules_as_read(world, (anna, bert, carl), "masks")
    assert read[anna].startswith("**L'Île des masques de monstres** (3 à 8 joueurs).")
    assert read[bert].startswith("**Insel der Monstermasken** (3–8 Spieler).")
    assert read[carl].startswith("**Island of Monster Masks** (3–8 players).")


async def test_a_moderator_switches_a_running_games_language_from_its_next_board_on(simcord_env, locales):
    world = german_server(simcord_env, locales, mod=True)
    mod = world.mod
    table = await open_game(world, n=3)
    assert card_of(table.board()).title == "Insel der Monstermasken — Zug 1 von 9"
    answer = await mod.slash(world.channel, "settings", language="fr")
    assert answer.ephemeral and table.session.locale == "fr"
    await table.mime.click(table.board(), label="Raten beenden")  # the German board still on show
    board = table.board()
    assert card_of(board).title == "L'Île des masques de monstres — tour 1 sur 9"
    assert "Dernier tour" not in embed_text(board) and "la carte était" in card_of(board).description
    (attachment,) = board.attachments
    assert simcord_env.backend.cdn.get(attachment.url) == board_png(table.view["last_reveal"]["card"], "fr")
