"""Odd One Out through SimCord, as its own folder registers it: the lobby, a whole game with a
round run out by its timer, each pick private, a restart mid-game, the record kept, verified and
replayed with /replay. Nothing outside this folder names the game."""

from __future__ import annotations

import pytest
from replay_checks import assert_stored_record_verifies

from bot.games import registry


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["oddoneout"])


def field(world, name):
    return next(f.value for f in world.board().embeds[0].fields if f.name == name)


async def test_a_whole_game_scores_unique_picks_keeps_picks_private_and_verifies(
    world, simcord_env, restart_bot
):
    alice, bob, carol, dave = world.members[:4]
    await alice.slash(world.channel, "oddoneout new", round_timer=20)
    for member in (bob, carol):
        await member.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    first = world.board().embeds[0].footer.text
    # Round 1: alice 3 (alone), bob 2 and carol 2 (shared: nothing).
    await alice.click(world.board(), label="3")
    private = [m for m in world.channel.history(viewer=alice) if m.flags.ephemeral]
    assert any("You picked **3**" in (m.content or "") for m in private)
    assert not any("You picked" in (m.content or "") for m in world.channel.history(viewer=bob))
    assert "3" not in field(world, "Still picking") and "alice" not in field(world, "Still picking")
    refused = await dave.click(world.board(), label="1")
    assert refused.ephemeral and "not playing" in refused.response.content
    await bob.click(world.board(), label="2")
    await carol.click(world.board(), label="2")
    assert "alice picked 3 (+3)" in field(world, "Round 1") and "bob picked 2 (+0)" in field(world, "Round 1")
    # Round 2: alice picks, then the bot restarts; bob and carol let the round's time run out.
    await alice.click(world.board(), label="1")
    twice = await alice.click(world.board(), label="2")
    assert twice.ephemeral and "already picked" in twice.response.content
    await restart_bot(["oddoneout"])
    await simcord_env.advance_time(21)
    assert "alice picked 1 (+1)" in field(world, "Round 2") and "bob picked nothing" in field(
        world, "Round 2"
    )
    # Round 3: everyone picks 1: nobody scores.
    for member in (alice, bob, carol):
        await member.click(world.board(), label="1")
    assert "alice: 4" in field(world, "Scores") and "bob: 0" in field(world, "Scores")
    assert [c.label for row in world.board().components for c in row.children] == ["Play again"]
    final = world.board().embeds[0].footer.text
    rec = await assert_stored_record_verifies(
        simcord_env.bot.storage, world.guild.id, world.channel.id, first, final
    )
    assert rec["game"] == "oddoneout" and rec["scores"] == [4, 0, 0]
    shown = await alice.slash(world.channel, "replay")
    assert shown.ephemeral and "**Replay: Odd One Out**" in shown.response.content
    assert "✅ Shuffle verified: Odd One Out" in shown.response.content


def test_it_is_registered_from_its_own_folder_and_members_never_see_it():
    game = registry.get("oddoneout")
    assert registry.missing(game) == [] and game.package == "games.oddoneout"
    assert "oddoneout" not in registry.builtin()
