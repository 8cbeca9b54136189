"""Skill ratings: one (μ, σ) per member, per game, per server, updated after every finished game
from its finishing order with openskill's Plackett–Luce model (any number of players, ties).

Pure: no discord, no database. Storage calls ``update`` inside the transaction that records the
game, so a game changes ratings exactly once. See docs/standings.md, "Ratings and seasons".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.i18n.catalogues import DEFAULT, N_, t  # Babel only: this module stays free of discord

# openskill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300 (τ keeps σ from shrinking to nothing, so
# a rating can still move after hundreds of games).
MODEL = PlackettLuce()
# A member is ranked on the rating board after this many rated games: before that σ is so wide
# that μ − 3σ says little.
MIN_RATED_GAMES = 3

# The number members see: the cautious estimate μ − 3σ (a skill the member almost surely has) on
# a chess-like scale. A newcomer (μ − 3σ = 0) shows 1000, each point of μ − 3σ is worth 20, and
# the result is clamped at 0. The offset keeps a first loss visible (1000 → 964) where a bare
# "μ − 3σ clamped at 0" would show half the members as 0; the clamp needs μ − 3σ below −50, about
# 90 last places in a row in five-player games. See docs/standings.md.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20
# Named tiers by shown rating, highest first. Calibrated on simulated groups of regulars: an
# average member settles in Silver or Gold, the clear best reach Platinum or Diamond.
# The names are message ids, translated where a rating is shown.
TIERS = (
    (1700, N_("Diamond")),
    (1500, N_("Platinum")),
    (1300, N_("Gold")),
    (1100, N_("Silver")),
    (0, N_("Bronze")),
)
# Before MIN_RATED_GAMES rated games the number is provisional: no tier, not ranked.
NEWCOMER = N_("Newcomer")


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """μ − 3σ: what rankings order by."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The one number members see, never negative: ``ordinal`` on the display scale, rounded."""
        return max(0, math.floor(DISPLAY_BASE + DISPLAY_SCALE * self.ordinal + 0.5))


def tier(shown: int, games: int, locale: str = DEFAULT) -> str:
    """The tier's name for a shown rating after ``games`` rated games, in ``locale``."""
    if games < MIN_RATED_GAMES:
        return t(locale, NEWCOMER)
    return t(locale, next(name for floor, name in TIERS if shown >= floor))


def described(rating: Rating, games: int, locale: str = DEFAULT) -> str:
    """A rating as every screen shows it: "**1136** · Silver"."""
    return f"**{rating.shown}** · {tier(rating.shown, games, locale)}"


def tiers_text(locale: str = DEFAULT) -> str:
    """The tiers in words, lowest first, for /help: "Bronze · Silver 1100+ · …"."""
    ladder = [t(locale, name) + ("" if floor == 0 else f" {floor}+") for floor, name in reversed(TIERS)]
    return " · ".join(ladder)


NEW = Rating(MODEL.mu, MODEL.sigma)


def places(scores: Sequence[int], winners: Sequence[int], lower_score_wins: bool) -> list[int]:
    """Each seat's finishing place (1 is best). The winners share first place, whatever their
    scores (the game decided the victory); the others follow by score (fewer is better where
    ``lower_score_wins``), and equal scores share a place ("1, 1, 3")."""
    won = set(winners)

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat in won else 1, scores[seat] if lower_score_wins else -scores[seat])

    order = sorted(range(len(scores)), key=key)
    result = [0] * len(scores)
    for position, seat in enumerate(order):
        same = position > 0 and key(order[position - 1]) == key(seat)
        result[seat] = result[order[position - 1]] if same else position + 1
    return result


def counts(computers: Sequence[bool], *, computers_rated: bool = False) -> bool:
    """Whether a finished game with these seats changes ratings: at least two humans, and no
    computer unless the server turned ``computers_rated`` on (/settings). Computer seats are
    never rated themselves."""
    if any(computers) and not computers_rated:
        return False
    return sum(not c for c in computers) >= 2


def update(ratings: Sequence[Rating], finishing: Sequence[int]) -> list[Rating]:
    """The new ratings of the players of one game, each given with their finishing place."""
    if len(ratings) != len(finishing):
        raise ValueError("one place per rating")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in finishing])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]
