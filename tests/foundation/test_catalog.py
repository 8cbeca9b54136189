"""The real bot: every game is registered, with its commands, rules and leaderboard choice."""

from __future__ import annotations

import pytest
from shown import card

from bot.games import registry


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(list(registry.builtin()))


async def test_the_real_bot_offers_all_three_games_and_the_shared_commands(world):
    commands = set(world.members[0].available_commands(world.channel))
    assert {"kabuki new", "masks new", "kingdom new"} <= commands
    assert {"leaderboard", "stats", "rules", "help", "end", "board"} <= commands


@pytest.mark.parametrize("game", list(registry.builtin()))
async def test_every_game_has_rules_and_an_empty_leaderboard(world, game):
    rules = await world.members[0].slash(world.channel, "rules", game=game)
    assert rules.ephemeral and len(card(rules.response).description) > 200
    board = await world.members[0].slash(world.channel, "leaderboard", game=game, sort="wins")
    assert card(board.response).description == "No finished games in this server yet."


async def test_help_lists_every_game(world):
    helped = await world.members[0].slash(world.channel, "help")
    text = card(helped.response).description
    assert "`/kabuki new` — Kabuki (2–6 players)" in text
    assert "`/masks new` — Island of Monster Masks (3–8 players)" in text
    assert "`/kingdom new` — Death Over the Kingdom" in text
