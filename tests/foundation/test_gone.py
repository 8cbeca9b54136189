"""What is gone ends cleanly (issue 30): a game whose channel or thread is deleted, or whose server
removes the bot, while the bot runs or while it is down, ends as abandoned: no winner, no rating
change, its timer stopped, its save removed, one log line. Before, such games played their idle
players' turns to the end and were recorded as rated finishes."""

from __future__ import annotations

import logging

import pytest
from simcord.builders import ChannelHandle
from test_sessions import start_tap


def requests_to(env, channel_id: int, since: int) -> int:
    return sum(1 for r in env.backend.http_requests[since:] if f"/channels/{channel_id}/" in r.path)


async def assert_abandoned(env, world, caplog, why: str, channel_id: int | None = None) -> None:
    """The game of ``channel_id`` (the world's channel by default) ended as abandoned, once."""
    channel_id = channel_id or world.channel.id
    storage = env.bot.storage
    assert env.bot.sessions.get(channel_id) is None
    assert await storage.load_sessions() == []
    assert await storage.game_count(world.guild.id, "tap") == 1
    alice = world.members[0]
    [stats] = await storage.stats(world.guild.id, alice.id)
    assert (stats.games, stats.wins, stats.abandoned) == (0, 0, 1)  # no winner, no finish
    assert await storage.ratings_of(world.guild.id, alice.id) == []  # nobody rated
    # Its timers stopped: time passing sends nothing and records nothing more.
    since = len(env.backend.http_requests)
    await env.advance_time(600)
    assert requests_to(env, channel_id, since) == 0
    assert await storage.game_count(world.guild.id, "tap") == 1
    lines = [r.getMessage() for r in caplog.records if "ended as abandoned" in r.getMessage()]
    assert len(lines) == 1 and why in lines[0]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.fixture(autouse=True)
def info_logs(caplog):
    caplog.set_level(logging.INFO)


async def test_a_game_whose_channel_is_deleted_ends_as_abandoned(world, simcord_env, caplog):
    await start_tap(world, target=5)
    await world.members[0].click(world.board(), label="Tap")
    simcord_env.backend.delete_channel(world.channel.id)
    await simcord_env.settle()
    await assert_abandoned(simcord_env, world, caplog, "its channel was deleted")


async def test_a_game_in_a_deleted_thread_ends_as_abandoned(world, simcord_env, caplog):
    raw = simcord_env.backend.create_thread(world.channel.id, "side game", world.members[0].id)
    thread = ChannelHandle(simcord_env, world.guild, raw)
    await simcord_env.settle()
    alice, bob = world.members[:2]
    await alice.slash(thread, "tap new")
    await bob.click(thread.last_message, label="Join")
    await alice.click(thread.last_message, label="Start")
    assert simcord_env.bot.sessions.get(thread.id).status == "playing"
    simcord_env.backend.delete_channel(thread.id)
    await simcord_env.settle()
    await assert_abandoned(simcord_env, world, caplog, "its thread was deleted", thread.id)


async def test_a_game_in_a_server_that_removed_the_bot_ends_as_abandoned(world, simcord_env, caplog):
    await start_tap(world, target=5)
    simcord_env.backend.remove_guild(world.guild.id)
    await simcord_env.settle()
    await assert_abandoned(simcord_env, world, caplog, "the bot is no longer in its server")


async def test_a_saved_game_whose_channel_went_while_the_bot_was_down_ends_at_start_up(
    world, simcord_env, restart_bot, caplog
):
    await start_tap(world, target=5)

    async def unheard(channel) -> None:  # the bot is down: it never hears of the deletion
        return None

    simcord_env.bot.on_guild_channel_delete = unheard
    simcord_env.backend.delete_channel(world.channel.id)
    await restart_bot()
    await simcord_env.settle()
    await assert_abandoned(simcord_env, world, caplog, "its channel was deleted")


async def test_a_board_discord_says_has_no_channel_ends_the_game_as_abandoned(world, simcord_env, caplog):
    await start_tap(world, target=5)
    channel = world.channel.id
    simcord_env.inject_error(
        "*", f"/channels/{channel}/*", status=404, code=10003, message="Unknown Channel", times=None
    )
    await simcord_env.advance_time(31)  # the turn passes; its board edit meets Unknown Channel
    simcord_env.backend.faults.clear()
    await assert_abandoned(simcord_env, world, caplog, "its channel was deleted")


async def test_a_restored_lobby_in_a_channel_still_there_is_kept(world, simcord_env, restart_bot):
    await world.members[0].slash(world.channel, "tap new")
    await restart_bot()
    await simcord_env.settle()
    assert simcord_env.bot.sessions.get(world.channel.id) is not None
