"""A channel whose game has ended keeps nothing in the bot: no publisher, no board kept, and nothing
in the database: no session, no row of its log."""

from __future__ import annotations

from shown import card
from test_session_log import stored_rows
from test_sessions import finish_tap, start_tap


def kept_for(env, channel) -> object:
    return env.bot.publishers.get(channel.id)


async def test_a_finished_game_leaves_no_board_state_for_its_channel(world, simcord_env):
    await finish_tap(world)  # the last tap's own answer shows the final board
    assert card(world.board()).description.startswith("🏆 Winners")
    assert kept_for(simcord_env, world.channel) is None and len(simcord_env.bot.publishers) == 0
    await assert_nothing_stored(simcord_env)


async def assert_nothing_stored(env) -> None:
    assert await env.bot.storage.load_sessions() == [] and await stored_rows(env.bot.storage) == []


async def test_a_game_ended_with_end_leaves_no_board_state_once_its_last_board_is_shown(world, simcord_env):
    await start_tap(world)
    await world.members[0].click(world.board(), label="Tap")  # the log has a row
    assert kept_for(simcord_env, world.channel) is not None
    await world.members[0].slash(world.channel, "end")  # the final board goes by a REST edit
    assert "ended" in card(world.board()).title
    assert kept_for(simcord_env, world.channel) is None
    await assert_nothing_stored(simcord_env)


async def test_a_cancelled_or_expired_lobby_leaves_no_board_state(world, simcord_env):
    alice = world.members[0]
    await alice.slash(world.channel, "tap new")
    await alice.click(world.board(), label="Cancel")
    assert kept_for(simcord_env, world.channel) is None
    await alice.slash(world.channel, "tap new")
    await simcord_env.advance_time(10 * 60 + 1)  # nobody joins: the lobby closes itself
    assert "closed" in card(world.board()).title
    assert kept_for(simcord_env, world.channel) is None


async def test_a_new_game_in_the_channel_gets_a_board_state_of_its_own(world, simcord_env):
    await finish_tap(world)
    await start_tap(world)
    publisher = kept_for(simcord_env, world.channel)
    assert publisher is not None and publisher.session is simcord_env.bot.sessions.get(world.channel.id)
