"""A board message deleted by a moderator is posted again, and the game goes on."""

from __future__ import annotations

from shown import above, card, controls, is_card
from test_sessions import start_tap

DELETED = "was deleted"


def boards(world) -> list:
    """Every message in the channel that shows a game board (has buttons)."""
    return [m for m in world.channel.history() if controls(m)]


async def test_a_deleted_board_is_posted_again_says_so_and_the_game_goes_on(world, simcord_env):
    alice, bob = world.members[:2]
    old = await start_tap(world, target=5)
    await alice.click(old, label="Tap")

    await world.mod.delete(old)

    (board,) = boards(world)
    assert board.id != old.id
    assert simcord_env.bot.sessions.get(world.channel.id).board_message_id == board.id
    assert DELETED in above(board)
    assert card(board).fields[0].value == "alice: 1\nbob: 0"
    tapped = await bob.click(board, label="Tap")
    assert not tapped.ephemeral
    assert card(world.board()).fields[0].value == "alice: 1\nbob: 1"
    assert not above(world.board())  # the notice goes with the next move


async def test_a_deleted_lobby_is_posted_again(world, simcord_env):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new")
    await world.mod.delete(world.board())
    (lobby,) = boards(world)
    assert "lobby" in card(lobby).title and DELETED in above(lobby)
    await bob.click(lobby, label="Join")
    assert "bob" in card(world.board()).fields[0].value


async def test_a_board_deleted_in_bulk_is_posted_again_once(world, simcord_env):
    alice = world.members[0]
    old = await start_tap(world)
    chatter = await alice.send(world.channel, "gg")
    simcord_env.backend.bulk_delete_messages(world.channel.id, [old.id, chatter.id])
    await simcord_env.settle()
    (board,) = boards(world)
    assert board.id != old.id and DELETED in above(board)


async def test_deleting_other_messages_or_an_emptied_old_board_posts_nothing(world, simcord_env):
    alice = world.members[0]
    first = await start_tap(world)
    chatter = await alice.send(world.channel, "brb")
    await world.mod.delete(chatter)
    assert [m.id for m in boards(world)] == [first.id]
    # /board moves the board: the old message is emptied (an edit, not a delete)...
    await alice.slash(world.channel, "board")
    (moved,) = boards(world)
    assert moved.id != first.id and not above(moved)
    # ...and deleting that emptied message is nobody's concern.
    await world.mod.delete(first)
    assert [m.id for m in boards(world)] == [moved.id]
    assert simcord_env.bot.sessions.get(world.channel.id).board_message_id == moved.id


async def test_a_deleted_final_board_is_not_posted_again(world, simcord_env):
    alice, bob = world.members[:2]
    await start_tap(world, target=1)
    await alice.click(world.board(), label="Tap")  # the game ends
    final = world.board()
    assert card(final).description.startswith("🏆 Winner")
    await world.mod.delete(final)
    assert [m for m in world.channel.history() if is_card(m)] == []
