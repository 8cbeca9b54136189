"""Kabuki in several languages through SimCord: on a French server, the board speaks French to
everyone while each member's private answers (refusals, the Stop! race) speak their own Discord
language; no language shows a buried mask; a moderator's /settings language: switches a running
game; the record and its replay stay the same in every language."""

from __future__ import annotations

from typing import Any

from kabuki_tables import FAST, Table, embed_text
from language_checks import World, assert_shown_in_no_language, rules_as_read, server
from shown import card, labels

from bot.community.replays import verify
from bot.games.kabuki.board import PICTURE_NAME, picture_key, render_picture
from bot.games.kabuki.history import describe
from bot.games.kabuki.pictures import MASKS
from bot.games.kabuki.replay import check_log
from bot.session.turn_pings import PING_AFTER_MS

FOX, MOON, ONI, CAT = 2, 1, 3, 4


def french_server(env: Any, players: int = 3) -> World:
    return server(env, "Paris", "fr", "jeux", ("anna", "benoit", "carl", "dora")[:players], mod=True)


async def open_table(env: Any, world: World) -> Table:
    host, *others = world.members
    await host.slash(world.channel, "kabuki new", **FAST)
    # The lobby speaks the server's language: its frame, its options and its buttons.
    title, option, join, start = {
        "fr": ("Kabuki — salon d'attente", "Délai de grâce : 0 s", "Rejoindre", "Lancer"),
        "de": ("Kabuki — Lobby", "Schonfrist: 0 s", "Beitreten", "Starten"),
    }[env.bot.sessions.get(world.channel.id).locale]
    lobby = world.board()
    assert card(lobby).title == title
    assert option in embed_text(lobby)
    for member in others:
        await member.click(world.board(), label=join)
    await host.click(world.board(), label=start)
    return Table(env, world, world.members)


def channel_text(world: World, viewer: Any) -> str:
    parts = []
    for message in world.channel.history(viewer=viewer):
        parts.append(embed_text(message))
        parts += [a.filename for a in message.attachments]
        parts += [label or "" for label in labels(message)]
    return "\n".join(parts)


def assert_no_buried_mask_in_any_language(table: Table, world: World) -> None:
    engine = table.engine
    view = engine.view(None)
    shown = {s["top"] for s in view["stacks"]} | ({view["current"]["card"]} if view["current"] else set())
    buried = {card for stack in engine.stacks for card in stack[:-1]} - shown
    assert buried
    for viewer in world.members:
        text = channel_text(world, viewer)
        for mask in buried:
            assert_shown_in_no_language(text, MASKS[mask])
    (attachment,) = table.message().attachments
    assert attachment.filename == PICTURE_NAME
    drawn = table.env.backend.cdn.get(attachment.url)
    assert drawn == render_picture(picture_key(view, with_reveal=False, locale="fr"))


async def test_a_french_board_and_each_members_private_answers_in_their_own_language(
    simcord_env, locales
) -> None:
    world = french_server(simcord_env, players=4)
    anna, benoit, carl, dora = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr"})  # carl and dora: en-US
    table = await open_table(simcord_env, world)
    assert table.session.locale == "fr"
    board = table.message()
    assert card(board).title == "Kabuki — manche 1 sur 3"
    assert "Piles (masque du dessus)" in embed_text(board)
    names = labels(board)
    assert names[-1] == "Stop!" and all(" · acteur" in label for label in names[:4])

    table.script([FOX, MOON, FOX, ONI, CAT], first=0)
    # Refusals: each member in their own language, and nothing public changes.
    refused = await table.place(1, seat=1)
    assert refused.response.ephemeral and refused.response.content == "Ce n'est pas votre tour."
    await table.place(0)  # anna: the Fox on stack 1
    own = await table.stop(0)
    assert own.response.content == "Du hast diese Karte gelegt; du kannst dich nicht selbst stoppen."
    await table.place(1)  # benoit: the Moon on stack 2
    assert "**benoit** a posé le masque **Lune** sur la pile 2." in table.embed_text()
    await table.place(0)  # carl: the Fox on the Fox of stack 1
    # A Stop! race: dora first, then anna and benoit; the losers are told privately, each in
    # their own language, through the token their own press left.
    first = await table.stop(3)
    assert "Quelqu'un a appuyé sur **Stop!**" in card(first.response).description
    await simcord_env.advance_time(0.04)
    second = await table.stop(0)
    await simcord_env.advance_time(0.04)
    third = await table.stop(1)
    assert second.response.content.startswith("✋ **Stop!** angenommen.")
    assert third.response.content.startswith("✋ **Stop!** enregistré.")
    assert table.session.seat_locale(0) == "de" and table.session.seat_locale(1) == "fr"
    await simcord_env.advance_time(FAST["race_window"] / 1000)
    assert second.followups[-1].content == "🐢 **dora** hat zuerst Stop! gedrückt, 40 ms vor dir."
    assert third.followups[-1].content == "🐢 **dora** a appuyé sur Stop! en premier, 80 ms avant vous."
    assert all(f.ephemeral for result in (second, third) for f in result.followups)
    text = table.embed_text()
    assert "Pile 1 révélée" in text and "**Renard** ✔ · **Renard** (dessus)" in text
    assert "**dora** a pris **carl** en faute sur la pile 1" in text
    await simcord_env.advance_time(FAST["reveal"] + 0.1)
    await table.place(1)  # the Oni over benoit's Moon: the Moon is buried now
    assert_no_buried_mask_in_any_language(table, world)
    # The private answers went to their members only: the channel never had them.
    everything = channel_text(world, carl)
    assert "angenommen" not in everything and "enregistré" not in everything


async def test_a_whole_game_on_a_french_server_is_recorded_and_replays_as_in_english(
    simcord_env, locales
) -> None:
    world = french_server(simcord_env)
    anna, benoit, carl = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr"})
    table = await open_table(simcord_env, world)
    for round_no in range(3):
        if round_no:
            await simcord_env.advance_time(FAST["reveal"] + 0.1)
        first = table.view()["current"]["seat"]
        n = 3
        table.script([FOX, FOX, FOX, FOX, MOON, ONI, FOX], first=first)
        for _ in range(4):
            await table.place(0)
        await table.stop((first + 1) % n)
        await simcord_env.advance_time(FAST["race_window"] / 1000 + 0.1)
        await simcord_env.advance_time(FAST["reveal"] + 0.1)
        await table.place(1)
        await table.place(2)
        await table.place(0)
        await table.stop((first + 2) % n)
        await simcord_env.advance_time(FAST["race_window"] / 1000 + 0.1)
    assert table.session is None  # over and recorded
    final = card(world.board())
    assert final.title == "Kabuki — partie terminée"
    assert final.description.startswith(("🏆 Victoire : **", "🏆 Victoire partagée : **"))
    assert "Mélange : graine" in final.footer.text
    # The record holds ids, numbers and cards: no language. Its replay reads as it always did.
    storage = simcord_env.bot.storage
    (listed,) = await storage.recent_games(world.guild.id, channel_id=world.channel.id)
    rec = (await storage.game_log(world.guild.id, listed.game_key)).log
    assert "locale" not in str(rec) and "fr" not in {str(v) for v in rec.values()}
    check_log(rec)  # the rules' own reading of it
    steps = [describe(entry, ["anna", "benoit", "carl"]) for entry in rec["log"]]
    assert any("Fox" in step for step in steps) and not any(
        "Renard" in step or "Fuchs" in step for step in steps
    )
    assert "of the deck is" in verify(rec).summary  # the stacked deck is found, in English as ever


async def test_a_moderator_switches_a_running_games_language_and_it_survives_a_restart(
    simcord_env, locales, restart
) -> None:
    world = french_server(simcord_env)
    table = await open_table(simcord_env, world)
    await table.place(0)
    assert card(table.message()).title == "Kabuki — manche 1 sur 3"
    answer = await world.mod.slash(world.channel, "settings", language="de")
    assert answer.ephemeral
    # The game speaks German from its next board on.
    assert table.session.locale == "de"
    await table.place(1)
    assert card(table.message()).title == "Kabuki — Runde 1 von 3"
    await restart()
    assert table.session.locale == "de"
    await table.place(2)
    assert card(table.message()).title == "Kabuki — Runde 1 von 3"
    assert "Stapel (oberste Maske)" in table.embed_text()


async def test_a_game_saved_before_languages_speaks_the_servers_setting_after_a_restart(
    simcord_env, locales, restart
) -> None:
    world = french_server(simcord_env)
    await world.mod.slash(world.channel, "settings", language="de")
    table = await open_table(simcord_env, world)
    session = table.session
    session.locale = ""  # as a save from before sessions had a language reads back
    cog = simcord_env.bot.game_cogs["kabuki"]
    await cog._save(session)
    await restart()
    assert table.session.locale == "de"
    await table.place(0)
    assert card(table.message()).title == "Kabuki — Runde 1 von 3"


async def test_rules_of_kabuki_speak_each_readers_language(simcord_env, locales) -> None:
    world = french_server(simcord_env)
    anna, benoit, carl = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr"})
    read = await rules_as_read(world, (anna, benoit, carl), "kabuki")
    assert read[anna].startswith("**Kabuki** (2–6 Spieler, 3 Runden).")
    assert read[benoit].startswith("**Kabuki** (2 à 6 joueurs, 3 manches).")
    assert read[carl].startswith("**Kabuki** (2–6 players, 3 rounds).")
    assert not list(world.channel.history())


async def test_a_french_tables_turn_ping_and_long_timer_speak_french(simcord_env, locales) -> None:
    world = french_server(simcord_env)
    host, *others = world.members
    locales.members.update({host.id: "de"})  # a ping is public: the server's language, not the host's
    await host.slash(world.channel, "kabuki new", **{**FAST, "turn_timer": 5400})
    assert "Minuteur de tour : 1 h 30 min" in embed_text(world.board())
    for member in others:
        await member.click(world.board(), label="Rejoindre")
    await host.click(world.board(), label="Lancer")
    table = Table(simcord_env, world, world.members)
    placer = table.member(table.view()["current"]["seat"])
    await simcord_env.advance_time(PING_AFTER_MS / 1000 + 1)
    [ping] = [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]
    assert f"<@{placer.id}>: c'est votre tour : posez la carte visible sur un acteur." in ping.content
    assert [user.id for user in ping.mentions] == [placer.id]
