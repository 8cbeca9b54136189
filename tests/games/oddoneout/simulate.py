"""``python -m bot simulate oddoneout``: computer seats pick at random through whole games."""

from __future__ import annotations

import argparse
import json
import random

from bot.engine.replay import simulated

from .engine import OddOneOutEngine
from .history import log_record


def play(players: int, seed: int) -> OddOneOutEngine:
    engine = OddOneOutEngine.new(players, seed, {}, 0)
    rng = random.Random(seed)
    now = 0
    while not engine.is_over:
        now += 1000
        seats = [seat for seat in range(players) if engine.legal_actions(seat)]
        if rng.random() < 0.1:  # someone is away: the round's time runs out
            now = engine.next_deadline() or now
            engine.advance(now)
            continue
        seat = rng.choice(seats)
        engine.apply(seat, rng.choice(engine.legal_actions(seat)), now)
    return engine


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot simulate oddoneout")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one record per line")
    args = parser.parse_args(argv)
    engines = [(args.seed + n, play(args.players, args.seed + n)) for n in range(args.games)]
    for seed, engine in engines:
        if args.json:
            print(json.dumps(simulated(log_record(engine, seed))))
    if not args.json:
        top = sum(max(engine.s["scores"]) for _, engine in engines) / len(engines)
        print(f"{args.games} games of {args.players} players: the winner scores {top:.1f} on average")
    return 0
