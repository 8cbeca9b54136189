"""Odd One Out's rules, with no Discord in them: 2–6 players, 3 rounds; each round everyone
secretly picks 1, 2 or 3; a pick nobody else made scores its value. Most points after 3 rounds
win. A round ends when everyone has picked, or at its deadline (a seat that has not picked
scores nothing). Nothing is dealt, so the seed only names the game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Self

from bot.engine import Event, GameEngine, IllegalAction, Result
from bot.engine.protocol import N_

ROUNDS = 3
PICKS = (1, 2, 3)
ROUND_MS = 30_000


def scored(picks: list[int | None]) -> list[int]:
    """What each seat's pick scores: its value if nobody else picked it."""
    counts = Counter(p for p in picks if p is not None)
    return [p if p is not None and counts[p] == 1 else 0 for p in picks]


class OddOneOutEngine(GameEngine):
    kind = "oddoneout"
    title = "Odd One Out"
    min_players = 2
    max_players = 6

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state

    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, Any], now: int) -> Self:
        cls.check_players(players)
        round_ms = int(options.get("round_ms", ROUND_MS))
        return cls(
            {
                "n": players,
                "round": 0,
                "picks": [None] * players,
                "scores": [0] * players,
                "rounds": [],  # each finished round's picks, shown face up once it ends
                "round_ms": round_ms,
                "deadline": now + round_ms,
                "log": [{"now": now}],  # the engine's input, for the record (history.py)
            }
        )

    def apply(self, seat: int, action: Mapping[str, Any], now: int) -> list[Event]:
        if self.is_over:
            raise IllegalAction(N_("The game is over."))
        if action.get("type") != "pick" or action.get("value") not in PICKS:
            raise IllegalAction(N_("Pick 1, 2 or 3."))
        if self.s["picks"][seat] is not None:
            raise IllegalAction(N_("You have already picked this round."))
        self.s["log"].append({"op": "apply", "seat": seat, "action": dict(action), "now": now})
        self.s["picks"][seat] = action["value"]
        events = [
            Event("picked", {"seat": seat}),
            Event("you_picked", {"value": action["value"]}, to=(seat,)),
        ]
        if all(p is not None for p in self.s["picks"]):
            events += self._end_round(now)
        return events

    def advance(self, now: int) -> list[Event]:
        deadline = self.s["deadline"]
        if deadline is None or now < deadline:
            return []
        self.s["log"].append({"op": "advance", "now": now})
        return self._end_round(deadline)

    def _end_round(self, now: int) -> list[Event]:
        picks = self.s["picks"]
        for seat, points in enumerate(scored(picks)):
            self.s["scores"][seat] += points
        self.s["rounds"].append(list(picks))
        self.s["round"] += 1
        self.s["picks"] = [None] * self.s["n"]
        self.s["deadline"] = None if self.is_over else now + self.s["round_ms"]
        return [Event("round_over", {"round": self.s["round"], "picks": list(picks)})]

    def next_deadline(self) -> int | None:
        return self.s["deadline"]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.is_over or self.s["picks"][seat] is not None:
            return []
        return [{"type": "pick", "value": value} for value in PICKS]

    def view(self, seat: int | None) -> dict[str, Any]:
        """The public view shows who has picked, never what; a seat's own view adds its pick."""
        public = {
            "round": self.s["round"],
            "picked": [p is not None for p in self.s["picks"]],
            "scores": list(self.s["scores"]),
            "rounds": [list(r) for r in self.s["rounds"]],
            "deadline": self.s["deadline"],
            "over": self.is_over,
            "winners": list(self.result().winners) if self.is_over else None,
        }
        if seat is not None:
            public["seat"] = seat
            public["mine"] = self.s["picks"][seat]
        return public

    def to_json(self) -> dict[str, Any]:
        return dict(self.s)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(dict(data))

    @property
    def is_over(self) -> bool:
        return self.s["round"] >= ROUNDS

    def result(self) -> Result:
        scores = self.s["scores"]
        best = max(scores)
        return Result(tuple(scores), tuple(seat for seat, score in enumerate(scores) if score == best))
