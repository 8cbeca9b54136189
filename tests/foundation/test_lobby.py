"""Lobby life cycle and refusals, driven through SimCord as several members of one server."""

from __future__ import annotations

from shown import card, controls, labels


def field(message, name_start: str) -> str:
    return next(f.value for f in card(message).fields if f.name.startswith(name_start))


async def open_lobby(world, host=None, **options):
    host = host or world.members[0]
    result = await host.slash(world.channel, "tap new", **options)
    return result, world.board()


async def test_new_opens_a_lobby_with_the_host_seated(world):
    result, board = await open_lobby(world)
    assert not result.ephemeral
    assert card(board).title == "Tap — lobby"
    assert field(board, "Players") == "1. alice"
    assert labels(board) == ["Join", "Leave", "Start", "Cancel"]


async def test_join_and_leave_update_the_seats(world):
    alice, bob, carol = world.members[:3]
    _, board = await open_lobby(world)
    await bob.click(board, label="Join")
    await carol.click(world.board(), label="Join")
    assert field(world.board(), "Players (3/4)") == "1. alice\n2. bob\n3. carol"
    await bob.click(world.board(), label="Leave")
    assert field(world.board(), "Players (2/4)") == "1. alice\n2. carol"


async def test_joining_twice_or_leaving_without_a_seat_is_refused_privately(world):
    alice, bob, carol = world.members[:3]
    _, board = await open_lobby(world)
    await bob.click(board, label="Join")
    again = await bob.click(world.board(), label="Join")
    assert again.ephemeral and "already have a seat" in again.response.content
    stranger = await carol.click(world.board(), label="Leave")
    assert stranger.ephemeral and "not in this lobby" in stranger.response.content
    host_leaves = await alice.click(world.board(), label="Leave")
    assert host_leaves.ephemeral and "Cancel" in host_leaves.response.content
    assert field(world.board(), "Players") == "1. alice\n2. bob"


async def test_a_full_lobby_refuses_another_player(world):
    _, board = await open_lobby(world)
    for member in world.members[1:4]:
        await member.click(world.board(), label="Join")
    full = await world.members[4].click(world.board(), label="Join")
    assert full.ephemeral and "full" in full.response.content
    assert field(world.board(), "Players").count("\n") == 3


async def test_start_needs_enough_players(world):
    _, board = await open_lobby(world)
    start = next(c for c in controls(board) if c.label == "Start")
    assert start.disabled  # one player: the button is not even offered


async def test_only_the_host_or_a_moderator_may_start(world):
    alice, bob = world.members[:2]
    _, board = await open_lobby(world)
    await bob.click(board, label="Join")
    refused = await bob.click(world.board(), label="Start")
    assert refused.ephemeral and "Only the host or a moderator" in refused.response.content
    assert card(world.board()).title == "Tap — lobby"
    await world.mod.click(world.board(), label="Start")
    assert card(world.board()).title == "Tap"


async def test_cancel_by_a_non_host_is_refused_and_by_a_moderator_accepted(world, simcord_env):
    alice, bob = world.members[:2]
    _, board = await open_lobby(world)
    await bob.click(board, label="Join")
    refused = await bob.click(world.board(), label="Cancel")
    assert refused.ephemeral and "Only the host or a moderator" in refused.response.content
    assert simcord_env.bot.sessions.get(world.channel.id) is not None
    await world.mod.click(world.board(), label="Cancel")
    assert "cancelled by mod" in card(world.board()).description
    assert controls(world.board()) == []
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert await simcord_env.bot.storage.load_sessions() == []


async def test_a_second_game_in_the_same_channel_is_refused_with_a_pointer(world):
    alice, bob = world.members[:2]
    _, board = await open_lobby(world)
    second = await bob.slash(world.channel, "tap new")
    assert second.ephemeral
    assert "already has a Tap lobby" in second.response.content
    assert str(board.id) in second.response.content  # a link to the running lobby


async def test_games_in_two_channels_run_side_by_side(world):
    other = world.guild.create_text_channel("more-games")
    await world.members[0].slash(world.channel, "tap new")
    result = await world.members[1].slash(other, "tap new")
    assert not result.ephemeral
    assert card(other.last_message).title == "Tap — lobby"


async def test_a_thread_counts_as_its_own_channel(world, simcord_env):
    from simcord.builders import ChannelHandle

    # SimCord has no public builder for threads; its backend makes one as Discord would.
    raw = simcord_env.backend.create_thread(world.channel.id, "side game", world.members[1].id)
    await simcord_env.settle()
    thread = ChannelHandle(simcord_env, world.guild, raw)
    await world.members[0].slash(world.channel, "tap new")
    result = await world.members[1].slash(thread, "tap new")
    assert not result.ephemeral
    assert card(thread.last_message).title == "Tap — lobby"
    assert simcord_env.bot.sessions.get(thread.id).host_id == world.members[1].id


async def test_an_idle_lobby_closes_itself_after_ten_minutes(world, simcord_env):
    alice, bob = world.members[:2]
    _, board = await open_lobby(world)
    await simcord_env.advance_time(9 * 60)
    await bob.click(world.board(), label="Join")  # activity restarts the ten minutes
    await simcord_env.advance_time(9 * 60)
    assert card(world.board()).title == "Tap — lobby"
    await simcord_env.advance_time(61)
    assert "10 min without activity" in card(world.board()).description
    assert controls(world.board()) == []
    assert simcord_env.bot.sessions.get(world.channel.id) is None


async def test_presses_on_a_closed_lobby_are_refused(world, simcord_env):
    alice, bob = world.members[:2]
    _, board = await open_lobby(world)
    await alice.click(board, label="Cancel")
    # The closed lobby has no buttons left; a new lobby's old message cannot be pressed either.
    assert controls(world.board()) == []
    await alice.slash(world.channel, "tap new")
    assert world.board().id != board.id


async def test_the_lobby_says_once_when_it_closes_if_idle(world, simcord_env):
    _, board = await open_lobby(world)
    embed = card(board)
    text = "\n".join(
        [embed.description or "", embed.footer.text or "", *(f"{f.name} {f.value}" for f in embed.fields)]
    )
    assert text.lower().count("close") == 1
    deadline = simcord_env.bot.sessions.get(world.channel.id).lobby_deadline // 1000
    assert field(board, "Closes") == f"<t:{deadline}:R> if nobody joins or leaves"
