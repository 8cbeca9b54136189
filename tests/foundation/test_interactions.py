"""The bot's interactions (``bot.glue.interactions``): a game press is handled without the pressed
message being parsed, the message is still there for whoever reads it, and an interaction answers
once, as discord.py's own."""

from __future__ import annotations

import discord
import pytest
from shown import is_card
from test_sessions import start_tap

from bot.glue.interactions import AcyclicInteraction, message_id, on_ephemeral


@pytest.fixture
def seen(simcord_env) -> list[discord.Interaction]:
    handled: list[discord.Interaction] = []
    bot = simcord_env.bot
    original = bot.on_interaction

    async def on_interaction(interaction):
        handled.append(interaction)
        await original(interaction)

    bot.on_interaction = on_interaction
    return handled


async def test_a_game_press_is_answered_without_its_message_parsed(world, seen):
    await start_tap(world)
    board = world.board()
    await world.members[0].click(board, label="Tap")
    press = seen[-1]
    assert isinstance(press, AcyclicInteraction)
    assert press.response.is_done()  # answered with the board
    assert press._message is None  # the board's payload was never made a Message
    assert message_id(press) == board.id and not on_ephemeral(press)
    assert press.message.id == board.id and is_card(press.message)  # parsed when read
    assert press.message is press.message


async def test_an_interaction_answers_once_as_discord_py_s_does(world, seen):
    await start_tap(world)
    await world.members[0].click(world.board(), label="Tap")
    press = seen[-1]
    with pytest.raises(discord.InteractionResponded):
        await press.response.defer()
    assert press.response.type is discord.InteractionResponseType.message_update
