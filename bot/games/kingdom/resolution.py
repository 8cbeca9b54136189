"""The end of a round: turning, Monks copying, losers, and tokens by mode (pure functions).

Kept apart from the engine so the rules' resolution order reads top to bottom in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.kingdom.cards import CHARACTERS, DEATH, KING, MONK, TURN_TRIGGER

DOA_PENALTIES = (3, 2, 1)  # Death over all: lowest, second-lowest, third-lowest value


@dataclass
class Resolution:
    values: dict[int, int]  # seat -> final value
    turned: dict[int, bool]
    copied: dict[int, int]  # Monk's seat -> the seat it copied
    death: list[int]  # seats holding Death (a Monk that copied Death is not one)
    losers: list[int]  # play order
    effects: list[dict[str, Any]] = field(default_factory=list)


def resolve(order: list[int], chars: dict[int, int]) -> Resolution:
    """``order``: this round's play order (dealer last); ``chars``: seat -> character held."""
    in_play = set(chars.values())
    values: dict[int, int] = {}
    turned: dict[int, bool] = {}
    effects: list[dict[str, Any]] = []
    # 1. Every turn condition is checked against the characters in play before anything turns,
    #    so a turned Knight still slays Dragons; each card turns at most once.
    for s in order:
        c = chars[s]
        trigger = TURN_TRIGGER[c]
        if trigger >= 0 and trigger in in_play:
            values[s] = CHARACTERS[c].turned  # type: ignore[assignment]
            turned[s] = True
            effects.append({"effect": "turn", "seat": s, "char": c, "because": trigger, "value": values[s]})
        else:
            values[s] = c
            turned[s] = False
    # 2. Monks copy in seat order from the first player, each the *current* value on its right
    #    (so a Monk whose right-hand Monk has not copied yet reads 6).
    copied: dict[int, int] = {}
    last = len(order) - 1
    for i, s in enumerate(order):
        if chars[s] != MONK:
            continue
        if i == last:
            effects.append({"effect": "dealer_monk", "seat": s, "value": values[s]})
        else:
            right = order[i + 1]
            values[s] = values[right]
            copied[s] = right
            effects.append({"effect": "monk", "seat": s, "from": right, "value": values[s]})
    # 3. Compare. Death's 0 is the lowest value anyway; "always loses" is kept explicit.
    death = [s for s in order if chars[s] == DEATH]
    lowest = min(values.values())
    losers = [s for s in order if values[s] == lowest or s in death]
    return Resolution(values, turned, copied, death, losers, effects)


def token_changes(
    mode: str, order: list[int], chars: dict[int, int], res: Resolution, tokens: list[int]
) -> list[int]:
    """The change of every seat's tokens this round (appends King returns to ``res.effects``)."""
    delta = [0] * len(tokens)
    if mode == "classic":
        for s in res.losers:
            delta[s] = 1
    elif mode == "death-over-all":
        ranks = sorted(set(res.values.values()))[: len(DOA_PENALTIES)]
        for s in order:
            if s in res.death:
                delta[s] = DOA_PENALTIES[0]
            elif res.values[s] in ranks:
                delta[s] = DOA_PENALTIES[ranks.index(res.values[s])]
        # Then every King holder returns one token, if it has one (after this round's penalty).
        for s in order:
            if chars[s] == KING and tokens[s] + delta[s] > 0:
                delta[s] -= 1
                res.effects.append({"effect": "king_returns", "seat": s})
    else:  # only-one: tokens are lives
        for s in res.losers:
            delta[s] = -1
    return delta
