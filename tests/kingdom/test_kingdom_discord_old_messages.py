"""Death Over the Kingdom and messages from before: a restart, and panels of an earlier game."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord_support import board_of, engine_of, open_game, press, rig  # noqa: E402

from bot.games.kingdom.cards import DEATH, MONK, PRINCESS, QUEEN  # noqa: E402
from cogs.kingdom import KingdomCog  # noqa: E402


async def test_the_next_round_after_a_restart_during_the_reveal_has_no_picture(world, restart_bot):
    """The reveal's picture is on the board only during the reveal; a restart in between must not
    leave it on the next round's board."""
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [MONK, QUEEN, PRINCESS, DEATH], reveal_ms=20_000)
    for member in (alice, bob, carol, dave):
        await press(env, channel, member, {"type": "stand"})
    assert engine.phase == "reveal"
    assert [a.filename for a in board_of(env, channel, world.mod).attachments] == ["reveal.png"]

    await restart_bot([KingdomCog])
    await press(env, channel, carol, {"type": "next"})

    restored = engine_of(env, channel)
    assert restored.round == 2 and restored.phase == "play"
    assert board_of(env, channel, world.mod).attachments == []
