"""Rating updates against hand-worked examples: Plackett–Luce (Weng & Lin 2011, algorithm 4)
worked out here independently of openskill, and fixed numbers for 5 and 20 players with ties."""

from __future__ import annotations

import math

import pytest

from bot.community.ratings import MIN_RATED_GAMES, NEW, Rating, counts, described, places, tier, update

BETA = 25 / 6  # openskill's default β = σ₀ / 2
TAU = 25 / 300  # its additive dynamics τ = μ₀ / 300


def by_hand(ratings: list[Rating], finishing: list[int]) -> list[Rating]:
    """Weng & Lin's Plackett–Luce update for one-member teams, written from the paper:
    σ² gets τ² added first; c² = Σ (σᵢ² + β²); Cq = Σ over s placed no better than q of e^(μs/c);
    Aq = how many share q's place;
    Ωi = σi²/c · Σ over q placed no worse… than i of ([q = i] − e^(μi/c)/Cq) / Aq,
    Δi = (σi/c) · σi²/c² · Σ over the same q of (e^(μi/c)/Cq)(1 − e^(μi/c)/Cq) / Aq;
    μi += Ωi, σi ×= √max(1 − Δi, κ). A tie enters only through Aq (players of equal standing who
    tie end equal)."""
    sigma2 = [r.sigma**2 + TAU**2 for r in ratings]
    c = math.sqrt(sum(s + BETA**2 for s in sigma2))
    e = [math.exp(r.mu / c) for r in ratings]
    n = len(ratings)
    big_c = [sum(e[s] for s in range(n) if finishing[s] >= finishing[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if finishing[s] == finishing[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if finishing[q] <= finishing[i]:
                p = e[i] / big_c[q]
                omega += ((1 if q == i else 0) - p) / a[q]
                delta += p * (1 - p) / a[q]
        omega *= sigma2[i] / c
        delta *= sigma2[i] / c**2 * (math.sqrt(sigma2[i]) / c)
        out.append(Rating(ratings[i].mu + omega, math.sqrt(sigma2[i]) * math.sqrt(max(1 - delta, 1e-4))))
    return out


def close(got: list[Rating], want: list[Rating], digits: int = 6) -> None:
    assert [(round(r.mu, digits), round(r.sigma, digits)) for r in got] == [
        (round(r.mu, digits), round(r.sigma, digits)) for r in want
    ]


def test_two_newcomers_the_winner_gains_exactly_what_the_loser_loses():
    # Worked through: σ² = (25/3)² + τ² = 69.4514; c = √(2 (σ² + β²)) = 13.1766; with equal μ
    # each wins with probability ½, so Ω = ±σ²/c · ½ = ±2.6354; Δ = (σ/c)·σ²/c²·¼ = 0.0626.
    sigma2 = (25 / 3) ** 2 + TAU**2
    c = math.sqrt(2 * (sigma2 + BETA**2))
    omega = sigma2 / c / 2
    sigma = math.sqrt(sigma2) * math.sqrt(1 - math.sqrt(sigma2) / c * sigma2 / c**2 / 4)
    winner, loser = update([NEW, NEW], [1, 2])
    assert winner.mu == pytest.approx(25 + omega, abs=1e-9) == pytest.approx(27.635389, abs=1e-6)
    assert loser.mu == pytest.approx(25 - omega, abs=1e-9)
    assert winner.sigma == loser.sigma == pytest.approx(sigma, abs=1e-9) == pytest.approx(8.065901, abs=1e-6)
    # μ − 3σ: 27.64 − 24.20 = 3.44 and 22.36 − 24.20 = −1.83; shown as 1000 + 20 × that, rounded.
    assert (winner.shown, loser.shown) == (1069, 963)


def test_a_two_player_draw_moves_neither_mean():
    first, second = update([NEW, NEW], [1, 1])
    assert first.mu == second.mu == pytest.approx(25)
    assert first.sigma < NEW.sigma  # a game was still learnt from


def test_an_underdogs_win_moves_both_ratings_more_than_a_favourites_win():
    strong, weak = Rating(30, 4), Rating(20, 4)
    favourite_won = update([strong, weak], [1, 2])
    underdog_won = update([strong, weak], [2, 1])
    close(favourite_won, by_hand([strong, weak], [1, 2]))
    close(underdog_won, by_hand([strong, weak], [2, 1]))
    assert underdog_won[1].mu - weak.mu > favourite_won[0].mu - strong.mu > 0


def test_five_newcomers_with_two_sharing_second_place():
    # Numbers derived once with openskill 6.2.0 and agreeing with the hand-written update above.
    # The two who tie for second, equal before, are equal after.
    finishing = [1, 2, 2, 4, 5]
    got = update([NEW] * 5, finishing)
    close(got, by_hand([NEW] * 5, finishing))
    close(
        got,
        [
            Rating(27.666827, 8.290970),
            Rating(25.166677, 8.240555),
            Rating(25.166677, 8.240555),
            Rating(25.166677, 8.172851),
            Rating(21.833143, 8.172851),
        ],
    )
    assert [r.shown for r in got] == [1056, 1009, 1009, 1013, 946]


# Twenty members of varied standing: a shared victory (two winners), three tied for fourth,
# two tied for tenth and two for eighteenth.
TWENTY = [Rating(25 + (i % 5) - 2, 25 / 3 - 0.25 * (i % 7)) for i in range(20)]
TWENTY_PLACES = [1, 1, 3, 4, 4, 4, 7, 8, 9, 10, 10, 12, 13, 14, 15, 16, 17, 18, 18, 20]
TWENTY_AFTER = [
    (23.807857, 8.331898),
    (24.758042, 8.082083),
    (26.411380, 7.830588),
    (26.244370, 7.579336),
    (27.222477, 7.329815),
    (23.229296, 7.080670),
    (24.925599, 6.829847),
    (26.229427, 8.321805),
    (27.000557, 8.070111),
    (26.984169, 7.818689),
    (23.058835, 7.571740),
    (24.580921, 7.320652),
    (25.362929, 7.069778),
    (26.141393, 6.819093),
    (26.858939, 8.294439),
    (22.725468, 8.046383),
    (23.315122, 7.794206),
    (23.083597, 7.542095),
    (24.143195, 7.296609),
    (24.560805, 7.050798),
]


def test_twenty_players_with_a_shared_victory_and_ties():
    got = update(TWENTY, TWENTY_PLACES)
    close(got, by_hand(TWENTY, TWENTY_PLACES))
    close(got, [Rating(mu, sigma) for mu, sigma in TWENTY_AFTER])
    # Both winners gain; the last loses.
    assert got[0].mu > TWENTY[0].mu and got[1].mu > TWENTY[1].mu
    assert got[19].mu < TWENTY[19].mu


def test_winners_share_first_place_and_equal_scores_share_the_next():
    assert places([5, 3, 5, 3, 1], winners=[0, 2], lower_score_wins=False) == [1, 3, 1, 3, 5]


def test_fewer_is_better_where_the_lowest_score_wins():
    # Death Over the Kingdom records tokens lost.
    assert places([2, 0, 3, 0], winners=[1, 3], lower_score_wins=True) == [3, 1, 4, 1]


def test_a_declared_winner_ranks_first_even_without_the_best_score():
    assert places([1, 4, 2], winners=[0], lower_score_wins=False) == [1, 2, 3]


def test_only_games_of_at_least_two_humans_without_computers_are_rated():
    assert counts([False, False])
    assert not counts([False])
    assert not counts([False, False, True])  # until a server turns on rating with computers
    assert counts([False, False, True], computers_rated=True)
    assert not counts([False, True], computers_rated=True)  # one human still has no one to beat


def test_the_shown_rating_is_never_negative_and_keeps_the_order_of_mu_minus_three_sigma():
    assert NEW.shown == 1000  # a newcomer: μ − 3σ = 0
    assert Rating(25.025, 25 / 3).shown == 1001  # 0.025 × 20 = 0.5 rounds up
    assert Rating(0, 25 / 3).shown == 500 and Rating(-30, 8).shown == 0  # clamped, never below 0
    ratings = [Rating(mu, sigma) for mu in (5, 15, 25, 35) for sigma in (1, 4, 8)]
    by_ordinal = sorted(ratings, key=lambda r: r.ordinal)
    assert [r.shown for r in by_ordinal] == sorted(r.shown for r in ratings)


def test_tiers_by_shown_rating_once_a_member_has_enough_rated_games():
    enough = MIN_RATED_GAMES
    assert tier(2400, enough - 1) == "Newcomer"  # provisional, however high
    assert [tier(n, enough) for n in (0, 1099, 1100, 1299, 1300, 1500, 1700, 2500)] == [
        "Bronze",
        "Bronze",
        "Silver",
        "Silver",
        "Gold",
        "Platinum",
        "Diamond",
        "Diamond",
    ]
    assert described(Rating(30, 5), enough) == "**1300** · Gold"
