"""Kabuki engine benchmark: a whole 4-player game between computer players, and picture renders.

Run: ``python bench/bench_kabuki_engine.py``. Targets: a game under 5 ms (one core, median) and a
new board picture well under 30 ms. Every figure is CPU time of this process
(``time.process_time``), not wall time: on a shared machine the wall clock also counts the time
other programs held the CPU.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.kabuki import pictures  # noqa: E402
from bot.games.kabuki.simulate import play_game  # noqa: E402


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        out.append((time.process_time() - start) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    print(f"{name:<42} median {statistics.median(ms):7.3f} ms CPU   min {min(ms):7.3f} ms   (n={len(ms)})")


def main() -> int:
    seeds = iter(range(10**6))
    play_game(4, 0)  # warm imports and caches
    report("whole 4-player game (perfect memory)", timed(lambda: play_game(4, next(seeds)), 300))
    report(
        "whole 4-player game (memory 0.7, bluff)",
        timed(lambda: play_game(4, next(seeds), 0.7, bluff=0.1), 300),
    )
    report(
        "whole 6-player game (memory 0.7, bluff)",
        timed(lambda: play_game(6, next(seeds), 0.7, bluff=0.1), 300),
    )

    for part in (pictures.mask_card, pictures.actor_card, pictures._palette, pictures._card, pictures._label):
        part.cache_clear()
    report(
        "first board ever (draws card art and the parts too)",
        timed(lambda: pictures.render_board((0, 1, 2, None), (3, 1, 2, 0), 3), 1),
    )
    boards = iter(range(10**6))

    def new_board() -> bytes:
        i = next(boards)
        tops = (i % 10, (i // 10) % 10, (i // 100) % 10, None if i % 7 == 0 else (i * 3) % 10)
        return pictures.render_board(tops, (i % 13, 2, 5, i % 9), (i * 7) % 10, i % 4)

    report("new board picture (parts drawn)", timed(new_board, 200))
    reveal = tuple((i * 7) % 10 for i in range(14)) + (4,)
    matches = tuple(i for i, c in enumerate(reveal[:-1]) if c == reveal[-1])
    report(
        "revealed stack of 15 cards (new)",
        timed(lambda: pictures.render_reveal(reveal, matches, 1), 50),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
