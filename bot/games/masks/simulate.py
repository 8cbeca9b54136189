"""``python -m bot simulate masks``: play many games with computer players and summarize them.

With ``--json`` every game is printed as one JSON object per line on stdout (the summary goes
to stderr), in the format described in docs/monster-masks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from bot.games.masks.engine import BOX, MasksEngine
from bot.games.masks.options import DEFAULT_OPTIONS, INT_RANGES
from bot.games.masks.players import play_game


def game_record(engine: MasksEngine, seed: int) -> dict[str, Any]:
    result = engine.result()
    return {
        "seed": seed,
        "players": engine.players,
        "options": dict(engine.options),
        "deck": list(engine.dealt),
        "box": BOX - len(engine.dealt),
        "turns": [
            {
                "turn": t["turn"],
                "mime": t["mime"],
                "card": t["card"],
                "started_at": t["started_at"],
                "slaps": t["slaps"],
                "races": t["races"],
                "reason": t["reason"],
                "revealed_at": t["revealed_at"],
                "scorer": t["scorer"],
                "won": t["won"],
                "removed": t["removed"],
            }
            for t in engine.history
        ],
        "removed": list(engine.removed),
        "counts": list(result.scores),
        "winners": list(result.winners),
    }


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot simulate masks", description="Simulate Island of Monster Masks."
    )
    p.add_argument("--players", type=int, default=5, help="3–8 (default 5)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i")
    p.add_argument("--skill", type=float, default=0.6, help="chance a guesser reads the Mime right (0–1)")
    p.add_argument("--reaction", type=int, default=1500, help="guessers' mean reaction time in ms")
    p.add_argument("--jitter", type=int, default=None, help="± reaction jitter in ms (default reaction/3)")
    p.add_argument("--guess-ms", type=int, default=DEFAULT_OPTIONS["guess_ms"], help="guess timer in ms")
    p.add_argument("--race-window-ms", type=int, default=DEFAULT_OPTIONS["race_window_ms"])
    p.add_argument("--reveal-ms", type=int, default=DEFAULT_OPTIONS["reveal_ms"])
    p.add_argument("--json", action="store_true", help="print one JSON object per game (summary to stderr)")
    return p


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not MasksEngine.min_players <= args.players <= MasksEngine.max_players:
        parser.error("--players must be between 3 and 8")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 0.0 <= args.skill <= 1.0:
        parser.error("--skill must be between 0 and 1")
    if args.reaction < 1 or (args.jitter is not None and not 0 <= args.jitter < args.reaction):
        parser.error("--reaction must be positive and --jitter between 0 and the reaction time")
    options = {"guess_ms": args.guess_ms, "race_window_ms": args.race_window_ms, "reveal_ms": args.reveal_ms}
    for key, (low, high) in INT_RANGES.items():
        if not low <= options[key] <= high:
            parser.error(f"--{key.replace('_', '-')} must be between {low} and {high}")

    cards = turns = correct = races = lost = 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        engine, stats = play_game(
            args.players,
            seed,
            skill=args.skill,
            reaction_ms=args.reaction,
            jitter_ms=args.jitter,
            options=options,
        )
        result = engine.result()
        cards += sum(result.scores)
        turns += result.details["turns"]
        correct += result.details["correct_turns"]
        races += stats.races
        lost += stats.lost
        if args.json:
            print(json.dumps(game_record(engine, seed), separators=(",", ":")))
    elapsed = time.perf_counter() - started

    out = sys.stderr if args.json else sys.stdout
    print(
        f"Island of Monster Masks: {args.games} games, {args.players} players, "
        f"skill {args.skill:.2f}, reaction {args.reaction} ms",
        file=out,
    )
    print(f"average cards per player: {cards / (args.games * args.players):.2f}", file=out)
    print(f"correct-guess rate: {100 * correct / turns:.1f}% of {turns} turns", file=out)
    print(
        f"races (contested tiles): {races / args.games:.2f} per game, {lost / args.games:.2f} lost presses",
        file=out,
    )
    print(f"games per second: {args.games / elapsed:.0f}", file=out)
    return 0
