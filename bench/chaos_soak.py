"""The chaos test's longer run, by hand: more seeds per title and longer games.

Run: ``python bench/chaos_soak.py [--seeds 20] [--pg-seeds 6] [--first 100] [--steps 400]
[--title masks]``. It runs ``tests/chaos`` through pytest with those settings (``CHAOS_SEEDS``,
``CHAOS_PG_SEEDS``: the seeds also played on a real PostgreSQL server, whose crashes and lost
connections are real; ``CHAOS_FIRST_SEED``, ``CHAOS_STEPS``), so every line of the summary (presses answered, faults hit, unhandled errors,
stuck games, records, stale boards, secrets leaked) is printed per title and seed, and any failing
seed is reported with its own list of what went wrong. Odd seeds seat computer players (turn
pings and a computer Mime's emoji under faults), even seeds four members. A seed replays exactly: the same presses,
faults and deal, so a failure can be run again alone (``--first N --seeds 1 --title T``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeds per title (default 20)")
    parser.add_argument("--first", type=int, default=100, help="the first seed (the suite runs 0, 1)")
    parser.add_argument("--steps", type=int, default=400, help="chaos steps per game before it is played out")
    parser.add_argument(
        "--pg-seeds",
        type=int,
        default=1,
        help="seeds per title on a real PostgreSQL server (default 1; its games play half the steps)",
    )
    parser.add_argument("--title", choices=["kabuki", "masks", "kingdom"], help="one title only")
    args = parser.parse_args()
    env = {
        **os.environ,
        "CHAOS_SEEDS": str(args.seeds),
        "CHAOS_FIRST_SEED": str(args.first),
        "CHAOS_STEPS": str(args.steps),
        "CHAOS_PG_SEEDS": str(args.pg_seeds),
    }
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/chaos"]
    if args.title:
        command += ["-k", args.title]
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
