"""Scripted scenarios, one per rule of docs/monster-masks.md and /shared/rules/monster-masks.md."""

from __future__ import annotations

import json

import pytest

from bot.engine.protocol import IllegalAction
from bot.games.masks.engine import MasksEngine
from bot.games.masks.faces import MONSTERS

WINDOW = 250


def scripted(players: int = 4, deck: list[int] | None = None, **options: object) -> MasksEngine:
    """A game whose deck is 0, 1, 2, ... (face = position mod 16) unless given: turn k plays card 2k-2."""
    cards = deck if deck is not None else [i % 16 for i in range(6 * players)]
    return MasksEngine.new(players, 1, options, 0, deck=cards)


def slap(engine: MasksEngine, seat: int, tile: int, at: int) -> list:
    return engine.apply(seat, {"type": "slap", "tile": tile}, at)


def settle(engine: MasksEngine, at: int) -> list:
    return engine.advance(at + WINDOW)


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def play_turn_all_wrong(engine: MasksEngine, at: int) -> int:
    """Every guesser slaps a wrong tile; returns when the reveal happened."""
    card = engine.card
    wrong = iter(t for t in range(16) if t != card)
    for seat in engine.guessers():
        slap(engine, seat, next(wrong), at)
    engine.advance(at + WINDOW)
    return at + WINDOW


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("players", [3, 5, 8])
def test_setup_deck_holds_six_random_cards_per_player_rest_stays_in_box(players: int) -> None:
    engine = MasksEngine.new(players, 42, {}, 0)
    assert len(engine.dealt) == 6 * players
    assert all(engine.dealt.count(face) <= 3 for face in range(16))
    assert engine.view(None)["box"] == 48 - 6 * players
    # The Mime already holds the top card.
    assert engine.card == engine.dealt[0] and len(engine.deck) == 6 * players - 1


def test_setup_deck_is_random_but_seeded() -> None:
    assert MasksEngine.new(4, 1, {}, 0).dealt == MasksEngine.new(4, 1, {}, 0).dealt
    assert len({tuple(MasksEngine.new(4, seed, {}, 0).dealt) for seed in range(10)}) > 1


@pytest.mark.parametrize("players", [0, 2, 9])
def test_setup_needs_three_to_eight_players(players: int) -> None:
    with pytest.raises(ValueError):
        MasksEngine.new(players, 1, {}, 0)


def test_setup_scripted_deck_is_checked() -> None:
    with pytest.raises(ValueError):
        MasksEngine.new(3, 1, {}, 0, deck=[0] * 18)
    with pytest.raises(ValueError):
        MasksEngine.new(3, 1, {}, 0, deck=list(range(16)))


def test_setup_first_mime_is_seat_zero_the_host() -> None:
    engine = scripted()
    assert engine.mime == 0 and engine.turn == 1 and engine.view(None)["mime"] == 0


# ------------------------------------------------------------ the secret


def test_mime_draws_top_card_and_only_the_mime_sees_it() -> None:
    engine = scripted(deck=[5] + [i % 16 for i in range(1, 24)])
    assert engine.view(0)["card"] == 5 and engine.view(0)["card_name"] == MONSTERS[5]
    for seat in (None, 1, 2, 3):
        assert "card" not in engine.view(seat)
    start, secret = engine.turn_events()
    assert start.kind == "turn_started" and start.public and "card" not in start.data
    assert secret.kind == "secret_card" and secret.to == (0,) and secret.data["card"] == 5


def test_public_view_hides_deck_order_and_pile_identities() -> None:
    engine = scripted()
    slap(engine, 1, 0, 100)
    settle(engine, 100)  # nobody else slapped yet
    for seat in (2, 3):
        slap(engine, seat, seat + 5, 400)
    settle(engine, 400)
    public = json.dumps(engine.view(None))
    assert "deck_order" not in public
    assert engine.view(None)["piles"] == [1, 1, 0, 0]
    assert engine.view(None)["deck"] == 22
    # Pile contents appear nowhere as lists: only counts.
    assert isinstance(engine.view(None)["piles"][0], int)


# ------------------------------------------------------------- slapping


def test_every_guesser_slaps_exactly_one_tile() -> None:
    engine = scripted()
    slap(engine, 1, 3, 100)
    settle(engine, 100)
    assert engine.view(None)["held_by"][3] == 1
    with pytest.raises(IllegalAction, match="can't be changed"):
        slap(engine, 1, 4, 500)
    assert engine.legal_actions(1) == []


def test_mime_cannot_slap() -> None:
    engine = scripted()
    with pytest.raises(IllegalAction, match="Mime"):
        slap(engine, 0, 3, 100)
    assert all(a["type"] == "end_guessing" for a in engine.legal_actions(0))


def test_seat_outside_the_game_cannot_act() -> None:
    engine = scripted()
    with pytest.raises(IllegalAction):
        slap(engine, 4, 3, 100)
    with pytest.raises(IllegalAction):
        slap(engine, -1, 3, 100)
    assert engine.legal_actions(7) == []


def test_unknown_tile_or_action_is_refused() -> None:
    engine = scripted()
    for tile in (16, -1, "3", True, None):
        with pytest.raises(IllegalAction):
            engine.apply(1, {"type": "slap", "tile": tile}, 100)
    with pytest.raises(IllegalAction):
        engine.apply(1, {"type": "dance"}, 100)
    assert engine.version == 0 and len(engine.log) == 1  # refused actions change nothing


def test_tile_held_by_one_player_first_press_by_timestamp_wins() -> None:
    engine = scripted()
    # Seat 1's press arrives first but seat 2 pressed 30 ms earlier.
    assert kinds(slap(engine, 1, 7, 130)) == ["race_opened"]
    assert kinds(slap(engine, 2, 7, 100)) == ["race_joined"]
    events = engine.advance(130 + WINDOW)
    taken = events[0]
    assert taken.kind == "tile_taken" and taken.data["seat"] == 2 and taken.data["rivals"] == [1]
    lost = events[1]
    assert lost.kind == "race_lost" and lost.to == (1,)
    assert lost.data == {"turn": 1, "tile": 7, "name": MONSTERS[7], "winner": 2, "by_ms": 30, "again": False}


def test_race_equal_timestamps_fall_back_to_arrival_order() -> None:
    engine = scripted()
    slap(engine, 3, 7, 100)
    slap(engine, 1, 7, 100)
    assert engine.advance(100 + WINDOW)[0].data["seat"] == 3


def test_race_collects_only_while_open() -> None:
    engine = scripted()
    slap(engine, 1, 7, 100)
    assert engine.next_deadline() == 100 + WINDOW
    settle(engine, 100)
    with pytest.raises(IllegalAction, match="already taken"):
        slap(engine, 2, 7, 90)  # earlier timestamp, but it arrived after the window closed


def test_a_slap_on_a_tile_someone_took_first_says_who_and_by_how_much_and_changes_nothing() -> None:
    engine = scripted()  # card 0
    slap(engine, 1, 7, 100)
    settle(engine, 100)
    version, log = engine.version, len(engine.log)
    with pytest.raises(IllegalAction, match="already taken") as refused:
        slap(engine, 2, 7, 460)  # reached the bot after the race closed
    assert refused.value.fields == {"monster": MONSTERS[7], "holder": 1, "by_ms": 360}
    with pytest.raises(IllegalAction) as refused:
        slap(engine, 3, 7, 90)  # pressed first, but arrived once the race was over
    assert refused.value.fields["holder"] == 1 and refused.value.fields["by_ms"] == -10
    with pytest.raises(IllegalAction) as refused:
        slap(engine, 1, 7, 500)  # the holder's own tile: its own refusal, nobody beat them
    assert "holder" not in refused.value.fields and "already slapped" in refused.value.reason
    assert engine.version == version and len(engine.log) == log
    assert engine.legal_actions(2)  # the refused slap did not count: seat 2 may slap another tile
    # After the turn ended the refusal still names who took that tile.
    engine.apply(0, {"type": "end_guessing"}, 600)
    with pytest.raises(IllegalAction, match="already revealed") as refused:
        slap(engine, 2, 7, 700)
    assert refused.value.fields["holder"] == 1 and refused.value.fields["by_ms"] == 600
    with pytest.raises(IllegalAction, match="already revealed") as refused:
        slap(engine, 2, 8, 700)  # a tile nobody took: nobody to name
    assert "holder" not in refused.value.fields


def test_a_slap_is_final_a_race_loser_holds_no_tile_and_cannot_slap_again() -> None:
    engine = scripted()
    slap(engine, 1, 7, 100)
    slap(engine, 2, 7, 150)
    events = settle(engine, 100)
    lost = next(e for e in events if e.kind == "race_lost")
    assert lost.to == (2,) and lost.data["winner"] == 1 and lost.data["again"] is False
    assert engine.view(2)["my_tile"] is None and engine.view(2)["my_lost"] == 7
    assert engine.view(None)["lost"] == [2] and engine.view(None)["waiting"] == [3]
    assert engine.legal_actions(2) == []
    version, log = engine.version, len(engine.log)
    with pytest.raises(IllegalAction, match=f"lost the race for {MONSTERS[7]}.*can't be changed"):
        slap(engine, 2, 8, 600)
    assert engine.version == version and len(engine.log) == log  # the refusal changed nothing
    assert engine.view(None)["held_by"][8] is None and 2 not in engine.held.values()


def test_a_race_loser_holds_nothing_at_the_reveal_and_cannot_score() -> None:
    engine = scripted()  # card 0
    slap(engine, 1, 0, 100)
    slap(engine, 2, 0, 150)  # seat 2 read the Mime right too, but too late
    slap(engine, 3, 5, 100)
    reveal = settle(engine, 100)[-1]
    assert reveal.kind == "reveal" and reveal.data["scorer"] == 1
    assert reveal.data["held"] == [[0, 1], [5, 3]]
    assert engine.pile_counts() == [1, 1, 0, 0]


def test_second_chance_option_a_race_loser_may_slap_another_free_tile() -> None:
    engine = scripted(second_chance=True)
    slap(engine, 1, 7, 100)
    slap(engine, 2, 7, 150)
    lost = next(e for e in settle(engine, 100) if e.kind == "race_lost")
    assert lost.data["again"] is True
    assert engine.view(2)["my_tile"] is None and engine.view(None)["waiting"] == [2, 3]
    assert engine.view(None)["lost"] == []
    assert {"type": "slap", "tile": 8, "turn": 1} in engine.legal_actions(2)
    assert {"type": "slap", "tile": 7, "turn": 1} not in engine.legal_actions(2)
    slap(engine, 2, 8, 600)
    engine.advance(600 + WINDOW)
    assert engine.view(None)["held_by"][8] == 2


def test_slapping_again_while_racing_is_refused() -> None:
    engine = scripted()
    slap(engine, 1, 7, 100)
    with pytest.raises(IllegalAction, match="racing"):
        slap(engine, 1, 8, 120)
    assert engine.legal_actions(1) == []
    assert engine.view(None)["racing"] == [1]
    assert engine.view(None)["races"] == [{"tile": 7, "seats": [1], "closes_at": 100 + WINDOW}]


def test_several_tiles_race_independently() -> None:
    engine = scripted()
    slap(engine, 1, 7, 100)
    slap(engine, 2, 8, 200)
    assert engine.next_deadline() == 100 + WINDOW
    events = engine.advance(100 + WINDOW)
    assert kinds(events) == ["tile_taken"] and events[0].data["tile"] == 7
    assert engine.next_deadline() == 200 + WINDOW


def test_race_window_zero_settles_at_the_press_time() -> None:
    engine = scripted(race_window_ms=0)
    slap(engine, 1, 7, 100)
    assert engine.next_deadline() == 100
    assert kinds(engine.advance(100)) == ["tile_taken"]


# ---------------------------------------------------------------- reveal


def test_reveal_when_every_guesser_has_slapped() -> None:
    engine = scripted()
    for seat in (1, 2, 3):
        slap(engine, seat, seat + 4, 100)
    events = settle(engine, 100)
    assert kinds(events) == ["tile_taken"] * 3 + ["reveal"]
    assert events[-1].data["reason"] == "all_slapped"


def test_reveal_waits_for_the_losers_slap_not_for_a_second_one() -> None:
    engine = scripted()
    slap(engine, 1, 4, 100)
    slap(engine, 2, 5, 100)
    slap(engine, 3, 5, 110)  # every guesser has slapped, but the race for 5 is open
    assert engine.phase == "guessing"
    events = settle(engine, 110)
    assert kinds(events) == ["tile_taken", "tile_taken", "race_lost", "reveal"]
    assert events[-1].data["reason"] == "all_slapped" and engine.phase == "reveal"


def test_reveal_waits_for_a_guesser_who_has_not_slapped_but_not_for_a_race_loser() -> None:
    engine = scripted()
    slap(engine, 1, 5, 100)
    slap(engine, 2, 5, 110)
    assert "reveal" not in kinds(settle(engine, 110))  # seat 3 has not slapped yet
    slap(engine, 3, 6, 900)
    assert kinds(engine.advance(900 + WINDOW))[-1] == "reveal"


def test_second_chance_option_reveal_waits_for_the_losers_second_slap() -> None:
    engine = scripted(second_chance=True)
    slap(engine, 1, 4, 100)
    slap(engine, 2, 5, 100)
    slap(engine, 3, 5, 110)
    events = settle(engine, 110)
    assert "reveal" not in kinds(events)  # seat 3 lost: it still has its slap
    assert engine.view(None)["waiting"] == [3]
    slap(engine, 3, 6, 900)
    assert kinds(engine.advance(900 + WINDOW))[-1] == "reveal"


def test_reveal_when_guess_timer_ends_settles_open_races_first() -> None:
    engine = scripted(guess_ms=10_000)
    slap(engine, 1, 4, 9_900)
    assert engine.next_deadline() == 10_000  # the guess timer comes before this race's close
    events = engine.advance(10_000)
    assert kinds(events) == ["tile_taken", "reveal"]
    assert events[-1].data["reason"] == "timer"
    assert engine.next_deadline() == 15_000  # reveal pause


def test_slap_at_or_after_guess_deadline_is_refused() -> None:
    engine = scripted(guess_ms=10_000)
    with pytest.raises(IllegalAction, match="Time is up"):
        slap(engine, 1, 4, 10_000)


def test_mime_may_end_guessing_early_and_only_the_mime() -> None:
    engine = scripted()
    slap(engine, 1, 0, 100)  # the right tile (card 0), race still open
    with pytest.raises(IllegalAction, match="Only the Mime"):
        engine.apply(1, {"type": "end_guessing"}, 150)
    events = engine.apply(0, {"type": "end_guessing"}, 150)
    assert kinds(events) == ["tile_taken", "reveal"]
    assert events[-1].data["reason"] == "mime" and events[-1].data["scorer"] == 1


def test_after_the_reveal_nobody_may_slap() -> None:
    engine = scripted()
    engine.apply(0, {"type": "end_guessing"}, 50)
    with pytest.raises(IllegalAction, match="revealed"):
        slap(engine, 1, 4, 100)
    with pytest.raises(IllegalAction, match="revealed"):
        engine.apply(0, {"type": "end_guessing"}, 100)
    assert engine.legal_actions(1) == [] and engine.legal_actions(0) == []


def test_buttons_from_an_earlier_turn_are_refused() -> None:
    engine = scripted(reveal_ms=0)
    engine.apply(0, {"type": "end_guessing", "turn": 1}, 50)
    assert engine.turn == 2
    with pytest.raises(IllegalAction, match="earlier turn"):
        engine.apply(2, {"type": "slap", "tile": 4, "turn": 1}, 100)
    engine.apply(2, {"type": "slap", "tile": 4, "turn": 2}, 100)


# --------------------------------------------------------------- scoring


def test_correct_guesser_draws_next_card_and_mime_keeps_the_played_card() -> None:
    engine = scripted()  # card 0, next card 1
    slap(engine, 1, 5, 100)
    slap(engine, 2, 0, 100)
    slap(engine, 3, 6, 100)
    reveal = settle(engine, 100)[-1]
    assert reveal.data["card"] == 0 and reveal.data["scorer"] == 2
    assert engine.piles[2] == [1] and engine.piles[0] == [0] and engine.removed == []
    assert reveal.data["piles"] == [1, 0, 1, 0]
    assert engine.view(None)["last_reveal"]["scorer"] == 2


def test_nobody_correct_mime_draws_one_more_unseen_and_both_leave_the_game() -> None:
    engine = scripted()
    play_turn_all_wrong(engine, 100)
    assert engine.removed == [0, 1]
    assert engine.pile_counts() == [0, 0, 0, 0]
    view = engine.view(None)
    assert view["removed"] == 2 and view["last_reveal"]["scorer"] is None
    assert 1 not in [view["last_reveal"]["card"]]  # the unseen card is not revealed


def test_each_turn_uses_exactly_two_cards() -> None:
    engine = scripted()
    before = len(engine.deck) + 1
    play_turn_all_wrong(engine, 100)
    assert len(engine.deck) == before - 2
    engine.advance(engine.next_deadline())
    before = len(engine.deck) + 1
    slap(engine, 2, engine.card, 6_000)
    engine.apply(engine.mime, {"type": "end_guessing"}, 6_500)
    assert len(engine.deck) == before - 2


# ---------------------------------------------------------------- turns


def test_reveal_pause_then_the_next_seat_becomes_mime() -> None:
    engine = scripted(reveal_ms=3_000)
    revealed = play_turn_all_wrong(engine, 100)
    assert engine.phase == "reveal" and engine.next_deadline() == revealed + 3_000
    assert engine.advance(revealed + 2_999) == []
    events = engine.advance(revealed + 3_000)
    assert kinds(events) == ["turn_started", "secret_card"]
    assert engine.mime == 1 and events[1].to == (1,) and engine.turn == 2
    assert engine.view(1)["card"] == 2 and engine.view(None)["held_by"] == [None] * 16


def test_reveal_ms_zero_starts_the_next_turn_at_once() -> None:
    engine = scripted(reveal_ms=0)
    events = engine.apply(0, {"type": "end_guessing"}, 50)
    assert kinds(events) == ["reveal", "turn_started", "secret_card"]
    assert engine.mime == 1 and engine.view(None)["last_reveal"]["turn"] == 1


def test_mime_rotation_wraps_around_the_table() -> None:
    engine = scripted(players=3, reveal_ms=0)
    mimes = []
    at = 0
    while not engine.is_over:
        mimes.append(engine.mime)
        at += 100
        engine.apply(engine.mime, {"type": "end_guessing"}, at)
    assert mimes == [0, 1, 2] * 3


# ----------------------------------------------------------------- timers


def test_next_deadline_is_the_earliest_timer_and_advance_is_idempotent() -> None:
    engine = scripted(guess_ms=5_000)
    assert engine.next_deadline() == 5_000
    slap(engine, 1, 4, 100)
    slap(engine, 2, 5, 50)
    assert engine.next_deadline() == 50 + WINDOW
    first = engine.advance(400)
    assert [e.data["tile"] for e in first] == [5, 4]  # earliest close first
    assert engine.advance(400) == []
    assert engine.next_deadline() == 5_000


def test_late_advance_fires_in_order_without_cascading_through_turns() -> None:
    engine = scripted(guess_ms=5_000, reveal_ms=1_000)
    slap(engine, 1, 0, 100)
    events = engine.advance(1_000_000)  # the bot was down for a long time
    assert kinds(events) == ["tile_taken", "reveal"]
    assert engine.turn == 1 and engine.next_deadline() == 1_001_000
    engine.advance(1_001_000)
    assert engine.turn == 2 and engine.next_deadline() == 1_006_000


def test_version_counter_grows_with_every_change() -> None:
    engine = scripted()
    seen = [engine.view(None)["version"]]
    slap(engine, 1, 4, 100)
    seen.append(engine.view(None)["version"])
    engine.advance(100)  # nothing due: no change
    seen.append(engine.view(None)["version"])
    settle(engine, 100)
    seen.append(engine.view(None)["version"])
    assert seen == [0, 1, 1, 2]


# ------------------------------------------------------------------- end


def play_scripted_game(engine: MasksEngine, scorer_when_mime: dict[int, int]) -> int:
    """Each turn, the seat named for the current Mime slaps the right tile; then the Mime ends guessing."""
    at = 0
    while not engine.is_over:
        at += 1_000
        if engine.mime in scorer_when_mime:
            slap(engine, scorer_when_mime[engine.mime], engine.card, at)
        engine.apply(engine.mime, {"type": "end_guessing"}, at + 10)
    return at


def test_game_ends_when_the_deck_is_empty_and_a_tie_shares_the_victory() -> None:
    engine = scripted(players=3, reveal_ms=0)
    at = play_scripted_game(engine, {0: 1})
    result = engine.result()
    assert engine.deck == [] and engine.turn == 9 and engine.view(None)["over"]
    assert result.scores == (3, 3, 0) and result.winners == (0, 1)
    assert engine.view(None)["winners"] == [0, 1]
    assert engine.next_deadline() is None and engine.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="over"):
        slap(engine, 1, 3, at + 10_000)


def test_the_player_with_most_cards_wins_alone() -> None:
    engine = scripted(players=3, reveal_ms=0)
    play_scripted_game(engine, {0: 1, 1: 2, 2: 1})
    assert engine.result().scores == (3, 9, 6) and engine.result().winners == (1,)
    assert engine.removed == []


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError):
        scripted().result()


# --------------------------------------------------------------- options


def test_options_defaults_are_recorded_and_shown() -> None:
    options = scripted().view(None)["options"]
    assert options == {
        "guess_ms": 60_000,
        "race_window_ms": 250,
        "reveal_ms": 5_000,
        "mime_mode": "camera",
        "sounds": False,
        "second_chance": False,
        "computer_skill": "normal",
    }
    shown = scripted(mime_mode="emoji", sounds=True, second_chance=True).view(None)["options"]
    assert shown["mime_mode"] == "emoji" and shown["sounds"] is True and shown["second_chance"] is True


@pytest.mark.parametrize(
    "options",
    [
        {"guess_ms": 4_999},
        {"guess_ms": 86_400_001},
        {"guess_ms": 30.5},
        {"guess_ms": True},
        {"race_window_ms": -1},
        {"race_window_ms": 2_001},
        {"reveal_ms": 60_001},
        {"mime_mode": "mirror"},
        {"sounds": "yes"},
        {"second_chance": 1},
        {"computer_skill": "expert"},
        {"guess_s": 30},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(ValueError):
        MasksEngine.new(4, 1, options, 0)


def test_guess_timer_follows_the_option() -> None:
    engine = scripted(guess_ms=20_000)
    assert engine.view(None)["guess_deadline"] == 20_000


# ------------------------------------------------------------ save/restore


def test_restore_mid_race_continues_identically() -> None:
    engine = scripted()
    slap(engine, 1, 7, 130)
    slap(engine, 2, 7, 100)
    copy = MasksEngine.from_json(json.loads(json.dumps(engine.to_json())))
    assert copy.view(None) == engine.view(None) and copy.view(2) == engine.view(2)
    assert kinds(copy.advance(400)) == kinds(engine.advance(400))
    assert copy.to_json() == engine.to_json()


def test_restore_keeps_a_race_loser_out_of_the_turn() -> None:
    engine = scripted()
    slap(engine, 1, 7, 100)
    slap(engine, 2, 7, 150)
    settle(engine, 100)
    copy = MasksEngine.from_json(json.loads(json.dumps(engine.to_json())))
    assert copy.view(2) == engine.view(2) and copy.view(None)["lost"] == [2]
    with pytest.raises(IllegalAction, match="lost the race"):
        slap(copy, 2, 8, 600)


def test_restore_of_a_format_1_save_keeps_the_rules_it_started_with() -> None:
    """Saves from before the one-slap rule were played with second chances; they keep them."""
    engine = scripted()
    slap(engine, 1, 7, 100)
    slap(engine, 2, 7, 150)
    data = json.loads(json.dumps(engine.to_json()))
    data["format"] = 1
    del data["lost"]
    del data["options"]["second_chance"]
    del data["log"][0]["options"]["second_chance"]
    old = MasksEngine.from_json(data)
    assert old.options["second_chance"] is True
    old.advance(100 + WINDOW)
    slap(old, 2, 8, 600)  # the loser slaps again, as the game's rules then allowed
    assert MasksEngine.replay(old.log).to_json() == old.to_json()


def test_restore_refuses_an_unknown_format() -> None:
    data = scripted().to_json()
    data["format"] = 99
    with pytest.raises(ValueError):
        MasksEngine.from_json(data)
