"""Death Over the Kingdom and messages from before: a restart, and panels of an earlier game."""

from __future__ import annotations

import sys
from pathlib import Path

from shown import controls

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord_support import (  # noqa: E402
    board_of,
    card_panel,
    engine_of,
    nested,
    open_game,
    press,
    rig,
    show_components,
    snapshot_components,
)

from bot.games.kingdom.cards import BARD, DEATH, MONK, PRINCESS, QUEEN, THIEF  # noqa: E402


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

    await restart_bot(["kingdom"])
    await press(env, channel, carol, {"type": "next"})

    restored = engine_of(env, channel)
    assert restored.round == 2 and restored.phase == "play"
    assert board_of(env, channel, world.mod).attachments == []


async def test_a_card_panel_from_an_ended_game_does_nothing_in_the_next_game(world):
    """Panel ids carry the engine's version, which starts again at 0 in every game: without the
    game's own mark, game 1's "Bard: swap unseen with carol" would be a Thief's look at carol in
    game 2."""
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    first = await rig(env, channel, alice, [BARD, QUEEN, MONK, DEATH])
    panel = await card_panel(env, channel, alice)
    (bard,) = [c for c in controls(panel) if c.type == 3]
    (on_carol,) = [o["value"] for o in bard.options if "carol" in o["label"]]
    await alice.slash(channel, "end")

    await open_game(world, 4)
    second = await rig(env, channel, alice, [THIEF, QUEEN, MONK, DEATH])
    assert second.version == first.version and second.active == 0  # the same press would fit
    before = second.to_json()

    refused = await alice.select(panel, [on_carol], custom_id=bard.custom_id)

    assert refused.ephemeral and "earlier game" in refused.response.content
    assert refused.followups == []  # no Thief's look reached alice
    assert engine_of(env, channel).to_json() == before


async def test_a_card_panel_sent_before_game_marks_is_refused(world):
    """A panel from a bot without game marks cannot be told apart from an earlier game's: only
    the board message binds an unmarked press to its game."""
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [BARD, QUEEN, MONK, DEATH])
    panel = await card_panel(env, channel, alice)
    unmarked = snapshot_components(env, panel)
    (bard,) = [c for c in nested(unmarked) if c["type"] == 3]
    bard["custom_id"] = f"ps:{channel.id}:power"
    show_components(env, panel, unmarked)
    before = engine.to_json()

    refused = await alice.select(panel, [bard["options"][0]["value"]], custom_id=bard["custom_id"])

    assert refused.ephemeral and "out of date" in refused.response.content
    assert engine.to_json() == before
