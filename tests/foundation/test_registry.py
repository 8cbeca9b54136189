"""The game registry: every game in one descriptor, found by a scan; an unknown or incomplete game
is refused by name, at start-up, and never handled by another game's code."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
from tapgame import TAP

from bot.__main__ import main
from bot.app.client import create_bot
from bot.app.config import Config
from bot.community.replay_board import public_board
from bot.community.replays import record_problem, verify
from bot.engine.replay import ReplayError
from bot.games import registry
from bot.games.kabuki.engine import KabukiEngine

ROOT = Path(__file__).resolve().parents[2]


def test_the_scan_finds_every_game_package_in_the_order_members_see_them():
    # Every package under bot/games/ is a game, whatever its name: a new one is found here by
    # being there. The games ORDER names come first, as /help and the game: choices list them.
    packages = sorted(path.parent.name for path in (ROOT / "bot" / "games").glob("*/__init__.py"))
    found = registry.builtin()
    assert sorted(game.package.rpartition(".")[2] for game in found.values()) == packages
    named = [id for id in registry.ORDER if id in found]
    assert list(found) == named + sorted(set(found) - set(named))
    assert all(game.title and registry.members_play(game) for game in found.values())


@pytest.mark.parametrize("game", registry.games().values(), ids=lambda g: g.id)
def test_every_registered_game_is_whole_and_has_its_rules_document(game):
    # Members' games with every optional part too (registry.OPTIONAL), and every rules document
    # where the descriptor says: missing() says which, and stops the bot's start with it.
    assert registry.missing(game) == [], f"{game.id}: {registry.missing(game)}"


def test_a_game_members_play_without_an_optional_part_is_refused_naming_it():
    kabuki = registry.get("kabuki")
    refused = registry.missing(dataclasses.replace(kabuki, computers=None, simulator=None))
    assert refused == [
        "no computers and no simulator: a game under bot/games/ is played by members, so it needs every"
        " one of history, checker, computers, simulator (they are optional only for a test's or a"
        " plugin's game)"
    ]
    # A test's game may leave all four out: Tap has none of them.
    assert None is TAP.history is TAP.checker is TAP.computers is TAP.simulator
    assert registry.missing(TAP) == [] and not registry.members_play(TAP)


async def test_a_wrong_rules_path_stops_the_start_naming_the_game_and_the_path():
    wrong = dataclasses.replace(TAP, rules="docs/tap.md")
    assert registry.missing(wrong) == [
        f"its rules document 'docs/tap.md' does not exist (the path is relative to {ROOT})"
    ]
    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    with pytest.raises(
        registry.GameError, match=r"the game 'tap' \(.*\) is incomplete: its rules document 'docs/tap.md'"
    ):
        await create_bot(config, games=[wrong]).load_cogs()


async def test_the_start_says_what_a_game_without_optional_parts_goes_without(caplog):
    # Nothing refuses a test's or a plugin's game without them, so its author reads it here.
    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    with caplog.at_level(logging.INFO, logger="bot.app.client"):
        await create_bot(config, games=[TAP, registry.get("kabuki")]).load_cogs()
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("the game ")]
    assert said == [
        "the game 'tap' (Tap) has no record of its finished games (/replay and verify have none of"
        " it); no Add computer in its lobby; no simulator (python -m bot simulate tap says so)"
    ]


def test_an_unknown_id_is_refused_naming_the_close_matches():
    with pytest.raises(registry.GameError, match=r"no game 'kabki' is registered .* did you mean 'kabuki'\?"):
        registry.get("kabki")


def test_a_game_lacking_a_part_is_refused_naming_it_and_the_part():
    broken = dataclasses.replace(TAP, history="tapgame", checker=None)
    with pytest.raises(registry.GameError) as refused:
        registry.check(broken)
    assert "'tap'" in str(refused.value) and "a history without a checker" in str(refused.value)
    assert "its history has no log_record()" in str(refused.value)
    nowhere = dataclasses.replace(TAP, cog="tests.no_such_cog")
    assert any("its cog 'tests.no_such_cog' cannot be loaded" in p for p in registry.missing(nowhere))


def test_a_second_game_under_a_known_id_is_refused():
    twin = dataclasses.replace(registry.get("kabuki"), rules="docs/other.md")
    with pytest.raises(registry.GameError, match="a second game registers the id 'kabuki'"):
        registry.register(twin)
    assert registry.get("kabuki") is registry.builtin()["kabuki"]


async def test_a_bot_with_an_incomplete_game_does_not_start():
    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    bot = create_bot(config, games=[dataclasses.replace(TAP, cog="tests.no_such_cog")])
    with pytest.raises(registry.GameError, match=r"the game 'tap' \(.*\) is incomplete: its cog"):
        await bot.load_cogs()
    with pytest.raises(registry.GameError, match="did you mean 'kingdom'"):
        create_bot(config, games=["kingdon"])


def test_the_replay_board_refuses_a_game_it_does_not_know():
    engine = KabukiEngine.new(2, 1, {}, 0)
    with pytest.raises(ReplayError, match="no game 'chess' is registered"):
        public_board("chess", engine, ["A", "B"], "k1")
    registry.register(TAP)  # a game that keeps no record: its replay is refused, not drawn
    try:
        with pytest.raises(ReplayError, match="Tap keeps no record of its games"):
            public_board("tap", engine, ["A", "B"], "k1")
    finally:
        registry.unregister("tap")


def test_a_record_of_an_unknown_game_is_refused_by_verify():
    rec = {"format": 2, "game": "chess", "seed": 1, "players": 2, "options": {}, "log": []}
    assert record_problem(rec).startswith(
        "a record of 'chess', not a game this bot knows (kabuki, masks, kingdom"
    )
    assert not verify(rec).verified


def test_simulate_says_in_one_line_when_a_game_has_no_simulator(capsys):
    registry.register(TAP)
    try:
        assert main(["simulate", "tap"]) == 1
    finally:
        registry.unregister("tap")
    assert capsys.readouterr().err == "Tap has no simulator\n"
    assert main(["simulate", "kabki"]) == 2
    assert "did you mean 'kabuki'?" in capsys.readouterr().err
