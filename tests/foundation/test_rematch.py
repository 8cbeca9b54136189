"""Play again: the final board's button opens one new lobby with the same game and options."""

from __future__ import annotations

from test_lobby import field

from bot.sessions import LOBBY


async def finish_tap(world, players=2, target=2):
    """Every seat taps once in turn until ``target`` taps: the game is over."""
    host = world.members[0]
    await host.slash(world.channel, "tap new", target=target)
    for member in world.members[1:players]:
        await member.click(world.board(), label="Join")
    await host.click(world.board(), label="Start")
    for turn in range(target):
        await world.members[turn % players].click(world.board(), label="Tap")
    return world.board()


def labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def test_the_final_board_offers_play_again(world):
    final = await finish_tap(world)
    assert "Game over" in final.embeds[0].fields[-1].name
    assert labels(final) == ["Play again"]


async def test_play_again_opens_a_lobby_with_the_same_options_hosted_by_the_presser_asking_the_players(
    world, simcord_env
):
    alice, bob, carol = world.members[:3]
    final = await finish_tap(world, players=3, target=3)
    result = await bob.click(final, label="Play again")
    assert not result.ephemeral
    lobby = world.board()
    assert lobby.id != final.id and lobby.embeds[0].title == "Tap — lobby"
    assert "Host: **bob**" in lobby.embeds[0].description
    assert field(lobby, "Players") == "1. bob"  # asked, not seated
    assert field(lobby, "Options") == "target: 3"
    # The other players of the finished game are asked by mention; the host is not.
    assert lobby.content.startswith(f"<@{alice.id}> <@{carol.id}>:")
    assert f"<@{bob.id}>" not in lobby.content
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.status == LOBBY and session.options == {"target": 3}
    # Anyone may join as usual, and the invitation stays above the lobby as it changes.
    await world.members[4].click(lobby, label="Join")
    assert field(world.board(), "Players") == "1. bob\n2. erin"
    assert world.board().content == lobby.content


async def test_play_again_is_refused_privately_while_the_channel_is_busy(world, simcord_env):
    alice, bob = world.members[:2]
    final = await finish_tap(world)
    await alice.click(final, label="Play again")
    lobby = world.board()
    again = await bob.click(final, label="Play again")  # the second press finds the new lobby
    assert again.ephemeral and "already has a Tap lobby" in again.response.content
    assert world.board().id == lobby.id
    assert simcord_env.bot.sessions.get(world.channel.id).host_id == alice.id


async def test_play_again_works_after_a_restart(world, simcord_env, restart_bot):
    alice, bob = world.members[:2]
    final = await finish_tap(world)
    await restart_bot()
    result = await bob.click(final, label="Play again")
    assert not result.ephemeral
    assert world.board().embeds[0].title == "Tap — lobby"
    assert world.board().content.startswith(f"<@{alice.id}>:")
    # The new lobby is a session like any other: it survives a further restart with its invitation.
    await restart_bot()
    await alice.click(world.board(), label="Join")
    assert field(world.board(), "Players") == "1. bob\n2. alice"
    assert world.board().content.startswith(f"<@{alice.id}>:")


async def test_play_again_after_the_record_was_removed_is_refused(world, simcord_env):
    final = await finish_tap(world)
    await simcord_env.bot.storage.reset_standings(world.guild.id)
    result = await world.members[1].click(final, label="Play again")
    assert result.ephemeral and "can no longer be played again" in result.response.content
    assert simcord_env.bot.sessions.get(world.channel.id) is None
