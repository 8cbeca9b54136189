"""Play again: the final board's button opens one new lobby with the same game and options."""

from __future__ import annotations

from shown import above, card, labels
from test_lobby import field

from bot.session.sessions import LOBBY


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


async def test_the_final_board_offers_play_again(world):
    final = await finish_tap(world)
    assert card(final).title == "Tap — game over"
    assert labels(final) == ["Play again"]


async def test_play_again_opens_a_lobby_with_the_same_options_hosted_by_the_presser_asking_the_players(
    world, simcord_env
):
    alice, bob, carol = world.members[:3]
    final = await finish_tap(world, players=3, target=3)
    result = await bob.click(final, label="Play again")
    assert not result.ephemeral
    lobby = world.board()
    assert lobby.id != final.id and card(lobby).title == "Tap — lobby"
    assert "Host: **bob**" in card(lobby).description
    assert field(lobby, "Players") == "1. bob"  # asked, not seated
    assert field(lobby, "Options") == "target: 3"
    # The other players of the finished game are asked by mention; the host is not.
    assert above(lobby).startswith(f"<@{alice.id}> <@{carol.id}>:")
    assert f"<@{bob.id}>" not in above(lobby)
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.status == LOBBY and session.options == {"target": 3}
    # Anyone may join as usual, and the invitation stays above the lobby as it changes.
    await world.members[4].click(lobby, label="Join")
    assert field(world.board(), "Players") == "1. bob\n2. erin"
    assert above(world.board()) == above(lobby)


async def test_a_bystander_cannot_start_a_rematch_and_nobody_is_pinged(world, simcord_env):
    final = await finish_tap(world)  # alice and bob played
    erin = world.members[4]
    result = await erin.click(final, label="Play again")
    assert result.ephemeral
    assert result.response.content == "Only the players of that game (or a moderator) can start a rematch."
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert world.board().id == final.id  # no lobby, no mention


async def test_a_moderator_who_did_not_play_may_start_the_rematch_for_the_table(world, simcord_env):
    alice, bob = world.members[:2]
    final = await finish_tap(world)
    result = await world.mod.click(final, label="Play again")
    assert not result.ephemeral
    lobby = world.board()
    assert "Host: **mod-Friends**" in card(lobby).description
    assert above(lobby).startswith(f"<@{alice.id}> <@{bob.id}>:")


async def test_the_other_players_take_their_seats_by_pressing_play_again_too(world, simcord_env):
    alice, bob, carol = world.members[:3]
    final = await finish_tap(world, players=3, target=3)
    await alice.click(final, label="Play again")
    lobby = world.board()
    assert above(lobby) == (
        f"<@{bob.id}> <@{carol.id}>: **alice** asks you to play again. Press **Join** here, or "
        "**Play again** on the last game's board, to take a seat."
    )
    result = await bob.click(final, label="Play again")
    assert result.ephemeral and result.response.content.startswith("You took a seat in the rematch: https://")
    assert world.board().id == lobby.id  # no second lobby, no new message
    assert field(world.board(), "Players") == "1. alice\n2. bob"
    # The line now asks only those still missing (an edit: it pings nobody again).
    assert above(world.board()).startswith(f"<@{carol.id}>: **alice** asks you to play again.")
    again = await bob.click(final, label="Play again")
    assert again.ephemeral and again.response.content.startswith("You already have a seat in the rematch:")
    await carol.click(final, label="Play again")
    assert field(world.board(), "Players") == "1. alice\n2. bob\n3. carol"
    assert above(world.board()) == "Everyone from the last game is seated again with **alice**."
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.host_id == alice.id and session.players == [alice.id, bob.id, carol.id]


async def test_play_again_is_refused_privately_while_the_channel_has_another_game(world, simcord_env):
    alice, bob = world.members[:2]
    final = await finish_tap(world)
    await world.members[3].slash(world.channel, "tap new", target=5)  # dave's own lobby, no rematch
    lobby = world.board()
    again = await bob.click(final, label="Play again")
    assert again.ephemeral and "already has a Tap lobby" in again.response.content
    assert world.board().id == lobby.id
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.host_id == world.members[3].id and session.players == [world.members[3].id]


async def test_a_player_takes_a_seat_in_the_rematch_after_a_restart(world, simcord_env, restart_bot):
    alice, bob = world.members[:2]
    final = await finish_tap(world)
    await alice.click(final, label="Play again")
    await restart_bot()
    result = await bob.click(final, label="Play again")
    assert result.ephemeral and "You took a seat in the rematch" in result.response.content
    assert field(world.board(), "Players") == "1. alice\n2. bob"


async def test_play_again_works_after_a_restart(world, simcord_env, restart_bot):
    alice, bob = world.members[:2]
    final = await finish_tap(world)
    await restart_bot()
    result = await bob.click(final, label="Play again")
    assert not result.ephemeral
    assert card(world.board()).title == "Tap — lobby"
    assert above(world.board()).startswith(f"<@{alice.id}>:")
    # The new lobby is a session like any other: it survives a further restart with its invitation.
    await restart_bot()
    await alice.click(world.board(), label="Join")
    assert field(world.board(), "Players") == "1. bob\n2. alice"
    assert above(world.board()) == "Everyone from the last game is seated again with **bob**."


async def test_play_again_after_the_record_was_removed_is_refused(world, simcord_env):
    final = await finish_tap(world)
    await simcord_env.bot.storage.reset_standings(world.guild.id)
    result = await world.members[1].click(final, label="Play again")
    assert result.ephemeral and "can no longer be played again" in result.response.content
    assert simcord_env.bot.sessions.get(world.channel.id) is None
