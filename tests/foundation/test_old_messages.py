"""Messages older than the game: components bound to their game, boards from before marks, and
boards from before Components V2 (an embed and action rows), which a press turns into a card."""

from __future__ import annotations

import copy
import uuid

import pytest
from shown import V2, card, controls, is_card, walk
from test_sessions import start_tap

from bot.glue.components import MAX_ID, bind, bound_id, button_id, make_view, select_id
from bot.session.publisher import picture_files
from bot.session.sessions import Session


def ids(message) -> list[str]:
    return [c.custom_id for c in controls(message)]


def unmark(env, world, message) -> str:
    """Make ``message`` show its buttons as a bot without game marks sent them; returns the mark."""
    tag = env.bot.sessions.get(world.channel.id).tag
    for item in walk(env.backend.get_message(world.channel.id, message.id).components):
        if item.get("custom_id"):
            item["custom_id"] = item["custom_id"].replace(f":{tag}:", ":")
    return tag


def scores(world) -> str:
    return card(world.board()).fields[0].value


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


async def post_in_the_old_layout(env, world):
    """The board of the channel's game posted as the bot posted boards before Components V2 (its
    embed with the picture attached, its controls in action rows, the words above it as the
    message's content), in place of its card: that message is the game's board from now on,
    saved so, and the card is deleted. Returns the message."""
    bot = env.bot
    session = bot.sessions.get(world.channel.id)
    cog = bot.game_cogs[session.kind]
    board = cog.render_board(session)
    board.attach_picture()
    bind(board.items, session.tag)
    sent = await bot.get_channel(world.channel.id).send(
        content=board.content,
        embed=board.embed,
        view=make_view(board.items),
        files=await picture_files(board),
    )
    card_id, session.board_message_id = session.board_message_id, sent.id
    assert await cog._save(session)
    await env.settle()
    await world.mod.delete(next(m for m in world.channel.history() if m.id == card_id))
    (old,) = [m for m in world.channel.history() if m.id == sent.id]
    stored = env.backend.get_message(world.channel.id, old.id)
    assert not stored.flags & V2 and len(stored.embeds) == 1 and not is_card(old)  # the old layout
    assert all(row["type"] == 1 for row in stored.components)  # its controls in action rows
    return old


def turned_into_a_card(env, world, old) -> None:
    """The old board message now shows the game as a card: Discord's flag set, no embed left."""
    stored = env.backend.get_message(world.channel.id, old.id)
    assert stored.flags & V2 and stored.embeds == [] and not stored.content
    assert world.board().id == old.id and is_card(world.board())  # edited, not posted anew


async def test_a_board_posted_before_components_v2_keeps_working_after_a_restart_and_becomes_a_card(
    world, simcord_env, restart_bot
):
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    await alice.click(world.board(), label="Tap")
    old = await post_in_the_old_layout(simcord_env, world)
    assert card(old).title == "Tap" and card(old).fields[0].value == "alice: 1\nbob: 0"
    tag = simcord_env.bot.sessions.get(world.channel.id).tag

    await restart_bot()
    tapped = await bob.click(old, label="Tap")  # the button of the old layout

    assert tapped.acknowledged and not tapped.ephemeral  # answered with the board
    turned_into_a_card(simcord_env, world, old)
    assert card(world.board()).title == "Tap" and scores(world) == "alice: 1\nbob: 1"
    assert "Turn 2: **alice**" in card(world.board()).description
    assert ids(world.board())[0] == f"pc:{world.channel.id}:{tag}:tap:"
    await alice.click(world.board(), label="Tap")  # and the card plays on
    assert scores(world) == "alice: 2\nbob: 1"
    assert not simcord_env.errors


async def test_a_kabuki_board_posted_before_components_v2_becomes_a_card_with_place_beside_its_stacks(
    world, simcord_env, restart_bot
):
    """The old layout had the four Place buttons in the first row; the press on one of them
    answers with the card, each Place beside its stack's line, the picture in a gallery."""
    await restart_bot(["kabuki"])
    members = world.members[:3]
    await members[0].slash(world.channel, "kabuki new", turn_timer=300, grace=0)
    for member in members[1:]:
        await member.click(world.board(), label="Join")
    await members[0].click(world.board(), label="Start")
    old = await post_in_the_old_layout(simcord_env, world)
    places = [c for c in controls(old) if ":place:" in (c.custom_id or "")]
    assert len(places) == 4 and all(c.beside is None for c in places)  # in a row, as before
    assert card(old).image.url  # the picture in the embed

    await restart_bot(["kabuki"])
    session = simcord_env.bot.sessions.get(world.channel.id)
    view = session.engine.view(None)
    placer = next(m for m in world.members if m.id == session.players[view["current"]["seat"]])
    turn = view["turn"]
    place = next(c for c in places if not c.disabled)
    placed = await placer.click(old, custom_id=place.custom_id)

    assert placed.acknowledged and not placed.ephemeral
    assert session.engine.view(None)["turn"] != turn  # the card is placed
    turned_into_a_card(simcord_env, world, old)
    now = world.board()
    stacks = next(f.value for f in card(now).fields if f.name.startswith("Stacks")).split("\n")
    beside = [c.beside for c in controls(now) if ":place:" in (c.custom_id or "")]
    assert beside == stacks  # each Place beside its stack's line
    assert card(now).image.url and not card(now).image.url.startswith("attachment://")
    assert not simcord_env.errors


def test_the_longest_bound_custom_id_fits_discords_limit():
    """The widest id any game draws (Kingdom's exchange: version and target) in a channel with
    the largest possible snowflake, bound to a game, stays within 100 characters."""
    channel = 2**64 - 1
    tag = Session("tap", 1, channel, 1, {}, 0, uuid.uuid4().hex, 0).tag
    assert len(bound_id(button_id(channel, "exchange", "99999999.19"), tag)) <= MAX_ID
    assert len(bound_id(select_id(channel, "power"), tag)) <= MAX_ID
    with pytest.raises(ValueError):
        bound_id(button_id(channel, "exchange", "9" * 60), tag)
