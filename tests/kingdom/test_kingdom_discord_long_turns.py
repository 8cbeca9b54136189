"""Slow servers: a Death Over the Kingdom turn of up to a day, pinged once, across a restart."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from shown import card

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord_support import board_of, engine_of, open_game, session_of  # noqa: E402

from bot.games.kingdom.engine import KingdomEngine  # noqa: E402
from bot.session.turn_pings import PING_AFTER_MS  # noqa: E402

DAY_S = 86_400
PING_S = PING_AFTER_MS / 1000


def pings(world) -> list:
    return [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]


async def test_a_lobby_for_day_long_turns_says_so_and_waits_longer_than_ten_minutes(world) -> None:
    await world.members[0].slash(world.channel, "kingdom new", timer=DAY_S)
    lobby = world.board()
    options = next(f.value for f in card(lobby).fields if f.name == "Options")
    assert "Turn timer: 24 h" in options
    await world.env.advance_time(11 * 60)
    assert session_of(world.env, world.channel) is not None  # a slow table gathers slowly
    await world.env.advance_time(DAY_S)
    assert session_of(world.env, world.channel) is None
    assert "This lobby closed itself after 24 h without activity." in card(world.board()).description


async def test_discord_offers_turns_of_up_to_a_day_and_no_longer(world) -> None:
    command = world.env.backend.find_command("kingdom", None)
    new = next(o for o in command["options"] if o["name"] == "new")
    timer = next(o for o in new["options"] if o["name"] == "timer")
    assert (timer["min_value"], timer["max_value"]) == (10, DAY_S)


async def test_a_day_long_turn_pings_once_survives_a_restart_and_times_out_on_time(
    world, restart_bot
) -> None:
    env, channel = world.env, world.channel
    members = await open_game(world, 3, timer=DAY_S)
    engine = engine_of(env, channel)
    active, version, deadline = engine.active, engine.version, engine.deadline
    board = board_of(env, channel, world.mod)
    assert f"time runs out <t:{deadline // 1000}:R>" in card(board).description
    # Once the turn has waited 30 s, its player (only) is pinged, told where their card is.
    await env.advance_time(PING_S + 1)
    [ping] = pings(world)
    assert [user.id for user in ping.mentions] == [members[active].id]
    assert ping.content == (
        f"⏰ **Death Over the Kingdom** — <@{members[active].id}>: it is your turn: press 🃏 **My card** "
        f"to see your card and what you can do.\n"
        f"https://discord.com/channels/{world.guild.id}/{channel.id}/{session_of(env, channel).board_message_id}"
    )
    # Half a day on, the bot restarts; the turn still waits for the same player.
    await env.advance_time(DAY_S / 2)
    await restart_bot(["kingdom"])
    await env.advance_time(DAY_S / 2 - PING_S - 60)
    engine = engine_of(env, channel)
    assert (engine.active, engine.version) == (active, version)
    assert len(pings(world)) == 1  # not pinged again after the restart
    # The day runs out: the idle player stands, at the deadline set before the restart.
    await env.advance_time(61)
    engine = engine_of(env, channel)
    assert engine.version > version and active in engine.acted
    assert pings(world) == []  # that turn's ping went with it


def test_the_engine_takes_a_turn_of_a_day_and_refuses_longer() -> None:
    assert KingdomEngine.new(3, 7, {"turn_ms": DAY_S * 1000}, 0).turn_ms == DAY_S * 1000
    with pytest.raises(ValueError, match="turn_ms must be 0"):
        KingdomEngine.new(3, 7, {"turn_ms": DAY_S * 1000 + 1}, 0)
