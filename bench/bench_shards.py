"""How far beyond one process the bot scales: shard processes at once, on one PostgreSQL server.

Run by hand, never as a test (a few minutes)::

    python bench/bench_shards.py --game kabuki --games 500 --ramp 100,200,300 --processes 1,2

For each count N of ``--processes``: a throwaway PostgreSQL server (``tests/pg_cluster.py``), N
``bench_load.py`` processes, each the bot of its own shards (its own SimCord, so its own servers
and channels: a database each on that server, as disjoint shards never share a game's rows), each
building its own ``--games`` open games, then all starting the same ramp at once (``--ready-dir``).
Each process's ramp is its own: the table gives, per offered rate, what each delivered and its
p99, and the sum; then the highest rate each held with every answer inside 3 s and with p99
under 250 ms, and their sum (the cluster's ceiling at that count).

What it leaves out: Discord's own sharding (the gateway's events split by server: here each
process is handed its presses directly); a network between the processes and the database (one
machine, loopback); more processes than this machine has cores would measure the machine, not the
bot (the run prints the cores).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

STEP = re.compile(r"offered (?P<rate>[\d.]+)/s: delivered (?P<got>[\d.]+)/s .*? p99 (?P<p99>[\d.,]+ m?s)")
HELD_3S = re.compile(r"held with every answer inside 3 s: (\d+) presses/s")
HELD_250 = re.compile(r"held with p99 under 250 ms \(the target\): (\d+) presses/s")


def run_together(count: int, cluster: object, args: argparse.Namespace) -> list[str]:
    """``count`` bench_load.py processes started together; their outputs."""
    with tempfile.TemporaryDirectory() as ready:
        processes = []
        for shard in range(count):
            dsn = cluster.create_database(f"shard{count}_{shard}")  # type: ignore[attr-defined]
            command = [
                sys.executable,
                str(HERE / "bench_load.py"),
                "--game", args.game,
                "--games", str(args.games),
                "--seconds", "0",
                "--ramp", args.ramp,
                "--step-seconds", str(args.step_seconds),
                "--database-url", dsn,
                "--ready-dir", ready,
                "--seed", str(shard + 1),
                *(["--option", "grace=0"] if args.game == "kabuki" else []),
            ]  # fmt: skip
            processes.append(
                subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            )
        while len(list(Path(ready).glob("ready.*"))) < count:
            if any(p.poll() is not None for p in processes):
                break
            time.sleep(0.1)
        (Path(ready) / "go").touch()
        return [p.communicate()[0] for p in processes]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kabuki")
    parser.add_argument("--games", type=int, default=500, help="open games per process")
    parser.add_argument("--ramp", default="100,200,300")
    parser.add_argument("--step-seconds", type=float, default=10.0)
    parser.add_argument("--processes", default="1,2", help="counts of shard processes, e.g. 1,2")
    args = parser.parse_args()
    from pg_cluster import INSTALL_HINT, find_bindir, running

    bindir = find_bindir()
    if bindir is None:
        print(f"No PostgreSQL server to start ({INSTALL_HINT})", file=sys.stderr)
        return 1
    print(
        f"{os.cpu_count()} cores; {args.games} open {args.game} games a process; ramp {args.ramp}/s, {args.step_seconds:g} s a step"
    )
    print("\n| processes | offered (each) | delivered, each | p99, each | delivered in all |")
    print("|---|---|---|---|---|")
    ceilings = []
    for count in (int(n) for n in args.processes.split(",")):
        with running(bindir, durable=True) as cluster:
            outputs = run_together(count, cluster, args)
        steps = [[m.groupdict() for m in STEP.finditer(out)] for out in outputs]
        for index in range(min(len(s) for s in steps) if steps else 0):
            each = [s[index] for s in steps]
            total = sum(float(e["got"]) for e in each)
            print(
                f"| {count} | {each[0]['rate']}/s | {', '.join(e['got'] for e in each)}/s "
                f"| {', '.join(e['p99'] for e in each)} | {total:.1f}/s |"
            )
        held_3s = [int(m.group(1)) if (m := HELD_3S.search(out)) else 0 for out in outputs]
        held_250 = [int(m.group(1)) if (m := HELD_250.search(out)) else 0 for out in outputs]
        ceilings.append((count, held_3s, held_250))
        for out in outputs:
            if "Traceback" in out:
                print(out[-2000:], file=sys.stderr)
    print(
        "\n| processes | held, every answer inside 3 s: each / in all | held, p99 under 250 ms: each / in all |"
    )
    print("|---|---|---|")
    for count, held_3s, held_250 in ceilings:
        print(f"| {count} | {held_3s} / {sum(held_3s)}/s | {held_250} / {sum(held_250)}/s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
