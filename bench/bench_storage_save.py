"""Cost of the per-press session save on each backend: ``python bench/bench_storage_save.py``.

The state saved is a real one: an 8-player Island of Monster Masks game at its first move (small),
halfway (mid) and at its end (late), wrapped in its session as the bot saves it. Each save is
timed alone: its latency (what a press waits for) and the CPU the process spends on it (what
the event loop cannot give to other presses meanwhile). SQLite uses its direct writer; PostgreSQL
its pool, one prepared statement and one round trip, on a throwaway local server over TCP and over
its Unix socket (or on ``--dsn``). For comparison: a bare ``SELECT 1`` round trip, and the save when
its commit waits for the disk.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bot.games.masks.engine import MasksEngine  # noqa: E402
from bot.games.masks.players import play_game  # noqa: E402
from bot.sessions import PLAYING, Session  # noqa: E402
from bot.storage import Storage, postgres  # noqa: E402

GUILD, CHANNEL = 1 << 40, 1 << 41


def real_states() -> dict[str, dict[str, Any]]:
    """Session JSON of one 8-player Masks game after its first, middle and last move."""
    engines: list[dict[str, Any]] = []
    apply = MasksEngine.apply

    def keep(self: MasksEngine, *args: Any, **kwargs: Any) -> Any:
        events = apply(self, *args, **kwargs)
        engines.append(self.to_json())
        return events

    MasksEngine.apply = keep  # type: ignore[method-assign]
    try:
        play_game(8, seed=1)
    finally:
        MasksEngine.apply = apply  # type: ignore[method-assign]
    picks = {"small": engines[0], "mid": engines[len(engines) // 2], "late": engines[-1]}
    states = {}
    for name, engine in picks.items():
        session = Session(
            kind="masks",
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=10,
            options={},
            seed=1,
            game_key="bench",
            created_at=0,
            players=list(range(10, 18)),
            names={user: f"player {user}" for user in range(10, 18)},
            status=PLAYING,
            engine=MasksEngine.from_json(engine),
        )
        states[name] = session.to_json()
    return states


async def timed(action: Callable[[], Awaitable[Any]], repeat: int) -> tuple[float, float]:
    """Median latency and mean CPU time of ``action``, in microseconds."""
    for _ in range(min(50, repeat)):  # warm up: statement caches, pool connections
        await action()
    latencies = []
    cpu_start = time.process_time()
    for _ in range(repeat):
        start = time.perf_counter()
        await action()
        latencies.append(time.perf_counter() - start)
    cpu = (time.process_time() - cpu_start) / repeat
    return statistics.median(latencies) * 1e6, cpu * 1e6


async def bench(
    store: Storage, states: dict[str, dict[str, Any]], repeat: int
) -> dict[str, tuple[float, float]]:
    out = {}
    for name, state in states.items():
        out[name] = await timed(lambda s=state: store.save_session(GUILD, CHANNEL, "masks", s, 1), repeat)
    return out


async def run(dsn: str, repeat: int, socket_dsn: str | None = None) -> None:
    import orjson

    states = real_states()
    sizes = {name: len(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS)) for name, state in states.items()}
    rows: dict[str, dict[str, tuple[float, float]]] = {}

    with tempfile.TemporaryDirectory() as directory:
        store = await Storage.open(Path(directory) / "bench.db")
        rows["sqlite (direct writer)"] = await bench(store, states, repeat)
        await store.close()

    store = await Storage.open(dsn)
    rows["postgresql (pool, prepared)"] = await bench(store, states, repeat)
    round_trip = await timed(lambda: store._pool.fetchval("SELECT 1"), repeat)  # type: ignore[attr-defined]
    await store.close()
    if socket_dsn is not None:
        store = await Storage.open(socket_dsn)
        rows["postgresql, Unix socket"] = await bench(store, states, repeat)
        await store.close()

    durable = {**postgres.SERVER_SETTINGS, "synchronous_commit": "on"}
    original, postgres.SERVER_SETTINGS = postgres.SERVER_SETTINGS, durable
    try:
        store = await Storage.open(dsn)
    finally:
        postgres.SERVER_SETTINGS = original
    rows["postgresql, commit waits for disk"] = await bench(store, states, max(50, repeat // 10))
    await store.close()

    print(f"per-press session save, {repeat} saves each; latency median / CPU mean, µs")
    print(f"{'':36}" + "".join(f"{f'{name} ({sizes[name] / 1000:.1f} kB)':>24}" for name in states))
    for label, figures in rows.items():
        print(f"{label:36}" + "".join(f"{f'{lat:8.0f} / {cpu:5.0f}':>24}" for lat, cpu in figures.values()))
    sqlite_row, pg_row = rows["sqlite (direct writer)"], rows["postgresql (pool, prepared)"]
    print(
        f"{'postgresql / sqlite':36}"
        + "".join(
            f"{f'{pg_row[n][0] / sqlite_row[n][0]:7.1f}x / {pg_row[n][1] / sqlite_row[n][1]:4.1f}x':>24}"
            for n in states
        )
    )
    print(f"a bare SELECT 1 round trip on the same pool: {round_trip[0]:.0f} / {round_trip[1]:.0f} µs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", help="an existing PostgreSQL database (default: a throwaway local server)")
    parser.add_argument("--saves", type=int, default=2000, help="saves per figure (default 2000)")
    args = parser.parse_args()
    if args.dsn:
        asyncio.run(run(args.dsn, args.saves))
        return 0
    from pg_cluster import INSTALL_HINT, find_bindir, running

    bindir = find_bindir()
    if bindir is None:
        print(f"No PostgreSQL server to start: {INSTALL_HINT}, or pass --dsn", file=sys.stderr)
        return 1
    with running(bindir, durable=True) as cluster:
        tcp = cluster.create_database("bench")
        unix = f"postgresql://postgres@/bench?host={cluster.directory}&port={cluster.port}"
        asyncio.run(run(tcp, args.saves, unix))
    return 0


if __name__ == "__main__":
    sys.exit(main())
