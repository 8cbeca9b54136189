"""Messages older than the game: components bound to their game, and boards from before marks."""

from __future__ import annotations

import copy
import uuid

import pytest
from test_sessions import start_tap

from bot.glue.components import MAX_ID, bound_id, button_id, select_id
from bot.session.sessions import Session


def ids(message) -> list[str]:
    return [child.custom_id for row in message.components for child in row.children]


def unmark(env, world, message) -> str:
    """Make ``message`` show its buttons as a bot without game marks sent them; returns the mark."""
    tag = env.bot.sessions.get(world.channel.id).tag
    for row in env.backend.get_message(world.channel.id, message.id).components:
        for child in row["components"]:
            child["custom_id"] = child["custom_id"].replace(f":{tag}:", ":")
    return tag


def scores(world) -> str:
    return world.board().embeds[0].fields[0].value


async def test_every_component_of_a_game_carries_that_games_mark(world, simcord_env):
    alice = world.members[0]
    await alice.slash(world.channel, "tap new")
    first = simcord_env.bot.sessions.get(world.channel.id)
    assert ids(world.board()) == [
        f"pc:{world.channel.id}:{first.tag}:{name}:" for name in ("join", "leave", "start", "cancel")
    ]
    await alice.slash(world.channel, "end")
    await start_tap(world)
    second = simcord_env.bot.sessions.get(world.channel.id)
    assert second.tag != first.tag
    assert ids(world.board())[0] == f"pc:{world.channel.id}:{second.tag}:tap:"


async def test_a_board_of_an_earlier_game_is_refused_as_such_and_changes_nothing(world, simcord_env):
    alice, bob = world.members[:2]
    old = await start_tap(world, target=5)
    kept = copy.deepcopy(simcord_env.backend.get_message(world.channel.id, old.id).components)
    await alice.slash(world.channel, "end")
    await start_tap(world, target=5)
    before = scores(world)
    # A client still showing game 1's board, whose message was emptied when the game ended.
    simcord_env.backend.get_message(world.channel.id, old.id).components = kept
    refused = await alice.click(old, label="Tap")
    assert refused.ephemeral and "earlier game" in refused.response.content
    assert scores(world) == before


async def test_a_board_posted_before_game_marks_keeps_working_after_the_upgrade(
    world, simcord_env, restart_bot
):
    """A saved game whose board was sent by a bot without game marks: its board message still
    binds its presses to the game, and the first redraw marks them."""
    alice, bob = world.members[:2]
    board = await start_tap(world, target=5)
    tag = unmark(simcord_env, world, board)
    assert ids(world.board())[0] == f"pc:{world.channel.id}:tap:"

    await restart_bot()
    tapped = await alice.click(world.board(), label="Tap")

    assert not tapped.ephemeral
    assert scores(world) == "alice: 1\nbob: 0"
    assert ids(world.board())[0] == f"pc:{world.channel.id}:{tag}:tap:"


def test_the_longest_bound_custom_id_fits_discords_limit():
    """The widest id any game draws (Kingdom's exchange: version and target) in a channel with
    the largest possible snowflake, bound to a game, stays within 100 characters."""
    channel = 2**64 - 1
    tag = Session("tap", 1, channel, 1, {}, 0, uuid.uuid4().hex, 0).tag
    assert len(bound_id(button_id(channel, "exchange", "99999999.19"), tag)) <= MAX_ID
    assert len(bound_id(select_id(channel, "power"), tag)) <= MAX_ID
    with pytest.raises(ValueError):
        bound_id(button_id(channel, "exchange", "9" * 60), tag)
