"""Scripted Kabuki scenarios, one rule per test (rules: shared/rules/kabuki.md)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.engine.protocol import Event, IllegalAction
from bot.games.kabuki.engine import DECK_SIZE, DEFAULT_OPTIONS, KabukiEngine
from bot.games.kabuki.replay import ReplayError, check_log
from bot.games.kabuki.scripting import full_deck, script_round
from bot.games.kabuki.simulate import record

GRACE = DEFAULT_OPTIONS["grace_ms"]
WINDOW = DEFAULT_OPTIONS["race_window_ms"]
REVEAL = DEFAULT_OPTIONS["reveal_ms"]
TURN = DEFAULT_OPTIONS["turn_ms"]

FOX, OWL, CAT, SUN = 2, 5, 4, 0


def game(players: int = 3, prefix: tuple[int, ...] = (), first: int = 0, **options: int) -> KabukiEngine:
    engine = KabukiEngine.new(players, seed=7, options=options, now=0)
    script_round(engine, prefix, first)
    return engine


def place(engine: KabukiEngine, seat: int, stack: int, at: int) -> list[Event]:
    events = engine.advance(at)
    return events + engine.apply(seat, {"type": "place", "stack": stack}, at)


def stop(engine: KabukiEngine, seat: int, at: int) -> list[Event]:
    events = engine.advance(at)
    return events + engine.apply(seat, {"type": "stop"}, at)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, kinds(events)
    return found[0]


def play_cards(engine: KabukiEngine, stacks: list[int], start: int = 0, seat: int = 0) -> int:
    """Place one card per entry on the given stacks, each as early as allowed; returns the time."""
    t = start
    for stack in stacks:
        place(engine, seat, stack, t)
        seat = (seat + 1) % engine.players
        t += GRACE
    return t - GRACE


def challenge(engine: KabukiEngine, seat: int, at: int) -> Event:
    """Press Stop alone and let the race close; returns the challenge event."""
    stop(engine, seat, at)
    return only(engine.advance(at + WINDOW), "challenge")


# -- setup --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 5), (3, 5), (4, 5), (5, 4), (6, 4)])
def test_each_player_gets_five_tokens_with_two_to_four_players_and_four_with_five_or_six(
    players: int, each: int
) -> None:
    engine = KabukiEngine.new(players, seed=1, options={}, now=0)
    view = engine.view(None)
    assert view["tokens"] == [each] * players
    assert view["box"] == 24 - each * players
    assert view["round"] == 1 and view["totals"] == [0] * players


@pytest.mark.parametrize("players", [0, 1, 7])
def test_kabuki_needs_two_to_six_players(players: int) -> None:
    with pytest.raises(ValueError):
        KabukiEngine.new(players, seed=1, options={}, now=0)


def test_options_have_defaults_and_bad_options_raise_value_error() -> None:
    assert KabukiEngine.new(2, 1, {}, 0).options == {
        "grace_ms": 3000,
        "race_window_ms": 250,
        "reveal_ms": 8000,
        "turn_ms": 60000,
    }
    assert KabukiEngine.new(2, 1, {"grace_ms": 1000}, 0).options["grace_ms"] == 1000
    for bad in (
        {"grace_ms": -1},
        {"turn_ms": 10},
        {"race_window_ms": 10**6},
        {"reveal_ms": "8"},
        {"speed": 1},
    ):
        with pytest.raises(ValueError):
            KabukiEngine.new(2, 1, bad, 0)


def test_the_deck_holds_ten_masks_five_copies_each_shuffled_by_the_seed() -> None:
    decks = [KabukiEngine.new(3, seed, {}, 0).deck for seed in range(5)]
    for deck in decks:
        assert Counter(deck) == {m: 5 for m in range(10)}
    assert len({tuple(d) for d in decks}) == 5
    assert KabukiEngine.new(3, 3, {}, 0).deck == decks[3]


def test_first_player_of_round_one_is_random_from_the_seed() -> None:
    firsts = {KabukiEngine.new(4, seed, {}, 0).active for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_the_four_stacks_start_empty() -> None:
    view = KabukiEngine.new(2, 1, {}, 0).view(None)
    assert view["stacks"] == [{"top": None, "height": 0}] * 4


# -- turns ---------------------------------------------------------------------------------------


def test_the_drawn_card_is_the_top_of_the_deck_and_shown_to_everyone() -> None:
    engine = game(prefix=(FOX, OWL), first=1)
    assert engine.view(None)["current"] == {"card": FOX, "seat": 1}
    events = place(engine, 1, 2, 0)
    assert only(events, "placed").data["card"] == FOX
    assert only(events, "turn").data == {
        "seat": 2,
        "card": OWL,
        "turn": 1,
        "place_from": GRACE,
        "deadline": GRACE + TURN,
    }
    view = engine.view(None)
    assert view["stacks"][2] == {"top": FOX, "height": 1}
    assert view["current"] == {"card": OWL, "seat": 2}
    assert view["deck_left"] == DECK_SIZE - 2


def test_play_goes_around_the_seats() -> None:
    engine = game(players=3, first=2)
    seats = []
    for i in range(7):
        seats.append(engine.active)
        place(engine, engine.active, i % 4, i * GRACE)
    assert seats == [2, 0, 1, 2, 0, 1, 2]


def test_only_the_active_player_may_place() -> None:
    engine = game(first=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        place(engine, 1, 0, 0)
    assert engine.legal_actions(1) == []


def test_next_player_cannot_place_until_the_grace_period_has_passed() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 1000)
    with pytest.raises(IllegalAction, match="Wait"):
        place(engine, 1, 1, 1000 + GRACE - 1)
    assert [a["type"] for a in engine.legal_actions(1)] == ["stop"]
    place(engine, 1, 1, 1000 + GRACE)


def test_a_placement_needs_a_real_stack_and_a_current_turn_number() -> None:
    engine = game(first=0)
    for bad in (-1, 4, "1", None, True):
        with pytest.raises(IllegalAction, match="stack"):
            engine.apply(0, {"type": "place", "stack": bad}, 0)
    with pytest.raises(IllegalAction, match="already placed"):
        engine.apply(0, {"type": "place", "stack": 0, "turn": 5}, 0)
    engine.apply(0, {"type": "place", "stack": 0, "turn": 0}, 0)
    with pytest.raises(IllegalAction):
        engine.apply(0, {"type": "dance"}, 0)
    with pytest.raises(IllegalAction, match="not playing"):
        engine.apply(9, {"type": "stop"}, 0)


def test_legal_actions_list_the_four_stacks_for_the_active_player() -> None:
    engine = game(first=0)
    assert engine.legal_actions(0) == [{"type": "place", "stack": s, "turn": 0} for s in range(4)]
    assert engine.legal_actions(1) == []


# -- Stop! ---------------------------------------------------------------------------------------


def test_stop_with_no_match_costs_the_challenger_one_token_to_the_box() -> None:
    engine = game(prefix=(FOX, OWL), first=0)
    play_cards(engine, [0, 0])  # Owl on Fox: no match
    event = challenge(engine, 0, GRACE + 100)
    assert event.data["k"] == 0 and event.data["to"] == "box"
    assert engine.tokens == [4, 5, 5]
    assert engine.box == 24 - 15 + 1


def test_stop_with_one_match_moves_one_token_from_placer_to_challenger() -> None:
    engine = game(prefix=(FOX, OWL, FOX), first=0)
    t = play_cards(engine, [0, 1, 0])  # seat 2 puts a second Fox on stack 1
    event = challenge(engine, 1, t + 10)
    assert (event.data["k"], event.data["moved"], event.data["placer"], event.data["challenger"]) == (
        1,
        1,
        2,
        1,
    )
    assert engine.tokens == [5, 6, 4]


def test_stop_with_two_matches_moves_two_tokens_capped_by_placer_tokens() -> None:
    engine = game(prefix=(FOX, FOX, OWL, FOX), first=0)
    t = play_cards(engine, [0, 0, 1, 0])  # seat 0 puts the third Fox on stack 1: k = 2
    engine.tokens = [1, 5, 9]  # the placer has only one token left
    event = challenge(engine, 2, t + 10)
    assert event.data["k"] == 2 and event.data["moved"] == 1
    assert event.data["matches"] == [0, 1]
    assert engine.tokens[0] == 0 and engine.tokens[2] == 10


def test_stop_with_two_matches_moves_two_tokens() -> None:
    engine = game(prefix=(FOX, FOX, OWL, FOX), first=0)
    t = play_cards(engine, [0, 0, 1, 0])
    event = challenge(engine, 2, t + 10)
    assert (event.data["k"], event.data["moved"]) == (2, 2)
    assert engine.tokens == [3, 5, 7]


def test_old_mistakes_below_the_top_are_ignored() -> None:
    # Stack 1: Fox, Fox (an uncaught mistake), Owl on top: challenging the Owl finds no match.
    engine = game(prefix=(FOX, FOX, OWL), first=0)
    t = play_cards(engine, [0, 0, 0])
    event = challenge(engine, 0, t + 10)
    assert event.data["cards"] == [FOX, FOX, OWL]
    assert event.data["k"] == 0 and event.data["matches"] == []
    assert engine.tokens == [4, 5, 5]


def test_the_stack_is_put_back_unchanged_after_a_challenge() -> None:
    engine = game(prefix=(FOX, OWL, FOX), first=0)
    t = play_cards(engine, [0, 0, 0])
    challenge(engine, 1, t + 10)
    engine.advance(t + 10 + WINDOW + REVEAL)
    assert engine.stacks[0] == [FOX, OWL, FOX]
    assert engine.view(None)["stacks"][0] == {"top": FOX, "height": 3}


def test_stop_by_the_placer_is_refused() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    with pytest.raises(IllegalAction, match="you cannot stop yourself"):
        stop(engine, 0, 10)
    assert engine.legal_actions(0) == []


def test_stop_when_no_card_has_been_placed_is_refused() -> None:
    engine = game(first=0)
    with pytest.raises(IllegalAction, match="No card"):
        stop(engine, 1, 10)


def test_a_second_stop_by_the_same_seat_is_refused() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    stop(engine, 1, 100)
    with pytest.raises(IllegalAction, match="already pressed"):
        stop(engine, 1, 120)


def test_a_placement_can_be_challenged_only_once() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    challenge(engine, 1, 100)
    with pytest.raises(IllegalAction, match="already challenged"):
        stop(engine, 2, 100 + WINDOW + 1)
    engine.advance(100 + WINDOW + REVEAL)
    with pytest.raises(IllegalAction, match="already challenged"):
        stop(engine, 2, 100 + WINDOW + REVEAL + 1)


def test_the_stop_window_closes_when_the_next_card_is_placed() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    place(engine, 1, 1, GRACE + 500)
    # A press made before the second placement but processed after it was for the first card.
    with pytest.raises(IllegalAction, match="Too late"):
        engine.apply(2, {"type": "stop"}, GRACE + 400)
    with pytest.raises(IllegalAction, match="no longer the last"):
        engine.apply(2, {"type": "stop", "turn": 1}, GRACE + 600)
    stop(engine, 2, GRACE + 600)  # the second card is fair game


def test_the_stop_window_lasts_as_long_as_nobody_places() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    event = challenge(engine, 1, 50_000)
    assert event.data["turn"] == 1


def test_stop_race_is_won_by_the_earliest_timestamp_not_the_first_to_arrive() -> None:
    engine = game(players=4, first=0)
    place(engine, 0, 0, 0)
    engine.advance(1000)
    engine.apply(1, {"type": "stop"}, 1000)  # arrives first
    engine.apply(2, {"type": "stop"}, 960)  # pressed 40 ms earlier, arrived later
    engine.apply(3, {"type": "stop"}, 1100)
    events = engine.advance(1000 + WINDOW)
    assert only(events, "challenge").data["challenger"] == 2
    lost = {e.to: e.data for e in events if e.kind == "race_lost"}
    assert lost == {(1,): {"winner": 2, "by_ms": 40, "turn": 1}, (3,): {"winner": 2, "by_ms": 140, "turn": 1}}


def test_race_events_are_private_to_each_presser() -> None:
    engine = game(players=4, first=0)
    place(engine, 0, 0, 0)
    events = stop(engine, 1, 500)
    assert kinds(events) == ["race_open", "stop_received"]
    assert events[0].public and "seat" not in events[0].data
    assert events[1].to == (1,)


def test_a_press_after_the_race_closed_is_refused() -> None:
    engine = game(players=4, first=0)
    place(engine, 0, 0, 0)
    stop(engine, 1, 500)
    with pytest.raises(IllegalAction, match="Too late"):
        engine.apply(2, {"type": "stop"}, 500 + WINDOW)


def test_placement_is_refused_while_a_race_is_open_or_a_reveal_is_showing() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    stop(engine, 2, GRACE - 10)
    with pytest.raises(IllegalAction, match="Stop"):
        place(engine, 1, 1, GRACE)
    engine.advance(GRACE - 10 + WINDOW)
    with pytest.raises(IllegalAction, match="shown"):
        place(engine, 1, 1, GRACE - 10 + WINDOW + REVEAL - 1)
    assert engine.legal_actions(1) == []
    place(engine, 1, 1, GRACE - 10 + WINDOW + REVEAL)


def test_the_challenged_stack_is_revealed_to_everyone_for_the_reveal_time_only() -> None:
    engine = game(prefix=(FOX, OWL, FOX), first=0)
    t = play_cards(engine, [0, 0, 0])
    challenge(engine, 1, t + 10)
    until = t + 10 + WINDOW + REVEAL
    reveal = engine.view(None)["reveal"]
    assert reveal["cards"] == [FOX, OWL, FOX] and reveal["matches"] == [0] and reveal["until"] == until
    assert engine.next_deadline() == until
    assert "cards" not in engine.view(None)["last_event"]["data"]
    engine.advance(until - 1)
    assert engine.view(None)["reveal"] is not None
    events = engine.advance(until)
    assert kinds(events) == ["reveal_end", "turn"]
    assert engine.view(None)["reveal"] is None


# -- end of a round --------------------------------------------------------------------------------


def test_placer_who_loses_the_last_token_ends_the_round_and_starts_the_next() -> None:
    engine = game(prefix=(FOX, FOX), first=0)
    t = play_cards(engine, [0, 0])
    engine.tokens = [9, 1, 5]
    events = challenge_events(engine, 0, t + 10)
    end = only(events, "round_end").data
    assert end == {
        "round": 1,
        "ended_by": 1,
        "reason": "zero_tokens",
        "tokens": [10, 0, 5],
        "totals": [10, 0, 5],
    }
    assert engine.view(None)["phase"] == "between"
    with pytest.raises(IllegalAction, match="round is over"):
        place(engine, 2, 0, t + 20 + WINDOW)
    events = engine.advance(t + 10 + WINDOW + REVEAL)
    assert kinds(events) == ["reveal_end", "round_start", "turn"]
    assert engine.round == 2 and engine.active == 1
    assert engine.tokens == [5, 5, 5]


def challenge_events(engine: KabukiEngine, seat: int, at: int) -> list[Event]:
    stop(engine, seat, at)
    return engine.advance(at + WINDOW)


def test_challenger_who_returns_her_last_token_ends_the_round() -> None:
    engine = game(prefix=(FOX, OWL), first=0)
    t = play_cards(engine, [0, 0])
    engine.tokens = [1, 5, 9]
    events = challenge_events(engine, 0, t + 10)
    end = only(events, "round_end").data
    assert (end["ended_by"], end["reason"], end["tokens"]) == (0, "zero_tokens", [0, 5, 9])
    engine.advance(t + 10 + WINDOW + REVEAL)
    assert engine.round == 2 and engine.active == 0


def test_deck_exhausted_round_ends_when_the_last_window_closes_and_the_last_placer_ended_it() -> None:
    engine = game(players=3, first=0)
    t = play_cards(engine, [i % 4 for i in range(DECK_SIZE)])
    last_placer = (DECK_SIZE - 1) % 3
    view = engine.view(None)
    assert view["current"] is None and view["stop_window"]["closes_at"] == t + GRACE
    assert engine.next_deadline() == t + GRACE
    assert engine.advance(t + GRACE - 1) == []
    events = engine.advance(t + GRACE)
    end = only(events, "round_end").data
    assert (end["ended_by"], end["reason"]) == (last_placer, "deck_out")
    assert engine.round == 2 and engine.active == last_placer


def test_the_last_card_can_be_challenged_and_the_round_ends_after_its_window() -> None:
    engine = game(players=2, prefix=(FOX,) * 5, first=0)
    t = play_cards(engine, [i % 4 for i in range(DECK_SIZE)])
    stop(engine, 0, t + GRACE - 1)  # seat 1 placed the 50th card
    events = engine.advance(t + GRACE - 1 + WINDOW)
    assert kinds(events)[:2] == ["challenge", "round_end"]
    end = only(events, "round_end").data
    assert end["ended_by"] == 1 and end["reason"] == "deck_out"
    assert engine.view(None)["reveal"] is not None
    engine.advance(t + GRACE - 1 + WINDOW + REVEAL)
    assert engine.round == 2 and engine.active == 1


def test_a_stop_after_the_last_window_closed_is_refused() -> None:
    engine = game(players=2, first=0)
    t = play_cards(engine, [i % 4 for i in range(DECK_SIZE)])
    with pytest.raises(IllegalAction, match="Too late"):
        engine.apply(0, {"type": "stop"}, t + GRACE)


def test_the_player_who_ended_the_round_starts_the_next_one() -> None:
    engine = game(players=4, prefix=(FOX, FOX), first=3)
    t = play_cards(engine, [0, 0], seat=3)
    engine.tokens = [1, 5, 9, 5]  # seat 3 placed the first Fox, seat 0 the second
    challenge(engine, 2, t + 10)
    engine.advance(t + 10 + WINDOW + REVEAL)
    assert engine.round == 2 and engine.active == 0 and engine.log[-1]["first"] == 0


def test_tokens_do_not_carry_over_and_totals_add_up_over_three_rounds() -> None:
    engine = game(players=2, prefix=(FOX, FOX), first=0)
    t = play_cards(engine, [0, 0])
    challenge(engine, 0, t + 10)  # round 1 goes on: tokens 6 / 4
    engine.advance(10**9)  # idle players: the turn timer plays everything out
    assert engine.is_over
    rounds = engine.result().details["rounds"]
    assert [r["tokens"] for r in rounds][0] == [6, 4]
    assert [r["tokens"] for r in rounds][1:] == [[5, 5], [5, 5]]
    assert engine.result().scores == (16, 14)
    assert engine.result().winners == (0,)


def test_equal_totals_share_the_victory() -> None:
    engine = KabukiEngine.new(3, seed=2, options={}, now=0)
    engine.advance(10**9)
    assert engine.is_over
    result = engine.result()
    assert result.scores == (15, 15, 15) and result.winners == (0, 1, 2)
    assert engine.view(None)["winners"] == [0, 1, 2]


def test_the_game_ends_after_three_rounds_and_refuses_further_actions() -> None:
    engine = KabukiEngine.new(2, seed=3, options={}, now=0)
    events = engine.advance(10**9)
    assert [e.data["round"] for e in events if e.kind == "round_end"] == [1, 2, 3]
    assert events[-1].kind == "game_over"
    assert engine.next_deadline() is None
    for seat in (0, 1):
        assert engine.legal_actions(seat) == []
        with pytest.raises(IllegalAction, match="over"):
            engine.apply(seat, {"type": "stop"}, 10**9)


# -- timers ---------------------------------------------------------------------------------------


def test_turn_timer_places_the_card_on_a_random_stack_for_the_idle_player_and_says_so() -> None:
    engine = game(prefix=(FOX,), first=1)
    assert engine.next_deadline() == TURN
    assert engine.advance(TURN - 1) == []
    events = engine.advance(TURN)
    placed = only(events, "placed")
    assert placed.public and placed.data["auto"] is True and placed.data["seat"] == 1
    assert placed.data["card"] == FOX and 0 <= placed.data["stack"] < 4
    assert engine.log[-1]["auto"] is True


def test_turn_timer_restarts_when_a_reveal_ends() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    challenge(engine, 2, 100)
    end = 100 + WINDOW + REVEAL
    engine.advance(end)
    assert engine.view(None)["turn_deadline"] == end + TURN
    assert engine.next_deadline() == end + TURN


def test_next_deadline_reports_grace_end_race_close_reveal_end_and_turn_timer() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    assert engine.next_deadline() == GRACE  # the next player's buttons come alive then
    engine.advance(GRACE)
    assert engine.next_deadline() == GRACE + TURN
    stop(engine, 2, GRACE + 5)
    assert engine.next_deadline() == GRACE + 5 + WINDOW
    engine.advance(GRACE + 5 + WINDOW)
    assert engine.next_deadline() == GRACE + 5 + WINDOW + REVEAL


def test_advance_is_idempotent_and_fires_deadlines_at_their_own_time() -> None:
    engine = game(first=0)
    place(engine, 0, 0, 0)
    stop(engine, 2, 100)
    events = engine.advance(100 + WINDOW + REVEAL + 5)
    assert kinds(events) == ["challenge", "reveal_end", "turn"]
    assert only(events, "challenge").data["reveal_until"] == 100 + WINDOW + REVEAL
    assert engine.advance(100 + WINDOW + REVEAL + 5) == []
    assert engine.advance(50) == []


def test_a_late_arriving_first_press_still_gets_the_full_collection_window() -> None:
    engine = game(players=4, first=0)
    place(engine, 0, 0, 0)
    engine.advance(1200)  # the bot's clock; the press below was made at 1000
    engine.apply(1, {"type": "stop"}, 1000)
    assert engine.race is not None and engine.race.closes_at == 1200 + WINDOW


# -- views and saving -------------------------------------------------------------------------------


def test_public_view_shows_what_the_board_needs_and_no_buried_card() -> None:
    engine = game(prefix=(FOX, OWL, CAT), first=0)
    play_cards(engine, [0, 0])
    view = engine.view(None)
    for key in (
        "round", "stacks", "current", "active", "stop_window", "race", "reveal", "tokens", "totals",
        "box", "deck_left", "last_event", "version", "turn", "place_from", "turn_deadline",
    ):  # fmt: skip
        assert key in view
    assert view["stacks"][0] == {"top": OWL, "height": 2}
    assert all(set(s) == {"top", "height"} for s in view["stacks"])  # the buried Fox is not shown
    assert view["stop_window"] == {"placer": 1, "stack": 0, "turn": 2, "closes_at": None}
    assert view["current"] == {"card": CAT, "seat": 2}
    assert "seat" not in view and "legal" not in view
    mine = engine.view(0)
    assert mine["seat"] == 0 and mine["legal"] == [{"type": "stop", "turn": 2}]


def test_version_grows_with_every_public_change() -> None:
    engine = game(first=0)
    versions = [engine.view(None)["version"]]
    place(engine, 0, 0, 0)
    versions.append(engine.view(None)["version"])
    stop(engine, 1, 10)
    versions.append(engine.view(None)["version"])
    engine.advance(10 + WINDOW)
    versions.append(engine.view(None)["version"])
    assert versions == sorted(set(versions))


def test_a_game_saved_during_a_race_continues_identically_after_restore() -> None:
    engine = game(players=4, prefix=(FOX, OWL, FOX), first=0)
    t = play_cards(engine, [0, 1, 0])
    stop(engine, 1, t + 50)
    copy = KabukiEngine.from_json(json.loads(json.dumps(engine.to_json())))
    for e in (engine, copy):
        e.apply(3, {"type": "stop"}, t + 40)
    assert engine.advance(t + 10**7) == copy.advance(t + 10**7)
    assert engine.to_json() == copy.to_json()


def test_the_replay_log_of_a_scripted_game_passes_the_checker_and_tampering_is_caught() -> None:
    engine = game(players=3, prefix=(FOX, FOX, OWL), first=0)
    t = play_cards(engine, [0, 0])
    challenge(engine, 2, t + 10)  # the second Fox, placed by seat 1
    engine.advance(10**9)
    rec = json.loads(json.dumps(record_of(engine)))
    check_log(rec)
    stop_entry = next(e for e in rec["log"] if e["e"] == "stop")
    stop_entry["moved"] = 2
    with pytest.raises(ReplayError):
        check_log(rec)


def record_of(engine: KabukiEngine) -> dict:
    from bot.games.kabuki.simulate import Game

    return record(Game(engine), memory=1.0)


def test_full_deck_keeps_ten_masks_five_copies() -> None:
    assert Counter(full_deck((SUN, SUN))) == {m: 5 for m in range(10)}
    with pytest.raises(ValueError):
        full_deck((SUN,) * 6)


def test_the_engine_is_pure_no_discord_asyncio_clock_or_global_random() -> None:
    import ast
    from pathlib import Path

    import bot.games.kabuki.engine as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not imported & {"discord", "asyncio", "time", "datetime", "random"}
