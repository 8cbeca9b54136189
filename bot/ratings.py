"""Skill ratings: one (μ, σ) per member, per game, per server, updated after every finished game
from its finishing order with openskill's Plackett–Luce model (any number of players, ties).

Pure: no discord, no database. Storage calls ``update`` inside the transaction that records the
game, so a game changes ratings exactly once. See docs/architecture.md, "Ratings and seasons".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300 (τ keeps σ from shrinking to nothing, so
# a rating can still move after hundreds of games).
MODEL = PlackettLuce()
# A member is ranked on the rating board after this many rated games: before that σ is so wide
# that μ − 3σ says little.
MIN_RATED_GAMES = 3


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The one conservative number members see: μ − 3σ, rounded (half away from zero)."""
        value = self.mu - 3 * self.sigma
        return int(math.copysign(math.floor(abs(value) + 0.5), value))


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
