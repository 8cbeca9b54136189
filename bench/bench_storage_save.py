"""Cost of the per-press session save on each backend: ``python bench/bench_storage_save.py``.

The states saved are real ones: a 16-player Death Over the Kingdom game and an 8-player Island of
Monster Masks game, each at its first press (start) and its last (end), wrapped in their session as
the bot saves them. Two ways of saving are compared on the same states: whole (the state with its
replay log, as before issue 13) and append (the state without its log plus the press's new log
entries as rows, ``Session.to_save``; for Masks also without its finished turns' records, which a
restore rebuilds from the log). For each: the bytes one save writes, the bytes written over
the whole game, and each save timed alone: its latency (what a press waits for), the event loop
thread's CPU (``time.thread_time`` on the loop: what the loop cannot give to other presses
meanwhile) and the CPU of the process's other threads apart (SQLite's session writer thread,
aiosqlite's). SQLite uses its session writer; PostgreSQL its pool, one statement and one round
trip, on a throwaway local server (or on ``--dsn``). For comparison: a bare ``SELECT 1`` round trip.

``--together N`` also saves N channels' sessions at once (a loaded process: N presses in different
games waiting on their saves together), each Masks' last append save (2 kB), and prints the same
three figures per save, and how many saves went in one commit where the backend says (SQLite's writer
thread groups the saves queued while it writes into one transaction).
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


Figures = tuple[float, float, float]  # µs: median latency, mean loop thread CPU, mean other threads' CPU


async def timed(action: Callable[[], Awaitable[Any]], repeat: int, per: int = 1) -> Figures:
    """Median latency of ``action``, and the mean CPU time of the event loop's thread and of the
    process's other threads per save (``per`` saves an action), in microseconds."""
    for _ in range(min(50, repeat)):  # warm up: statement caches, pool connections
        await action()
    latencies = []
    process_start, loop_start = time.process_time(), time.thread_time()
    for _ in range(repeat):
        start = time.perf_counter()
        await action()
        latencies.append(time.perf_counter() - start)
    loop = time.thread_time() - loop_start
    other = time.process_time() - process_start - loop
    saves = repeat * per
    return statistics.median(latencies) * 1e6, loop / saves * 1e6, other / saves * 1e6


def figures(f: Figures) -> str:
    return f"{f[0]:6.0f} / {f[1]:4.0f} / {f[2]:4.0f}"


async def bench(store: Storage, picked: dict[str, dict[str, Save]], repeat: int) -> dict[str, Figures]:
    out = {}
    for name, ways in picked.items():
        for way, (state, log) in ways.items():
            out[f"{name} {way}"] = await timed(
                lambda s=state, lg=log: store.save_session(GUILD, CHANNEL, "bench", s, 1, lg), repeat
            )
    return out


def commits(store: Storage) -> int | None:
    """Transactions SQLite's session writer thread has committed so far (None: no such thread)."""
    writer = getattr(store, "_writer", None)
    return getattr(writer, "batches", None)


async def together(store: Storage, save: Save, channels: int, repeat: int) -> tuple[Figures, float | None]:
    """``channels`` sessions saved at once, ``repeat`` times: per save figures, saves per commit."""
    state, log = save
    rounds = max(1, repeat // channels)
    keys = [
        (CHANNEL + c, LogRows(f"{log.key}-{c}", log.start, log.rows) if log else None)
        for c in range(channels)
    ]

    async def all_at_once() -> None:
        await asyncio.gather(*(store.save_session(GUILD, ch, "bench", state, 1, lg) for ch, lg in keys))

    before = commits(store)
    result = await timed(all_at_once, rounds, per=channels)
    after = commits(store)
    warm = min(50, rounds)
    per_commit = (
        None
        if before is None or after is None or after == before
        else (rounds + warm) * channels / (after - before)
    )
    return result, per_commit


async def run(dsn: str | None, repeat: int, channels: int) -> None:
    picked, totals = real_games()
    rows: dict[str, dict[str, Figures]] = {}
    grouped: dict[str, tuple[Figures, float | None]] = {}
    mid = picked["masks 8p end"]["append"]
    with tempfile.TemporaryDirectory() as directory:
        store = await Storage.open(Path(directory) / "bench.db")
        rows["sqlite"] = await bench(store, picked, repeat)
        if channels:
            grouped["sqlite"] = await together(store, mid, channels, repeat)
        await store.close()
    round_trip = None
    if dsn is not None:
        store = await Storage.open(dsn)
        rows["postgresql"] = await bench(store, picked, repeat)
        if channels:
            grouped["postgresql"] = await together(store, mid, channels, repeat)
        round_trip = await timed(lambda: store._pool.fetchval("SELECT 1"), repeat)  # type: ignore[attr-defined]
        await store.close()

    print(
        f"per-press session save, {repeat} saves each, one at a time; bytes written, then in µs: "
        "latency median / loop thread CPU mean / other threads' CPU mean"
    )
    print(f"{'':28}{'bytes':>9}" + "".join(f"{backend:>26}" for backend in rows))
    for name, ways in picked.items():
        for way, save in ways.items():
            label = f"{name} {way}"
            print(f"{label:28}{written(save):>9}" + "".join(f"{figures(rows[b][label]):>26}" for b in rows))
    for backend, (result, per_commit) in grouped.items():
        print(
            f"{backend}: {channels} channels saving at once (masks 8p end append), per save: latency of the "
            f"round / loop CPU / other threads' CPU {figures(result)} µs"
            + (f"; {per_commit:.1f} saves per commit" if per_commit is not None else "")
        )
    for name, total in totals.items():
        print(
            f"{name}: {total['presses']} presses, written over the game: whole {total['whole'] / 1e6:.2f} MB, "
            f"append {total['append'] / 1e6:.2f} MB"
        )
    if round_trip is not None:
        print(f"a bare SELECT 1 round trip on the same pool: {figures(round_trip)} µs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", help="an existing PostgreSQL database (default: a throwaway local server)")
    parser.add_argument("--saves", type=int, default=2000, help="saves per figure (default 2000)")
    parser.add_argument(
        "--together", type=int, default=50, help="channels saving at once (0: skip; default 50)"
    )
    parser.add_argument("--sqlite-only", action="store_true", help="no PostgreSQL")
    args = parser.parse_args()
    if args.dsn or args.sqlite_only:
        asyncio.run(run(args.dsn, args.saves, args.together))
        return 0
    from pg_cluster import INSTALL_HINT, find_bindir, running

    bindir = find_bindir()
    if bindir is None:
        print(f"No PostgreSQL server to start ({INSTALL_HINT}): SQLite only", file=sys.stderr)
        asyncio.run(run(None, args.saves, args.together))
        return 0
    with running(bindir, durable=True) as cluster:
        asyncio.run(run(cluster.create_database("bench"), args.saves, args.together))
    return 0


if __name__ == "__main__":
    sys.exit(main())
