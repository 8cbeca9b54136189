"""Every printed count agrees with its noun: "1 card", "2 cards", never "1 cards"."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from shown import card
from tapgame import TAP, TapCog
from test_sessions import finish_tap

from bot.app.client import create_bot
from bot.app.config import Config
from bot.games.kingdom import board as kingdom_board
from bot.games.kingdom.engine import KingdomEngine
from bot.games.masks import board as masks_board
from bot.games.masks.engine import MasksEngine
from bot.games.registry import GameError
from bot.i18n.catalogues import compiled, install, uninstall
from bot.session.gamecog import SCORE_WORDS, score_problem
from cogs import general


def test_the_masks_final_board_says_1_card_for_a_pile_of_one():
    view = MasksEngine.new(3, 5, {}, 0).view(None)
    view.update(piles=[1, 0, 2], winners=[2], turns=1, removed=1)
    embed = masks_board.render_final(view, ["ann", "ben", "cy"]).embed
    standings = next(f.value for f in embed.fields if f.name == "Cards collected")
    assert "**cy** — 2 cards" in standings and "**ann** — 1 card" in standings
    assert "**ben** — 0 cards" in standings and "1 cards" not in standings
    assert embed.footer.text == "1 turn · 1 card left the game"


def test_the_masks_board_footer_counts_the_deck_in_words():
    view = MasksEngine.new(3, 5, {}, 0).view(None)
    view["deck"] = 1
    embed = masks_board.render(1, view, ["ann", "ben", "cy"]).embed
    assert embed.footer.text.startswith("Deck: 1 card · ")


def test_the_kingdom_board_and_final_board_count_in_words():
    view = KingdomEngine.new(3, 5, {"turn_ms": 0}, 0).view(None)
    view["deck_size"] = 1
    embed = kingdom_board.kingdom_board(view, ["ann", "ben", "cy"], 1, "key").embed
    assert next(f.value for f in embed.fields if f.name == "Deck").startswith("1 card")
    view["reveal"], view["round"] = None, 1
    final = kingdom_board.final_board(view, ["ann", "ben", "cy"], [0], "key").embed
    assert " · 1 round · " in final.footer.text


async def test_leaderboard_and_stats_say_1_win_1_tap_1_game(world):
    await finish_tap(world)  # alice and bob: one tap each, a shared win, one game
    alice = world.members[0]
    board = await alice.slash(world.channel, "leaderboard", game="tap", sort="wins")
    text = card(board.response).description
    # The leaderboard is a table of numbers under their columns' names; /stats counts in words.
    assert "#  Wins  Taps  Games  Name\n1     1     1      1  alice\n" in text
    stats = await alice.slash(world.channel, "stats")
    assert "Best game: **1 tap**" in card(stats.response).fields[0].value


def test_the_bots_words_for_a_score_are_translated_by_the_shared_commands():
    # gamecog.SCORE_WORDS (checked at start-up) and cogs/general.py's messages name the same words.
    assert set(SCORE_WORDS) == set(general.SCORE_NAMES) == set(general.SCORE_COUNTS)


def test_a_game_brings_its_own_score_words_translated_from_its_catalogue():
    taps = Catalog(locale="de")
    taps.add(("{n} tap", "{n} taps"), ("{n} Tipp", "{n} Tipps"))
    install("de-TAP", compiled(taps, "de"))
    try:
        assert [general.score_count("de-TAP", TapCog, n) for n in (1, 2)] == ["1 Tipp", "2 Tipps"]
    finally:
        uninstall("de-TAP")
    assert general.score_count("de", None, 2) == "2 Punkte"  # a game no longer loaded: points


async def test_a_score_label_neither_the_bots_nor_brought_with_its_words_stops_the_start(monkeypatch):
    monkeypatch.setattr(TapCog, "score_counts", None)  # "taps", one of no catalogue's words
    said = score_problem(TapCog)
    assert said == (
        "its cog's score_label 'taps' is none of the bot's words for a score (VP, cards, tokens, points),"
        ' and the cog gives no score_counts: name the game\'s own in its package, score_label = N_("taps")'
        ' and score_counts = NN_("{n} tap", "{n} taps"), so its catalogue area translates them'
    )
    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    with pytest.raises(GameError, match=r"the game 'tap' \(.*\) is incomplete: its cog's score_label 'taps'"):
        await create_bot(config, games=[TAP]).load_cogs()
    monkeypatch.setattr(TapCog, "score_counts", ("{n} tap", "taps"))
    assert score_problem(TapCog) == (
        "its cog's score_counts ('{n} tap', 'taps') is no pair of \"{n} …\" messages:"
        ' NN_("{n} tap", "{n} taps")'
    )
