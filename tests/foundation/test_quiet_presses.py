"""Presses that change nothing public leave the board alone: the presser is answered privately."""

from __future__ import annotations

from test_sessions import scores, start_tap


def board_edits(env) -> int:
    return sum(1 for entry in env.backend.transcript if entry[:2] == ("GATEWAY", "MESSAGE_UPDATE"))


async def test_a_press_only_the_presser_hears_of_is_answered_privately_and_the_board_is_not_redrawn(
    world, simcord_env
):
    alice = world.members[0]
    await start_tap(world)
    before, edits = scores(world), board_edits(simcord_env)
    result = await alice.click(world.board(), label="Wink")
    assert result.response.ephemeral and result.response.content == "You winked; nobody saw it."
    assert board_edits(simcord_env) == edits and scores(world) == before


async def test_a_press_that_changes_nothing_is_acknowledged_without_a_message(world, simcord_env):
    alice = world.members[0]
    await start_tap(world)
    edits = board_edits(simcord_env)
    result = await alice.click(world.board(), label="Nod")
    assert not result.followups
    assert not [m for m in world.channel.history(viewer=alice) if m.flags.ephemeral]
    assert board_edits(simcord_env) == edits


async def test_the_board_is_redrawn_again_once_something_public_changes(world, simcord_env):
    alice = world.members[0]
    await start_tap(world)
    await alice.click(world.board(), label="Wink")
    edits = board_edits(simcord_env)
    await alice.click(world.board(), label="Tap")
    assert board_edits(simcord_env) == edits + 1
    assert scores(world).startswith("alice: 1")


async def test_board_edits_coming_back_from_discord_are_dropped_unread(world, simcord_env):
    """Every board edit returns as a MESSAGE_UPDATE (the bot keeps the messages intent for Masks'
    emoji mode); nothing uses edits, so discord.py must not spend a parse on each one."""
    seen = []

    async def on_raw_message_edit(payload) -> None:
        seen.append(payload)

    simcord_env.bot.add_listener(on_raw_message_edit)
    await start_tap(world)
    edits = board_edits(simcord_env)
    await world.members[0].click(world.board(), label="Tap")
    assert board_edits(simcord_env) == edits + 1
    assert seen == []
