"""The session layer's own words in every language: the lobby, Play again, the default final
board, the session's refusals and Discord faults' notices. In the pseudo-locale no word of them
bypasses the catalogue; on a server of one language each member reads their private answers in
their own, the permissions named as Discord names them there."""

from __future__ import annotations

import copy

import discord
from shown import above, card, labels, rows, text
from test_sessions import start_tap

from bot.glue import faults
from bot.glue.board import lobby_board
from bot.i18n import shipped, t
from bot.i18n.pseudo import untranslated
from bot.session.rematch import PlayAgainButton, invitation
from bot.session.sessions import Session

CALLBACK = "/interactions/*/callback"


def shown(message) -> str:
    """A message's words: the words above its card, the card's, and its buttons' labels."""
    return "\n".join([text(message), *(label or "" for label in labels(message))])


async def test_the_lobby_play_again_and_the_sessions_answers_in_the_pseudo_locale_have_no_english(
    world, simcord_env, locales, pseudo_locale
):
    alice, bob, carol, dave = world.members[:4]
    for member in world.members:
        locales.members[member.id] = pseudo_locale
    simcord_env.bot.languages.remember(world.guild.id, pseudo_locale)  # the server speaks it too
    # Data, not words: the members' names, the test game's title, its option's key and value,
    # and the slash commands' names (`/tap new`).
    data = ["alice", "bob", "carol", "dave", "Tap", "target", "new"]
    texts: list[str] = []  # every text of the session layer shown to anyone

    async def answer(member, message, **where) -> str:
        result = await member.click(message, **where)
        assert result.ephemeral, shown(result.response)
        texts.append(result.response.content)
        return result.response.content

    await alice.slash(world.channel, "tap new", target=1)
    lobby = world.board()
    assert card(lobby).title.endswith("⟧") and len(rows(lobby)[0]) == 4
    texts.append(shown(lobby))
    await answer(carol, world.board(), custom_id=rows(lobby)[0][1].custom_id)  # Leave
    join, leave, start, cancel = (child.custom_id for child in rows(lobby)[0])
    await bob.click(world.board(), custom_id=join)
    await answer(bob, world.board(), custom_id=join)  # twice
    await answer(carol, world.board(), custom_id=start)  # not the host
    await answer(carol, world.board(), custom_id=cancel)
    await answer(alice, world.board(), custom_id=leave)  # the host
    busy = await dave.slash(world.channel, "tap new")
    texts.append(busy.response.content)
    await world.mod.delete(world.board())  # posted again, saying so
    texts.append(shown(world.board()))
    assert above(world.board()).endswith("⟧")

    await alice.click(world.board(), custom_id=start)
    board = world.board()
    kept = copy.deepcopy(simcord_env.backend.get_message(world.channel.id, board.id).components)
    await answer(carol, board, label="Tap")  # not a player
    await alice.click(world.board(), label="Tap")  # target 1: alice wins
    final = world.board()
    # The frame's title and winners line, and its button; not Tap's board (its scores).
    frame = card(final)
    texts += [
        frame.title,
        frame.description,
        *labels(final),
    ]
    assert frame.title.endswith("⟧") and frame.description.endswith("⟧")
    # A client still showing the game's buttons: the game is over.
    stored = simcord_env.backend.get_message(world.channel.id, final.id)
    again = stored.components
    stored.components = kept
    await answer(bob, final, label="Tap")
    stored.components = again

    play_again = rows(final)[0][0].custom_id
    await answer(carol, final, custom_id=play_again)  # not a player of that game
    await bob.click(final, custom_id=play_again)  # bob hosts the rematch
    rematch = world.board()
    texts.append(shown(rematch))
    assert f"<@{alice.id}>" in above(rematch)
    await answer(alice, final, custom_id=play_again)  # a seat in the rematch
    await answer(alice, final, custom_id=play_again)  # twice
    texts.append(shown(world.board()))  # everyone is seated again
    await bob.click(world.board(), custom_id=rows(world.board())[0][3].custom_id)
    texts.append(shown(world.board()))  # cancelled

    await alice.slash(world.channel, "tap new")
    await simcord_env.advance_time(10 * 60 + 1)  # nobody joins: it closes itself
    texts.append(shown(world.board()))

    # Discord's faults: an answer Discord failed, and a permission the bot lacks.
    simcord_env.inject_error("POST", CALLBACK, status=503, message="Service Unavailable")
    failed = await alice.slash(world.channel, "tap new")
    texts.append(failed.response.content)
    await start_tap(world)
    simcord_env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages", status=403, code=50001, message="Missing Access"
    )
    denied = await alice.slash(world.channel, "board")
    texts.append(denied.response.content)
    assert "⟧" in denied.response.content

    for said in texts:
        assert said and untranslated(said, allowed=data) == [], said
    assert not simcord_env.errors


def test_the_hosts_letter_of_a_lost_permission_has_no_english_in_the_pseudo_locale(pseudo_locale):
    for code in (50013, 50001):
        names = faults.missing_permissions(None, code)
        letter = faults.permission_letter(pseudo_locale, "<#1>", "Perms", names)
        assert letter.startswith("⟦") and untranslated(letter, allowed=["Perms"]) == [], letter


def test_the_lobby_and_play_again_fit_discords_limits_in_every_language():
    long = "N" * 32  # Discord's longest display name
    for locale in shipped():
        board = lobby_board(
            title="Island of Monster Masks",
            channel_id=1,
            host_name=long,
            names=[long] * 20,
            min_players=3,
            max_players=20,
            options_text="x" * 300,
            closes_at_s=1_800_000_000,
            computers=True,
            notes=["y" * 200],
            locale=locale,
        )
        embed = board.embed
        assert len(embed) <= 6000 and len(embed.title) <= 256 and len(embed.description) <= 4096
        assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in embed.fields)
        assert all(len(item.label) <= 80 for item in board.items)
        assert len(PlayAgainButton("ab" * 16, locale).item.label) <= 80
        session = Session(
            kind="masks",
            guild_id=1,
            channel_id=2,
            host_id=3,
            options={},
            seed=0,
            game_key="ab",
            created_at=0,
            players=[3],
            names={3: long},
            invited=list(range(10, 29)),
            locale=locale,
        )
        assert len(invitation(session)) <= 2000
        title = t(locale, "{game} — game over", game="x" * 100)
        assert title.startswith("x" * 100) and len(title) <= 256


async def test_each_member_reads_the_sessions_answers_and_a_lost_permission_in_their_language(
    simcord_env, locales
):
    guild = simcord_env.create_guild("Berlin", preferred_locale="de")
    me = guild.me
    channel = guild.create_text_channel(
        "ohne-links", overwrites={me: discord.PermissionOverwrite(embed_links=False)}
    )
    anna, benoit, carl = (guild.add_member(simcord_env.create_user(n)) for n in ("anna", "benoit", "carl"))
    locales.members.update({anna.id: "de", benoit.id: "fr"})  # carl: en-US
    await anna.slash(channel, "tap new", target=9)
    lobby = channel.last_message
    assert card(lobby).title == "Tap — Lobby"
    await benoit.click(lobby, label="Beitreten")
    await anna.click(lobby, label="Starten")
    refused = await carl.click(channel.last_message, label="Tap")
    assert refused.response.content == "You are not playing in this game."
    await anna.click(channel.last_message, label="Tap")
    await benoit.click(channel.last_message, label="Tap")
    # SimCord does not check Embed Links itself: Discord's refusal is injected.
    simcord_env.inject_error(
        "*", f"/channels/{channel.id}/*", status=403, code=50013, message="Missing Permissions", times=None
    )
    await simcord_env.advance_time(31)  # anna idles: the timer's edit is refused
    told = {
        member: [
            m.content
            for m in channel.history(viewer=member)
            if m.flags.ephemeral and f"<#{channel.id}>" in m.content
        ]
        for member in (anna, benoit)
    }
    assert told[anna] == [
        f"Ich kann das Spielbrett hier nicht bearbeiten: Ich brauche **Links einbetten** in <#{channel.id}>. "
        "Die Partie geht weiter (deine Klicks wirken weiterhin); ein Moderator kann das Recht "
        "zurückgeben, und `/spielbrett` postet das Spielbrett neu."
    ]
    assert told[benoit] == [
        f"Je ne peux plus modifier le plateau ici : il me faut **Intégrer des liens** dans <#{channel.id}>. "
        "La partie continue (vos clics fonctionnent toujours) ; un modérateur peut me rendre ce droit, "
        "et `/plateau` republie le plateau."
    ]
