"""Run the whole test suite beside busy processes, as a shared CI machine runs it.

    python bench/suite_under_load.py                 # the suite beside 2 busy processes
    python bench/suite_under_load.py --busy 4 --runs 3 -- -x tests/kabuki

CI shares its machine with other work, so a test that waits a short fixed time for something the
bot does, or that only just fits pytest-timeout's 120 s, passes on a quiet machine and fails there.
This starts ``--busy`` processes that each keep a core busy (pure-Python loops: the interpreter's
own kind of load, like another test suite), runs ``python -m pytest`` with the arguments after
``--`` (the README's test command when there are none), and prints one line per run: passed,
failed, the wall time, and the load average the machine reached. The busy processes stop when the
run ends, and each stops itself after ``--max-minutes`` whatever happens to this script.

What it leaves out: memory and disk pressure (the suite's own PostgreSQL clusters and Chromium
are the disk load), and load that comes and goes: the busy processes run for the whole suite.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A busy loop that ends itself: a killed parent cannot leave it spinning.
BUSY = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    sum(range(1000))\n"


def summary(output: str) -> tuple[int, int]:
    """(passed, failed) from pytest's closing line; errors count as failed."""
    last = next((line for line in reversed(output.splitlines()) if " in " in line and "passed" in line), "")
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|error|errors)", last)}
    return counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)


def run_once(
    busy: int, max_minutes: float, pytest_args: list[str], log: Path
) -> tuple[int, int, float, float]:
    spinners = [
        subprocess.Popen([sys.executable, "-c", BUSY, str(max_minutes * 60)], stdout=subprocess.DEVNULL)
        for _ in range(busy)
    ]
    peak_load = 0.0
    started = time.monotonic()
    try:
        with log.open("w") as out:
            suite = subprocess.Popen(
                [sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT
            )
            while suite.poll() is None:
                peak_load = max(peak_load, os.getloadavg()[0])
                with contextlib.suppress(subprocess.TimeoutExpired):  # a look at the load every 5 s
                    suite.wait(timeout=5)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    passed, failed = summary(log.read_text())
    if suite.returncode not in (0, 1):  # 1: tests failed (counted); anything else: the run broke
        failed = max(failed, 1)
    return passed, failed, time.monotonic() - started, peak_load


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--busy", type=int, default=2, help="busy processes beside the suite (default 2)")
    parser.add_argument("--runs", type=int, default=1, help="whole-suite runs, one after another (default 1)")
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=60.0,
        help="each busy process stops itself after this long (default 60)",
    )
    parser.add_argument(
        "--log-dir", type=Path, default=Path("/tmp"), help="where each run's pytest output goes"
    )
    parser.add_argument(
        "pytest_args", nargs="*", help="after --: pytest's arguments (default: none, the whole suite)"
    )
    args = parser.parse_args()
    failures = 0
    for run in range(1, args.runs + 1):
        log = args.log_dir / f"suite_under_load_{run}.log"
        passed, failed, seconds, load = run_once(args.busy, args.max_minutes, args.pytest_args, log)
        failures += failed
        print(
            f"run {run}: {passed} passed, {failed} failed in {seconds:.0f} s beside {args.busy} busy "
            f"processes on {os.cpu_count()} cores (load average up to {load:.1f}); output: {log}",
            flush=True,
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
