"""Scripted rounds of Death Over the Kingdom, one rule per test (rules: shared/rules/...)."""

from __future__ import annotations

import pytest

from bot.engine.protocol import IllegalAction
from bot.games.kingdom.cards import (
    BARD,
    CHARACTERS,
    CLOWN,
    DEATH,
    DRAGON,
    INNKEEPER,
    KING,
    KNIGHT,
    MAGICIAN,
    MONK,
    PRINCESS,
    QUEEN,
    THIEF,
    TRADER,
)
from bot.games.kingdom.engine import KingdomEngine


def stand_rest(e: KingdomEngine) -> list:
    events = []
    round_ = e.round
    while e.round == round_ and e.phase == "play":
        events += e.apply(e.active, {"type": "stand"}, 1)
    return events


def values(e: KingdomEngine) -> dict[int, int]:
    assert e.reveal is not None
    return {c["seat"]: c["value"] for c in e.reveal["cards"]}


def kinds(events, seat=None) -> list[str]:
    return [ev.kind for ev in events if ev.visible_to(seat)]


# ------------------------------------------------------------------ the data table
def test_turned_value_is_twelve_minus_printed_and_lives_in_the_table():
    turned = {c.name: c.turned for c in CHARACTERS if c.turned is not None}
    assert turned == {"Innkeeper": 11, "Clown": 8, "Magician": 5, "Dragon": 4, "Knight": 3, "Queen": 1}
    assert all(c.turned == 12 - c.value for c in CHARACTERS if c.turned is not None)
    assert len(CHARACTERS) == 13 and [c.value for c in CHARACTERS] == list(range(13))


# ------------------------------------------------------------------ seats and the deal
def test_deal_starts_right_of_dealer_and_ends_with_dealer():
    e = KingdomEngine.new(4, 1, {"dealer": 1, "turn_ms": 0}, 0)
    assert e.order == [2, 3, 0, 1]
    assert e.active == 2
    assert e.view(None)["dealer"] == 1


@pytest.mark.parametrize(
    ("mode", "players"), [("only-one", 2), ("classic", 3), ("classic", 5), ("only-one", 20)]
)
def test_the_first_dealer_is_chosen_randomly_and_every_seat_may_deal_first(mode, players):
    dealers = set()
    for seed in range(300):
        e = KingdomEngine.new(players, seed, {"mode": mode, "turn_ms": 0}, 0)
        dealer = e.view(None)["dealer"]
        dealers.add(dealer)
        # The deal and the play start to the dealer's right; the dealer is dealt and plays last.
        assert e.order == [(dealer + 1 + k) % players for k in range(players)]
    assert dealers == set(range(players))


def test_the_same_seed_draws_the_same_first_dealer():
    first = [KingdomEngine.new(6, seed, {}, 0).view(None)["dealer"] for seed in range(40)]
    again = [KingdomEngine.new(6, seed, {}, 0).view(None)["dealer"] for seed in range(40)]
    assert first == again and len(set(first)) > 1


def test_a_scripted_first_dealer_must_be_a_seat():
    assert KingdomEngine.new(4, 1, {"dealer": None}, 0).order == KingdomEngine.new(4, 1, {}, 0).order
    for bad in (4, -1, True, "1", 1.0):
        with pytest.raises(ValueError, match="dealer must be a seat"):
            KingdomEngine.new(4, 1, {"dealer": bad}, 0)


def test_deal_uses_26_cards_two_of_each():
    e = KingdomEngine.new(5, 3, {}, 0)
    cards = sorted([c for c in e.hands if c is not None] + e.deck)
    assert cards == list(range(26))


def test_dealer_passes_right_to_this_rounds_first_player(table):
    e = table([MONK, MAGICIAN, KNIGHT, QUEEN])
    assert e.order[-1] == 3
    stand_rest(e)
    assert e.round == 2 and e.order == [1, 2, 3, 0]


def test_one_action_each_in_order(table):
    e = table([MONK, MAGICIAN, KNIGHT, QUEEN])
    with pytest.raises(IllegalAction, match="not your turn"):
        e.apply(1, {"type": "stand"}, 1)
    e.apply(0, {"type": "stand"}, 1)
    with pytest.raises(IllegalAction):
        e.apply(0, {"type": "stand"}, 1)
    assert e.active == 1


# ------------------------------------------------------------------ stand and exchange
def test_exchange_swaps_with_right_player_who_sees_only_the_received_card(table):
    e = table([DEATH, PRINCESS, KNIGHT, QUEEN])
    events = e.apply(0, {"type": "exchange"}, 1)
    assert e.char(0) == PRINCESS and e.char(1) == DEATH
    private = [(ev.to, ev.data["name"]) for ev in events if ev.kind == "card"]
    assert private == [((0,), "Princess"), ((1,), "Death")]
    public = [ev for ev in events if ev.public]
    assert all("name" not in ev.data for ev in public)
    assert e.view(None)["seats"][0]["shown"] is None


def test_dealers_exchange_shows_and_discards_the_card_then_cuts_the_deck(table):
    e = table([MONK, MAGICIAN, DEATH], deck=[KING])
    e.apply(0, {"type": "stand"}, 1)
    e.apply(1, {"type": "stand"}, 1)
    assert {"type": "exchange"} not in [{"type": a["type"]} for a in e.legal_actions(2)]
    events = e.apply(2, {"type": "cut"}, 1)
    cut = next(ev for ev in events if ev.kind == "cut")
    assert cut.public and cut.data["discarded"]["name"] == "Death"
    assert e.reveal is not None and e.reveal["death"] == []
    assert len(e.view(None)["discards"]) == 0  # new round already dealt; the reveal keeps the record
    assert cut.data["position"] in range(26 - 3)


def test_dealer_cut_takes_the_card_at_a_random_position(table):
    e = table([MONK, MAGICIAN, DEATH])
    e.apply(0, {"type": "stand"}, 1)
    e.apply(1, {"type": "stand"}, 1)
    deck = list(e.deck)
    events = e.apply(2, {"type": "cut"}, 1)
    position = next(ev for ev in events if ev.kind == "cut").data["position"]
    got = next(ev for ev in events if ev.kind == "card" and ev.data["how"] == "cut")
    assert got.data["char"] == deck[position] >> 1


# ------------------------------------------------------------------ the King
def test_king_is_shown_face_up_as_soon_as_dealt(table):
    e = table([MONK, KING, KNIGHT, QUEEN])
    assert e.view(None)["seats"][1]["shown"] == {"char": KING, "name": "King"}
    assert e.view(None)["seats"][0]["shown"] is None


def test_king_holder_can_only_stand_and_stands_at_once(table):
    e = table([KING, MAGICIAN, KNIGHT, QUEEN])
    assert e.active == 1
    assert e.actions[0] == {"type": "stand", "seat": 0, "auto": "king"}
    assert e.legal_actions(0) == []


def test_king_blocks_an_exchange(table):
    e = table([DEATH, KING, KNIGHT, QUEEN])
    assert [a["type"] for a in e.legal_actions(0)] == ["stand"]
    with pytest.raises(IllegalAction, match="King"):
        e.apply(0, {"type": "exchange"}, 1)


def test_king_holder_is_not_a_target_for_thief_or_bard(table):
    e = table([THIEF, KNIGHT, KING, QUEEN])
    assert [a.get("target") for a in e.legal_actions(0) if a["type"] == "thief"] == [1, 3]
    with pytest.raises(IllegalAction, match="King"):
        e.apply(0, {"type": "thief", "target": 2}, 1)
    e = table([BARD, KING, QUEEN])
    assert [a.get("target") for a in e.legal_actions(0) if a["type"] == "bard"] == [2]


def test_king_blocks_a_dragon(table):
    e = table([DRAGON, KING, QUEEN])
    assert "dragon" not in [a["type"] for a in e.legal_actions(0)]


def test_dealers_king_cannot_be_cut(table):
    e = table([MONK, MAGICIAN, KING])
    stand_rest(e)
    assert e.reveal["cards"][2]["name"] == "King"


def test_king_received_mid_round_is_shown_and_its_holder_then_only_stands(table):
    e = table([DEATH, DRAGON, TRADER, QUEEN], deck=[KING])
    events = e.apply(0, {"type": "stand"}, 1)
    events = e.apply(1, {"type": "dragon"}, 1)
    assert e.char(2) == KING
    assert ("king", None) in [(ev.kind, ev.to) for ev in events]
    assert e.view(None)["seats"][2]["shown"]["name"] == "King"
    assert e.active == 3  # the King's new holder stood at once


def test_trader_drawing_a_king_shows_it(table):
    e = table([TRADER, MONK, QUEEN], deck=[KING])
    e.apply(0, {"type": "trader"}, 1)
    assert e.view(None)["seats"][0]["shown"]["name"] == "King"


# ------------------------------------------------------------------ turn powers
def test_trader_swaps_with_the_deck_top_and_lies_face_up_on_the_deck(table):
    e = table([TRADER, MONK, QUEEN], deck=[PRINCESS])
    events = e.apply(0, {"type": "trader"}, 1)
    assert e.char(0) == PRINCESS
    assert e.view(None)["deck_top"] == {"char": TRADER, "name": "Trader"}
    assert e.view(None)["seats"][0]["shown"] is None
    assert [(ev.kind, ev.to) for ev in events if ev.kind == "card"] == [("card", (0,))]


def test_the_deck_order_is_told_to_nobody_at_the_table(table):
    """The shuffle and the deck after each draw are events for no seat: only an after-the-game
    record (the simulator's) keeps them."""
    e = table([TRADER, MONK, QUEEN], deck=[PRINCESS, KNIGHT])
    (shuffle,) = [ev for ev in e.opening if ev.kind == "shuffle"]
    assert shuffle.to == () and shuffle.data["cards"][:5] == [TRADER, MONK, QUEEN, PRINCESS, KNIGHT]
    events = e.apply(0, {"type": "trader"}, 1)
    (deck,) = [ev for ev in events if ev.kind == "deck"]
    assert deck.to == () and deck.data["cards"][:2] == [TRADER, KNIGHT]
    for ev in (shuffle, deck):
        assert not ev.public and not any(ev.visible_to(s) for s in (None, 0, 1, 2))
    view = e.view(None)
    assert view["deck_size"] == 23 and view["deck_top"] == {"char": TRADER, "name": "Trader"}
    assert "shuffle" not in view and "deck" not in view


def test_dragon_victim_who_draws_the_face_up_trader_holds_it_face_up(table):
    e = table([TRADER, DRAGON, MONK, QUEEN], deck=[PRINCESS])
    e.apply(0, {"type": "trader"}, 1)
    e.apply(1, {"type": "dragon"}, 1)
    assert e.char(2) == TRADER
    assert e.view(None)["seats"][2]["shown"]["name"] == "Trader"
    assert "trader" in [a["type"] for a in e.legal_actions(2)]


def test_thief_peeks_privately_then_swaps(table):
    e = table([THIEF, MONK, PRINCESS, QUEEN])
    events = e.apply(0, {"type": "thief", "target": 2}, 1)
    peek = next(ev for ev in events if ev.kind == "peek")
    assert peek.to == (0,) and peek.data["name"] == "Princess"
    assert e.active == 0 and e.view(0)["me"]["peek"]["name"] == "Princess"
    assert e.view(None)["seats"][0]["shown"]["name"] == "Thief"
    assert "Princess" not in str(e.view(None)) and "Princess" not in str(e.view(1))
    assert [a["type"] for a in e.legal_actions(0)] == ["swap", "keep"]
    e.apply(0, {"type": "swap"}, 1)
    assert e.char(0) == PRINCESS and e.char(2) == THIEF
    assert e.view(None)["seats"][2]["shown"]["name"] == "Thief"
    assert e.active == 1


def test_thief_may_keep_its_card_after_looking(table):
    e = table([THIEF, MONK, DEATH, QUEEN])
    e.apply(0, {"type": "thief", "target": 2}, 1)
    e.apply(0, {"type": "keep"}, 1)
    assert e.char(0) == THIEF and e.char(2) == DEATH and e.active == 1


def test_thief_targets_only_players_after_it_this_round(table):
    e = table([MONK, THIEF, PRINCESS, QUEEN])
    e.apply(0, {"type": "stand"}, 1)
    assert [a["target"] for a in e.legal_actions(1) if a["type"] == "thief"] == [2, 3]
    with pytest.raises(IllegalAction):
        e.apply(1, {"type": "thief", "target": 0}, 1)


def test_bard_swaps_unseen_with_a_later_player_only(table):
    e = table([MONK, BARD, PRINCESS, QUEEN])
    e.apply(0, {"type": "stand"}, 1)
    assert [a["target"] for a in e.legal_actions(1) if a["type"] == "bard"] == [2, 3]
    with pytest.raises(IllegalAction):
        e.apply(1, {"type": "bard", "target": 0}, 1)
    with pytest.raises(IllegalAction):
        e.apply(1, {"type": "bard"}, 1)
    events = e.apply(1, {"type": "bard", "target": 3}, 1)
    assert e.char(1) == QUEEN and e.char(3) == BARD
    assert e.view(None)["seats"][3]["shown"]["name"] == "Bard"
    assert e.view(None)["seats"][1]["shown"] is None
    assert {ev.to for ev in events if ev.kind == "card"} == {(1,), (3,)}


def test_dealer_has_nobody_after_so_no_thief_or_bard_targets(table):
    e = table([MONK, MAGICIAN, THIEF])
    e.apply(0, {"type": "stand"}, 1)
    e.apply(1, {"type": "stand"}, 1)
    assert [a["type"] for a in e.legal_actions(2)] == ["stand", "cut"]


def test_dragon_victim_discards_face_up_draws_and_plays_with_the_new_card(table):
    e = table([DRAGON, PRINCESS, QUEEN], deck=[THIEF])
    events = e.apply(0, {"type": "dragon"}, 1)
    dragon = next(ev for ev in events if ev.kind == "dragon")
    assert dragon.public and dragon.data["target"] == 1 and dragon.data["discarded"]["name"] == "Princess"
    assert e.view(None)["discards"] == [{"char": PRINCESS, "name": "Princess"}]
    assert e.char(1) == THIEF and e.active == 1
    assert e.view(None)["seats"][1]["shown"] is None
    assert [a["type"] for a in e.legal_actions(1)][-1] == "thief"
    e.apply(1, {"type": "thief", "target": 2}, 1)


def test_dealer_cannot_use_the_dragon(table):
    e = table([MONK, MAGICIAN, DRAGON])
    e.apply(0, {"type": "stand"}, 1)
    e.apply(1, {"type": "stand"}, 1)
    with pytest.raises(IllegalAction, match="nobody to the right"):
        e.apply(2, {"type": "dragon"}, 1)


def test_holding_the_card_is_needed_for_its_power(table):
    e = table([MONK, MAGICIAN, DRAGON])
    with pytest.raises(IllegalAction, match="Trader"):
        e.apply(0, {"type": "trader"}, 1)


# ------------------------------------------------------------------ end of round
def test_innkeeper_turns_if_a_king_is_in_play(table):
    e = table([INNKEEPER, KING, QUEEN])
    stand_rest(e)
    assert values(e) == {0: 11, 1: 12, 2: 11}
    assert e.reveal["losers"] == [0, 2]


def test_clown_turns_if_a_queen_is_in_play(table):
    e = table([CLOWN, QUEEN, MAGICIAN])
    stand_rest(e)
    assert values(e)[0] == 8 and e.reveal["losers"] == [2]


def test_magician_turns_if_a_monk_is_in_play(table):
    e = table([MAGICIAN, MONK, PRINCESS])
    stand_rest(e)
    assert values(e)[0] == 5


def test_knight_turns_both_dragons(table):
    e = table([DRAGON, KNIGHT, DRAGON, MAGICIAN])
    stand_rest(e)
    assert values(e) == {0: 4, 1: 9, 2: 4, 3: 7}
    assert e.reveal["losers"] == [0, 2]


def test_princess_turns_every_knight_and_the_queen(table):
    e = table([KNIGHT, PRINCESS, KNIGHT, QUEEN])
    stand_rest(e)
    assert values(e) == {0: 3, 1: 10, 2: 3, 3: 1}
    assert e.reveal["losers"] == [3]


def test_turned_knight_still_slays_dragons(table):
    e = table([KNIGHT, PRINCESS, DRAGON])
    stand_rest(e)
    assert values(e) == {0: 3, 1: 10, 2: 4}
    assert [x["seat"] for x in e.reveal["effects"] if x["effect"] == "turn"] == [0, 2]


def test_a_card_turns_at_most_once(table):
    e = table([INNKEEPER, KING, KING])
    stand_rest(e)
    assert values(e)[0] == 11


def test_cards_in_the_deck_or_discarded_are_not_in_play(table):
    e = table([DRAGON, KNIGHT, CLOWN], deck=[MONK])
    e.apply(0, {"type": "dragon"}, 1)  # the Knight is discarded: the Dragon stays 8
    stand_rest(e)
    assert values(e)[0] == 8


def test_monk_copies_the_current_value_of_the_card_to_its_right(table):
    e = table([MONK, KNIGHT, PRINCESS])
    stand_rest(e)
    assert values(e) == {0: 3, 1: 3, 2: 10}
    assert {"effect": "monk", "seat": 0, "from": 1, "value": 3} in e.reveal["effects"]


def test_dealers_monk_stays_six(table):
    e = table([DEATH, QUEEN, MONK])
    stand_rest(e)
    assert values(e)[2] == 6


def test_monks_copy_in_seat_order_from_the_first_player(table):
    # The first Monk copies the second before it has copied: 6; the second then copies 12.
    e = table([MONK, MONK, KING])
    stand_rest(e)
    assert values(e) == {0: 6, 1: 12, 2: 12}


def test_monk_copying_death_has_value_zero_but_does_not_hold_death(table):
    e = table([MONK, DEATH, QUEEN])
    stand_rest(e)
    assert values(e) == {0: 0, 1: 0, 2: 11}
    assert e.reveal["death"] == [1]
    assert e.reveal["losers"] == [0, 1]


def test_death_always_loses_and_ties_for_lowest_all_lose(table):
    e = table([DEATH, QUEEN, CLOWN, MAGICIAN])
    stand_rest(e)
    # Queen turns the Clown to 8; Death (0) is lowest and loses alone.
    assert e.reveal["losers"] == [0]
    e = table([MAGICIAN, MAGICIAN, QUEEN])
    stand_rest(e)
    assert e.reveal["losers"] == [0, 1]


# ------------------------------------------------------------------ modes
def test_classic_each_loser_takes_a_token_and_fewest_tokens_win(table):
    e = table([DEATH, QUEEN, PRINCESS], length=2, dealer=2)
    stand_rest(e)
    assert e.tokens == [1, 0, 0]
    while not e.is_over:
        e.apply(e.active, {"type": "stand"}, 1)
    assert e.round == 6
    result = e.result()
    assert result.scores == tuple(e.tokens)
    assert set(result.winners) == {s for s in range(3) if e.tokens[s] == min(e.tokens)}


def test_classic_length_and_player_range():
    assert KingdomEngine.new(4, 1, {"length": 5}, 0).rounds_total == 20
    for bad in ({"length": 1}, {"length": 7}, {"mode": "nope"}, {"turn_ms": 10}, {"colour": 1}):
        with pytest.raises(ValueError):
            KingdomEngine.new(4, 1, bad, 0)
    for mode, low, high in (("classic", 3, 16), ("death-over-all", 3, 16), ("only-one", 2, 20)):
        KingdomEngine.new(low, 1, {"mode": mode}, 0)
        KingdomEngine.new(high, 1, {"mode": mode}, 0)
        for n in (low - 1, high + 1):
            with pytest.raises(ValueError):
                KingdomEngine.new(n, 1, {"mode": mode}, 0)


def test_death_over_all_gives_three_two_one_tokens_by_rank(table):
    e = table([DEATH, CLOWN, MAGICIAN, MAGICIAN, PRINCESS], mode="death-over-all")
    stand_rest(e)
    assert e.reveal["delta"] == [3, 2, 1, 1, 0]
    assert e.reveal["losers"] == [0]


def test_death_over_all_death_holders_count_as_lowest(table):
    e = table([MONK, DEATH, MAGICIAN, PRINCESS], mode="death-over-all")
    stand_rest(e)
    # The Monk copies Death's 0 and ranks with it; then 7 and 10.
    assert e.reveal["delta"] == [3, 3, 2, 1]


def test_death_over_all_king_holder_returns_a_token_if_it_has_one(table):
    hands = [MAGICIAN, PRINCESS, KING]
    e = table(hands, mode="death-over-all", more=[(hands, ())])
    stand_rest(e)
    # The King ranks third (takes 1) then returns 1.
    assert e.tokens == [3, 2, 0]
    assert {"effect": "king_returns", "seat": 2} in e.reveal["effects"]
    e = table([DEATH, KING, PRINCESS], mode="death-over-all", dealer=2)
    stand_rest(e)
    assert e.tokens == [3, 0, 2]  # King ranks third (1) and returns it


def test_only_one_start_tokens_depend_on_player_count():
    assert [KingdomEngine.new(n, 1, {"mode": "only-one"}, 0).tokens[0] for n in (2, 6, 7, 12, 13, 20)] == [
        5,
        5,
        4,
        4,
        3,
        3,
    ]


def test_only_one_losers_lose_a_token_and_are_out_at_zero(table):
    death_first = ([DEATH, QUEEN, PRINCESS], ())
    e = table(*death_first, mode="only-one", more=[([QUEEN, PRINCESS, DEATH], ())] * 3 + [death_first] * 3)
    stand_rest(e)
    assert e.tokens == [4, 5, 5]
    while not e.out[0]:
        e.apply(e.active, {"type": "stand"}, 1)
    assert e.eliminated == [[0]] and e.tokens[0] == 0
    assert 0 not in e.order and e.hands[0] is None
    assert e.view(None)["eliminated"] == [0]


def test_only_one_last_player_standing_wins(table):
    # Seat 0 gets Death every round (the play order alternates with two players).
    e = table([DEATH, QUEEN], mode="only-one", more=[([QUEEN, DEATH], ()), ([DEATH, QUEEN], ())] * 2)
    while not e.is_over:
        e.apply(e.active, {"type": "stand"}, 1)
    result = e.result()
    assert result.winners == (1,) and result.scores == (0, 5)
    assert result.details["elimination_order"] == [[0]]


def test_only_one_all_remaining_out_together_share_the_victory(table):
    e = table([MAGICIAN, MAGICIAN], mode="only-one", more=[([MAGICIAN, MAGICIAN], ())] * 5)
    while not e.is_over:
        e.apply(e.active, {"type": "stand"}, 1)
    assert e.result().winners == (0, 1)
    assert e.eliminated == [[0, 1]]


def test_only_one_eliminated_players_are_not_dealt_and_no_longer_act(table):
    e = table([QUEEN, DEATH, PRINCESS, KING], mode="only-one")
    e.tokens[1] = 1  # one token left: this round's Death puts seat 1 out
    stand_rest(e)
    assert e.out[1] and e.eliminated == [[1]]
    assert e.order == [2, 3, 0] and e.hands[1] is None and len(e.deck) == 23
    assert e.legal_actions(1) == [] and not e.view(None)["seats"][1]["in_round"]
    with pytest.raises(IllegalAction):
        e.apply(1, {"type": "stand"}, 1)


def test_only_one_next_dealer_skips_a_first_player_who_went_out(table):
    e = table([DEATH, QUEEN, PRINCESS], mode="only-one")
    e.tokens[0] = 1
    stand_rest(e)
    assert e.out[0] and e.order == [2, 1]  # seat 1 deals after seat 0 went out


# ------------------------------------------------------------------ time and pauses
def test_idle_player_stands_after_turn_ms_with_a_public_event(table):
    e = table([DEATH, QUEEN, PRINCESS], turn_ms=60_000)
    assert e.next_deadline() == 60_000
    assert e.advance(59_999) == []
    events = e.advance(60_000)
    assert (
        events[0].kind == "timeout" and events[0].public and events[0].data == {"seat": 0, "action": "stand"}
    )
    assert e.active == 1 and e.next_deadline() == 120_000
    assert e.actions[-1] == {"type": "stand", "seat": 0, "timeout": True}


def test_idle_thief_keeps_its_card(table):
    e = table([THIEF, QUEEN, PRINCESS], turn_ms=5_000)
    e.apply(0, {"type": "thief", "target": 1}, 1_000)
    assert e.next_deadline() == 6_000
    events = e.advance(6_000)
    assert events[0].data == {"seat": 0, "action": "keep"}
    assert e.char(0) == THIEF and e.active == 1


def test_reveal_pause_shows_the_table_until_the_next_round(table):
    e = table([DEATH, QUEEN, PRINCESS], reveal_ms=8_000)
    stand_rest(e)
    view = e.view(None)
    assert view["phase"] == "reveal" and view["turn"] is None and e.next_deadline() == 8_001
    assert [s["shown"]["name"] for s in view["seats"]] == ["Death", "Queen", "Princess"]
    e.advance(8_001)
    assert e.round == 2 and e.phase == "play"
    e2 = table([DEATH, QUEEN, PRINCESS], reveal_ms=8_000)
    stand_rest(e2)
    assert e2.legal_actions(1) == [{"type": "next"}]
    e2.apply(1, {"type": "next"}, 2)
    assert e2.round == 2


def test_version_counter_increases_with_every_change(table):
    e = table([DEATH, QUEEN, PRINCESS])
    seen = [e.view(None)["version"]]
    e.apply(0, {"type": "stand"}, 1)
    seen.append(e.view(None)["version"])
    with pytest.raises(IllegalAction):
        e.apply(0, {"type": "stand"}, 1)
    seen.append(e.view(None)["version"])
    assert seen[0] < seen[1] == seen[2]


def test_seat_view_shows_own_card_and_what_it_can_do(table):
    e = table([DEATH, QUEEN, PRINCESS])
    me = e.view(0)["me"]
    assert me["card"] == {"char": DEATH, "name": "Death"}
    assert me["legal"] == [{"type": "stand"}, {"type": "exchange", "target": 1}]
    assert e.view(1)["me"]["legal"] == []
    assert all(s["shown"] is None for s in e.view(None)["seats"])
