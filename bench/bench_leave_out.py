"""What each part of a press weighs in the press/acknowledge ratio, by difference: a diagnostic.

Run by hand, never as a test::

    python bench/bench_leave_out.py --game kabuki            # 100 games, 2 rounds, ~4 minutes
    python bench/bench_leave_out.py --game masks --games 1000 --repeat 1
    python bench/bench_leave_out.py --game kabuki --production   # at production's cost

Each round runs ``bench_load.py`` once as the bot is, then once with each part left out
(``load_leave_out``: the picture, the save, the metrics), then with all of them left out, each in a
process of its own, back to back, so the variants of a round share the machine's state. It prints
each variant's ratio (median press over median bare acknowledge, loop thread) with its 95 %
interval, one line per round, and the median over rounds. A part's weight is the fall of the
ratio when it is left out; a fall inside the intervals' overlap is noise. What a left-out part
costs Discord or the members (no save: nothing survives a restart) is not the question here.
``--production``: every run with production's cost of each request and event counted
(``bench_load.py --transport --gateway``), the reading of ``bench_table.py --transport all``'s last
column.
"""

from __future__ import annotations

import argparse
import statistics

from bench_table import run
from load_leave_out import PARTS

VARIANTS = [("the bot as it is", ""), *((f"without the {part}", part) for part in PARTS)]
VARIANTS.append(("without all three", ",".join(PARTS)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument(
        "--production", action="store_true", help="with the transport and the gateway (--transport --gateway)"
    )
    args = parser.parse_args()
    cost = ["--transport", "--gateway"] if args.production else []
    ratios: dict[str, list[float]] = {name: [] for name, _ in VARIANTS}
    print(
        f"{args.game}, {args.games} games, {args.rate:g} presses/s for {args.seconds:g} s a run"
        + (", production's cost counted" if args.production else "")
    )
    for round_ in range(1, args.repeat + 1):
        for name, parts in VARIANTS:
            extra = cost + (["--leave-out", parts] if parts else [])
            s = run(args.game, args.games, args.rate, args.seconds, extra)
            ratio = s["press_ms"] / s["ack_ms"]
            ratios[name].append(ratio)
            low, high = s["ratio_interval"]
            print(
                f"  round {round_}: {name:<22} press {s['press_ms']:.2f} ms, ack {s['ack_ms']:.2f} ms, "
                f"{ratio:.2f}× ({low:.2f}–{high:.2f}×)",
                flush=True,
            )
    print("median over rounds:")
    for name, values in ratios.items():
        print(f"  {name:<22} {statistics.median(values):.2f}×")


if __name__ == "__main__":
    main()
