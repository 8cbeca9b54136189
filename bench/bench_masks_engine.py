"""Benchmark of the Island of Monster Masks engine: ``python bench/bench_masks_engine.py``.

Times a whole 8-player game played by computer guessers (target: median under 5 ms) and the
picture renders, freshly drawn and from the cache. Every figure is CPU time of this process
(``time.process_time``), not wall time: on a shared machine the wall clock also counts the time
other programs held the CPU.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.masks.pictures import board_png, face_image, face_png  # noqa: E402
from bot.games.masks.players import play_game  # noqa: E402

TARGET_MS = 5.0


def timed(
    fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.process_time
) -> list[float]:
    out = []
    for _ in range(repeat):
        start = clock()
        fn()
        out.append((clock() - start) * 1000)
    return out


def clear_caches() -> None:
    face_image.cache_clear()
    face_png.cache_clear()
    board_png.cache_clear()


def main() -> int:
    seeds = iter(range(10**9))
    games = timed(lambda: play_game(8, next(seeds)), 300)
    median = statistics.median(games)
    verdict = "ok" if median < TARGET_MS else "SLOW"
    print(f"8-player game with computer players: median {median:.2f} ms CPU, p90 "
          f"{statistics.quantiles(games, n=10)[-1]:.2f} ms over {len(games)} games "
          f"(target < {TARGET_MS:.0f} ms: {verdict})")  # fmt: skip

    def fresh_face() -> None:
        clear_caches()
        face_png(7)

    def fresh_board() -> None:
        clear_caches()
        board_png(7)

    face_png(7)
    board_png(7)
    rows = [
        ("face (new)", timed(fresh_face, 20)),
        ("face (cached)", timed(lambda: face_png(7), 1000)),
        ("board, all faces new", timed(fresh_board, 5)),
        ("board (cached)", timed(lambda: board_png(7), 1000)),
    ]

    def board_faces_cached() -> None:
        board_png.cache_clear()
        board_png(3)

    rows.append(("board, faces cached", timed(board_faces_cached, 10)))
    for name, times in rows:
        print(f"picture {name}: median {statistics.median(times):.3f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
