"""A whole Kabuki session on a German server through SimCord, lobby and Play again included:
every public message (lobby, its countdown, board, final board, the rematch's invitation, a
closed lobby) speaks German, and each member's private answers (the lobby's refusals, the
rematch's seat) speak their own Discord language (German, French, English)."""

from __future__ import annotations

import re
from typing import Any

from kabuki_tables import FAST, Table, embed_text
from language_checks import World, english_phrases, server
from shown import above, card, labels

from bot.i18n import t

FOX, MOON, ONI, CAT = 2, 1, 3, 4


def german_server(env: Any, locales: Any) -> World:
    world = server(env, "Berlin", "de", "spiele", ("anna", "benoit", "carl", "dora"))
    anna, benoit, _, dora = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr", dora.id: "fr"})  # carl: en-US
    return world


def public_text(world: World) -> str:
    """Everything the channel shows anyone: words, cards and button labels."""
    parts = []
    for message in world.channel.history():
        parts.append(embed_text(message))
        parts += [label or "" for label in labels(message)]
    return "\n".join(parts)


async def play_out(env: Any, table: Table) -> None:
    """Three rounds of three seats, each ended by a right Stop! (as the French server's test)."""
    for round_no in range(3):
        if round_no:
            await env.advance_time(FAST["reveal"] + 0.1)
        first = table.view()["current"]["seat"]
        table.script([FOX, FOX, FOX, FOX, MOON, ONI, FOX], first=first)
        for _ in range(4):
            await table.place(0)
        await table.stop((first + 1) % 3)
        await env.advance_time(FAST["race_window"] / 1000 + 0.1)
        await env.advance_time(FAST["reveal"] + 0.1)
        await table.place(1)
        await table.place(2)
        await table.place(0)
        await table.stop((first + 2) % 3)
        await env.advance_time(FAST["race_window"] / 1000 + 0.1)


async def test_a_german_server_from_kabuki_new_to_play_again_each_member_in_their_language(
    simcord_env, locales
) -> None:
    world = german_server(simcord_env, locales)
    anna, benoit, carl, dora = world.members
    await anna.slash(world.channel, "kabuki new", **FAST)
    lobby = world.board()
    embed = card(lobby)
    assert embed.title == "Kabuki — Lobby"
    assert embed.description == (
        "Gastgeber: **anna**\nDrück **Beitreten**, um Platz zu nehmen. Der Gastgeber startet das "
        "Spiel, sobald 2–6 Spieler sitzen."
    )
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Spieler (1/6)"] == "1. anna" and "Schonfrist: 0 s" in fields["Optionen"]
    assert re.fullmatch(r"<t:\d+:R>, wenn niemand beitritt oder geht", fields["Schließt"])
    assert labels(lobby) == [
        "Beitreten",
        "Verlassen",
        "Starten",
        "Abbrechen",
        "Computer hinzufügen",
        "Computer entfernen",
    ]

    # The lobby's refusals: each member in their own language, privately.
    refused = await benoit.click(world.board(), label="Verlassen")
    assert refused.ephemeral and refused.response.content == "Vous n'êtes pas dans ce salon d'attente."
    await benoit.click(world.board(), label="Beitreten")
    again = await benoit.click(world.board(), label="Beitreten")
    assert again.response.content == "Vous avez déjà une place dans ce salon d'attente."
    await carl.click(world.board(), label="Beitreten")
    assert "Spieler (3/6)" in embed_text(world.board())
    early = await carl.click(world.board(), label="Starten")
    assert early.response.content == "Only the host or a moderator can start this game."
    host_leaves = await anna.click(world.board(), label="Verlassen")
    assert (
        host_leaves.response.content
        == "Du bist der Gastgeber: Drück **Abbrechen**, um die Lobby zu schließen."
    )
    computer = await carl.click(world.board(), label="Computer hinzufügen")
    assert computer.response.content == "Only the host or a moderator can add or remove computer players."
    busy = await dora.slash(world.channel, "kabuki new")
    assert busy.ephemeral and busy.response.content.startswith(
        "Ce salon a déjà un salon d'attente de Kabuki : https://"
    )
    assert busy.response.content.endswith("Terminez-le, ou utilisez `/terminer`, avant d'en lancer un autre.")

    await anna.click(world.board(), label="Starten")
    table = Table(simcord_env, world, [anna, benoit, carl])
    assert table.session.locale == "de"
    assert card(table.message()).title == "Kabuki — Runde 1 von 3"
    # A bystander's press on the board: refused in her language.
    table.script([FOX, MOON, FOX, ONI, CAT], first=0)
    bystander = await dora.click(table.message(), custom_id=table.bound(f"pc:{world.channel.id}:place:0-0"))
    assert bystander.response.content == "Vous ne jouez pas dans cette partie."

    await play_out(simcord_env, table)
    assert simcord_env.bot.sessions.get(world.channel.id) is None  # over and recorded
    final = world.board()
    assert card(final).title == "Kabuki — Spielende"
    assert card(final).description.startswith("🏆 Gewonnen ha")
    assert "Merk dir" not in card(final).footer.text  # a finished game asks nobody to remember
    assert labels(final) == ["Nochmal spielen"]

    # Play again: carl (English) hosts the rematch; its lobby and invitation speak German.
    await carl.click(final, label="Nochmal spielen")
    rematch = world.board()
    assert rematch.id != final.id and card(rematch).title == "Kabuki — Lobby"
    assert above(rematch) == (
        f"<@{anna.id}> <@{benoit.id}>: **carl** lädt dich zu einer neuen Partie ein. Drück hier "
        "**Beitreten** oder **Nochmal spielen** auf dem Spielbrett der letzten Partie, um Platz zu nehmen."
    )
    seated = await benoit.click(final, label="Nochmal spielen")
    assert seated.ephemeral and seated.response.content.startswith(
        "Vous avez pris place dans la revanche : https://"
    )
    twice = await benoit.click(final, label="Nochmal spielen")
    assert twice.response.content.startswith("Vous avez déjà une place dans la revanche : https://")
    stranger = await dora.click(final, label="Nochmal spielen")
    assert (
        stranger.response.content
        == "Seuls les joueurs de cette partie (ou un modérateur) peuvent lancer une revanche."
    )
    await anna.click(world.board(), label="Beitreten")
    assert above(world.board()) == "Alle aus der letzten Partie sitzen wieder bei **carl**."
    await carl.click(world.board(), label="Abbrechen")
    closed = card(world.board())
    assert (closed.title, closed.description) == ("Kabuki — Lobby geschlossen", "Lobby abgebrochen von carl.")

    # No public message spoke English: no phrase of the session's or Kabuki's messages that
    # German says otherwise, and none of the members' private answers.
    shown = public_text(world)
    assert [phrase for phrase in english_phrases("de", "session", "kabuki") if phrase in shown] == []
    for private in ("Vous", "Only the host", "Du bist der Gastgeber"):
        assert private not in shown


async def test_a_lobby_left_idle_closes_itself_in_the_servers_language(simcord_env, locales) -> None:
    world = german_server(simcord_env, locales)
    await world.members[2].slash(world.channel, "kabuki new", **FAST)  # carl, an English member
    await simcord_env.advance_time(10 * 60 + 1)
    closed = card(world.board())
    assert closed.title == "Kabuki — Lobby geschlossen"
    assert closed.description == t(
        "de", "This lobby closed itself after {idle} without activity.", idle="10 Min."
    )
    assert closed.description == "Diese Lobby hat sich nach 10 Min. ohne Aktivität selbst geschlossen."
