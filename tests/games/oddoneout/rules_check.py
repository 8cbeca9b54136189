"""Odd One Out's rules read again from a record, without the engine (``verify``'s second opinion):
every seat picks at most once a round, 1–3; a round ends when all picked or its time ran out;
the record's scores are what the picks score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.engine.replay import ReplayError, check_header

from .engine import OddOneOutEngine


def check_log(rec: Mapping[str, Any]) -> None:
    check_header(rec, OddOneOutEngine.kind, OddOneOutEngine.title)
    players = rec["players"]
    scores = [0] * players
    picks: dict[int, int] = {}
    rounds = 0
    for i, entry in enumerate(rec["log"][1:], 1):
        if rounds == 3:
            raise ReplayError(f"log entry {i} comes after the last round")
        if entry["op"] == "apply":
            seat, value = entry["seat"], entry["action"]["value"]
            if seat in picks or value not in (1, 2, 3):
                raise ReplayError(f"log entry {i}: seat {seat + 1} may not pick {value} now")
            picks[seat] = value
        if entry["op"] == "advance" or len(picks) == players:
            counts = Counter(picks.values())
            for seat, value in picks.items():
                scores[seat] += value if counts[value] == 1 else 0
            picks, rounds = {}, rounds + 1
    if rounds != 3 or scores != list(rec["scores"]):
        raise ReplayError(
            f"by the rules the picks score {scores} in {rounds} rounds, the record says {rec['scores']}"
        )
