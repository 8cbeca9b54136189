"""Benchmark of the Death Over the Kingdom engine and pictures: ``python bench/bench_kingdom_engine.py``.

Figures: a whole 16-player Classic game (48 rounds) played by the simple computer players
(target: median under 10 ms), and card / revealed-table renders, new versus cached. Every figure
is CPU time of this process (``time.process_time``), not wall time: on a shared machine the wall
clock also counts the time other programs held the CPU.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.kingdom.engine import KingdomEngine  # noqa: E402
from bot.games.kingdom.pictures import _card_image, card_png, reveal_seats, table_png  # noqa: E402
from bot.games.kingdom.players import make_players  # noqa: E402

GAMES = 60


def one_game(seed: int) -> tuple[float, int]:
    # CPU time of this process: the machine is shared, and wall time counts other people's work.
    started = time.process_time()
    engine = KingdomEngine.new(16, seed, {"mode": "classic", "turn_ms": 0}, 0)
    players = make_players("simple", 16, seed)
    moves = 0
    while not engine.is_over:
        seat = engine.active
        engine.apply(seat, players[seat].choose(engine, seat), moves)
        moves += 1
    assert engine.round == 48
    return time.process_time() - started, moves


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    one_game(0)  # warm up imports and caches
    runs = [one_game(seed) for seed in range(1, GAMES + 1)]
    times = sorted(t for t, _ in runs)
    moves = statistics.mean(m for _, m in runs)
    median = statistics.median(times)
    print(f"16-player Classic game, 48 rounds, simple computer players ({GAMES} games):")
    print(
        f"  median {median * 1e3:.2f} ms CPU  (min {times[0] * 1e3:.2f}, max {times[-1] * 1e3:.2f}); target < 10 ms"
    )
    print(
        f"  {moves:.0f} moves per game, {median / moves * 1e6:.1f} µs per move including the player's choice"
    )

    card_new = timed(lambda: card_png.__wrapped__(8), 20)
    card_png(8)
    card_cached = timed(lambda: card_png(8), 1000)
    engine = KingdomEngine.new(16, 1, {"turn_ms": 0}, 0)
    while engine.round == 1:
        engine.apply(engine.active, {"type": "stand"}, 0)
    names = [f"Player {s}" for s in range(16)]
    seats = reveal_seats(engine.reveal, names)
    _card_image(0)
    table_new = timed(lambda: table_png(seats, "Round 1"), 10)  # the board keeps it (bot.glue.board.PICTURES)
    print("Pictures (median CPU):")
    print(f"  one card:            new {card_new * 1e3:7.2f} ms   cached {card_cached * 1e6:6.2f} µs")
    print(f"  16-seat reveal:      new {table_new * 1e3:7.2f} ms")


if __name__ == "__main__":
    main()
