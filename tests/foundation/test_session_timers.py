"""A session's timer is armed once per deadline (bot/session/timers.py): a press that moves the
deadline re-arms it, one that leaves it in place does not, and an ended game's timer is gone."""

from __future__ import annotations

from shown import card
from test_sessions import start_tap


def turn_of(world) -> str:
    return card(world.board()).description


async def test_a_deadline_a_press_moves_earlier_fires_at_the_new_time(world, simcord_env):
    alice = world.members[0]
    await start_tap(world, target=5)
    await simcord_env.advance_time(10)
    await alice.click(world.board(), label="Hurry")  # her turn now ends 5 s from now, not 20
    await simcord_env.advance_time(4)
    assert "Turn 0: **alice**" in turn_of(world)
    await simcord_env.advance_time(2)
    assert "Turn 1: **bob**" in turn_of(world)
    # Bob's own 30 s run from when alice's turn ended, with nothing left of her old deadline.
    await simcord_env.advance_time(28)
    assert "Turn 1: **bob**" in turn_of(world)
    await simcord_env.advance_time(2)
    assert "Turn 2: **alice**" in turn_of(world)


async def test_a_press_that_leaves_the_deadline_in_place_keeps_the_armed_timer(world, simcord_env):
    alice = world.members[0]
    await start_tap(world, target=5)
    session = simcord_env.bot.sessions.get(world.channel.id)
    armed = session.timer
    await simcord_env.advance_time(10)
    await alice.click(world.board(), label="Wink")  # changes nothing: the deadline stays
    assert session.timer is armed and not armed.handle.cancelled()
    await simcord_env.advance_time(19)
    assert "Turn 0: **alice**" in turn_of(world)
    await simcord_env.advance_time(2)
    assert "Turn 1: **bob**" in turn_of(world)
    assert session.timer is not armed  # bob's turn has a deadline of its own


async def test_an_ended_game_keeps_no_timer_and_its_deadline_passing_changes_nothing(world, simcord_env):
    alice = world.members[0]
    await start_tap(world, target=5)
    session = simcord_env.bot.sessions.get(world.channel.id)
    armed = session.timer
    await alice.slash(world.channel, "end")
    # A live timer would hold the ended game in memory until its deadline.
    assert session.timer is None and armed.handle.cancelled()
    ended = world.board()
    await simcord_env.advance_time(31)
    assert session.engine.s["turn"] == 0  # alice's turn never passed
    assert world.board().id == ended.id and "abandoned" in card(ended).description
    assert await simcord_env.bot.storage.load_sessions() == []
