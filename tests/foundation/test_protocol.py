"""The shared engine protocol: seeded dice, fair races, events, and the Tap reference game."""

from __future__ import annotations

import json

import pytest
from tapgame import TapEngine

from bot.engine import Dice, Event, IllegalAction, Race


def test_dice_from_the_same_seed_draw_the_same_sequence():
    a, b = Dice(7), Dice(7)
    assert [a.randrange(1000) for _ in range(20)] == [b.randrange(1000) for _ in range(20)]
    assert Dice(8).shuffled(range(30)) != Dice(7).shuffled(range(30))


def test_dice_restored_from_json_continue_where_they_stopped():
    dice = Dice(99)
    dice.shuffled(range(10))
    copy = Dice.from_json(json.loads(json.dumps(dice.to_json())))
    assert [dice.randrange(10**6) for _ in range(5)] == [copy.randrange(10**6) for _ in range(5)]


def test_race_is_won_by_the_earliest_timestamp_not_the_first_arrival():
    race = Race.open(seat=2, at=1_000, window_ms=250)
    race.add(seat=0, at=990)  # arrived second, pressed first
    race.add(seat=1, at=1_120)
    assert race.winner().seat == 0
    assert [(e.seat, by) for e, by in race.losers()] == [(2, 10), (1, 130)]
    assert race.closes_at == 1_250


def test_race_ties_keep_arrival_order_and_survive_json():
    race = Race.open(seat=3, at=500, window_ms=100)
    race.add(seat=1, at=500)
    copy = Race.from_json(json.loads(json.dumps(race.to_json())))
    assert copy.winner().seat == 3 and copy.has(1) and not copy.has(0)


def test_events_know_who_may_see_them():
    public, secret = Event("tapped", {"seat": 0}), Event("secret", {"value": 1}, to=(1,))
    assert public.public and public.visible_to(None) and public.visible_to(3)
    assert not secret.public and secret.visible_to(1) and not secret.visible_to(0)
    assert not secret.visible_to(None)


def test_reference_game_refuses_out_of_turn_play_with_a_reason():
    game = TapEngine.new(2, seed=1, options={}, now=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(1, {"type": "tap"}, now=10)


def test_reference_game_player_count_is_checked():
    with pytest.raises(ValueError, match="2–4 players"):
        TapEngine.new(5, seed=1, options={}, now=0)


def test_reference_game_round_trips_and_keeps_secrets_out_of_the_public_view():
    game = TapEngine.new(3, seed=5, options={"target": 4}, now=0)
    game.apply(0, {"type": "tap"}, now=1)
    copy = TapEngine.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.view(None) == game.view(None)
    assert "secret" not in game.view(None) and "secret" in game.view(1)
    assert copy.apply(1, {"type": "tap"}, now=2) == game.apply(1, {"type": "tap"}, now=2)
