"""Cost of the per-press session save on each backend: ``python bench/bench_storage_save.py``.

The states saved are real ones: a 16-player Death Over the Kingdom game and an 8-player Island of
Monster Masks game, each at its first press (start) and its last (end), wrapped in their session as
the bot saves them. Two ways of saving are compared on the same states: whole (the state with its
replay log, as before issue 13) and append (the state without its log plus the press's new log
entries as rows, ``Session.to_save``; for Masks also without its finished turns' records, which a
restore rebuilds from the log). For each: the bytes one save writes, the bytes written over
the whole game, and each save timed alone: its latency (what a press waits for) and the CPU the
process spends on it (what the event loop cannot give to other presses meanwhile). SQLite uses its
direct writer; PostgreSQL its pool, one statement and one round trip, on a throwaway local server
(or on ``--dsn``). For comparison: a bare ``SELECT 1`` round trip.
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

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bot.engine import GameEngine  # noqa: E402
from bot.games.kingdom.engine import KingdomEngine  # noqa: E402
from bot.games.kingdom.simulate import play as play_kingdom  # noqa: E402
from bot.games.masks.engine import MasksEngine  # noqa: E402
from bot.games.masks.players import play_game as play_masks  # noqa: E402
from bot.session.sessions import PLAYING, Session  # noqa: E402
from bot.storage import LogRows, Storage  # noqa: E402

GUILD, CHANNEL = 1 << 40, 1 << 41
JSON = orjson.OPT_NON_STR_KEYS
Save = tuple[dict[str, Any], LogRows | None]


def presses(engine_cls: type[GameEngine], play: Callable[[], object]) -> list[tuple[dict[str, Any], int]]:
    """Every press of one game: the engine's state after it, and its log's length before it."""
    taken: list[tuple[dict[str, Any], int]] = []
    apply = engine_cls.apply

    def keep(self: Any, *args: Any, **kwargs: Any) -> Any:
        before = len(self.log)
        events = apply(self, *args, **kwargs)
        taken.append((self.to_json(), before))
        return events

    engine_cls.apply = keep  # type: ignore[method-assign]
    try:
        play()
    finally:
        engine_cls.apply = apply  # type: ignore[method-assign]
    return taken


def session_of(kind: str, engine: GameEngine, players: int, logged: int) -> Session:
    session = Session(
        kind=kind,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=10,
        options={},
        seed=1,
        game_key=f"bench-{kind}",
        created_at=0,
        players=list(range(10, 10 + players)),
        names={user: f"player {user}" for user in range(10, 10 + players)},
        status=PLAYING,
        engine=engine,
    )
    session.logged = logged
    return session


def saves(session: Session) -> dict[str, Save]:
    """The one press's save both ways."""
    return {"whole": (session.to_json(), None), "append": session.to_save()}


def written(save: Save) -> int:
    state, log = save
    rows = 0 if log is None else sum(len(orjson.dumps(row, option=JSON)) for row in log.rows)
    return len(orjson.dumps(state, option=JSON)) + rows


GAMES: dict[str, tuple[str, type[GameEngine], int, Callable[[], object]]] = {
    "kingdom 16p": ("kingdom", KingdomEngine, 16, lambda: play_kingdom("classic", 16, 1, 3, "simple", False)),
    "masks 8p": ("masks", MasksEngine, 8, lambda: play_masks(8, seed=1)),
}


def real_games() -> tuple[dict[str, dict[str, Save]], dict[str, dict[str, int]]]:
    """Per game and moment (start, end): both saves; per game and way: bytes over the game."""
    picked: dict[str, dict[str, Save]] = {}
    totals: dict[str, dict[str, int]] = {}
    for name, (kind, engine_cls, players, play) in GAMES.items():
        taken = presses(engine_cls, play)
        sessions = [session_of(kind, engine_cls.from_json(state), players, logged) for state, logged in taken]
        both = [saves(session) for session in sessions]
        totals[name] = {way: sum(written(b[way]) for b in both) for way in ("whole", "append")}
        totals[name]["presses"] = len(both)
        for moment, index in (("start", 0), ("end", -1)):
            for way, save in both[index].items():
                picked.setdefault(f"{name} {moment}", {})[way] = save
    return picked, totals


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
    store: Storage, picked: dict[str, dict[str, Save]], repeat: int
) -> dict[str, tuple[float, float]]:
    out = {}
    for name, ways in picked.items():
        for way, (state, log) in ways.items():
            out[f"{name} {way}"] = await timed(
                lambda s=state, lg=log: store.save_session(GUILD, CHANNEL, "bench", s, 1, lg), repeat
            )
    return out


async def run(dsn: str | None, repeat: int) -> None:
    picked, totals = real_games()
    rows: dict[str, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as directory:
        store = await Storage.open(Path(directory) / "bench.db")
        rows["sqlite"] = await bench(store, picked, repeat)
        await store.close()
    round_trip = None
    if dsn is not None:
        store = await Storage.open(dsn)
        rows["postgresql"] = await bench(store, picked, repeat)
        round_trip = await timed(lambda: store._pool.fetchval("SELECT 1"), repeat)  # type: ignore[attr-defined]
        await store.close()

    print(f"per-press session save, {repeat} saves each; bytes written, latency median / CPU mean in µs")
    print(f"{'':28}{'bytes':>9}" + "".join(f"{backend:>22}" for backend in rows))
    for name, ways in picked.items():
        for way, save in ways.items():
            label = f"{name} {way}"
            figures = "".join(f"{f'{rows[b][label][0]:8.0f} / {rows[b][label][1]:5.0f}':>22}" for b in rows)
            print(f"{label:28}{written(save):>9}{figures}")
    for name, total in totals.items():
        print(
            f"{name}: {total['presses']} presses, written over the game: whole {total['whole'] / 1e6:.2f} MB, "
            f"append {total['append'] / 1e6:.2f} MB"
        )
    if round_trip is not None:
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
        print(f"No PostgreSQL server to start ({INSTALL_HINT}): SQLite only", file=sys.stderr)
        asyncio.run(run(None, args.saves))
        return 0
    with running(bindir, durable=True) as cluster:
        asyncio.run(run(cluster.create_database("bench"), args.saves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
