"""The load bench's one table: the three games at 100 and 1,000 open games, one run each.

Run by hand, never as a test (about 2–4 minutes a 1,000-game run)::

    python bench/bench_table.py                       # 50 presses/s for 15 s, as bench/README.md quotes it
    python bench/bench_table.py --games 100 --seconds 10

Each run is ``bench_load.py`` in a process of its own (a run's memory and collector state must not
carry into the next), and prints a ``summary`` line; this gathers them into one Markdown table:
the bot's CPU per game press (the loop thread; then with the worker threads' CPU for the press
added: the pictures' thread, SQLite's session writer) beside a
bare acknowledge's in the same run, the garbage collector's passes by generation during the
measured phase (count, longest wall time and CPU), the CPU of the collector's next full collection with every game
open and after the load (what survived the last one is frozen: ``bot.ops.gc_tuning``) beside a
full collection's with nothing frozen (start-up's objects included), and RSS. Each row also says
how much of the machine other programs took: on a shared machine only ratios within a row compare.

The ratio is one run's median press over its median acknowledge, with the run's 95 % interval
(``load_report.ratio_interval``). ``--repeat N`` runs each row N times, one after another: the row
then quotes the median run's (by ratio) figures and every run's ratio beside it.

``--transport both`` measures each row without, then with, the real transport of each request
(``bench_load.py --transport``: discord.py's HTTP code, aiohttp and TLS, as production's loop
thread pays for them), runs alternating; ``on`` only with it; ``all`` adds a third run of each
row with the gateway too (``--transport --gateway``: every event inflated and decoded as
production's websocket reader does), so a row is counted as production's loop pays for it;
``production`` runs only that third way.

A second table gives each press kind on its own line (the median run's): a Kabuki placement and a
Stop!, a Monster Masks slap and the Mime's look at their card, a Kingdom move and a My card look
(cheaper than an acknowledge: mixed with the moves it lowered Kingdom's one ratio).

``--picture-processes 0,1`` runs every row once per count of picture worker processes
(``PICTURE_PROCESSES``); their CPU is not the loop's nor its threads': the row gives it apart.

``--against DIR`` compares with another checkout of the bot (say, ``git worktree add DIR <commit>``,
then copy this ``bench/`` over its own, so both runs are measured the same way): each row's runs
alternate between the two, so both see the machine as it is then, and each row is printed twice,
this checkout's first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPTIONS = {"kabuki": ["--option", "grace=0"]}


def run(
    game: str, games: int, rate: float, seconds: float, extra: list[str] | None = None, bench: Path = HERE
) -> dict:
    command = [sys.executable, str(bench / "bench_load.py"), "--game", game, "--games", str(games)]
    command += ["--rate", str(rate), "--seconds", str(seconds), *OPTIONS.get(game, []), *(extra or [])]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in out.splitlines() if line.startswith("summary "))
    summary = json.loads(line.removeprefix("summary "))
    if summary.get("bot_errors"):
        # A press that raised was answered with an apology, far cheaper than a press: its figures
        # would say nothing about the bot (and once said a left-out save cost a third of a press).
        errors = next(line for line in out.splitlines() if line.startswith("bot errors"))
        raise SystemExit(f"{' '.join(command[1:])}: the bot raised, figures not kept: {errors}")
    return summary


def row(runs: list[dict]) -> str:
    ratios = [s["press_ms"] / s["ack_ms"] for s in runs]
    s = runs[ratios.index(statistics.median_low(ratios))]
    low, high = s["ratio_interval"]
    ratio = f"{s['press_ms'] / s['ack_ms']:.2f}× ({low:.2f}–{high:.2f}×)"
    if len(runs) > 1:
        ratio += " of runs " + ", ".join(f"{r:.2f}×" for r in ratios)
    cpu = s.get("gc_cpu", {})
    gc = ", ".join(
        f"{gen} {n}× ≤ {worst:.0f} ms ({cpu.get(gen, worst):.0f} ms CPU)"
        for gen, (n, worst) in s["gc"].items()
        if n
    )
    return (
        f"| {s['game']} | {s['games']:,} | {s['press_ms']:.2f} / {s['press_with_workers_ms']:.2f} ms"
        + (
            f" (+{s['picture_processes_ms']:.2f} ms in picture processes)"
            if s.get("picture_processes_ms")
            else ""
        )
        + " "
        f"| {s['ack_ms']:.2f} ms | {ratio} / {s['press_with_workers_ms'] / s['ack_ms']:.1f}× "
        f"| {gc or 'none'} | {s['full_gc_ms'][0]:.1f} / {s['full_gc_ms'][1]:.1f} ms "
        f"| {s['full_gc_all_ms'][0]:.0f} / {s['full_gc_all_ms'][1]:.0f} ms "
        f"| {s['rss_mb'][0]:.0f} / {s['rss_mb'][1]:.0f} MB | {s['machine']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000", help="open games per run, e.g. 100,1000")
    parser.add_argument("--game", default="kabuki,masks,kingdom")
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each row (the median run is quoted)")
    parser.add_argument("--against", type=Path, help="another checkout, its runs alternating with this one's")
    parser.add_argument(
        "--transport",
        choices=("off", "on", "both", "all", "production"),
        default="off",
        help="requests also go the real way (bench_load.py --transport); both: each row without, then with; "
        "all: and with the gateway too (--gateway); production: only with both (--transport --gateway)",
    )
    parser.add_argument(
        "--picture-processes",
        default="",
        help="comma-separated PICTURE_PROCESSES counts, each a variant of every row (e.g. 0,1)",
    )
    args = parser.parse_args()
    checkouts = {"this": HERE}
    if args.against is not None:
        checkouts[str(args.against)] = args.against.resolve() / "bench"
    ways = {"off": [("", [])], "on": [("transport", ["--transport"])]}
    ways["both"] = ways["off"] + ways["on"]
    ways["production"] = [("transport and gateway", ["--transport", "--gateway"])]
    ways["all"] = ways["both"] + ways["production"]
    # Each variant is a checkout and a way of carrying requests; a row's runs alternate between them.
    counts = [c.strip() for c in args.picture_processes.split(",") if c.strip()]
    drawers = [(f"{c} picture processes", ["--picture-processes", c]) for c in counts] or [("", [])]
    benches = {
        " ".join(part for part in (checkout if len(checkouts) > 1 else "", way, drawer) if part): (
            bench,
            extra + more,
        )
        for checkout, bench in checkouts.items()
        for way, extra in ways[args.transport]
        for drawer, more in drawers
    }
    print(
        "| game | open games | bot CPU per press, median: loop / with worker threads | bare ack | ratio, "
        "95 % interval (target ≤ 2×) / with worker threads | collections in the phase | the next full collection's CPU: open / after load "
        "| a full collection with nothing frozen "
        "| RSS: open / after load | the machine |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    kinds: list[tuple[str, list[dict]]] = []
    for games in (int(n) for n in args.games.split(",")):
        for game in args.game.split(","):
            runs: dict[str, list[dict]] = {name: [] for name in benches}
            for _ in range(args.repeat):
                for name, (bench, extra) in benches.items():
                    runs[name].append(run(game, games, args.rate, args.seconds, extra, bench=bench))
            for name in benches:
                line = row(runs[name])
                if name:
                    line = line.replace("| ", f"| {name}: ", 1)  # in the game's cell
                print(line, flush=True)
                kinds.append((name, runs[name]))
    # Each press kind on its own line (the median run's): a Kingdom look is not a move.
    print(
        "\n| game | open games | press kind | presses | bot CPU, median | ratio to a bare ack (95 % interval) | with worker threads |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, measured in kinds:
        ratios = [r["press_ms"] / r["ack_ms"] for r in measured]
        s = measured[ratios.index(statistics.median_low(ratios))]
        for label, (n, cpu, ratio, low, high, workers) in sorted(
            s.get("by_kind", {}).items(), key=lambda kv: -kv[1][0]
        ):
            game = f"{name}: {s['game']}" if name else s["game"]
            print(
                f"| {game} | {s['games']:,} | {label} | {n} | {cpu:.2f} ms | {ratio:.2f}× ({low:.2f}–{high:.2f}×) | {workers:.1f}× |"
            )


if __name__ == "__main__":
    main()
