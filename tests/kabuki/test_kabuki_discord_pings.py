"""Turn pings in Kabuki: the placer of a turn that waits is mentioned once, in a message of its own
that goes when the turn is over; a server may turn them off."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import discord
from shown import card, text
from simcord_clock import clock_held_still

from bot.session.publisher import discord_now
from bot.session.turn_pings import PING_AFTER_MS, TurnPings

PING_S = PING_AFTER_MS / 1000


def pings(world) -> list:
    """The channel's turn pings, oldest first."""
    return [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]


def history_reads(simcord_env, world) -> int:
    """How often the bot read the channel's messages (``TurnPings.recover``)."""
    path = f"/channels/{world.channel.id}/messages"
    return sum(1 for r in simcord_env.http_requests if r.method == "GET" and r.path == path)


def admin(world):
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def test_a_waiting_placer_is_pinged_once_and_the_ping_goes_with_the_turn(open_game, world) -> None:
    table = await open_game(3, turn_timer=300)
    placer = table.member(table.view()["current"]["seat"])
    await table.env.advance_time(PING_S - 1)
    assert pings(world) == []  # a turn played within 30 s pings nobody
    await table.env.advance_time(2)
    [ping] = pings(world)
    assert [user.id for user in ping.mentions] == [placer.id]  # exactly the placer
    assert ping.content.startswith(f"⏰ **Kabuki** — <@{placer.id}>: it is your turn: place the card on show")
    assert f"/{table.session.board_message_id}" in ping.content  # the board's link
    assert "Stack" not in ping.content and "mask" not in ping.content.lower()
    # Redraws and more waiting do not ping again.
    await table.env.advance_time(60)
    refused = await table.place(0, seat=(table.view()["current"]["seat"] + 1) % 3)  # not their turn
    assert refused.ephemeral
    assert len(pings(world)) == 1
    # The placer places: the turn is over and its ping is deleted.
    await table.place(0)
    assert pings(world) == []
    # The next turn waits too: one new ping, for the next placer only.
    nxt = table.member(table.view()["current"]["seat"])
    await table.env.advance_time(PING_S + 1)
    [ping] = pings(world)
    assert [user.id for user in ping.mentions] == [nxt.id]


async def test_the_last_ping_goes_when_the_game_ends(open_game, world) -> None:
    table = await open_game(3, turn_timer=300)
    await table.env.advance_time(PING_S + 1)
    assert len(pings(world)) == 1
    await world.members[0].slash(world.channel, "end")
    assert pings(world) == []


async def test_a_ping_survives_a_restart_without_pinging_twice(open_game, world, restart) -> None:
    table = await open_game(3, turn_timer=300)
    await table.env.advance_time(PING_S + 1)
    [ping] = pings(world)
    await restart()
    await table.env.advance_time(10)
    assert [m.id for m in pings(world)] == [ping.id]
    await table.place(1)
    assert pings(world) == []  # the restarted bot still knew which message to delete


async def test_a_ping_whose_save_never_reached_the_database_goes_after_a_restart(
    open_game, world, simcord_env, restart
) -> None:
    """The save holding the ping's message id waits on the database when the bot restarts: the
    restored game never knew the ping, and finds it in its channel (the chaos test's Masks 109,
    Kingdom 105 and 111)."""
    table = await open_game(3, turn_timer=300)

    async def locked(*args, **kwargs) -> None:
        raise sqlite3.OperationalError("database is locked")

    simcord_env.bot.storage.save_session = locked  # this process's saves wait from now on
    await table.env.advance_time(PING_S + 1)
    [lost] = pings(world)
    assert simcord_env.bot.guard.waiting  # its id is in the save that waits
    await restart()  # the waiting save is lost with the process; the database works again
    await table.env.advance_time(10)
    assert lost.id not in [m.id for m in pings(world)]
    assert history_reads(simcord_env, world) == 1  # one look at the channel, at the restart
    assert len(pings(world)) == 1  # the restored turn, still waiting, is pinged (once) again
    await table.place(0)
    assert pings(world) == []


async def test_a_game_restored_before_a_ping_could_fall_due_does_not_look_for_one(
    open_game, world, simcord_env, restart
) -> None:
    table = await open_game(3, turn_timer=300)
    await table.env.advance_time(PING_S - 5)
    await restart()
    await table.env.advance_time(1)
    assert history_reads(simcord_env, world) == 0  # no ping can be unknown: Discord is not asked
    await table.env.advance_time(5)
    assert len(pings(world)) == 1 and history_reads(simcord_env, world) == 0


async def test_a_server_can_turn_pings_off(open_game, world, simcord_env) -> None:
    boss = admin(world)
    answer = await boss.slash(world.channel, "settings", **{"turn-pings": False})
    assert answer.ephemeral
    assert "turn-pings: **off**: nobody is mentioned when it is their turn" in text(answer.response)
    assert not (await simcord_env.bot.storage.settings(world.guild.id)).turn_pings
    table = await open_game(3, turn_timer=300)
    await table.env.advance_time(PING_S + 5)
    assert pings(world) == []
    # A server may allow the command to anyone: the bot checks the permission itself.
    command = simcord_env.backend.find_command("settings", None)
    world.guild.set_command_permissions(int(command["id"]), {world.members[1]: True})
    refused = await world.members[1].slash(world.channel, "settings", **{"turn-pings": True})
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert not (await simcord_env.bot.storage.settings(world.guild.id)).turn_pings
    on = await boss.slash(world.channel, "settings", **{"turn-pings": True})
    assert "turn-pings: **on**" in text(on.response)
    await table.place(0)
    await table.env.advance_time(PING_S + 1)
    assert len(pings(world)) == 1


async def test_a_slow_table_may_take_up_to_a_day_per_placement(world, simcord_env) -> None:
    await world.members[0].slash(world.channel, "kabuki new", turn_timer=86_400)
    options = next(f.value for f in card(world.board()).fields if f.name == "Options")
    assert "Turn timer: 24 h" in options and "Grace: 3 s" in options
    assert simcord_env.bot.sessions.get(world.channel.id).options["turn_ms"] == 86_400_000


async def test_a_ping_waits_for_a_slot_of_the_channels_budget_left_free_for_the_board(
    open_game, world, simcord_env
) -> None:
    table = await open_game(3, turn_timer=300)
    await table.env.advance_time(PING_S - 1)
    # The channel has just had four REST requests answered: of Discord's 5 per 5 s, the one left
    # is kept for the board, so the ping waits until the oldest leaves the window.
    publisher = simcord_env.bot.publishers.get(world.channel.id)
    publisher.recent.extend([discord_now()] * 4)
    await table.env.advance_time(2)
    assert pings(world) == []
    await table.env.advance_time(3.5)
    assert len(pings(world)) == 1


async def test_a_ping_that_fails_never_stops_the_game(open_game, world, simcord_env, monkeypatch) -> None:
    table = await open_game(3, turn_timer=60)

    async def broken(guild_id: int) -> None:
        raise RuntimeError("database down")

    monkeypatch.setattr(simcord_env.bot.storage, "settings", broken)
    turn = table.view()["turn"]
    await table.env.advance_time(PING_S + 1)
    assert pings(world) == []
    await table.env.advance_time(60 - PING_S)
    assert table.view()["turn"] == turn + 1  # the turn timer placed the idle player's card on time


async def test_a_turn_whose_ping_setting_the_database_cannot_read_goes_unpinged_quietly(
    open_game, world, simcord_env, caplog
) -> None:
    """The server's /settings turn-pings: is read when a ping falls due. A database that fails
    then (a fault, not a bug) leaves that turn unpinged, with a warning, and the next turn is
    pinged as usual once it answers again."""
    table = await open_game(3, turn_timer=300)
    storage = simcord_env.bot.storage
    settings = storage.settings

    async def failing(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    storage.settings = failing
    await table.env.advance_time(PING_S + 1)
    assert pings(world) == []
    assert "turn ping in channel" in caplog.text and "the database failed" in caplog.text
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    storage.settings = settings
    await table.place(0)
    nxt = table.member(table.view()["current"]["seat"])
    await table.env.advance_time(PING_S + 1)
    [ping] = pings(world)
    assert [user.id for user in ping.mentions] == [nxt.id]


class SlowLook:
    """A restored game's look through its channel's messages waits until ``end``, as its one
    request may wait behind a restart's many."""

    def __init__(self, env, monkeypatch) -> None:
        self.back = asyncio.Event()
        real = TurnPings._pings_since

        async def pings_since(pings, session, since):
            await env.external_wait(self.back.wait(), reason="Discord answers slowly")
            return await real(pings, session, since)

        monkeypatch.setattr(TurnPings, "_pings_since", pings_since)

    def end(self) -> None:
        self.back.set()


async def lost_ping_and_restart(table, world, simcord_env, restart, monkeypatch):
    """A ping whose save waits on the database when the bot restarts, and a restarted bot whose
    look for it waits."""

    async def locked(*args, **kwargs) -> None:
        raise sqlite3.OperationalError("database is locked")

    simcord_env.bot.storage.save_session = locked
    await table.env.advance_time(PING_S + 1)
    [lost] = pings(world)
    slow = SlowLook(simcord_env, monkeypatch)
    await restart()
    return lost, slow


async def test_a_restored_game_takes_presses_while_it_looks_for_its_lost_pings(
    open_game, world, simcord_env, restart, monkeypatch
) -> None:
    table = await open_game(3, turn_timer=300)
    lost, slow = await lost_ping_and_restart(table, world, simcord_env, restart, monkeypatch)
    turn = table.view()["turn"]
    with clock_held_still(simcord_env):
        placed = await table.place(0)  # the look waits: the press does not
    assert placed.acknowledged and table.view()["turn"] != turn
    slow.end()
    await table.env.advance_time(10)
    assert lost.id not in [m.id for m in pings(world)]


async def test_pings_found_after_the_game_ended_meanwhile_go_at_once(
    open_game, world, simcord_env, restart, monkeypatch
) -> None:
    table = await open_game(3, turn_timer=300)
    lost, slow = await lost_ping_and_restart(table, world, simcord_env, restart, monkeypatch)
    await world.members[0].slash(world.channel, "end")  # while the restored game still looks
    assert table.session is None
    slow.end()
    await table.env.advance_time(1)
    assert pings(world) == []
