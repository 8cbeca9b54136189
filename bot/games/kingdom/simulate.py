"""``python -m bot simulate kingdom``: computer players play whole games of Death Over the Kingdom.

Without ``--json`` it prints a summary; with ``--json`` one JSON object per game per line (the
format is described in docs/death-over-the-kingdom.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from bot.engine.protocol import Event
from bot.games.kingdom.engine import MODES, KingdomEngine
from bot.games.kingdom.players import make_players

ACTION_KINDS = frozenset({"stand", "exchange", "cut", "trader", "thief", "swap", "keep", "bard", "dragon"})


class Recorder:
    """Turns the engine's events (public and private alike) into the per-round JSON record."""

    def __init__(self) -> None:
        self.rounds: list[dict[str, Any]] = []

    def feed(self, events: list[Event]) -> None:
        for e in events:
            data = e.data
            if e.kind == "round":
                self.rounds.append({**data, "deal": [], "kings": [], "actions": [], "reveal": None})
                continue
            current = self.rounds[-1]
            if e.kind == "card" and data["how"] == "deal":
                current["deal"].append({"seat": e.to[0], "char": data["char"], "name": data["name"]})  # type: ignore[index]
            elif e.kind in ACTION_KINDS:
                current["actions"].append({**data, "effects": []})
            elif e.kind == "card":
                current["actions"][-1]["effects"].append({"seat": e.to[0], "receives": data["name"]})  # type: ignore[index]
            elif e.kind == "peek":
                current["actions"][-1]["effects"].append({"sees": data["name"], "target": data["target"]})
            elif e.kind == "king":
                where = current["actions"][-1]["effects"] if current["actions"] else current["kings"]
                where.append({"king_shown": data["seat"]})
            elif e.kind == "reveal":
                current["reveal"] = data


def play(
    mode: str, players: int, seed: int, length: int, bots: str, record: bool
) -> tuple[KingdomEngine, Recorder]:
    engine = KingdomEngine.new(players, seed, {"mode": mode, "length": length, "turn_ms": 0}, 0)
    recorder = Recorder()
    if record:
        recorder.feed(engine.opening)
    seats = make_players(bots, players, seed)
    now = 0
    while not engine.is_over:
        seat = engine.active
        assert seat is not None
        now += 1
        events = engine.apply(seat, seats[seat].choose(engine, seat), now)
        if record:
            recorder.feed(events)
    return engine, recorder


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot simulate kingdom", description=__doc__)
    parser.add_argument("--mode", choices=sorted(MODES), default="classic")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--length", type=int, default=3, help="Classic / Death over all: rounds = players x length"
    )
    parser.add_argument("--bots", choices=("simple", "random"), default="simple")
    parser.add_argument("--json", action="store_true", help="one JSON object per game per line")
    args = parser.parse_args(argv)
    try:
        KingdomEngine.check_mode_players(args.mode, args.players)
    except ValueError as exc:
        parser.error(str(exc))

    wins: Counter[int] = Counter()
    tokens = [0] * args.players
    rounds = 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        engine, recorder = play(args.mode, args.players, seed, args.length, args.bots, args.json)
        result = engine.result()
        for s in result.winners:
            wins[s] += 1
        for s, t in enumerate(result.scores):
            tokens[s] += t
        rounds += engine.round
        if args.json:
            line = {
                "game": i,
                "seed": seed,
                "mode": args.mode,
                "players": args.players,
                "rounds": recorder.rounds,
                "standings": {
                    "tokens": list(result.scores),
                    "winners": list(result.winners),
                    "score": result.details["score"],
                    "elimination_order": result.details["elimination_order"],
                },
            }
            sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
    elapsed = time.perf_counter() - started
    if args.json:
        return 0
    games = max(args.games, 1)
    print(
        f"Death Over the Kingdom — {args.mode}, {args.players} players, {args.games} games, seed {args.seed}"
    )
    print(f"  rounds per game:  {rounds / games:.1f}")
    label = "tokens left" if args.mode == "only-one" else "tokens taken"
    print(f"  average {label} per seat: " + " ".join(f"{t / games:.2f}" for t in tokens))
    print(f"  average {label} overall: {sum(tokens) / games / args.players:.2f}")
    print(
        "  wins per seat (shared wins count for each): " + " ".join(str(wins[s]) for s in range(args.players))
    )
    print(f"  speed: {args.games / elapsed:.0f} games/s ({elapsed:.2f} s)" if elapsed else "  speed: -")
    return 0
