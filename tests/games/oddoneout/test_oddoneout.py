"""Odd One Out through SimCord, as its own folder registers it: the lobby, a whole game with a
round run out by its timer, each pick private, a restart mid-game, the record kept, verified and
replayed with /replay; its catalogue, in this folder too. Nothing outside this folder names the
game: the language tests read it by its being registered with catalogues."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from replay_checks import assert_stored_record_verifies
from shown import card, labels, text

from bot.games import registry
from bot.i18n import t


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["oddoneout"])


def field(world, name):
    return next(f.value for f in card(world.board()).fields if f.name == name)


async def test_a_whole_game_scores_unique_picks_keeps_picks_private_and_verifies(
    world, simcord_env, restart_bot
):
    alice, bob, carol, dave = world.members[:4]
    await alice.slash(world.channel, "oddoneout new", round_timer=20)
    for member in (bob, carol):
        await member.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    first = card(world.board()).footer.text
    # Round 1: alice 3 (alone), bob 2 and carol 2 (shared: nothing).
    await alice.click(world.board(), label="3")
    private = [m for m in world.channel.history(viewer=alice) if m.flags.ephemeral]
    assert any("You picked **3**" in text(m) for m in private)
    assert not any("You picked" in text(m) for m in world.channel.history(viewer=bob))
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
    assert labels(world.board()) == ["Play again"]
    final = card(world.board()).footer.text
    rec = await assert_stored_record_verifies(
        simcord_env.bot.storage, world.guild.id, world.channel.id, first, final
    )
    assert rec["game"] == "oddoneout" and rec["scores"] == [4, 0, 0]
    replay = await alice.slash(world.channel, "replay")
    assert replay.ephemeral and "**Replay: Odd One Out**" in text(replay.response)
    assert "✅ Shuffle verified: Odd One Out" in text(replay.response)


def test_it_is_registered_from_its_own_folder_and_members_never_see_it():
    game = registry.get("oddoneout")
    assert registry.missing(game) == [] and game.package == "games.oddoneout"
    assert "oddoneout" not in registry.builtin()


def test_its_catalogue_lives_in_its_folder_and_speaks_once_it_is_registered():
    game = registry.get("oddoneout")
    assert game.catalogue_dir == Path(__file__).parent / "locales"
    assert t("de", "Pick 1, 2 or 3.") == "Wähl 1, 2 oder 3."
    # Registered after the catalogues were read (a plugin's game): its texts come with it.
    registry.unregister("oddoneout")
    try:
        assert t("de", "Pick 1, 2 or 3.") == "Pick 1, 2 or 3."
    finally:
        registry.register(game)
    assert t("fr", "Pick 1, 2 or 3.") == "Choisissez 1, 2 ou 3." and t("de", "Scores") == "Punkte"
    # A catalogue folder named but missing stops the start, naming it.
    assert "its catalogue folder 'nowhere' does not exist" in registry.missing(
        replace(game, locales="nowhere")
    )
