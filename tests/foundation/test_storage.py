"""Storage on a temporary database, on both backends: migrations, sessions, exactly-once records,
rankings. The tests that name SQLite check its own machinery (WAL, the direct session writer)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.session.guarded import database_fault
from bot.storage import GameRecord, PlayerRecord, Shards, Storage, postgres, sqlite

GUILD, OTHER_GUILD = 111, 222
REPOSITORY = Path(__file__).resolve().parents[2]
MIGRATIONS = {"sqlite": sqlite.MIGRATIONS, "postgres": postgres.MIGRATIONS}


@pytest.fixture
def target(storage_target) -> str:
    return storage_target


@pytest.fixture
def backend_name(target) -> str:
    return "postgres" if target.startswith("postgresql://") else "sqlite"


@pytest.fixture
async def storage(target):
    store = await Storage.open(target)
    yield store
    await store.close()


@pytest.fixture
async def sqlite_storage(tmp_path):
    store = await Storage.open(tmp_path / "nested" / "bot.db")
    yield store
    await store.close()


async def states(store: Storage, shards: Shards | None = None) -> list[dict]:
    """The states of the saved sessions (on ``shards``), as loaded."""
    return [saved.state for saved in await store.load_sessions(shards)]


def game(
    key: str, scores: dict[int, int], *, guild: int = GUILD, kind: str = "tap", outcome: str = "finished"
) -> GameRecord:
    best = max(scores.values())
    players = [
        PlayerRecord(user, seat, score, outcome == "finished" and score == best)
        for seat, (user, score) in enumerate(scores.items())
    ]
    return GameRecord(
        game_key=key,
        guild_id=guild,
        channel_id=5,
        kind=kind,
        options={"target": 3},
        seed=42,
        started_at=1000,
        ended_at=2000,
        outcome=outcome,
        players=players,
    )


async def test_migrations_bring_a_new_database_to_the_latest_version(storage, backend_name):
    assert await storage.schema_version() == len(MIGRATIONS[backend_name])


async def test_both_backends_have_the_same_number_of_migrations():
    # Each entry has a twin on the other backend: a schema change is one entry on each.
    assert len(sqlite.MIGRATIONS) == len(postgres.MIGRATIONS)


async def test_reopening_a_database_keeps_its_rows_and_does_not_migrate_twice(target, backend_name):
    first = await Storage.open(target)
    await first.record_game(game("g1", {1: 3, 2: 1}))
    await first.close()
    second = await Storage.open(target)
    assert await second.schema_version() == len(MIGRATIONS[backend_name])
    assert await second.game_count(GUILD) == 1
    await second.close()


async def test_two_processes_starting_at_once_migrate_once(target, backend_name):
    # Both find a new database; the migration lock makes one wait for the other, which then has
    # nothing left to do (without it, both would create the same tables).
    stores = await asyncio.gather(*(Storage.open(target) for _ in range(3)))
    try:
        for store in stores:
            assert await store.schema_version() == len(MIGRATIONS[backend_name])
        await stores[0].record_game(game("g1", {1: 3, 2: 1}))
        assert await stores[2].game_count(GUILD) == 1
    finally:
        for store in stores:
            await store.close()


async def test_two_writers_recording_the_same_game_record_it_once(target):
    writers = [await Storage.open(target), await Storage.open(target)]
    try:
        results = await asyncio.gather(*(w.record_game(game("same", {1: 3, 2: 1})) for w in writers))
        assert sorted(results) == [False, True]
        rows, total = await writers[0].leaderboard(GUILD, "tap")
        assert total == 2 and [(r.user_id, r.games, r.wins) for r in rows] == [(1, 1, 1), (2, 1, 0)]
    finally:
        for writer in writers:
            await writer.close()


# One bot process recording a finished game: it opens the database, waits for the agreed instant,
# records the game, and prints whether it was the one that stored it.
RECORD_IN_A_PROCESS = """
import asyncio, sys, time
from bot.storage import GameRecord, PlayerRecord, Storage

async def main(target, start_at):
    store = await Storage.open(target)
    record = GameRecord("raced", 111, 5, "tap", {}, 42, 1000, 2000, "finished",
                        [PlayerRecord(1, 0, 3, True), PlayerRecord(2, 1, 1, False)])
    time.sleep(max(0.0, start_at - time.time()))
    print(await store.record_game(record))
    await store.close()

asyncio.run(main(sys.argv[1], float(sys.argv[2])))
"""


async def test_two_processes_racing_to_record_the_same_game_record_it_once(target):
    await (await Storage.open(target)).close()  # migrated before the race: the race is the record
    start_at = time.time() + 2  # both processes are up by then, and record at the same moment
    racers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            RECORD_IN_A_PROCESS,
            target,
            str(start_at),
            stdout=asyncio.subprocess.PIPE,
            cwd=REPOSITORY,  # this checkout's bot package, whichever environment runs the tests
        )
        for _ in range(2)
    ]
    outputs = [(await racer.communicate())[0].decode().strip() for racer in racers]
    assert sorted(outputs) == ["False", "True"]
    store = await Storage.open(target)
    try:
        assert await store.game_count(GUILD) == 1
        rows, total = await store.leaderboard(GUILD, "tap")
        assert total == 2 and [(r.user_id, r.games, r.wins) for r in rows] == [(1, 1, 1), (2, 1, 0)]
    finally:
        await store.close()


async def test_database_runs_in_wal_mode(sqlite_storage):
    async with sqlite_storage._db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"


async def test_a_saved_session_is_replaced_on_save_and_gone_after_delete(storage):
    await storage.save_session(GUILD, 5, "tap", {"step": 1}, now=1)
    await storage.save_session(GUILD, 5, "tap", {"step": 2}, now=2)
    assert await states(storage) == [{"step": 2}]
    await storage.delete_session(GUILD, 5)
    assert await states(storage) == []


@contextlib.asynccontextmanager
async def session_held(target: str, backend_name: str, channel_id: int) -> AsyncIterator[None]:
    """Another client of the database holds what a save of ``channel_id`` must lock (SQLite: the
    file's write lock; PostgreSQL: the session's row), so the save hangs until it lets go."""
    if backend_name == "sqlite":
        other = sqlite3.connect(target, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    import asyncpg

    other = await asyncpg.connect(target)
    try:
        async with other.transaction():
            await other.execute("SELECT 1 FROM sessions WHERE channel_id = $1 FOR UPDATE", channel_id)
            yield
    finally:
        await other.close()


async def test_a_save_given_up_on_while_the_database_holds_it_never_lands_over_a_later_one(
    storage, target, backend_name
):
    # bot.session.guarded gives up on (cancels) a write the database has not answered within
    # WRITE_WAIT_S; the game's next save must be the one that stays, and the storage go on.
    await storage.save_session(GUILD, 5, "tap", {"step": 1}, now=1)
    async with session_held(target, backend_name, 5):
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(storage.save_session(GUILD, 5, "tap", {"step": 2}, now=2), 0.3)
    await storage.save_session(GUILD, 5, "tap", {"step": 3}, now=3)
    assert await states(storage) == [{"step": 3}]
    await storage.save_session(GUILD, 5, "tap", {"step": 4}, now=4)
    assert await states(storage) == [{"step": 4}]


async def test_a_read_the_postgresql_server_does_not_answer_is_given_up_on_as_a_database_fault(
    postgres_url, monkeypatch
):
    # Another client holds a lock every read of the standings waits for (as a hung server or a
    # network that drops packets would hold it): the read is cancelled after STATEMENT_WAIT_S, as a
    # database fault (the slash command says the database is not answering), and the pool goes on.
    import asyncpg

    monkeypatch.setattr(postgres, "STATEMENT_WAIT_S", 0.3)
    store = await Storage.open(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        async with other.transaction():
            await other.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            started = time.monotonic()
            with pytest.raises(TimeoutError) as raised:
                await store.leaderboard(GUILD, "tap")
            assert time.monotonic() - started < 2.0
            assert database_fault(raised.value)
        await store.record_game(game("after", {1: 3, 2: 1}))
        rows, total = await store.leaderboard(GUILD, "tap")
        assert total == 2 and [row.user_id for row in rows] == [1, 2]
    finally:
        await other.close()
        await store.close()


async def test_a_new_postgresql_schema_survives_a_crash_of_the_server_right_after_it(
    postgres_url, postgres_server
):
    # Pooled connections commit without waiting for the disk (synchronous_commit=off); a schema
    # taken back by a crash would leave the bot on a database without its tables (the chaos test
    # saw "relation session_log does not exist"). The migrations wait for the disk.
    import asyncpg

    store = await Storage.open(postgres_url)
    await store.close()
    await asyncio.to_thread(postgres_server.halt)  # as a crash would, at once
    await asyncio.to_thread(postgres_server.resume)
    connection = await asyncpg.connect(postgres_url)
    try:
        version = await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        assert version == len(postgres.MIGRATIONS)
        assert await connection.fetchval("SELECT to_regclass('session_log')") is not None
    finally:
        await connection.close()


async def test_a_save_while_a_game_is_being_recorded_waits_for_it_instead_of_failing(sqlite_storage):
    # record_game holds the write lock across awaits; the synchronous session writer must not
    # block the event loop on it (that would stall the very transaction it waits for).
    storage = sqlite_storage
    await storage._db.execute("BEGIN IMMEDIATE")
    await storage._db.execute("DELETE FROM sessions")
    await storage.save_session(GUILD, 5, "tap", {"step": 1}, now=1)
    await storage._db.execute("COMMIT")
    assert await states(storage) == [{"step": 1}]


async def test_a_save_made_while_a_game_is_recorded_survives_the_records_rollback():
    # On ":memory:" every statement goes through aiosqlite's one queue; a save queued inside the
    # transaction of a game recorded twice would be rolled back with it.
    store = await Storage.open(":memory:")
    try:
        await store.record_game(game("same", {1: 3, 2: 1}))
        recorded, _ = await asyncio.gather(
            store.record_game(game("same", {1: 3, 2: 1})),
            store.save_session(GUILD, 6, "tap", {"step": 1}, now=1),
        )
        assert recorded is False
        assert await states(store) == [{"step": 1}]
    finally:
        await store.close()


async def test_saved_sessions_reach_the_main_database_file_every_few_hundred_saves(
    sqlite_storage, tmp_path, monkeypatch
):
    # The session writer never checkpoints the write-ahead log itself (an fsync on the event loop);
    # the storage checkpoints it in aiosqlite's thread. A copy of the main file alone, without the
    # log, shows what has been checkpointed.
    monkeypatch.setattr("bot.storage.sqlite.CHECKPOINT_EVERY", 3)
    main_file = tmp_path / "nested" / "bot.db"
    for step in range(3):
        await sqlite_storage.save_session(GUILD, 5, "tap", {"step": step}, now=step)
    await sqlite_storage._checkpointing  # in a task of its own: no save waits for it
    copy = tmp_path / "copy.db"
    copy.write_bytes(main_file.read_bytes())
    connection = sqlite3.connect(copy)
    try:
        assert connection.execute("SELECT state FROM sessions").fetchall() == [('{"step":2}',)]
    finally:
        connection.close()


async def test_the_save_that_calls_for_a_checkpoint_does_not_wait_for_it(sqlite_storage, monkeypatch):
    # The save that counts to CHECKPOINT_EVERY is a press's: it must not wait for the checkpoint's
    # fsync, nor for a game being recorded (which holds aiosqlite's connection, as here).
    monkeypatch.setattr("bot.storage.sqlite.CHECKPOINT_EVERY", 2)
    storage = sqlite_storage
    async with storage._writing:
        for step in range(2):
            await asyncio.wait_for(storage.save_session(GUILD, 5, "tap", {"step": step}, now=step), 2)
        assert storage._checkpointing is not None and not storage._checkpointing.done()
    await storage._checkpointing
    assert await states(storage) == [{"step": 1}]


async def test_only_the_sessions_of_a_processs_own_shards_are_loaded(storage):
    # Discord puts a guild on shard (guild_id >> 22) % count.
    on_shard = {shard: (1000 + shard) << 22 for shard in range(4)}  # guild ids on shards 0-3 of 4
    for shard, guild in on_shard.items():
        await storage.save_session(guild, 10 + shard, "tap", {"shard": shard}, now=1)
    assert await states(storage, Shards(4, frozenset({1, 3}))) == [{"shard": 1}, {"shard": 3}]
    assert await states(storage, Shards(2, frozenset({0}))) == [{"shard": 0}, {"shard": 2}]
    assert len(await storage.load_sessions()) == 4


async def test_deleting_a_session_needs_the_right_guild(storage):
    await storage.save_session(GUILD, 5, "tap", {"step": 1}, now=1)
    await storage.delete_session(OTHER_GUILD, 5)
    assert await states(storage) == [{"step": 1}]


async def test_a_game_is_recorded_exactly_once(storage):
    assert await storage.record_game(game("same", {1: 3, 2: 1})) is True
    assert await storage.record_game(game("same", {1: 3, 2: 1})) is False
    rows, total = await storage.leaderboard(GUILD, "tap")
    assert total == 2
    assert [(r.user_id, r.games, r.wins, r.score) for r in rows] == [(1, 1, 1, 3), (2, 1, 0, 1)]


async def test_leaderboard_sorts_by_wins_then_score(storage):
    await storage.record_game(game("a", {1: 5, 2: 4}))
    await storage.record_game(game("b", {2: 9, 3: 1}))
    await storage.record_game(game("c", {3: 7, 1: 2}))
    rows, _ = await storage.leaderboard(GUILD, "tap")
    # 1: 1 win, 7 points; 2: 1 win, 13 points; 3: 1 win, 8 points.
    assert [r.user_id for r in rows] == [2, 3, 1]


async def test_leaderboard_puts_fewest_first_when_lower_scores_win(storage):
    await storage.record_game(game("a", {1: 5, 2: 5}, kind="kingdom"))  # both win
    await storage.record_game(game("b", {1: 2, 2: 2}, kind="kingdom"))
    rows, _ = await storage.leaderboard(GUILD, "kingdom", lower_score_wins=True)
    assert [r.score for r in rows] == [7, 7]
    await storage.record_game(game("c", {3: 1}, kind="kingdom"))
    rows, _ = await storage.leaderboard(GUILD, "kingdom", lower_score_wins=True)
    assert rows[0].wins == 2 and rows[-1].user_id == 3


async def test_leaderboard_pages(storage):
    await storage.record_game(game("big", {user: user for user in range(1, 24)}))
    page1, total = await storage.leaderboard(GUILD, "tap", limit=10)
    page3, _ = await storage.leaderboard(GUILD, "tap", offset=20, limit=10)
    assert total == 23
    assert [r.user_id for r in page1][:2] == [23, 22]
    assert [r.user_id for r in page3] == [3, 2, 1]


async def test_abandoned_games_do_not_count_in_rankings(storage):
    await storage.record_game(game("gone", {1: 0, 2: 0}, outcome="abandoned"))
    rows, total = await storage.leaderboard(GUILD, "tap")
    assert rows == [] and total == 0
    stats = await storage.stats(GUILD, 1)
    assert [(s.kind, s.games, s.abandoned) for s in stats] == [("tap", 0, 1)]


async def test_one_guild_never_sees_another_guilds_rows(storage):
    await storage.record_game(game("here", {1: 3, 2: 1}, guild=GUILD))
    await storage.record_game(game("there", {1: 9, 3: 1}, guild=OTHER_GUILD))
    rows, _ = await storage.leaderboard(GUILD, "tap")
    assert {r.user_id for r in rows} == {1, 2}
    assert [(s.games, s.total_score) for s in await storage.stats(GUILD, 1)] == [(1, 3)]
    assert [(s.games, s.total_score) for s in await storage.stats(OTHER_GUILD, 1)] == [(1, 9)]
    assert await storage.stats(OTHER_GUILD, 2) == []


async def test_stats_give_games_wins_and_scores_per_game(storage):
    await storage.record_game(game("a", {1: 5, 2: 4}))
    await storage.record_game(game("b", {1: 1, 2: 4}))
    await storage.record_game(game("k", {1: 2, 2: 6}, kind="kingdom"))
    stats = {s.kind: s for s in await storage.stats(GUILD, 1, {"kingdom": True})}
    assert (stats["tap"].games, stats["tap"].wins, stats["tap"].total_score, stats["tap"].best_score) == (
        2,
        1,
        6,
        5,
    )
    assert stats["kingdom"].best_score == 2


def logged(
    key: str, scores: dict[int, int], *, guild: int = GUILD, channel: int = 5, ended: int = 2000, **log
):
    record = game(key, scores, guild=guild)
    players = [
        PlayerRecord(p.user_id, p.seat, p.score, p.won, name=f"member {p.user_id}") for p in record.players
    ]
    return dataclasses.replace(
        record, channel_id=channel, ended_at=ended, players=players, log={"format": 2, "game": "tap", **log}
    )


async def test_a_finished_games_record_is_stored_with_it_and_read_back_whole(storage):
    big = list(range(5000))  # compressed as stored: the record comes back exactly
    assert await storage.record_game(logged("g1", {1: 3, 2: 1}, moves=big)) is True
    assert await storage.record_game(logged("g1", {1: 3, 2: 1}, moves=[0])) is False  # exactly once
    stored = await storage.game_log(GUILD, "g1")
    assert stored is not None and stored.log == {"format": 2, "game": "tap", "moves": big}
    assert (stored.kind, stored.channel_id, list(stored.names)) == ("tap", 5, ["member 1", "member 2"])
    assert await storage.game_log(OTHER_GUILD, "g1") is None  # another server never sees it


async def test_recent_games_are_newest_first_by_channel_or_member_and_only_those_with_a_record(storage):
    await storage.record_game(logged("old", {1: 3, 2: 1}, ended=1000))
    await storage.record_game(logged("new", {1: 3, 3: 1}, ended=3000))
    await storage.record_game(logged("elsewhere", {2: 3, 3: 1}, channel=6, ended=4000))
    await storage.record_game(game("no record", {1: 3, 2: 1}))
    await storage.record_game(logged("other server", {1: 3, 2: 1}, guild=OTHER_GUILD, ended=5000))
    keys = [g.game_key for g in await storage.recent_games(GUILD, channel_id=5)]
    assert keys == ["new", "old"]
    assert [g.game_key for g in await storage.recent_games(GUILD, user_id=2)] == ["elsewhere", "old"]
    assert [g.game_key for g in await storage.recent_games(GUILD, channel_id=5, user_id=3, limit=1)] == [
        "new"
    ]
    listed = (await storage.recent_games(GUILD, limit=1))[0]
    assert listed.log is None and list(listed.names) == ["member 2", "member 3"]


async def test_a_past_game_gives_its_game_options_and_seats_in_order_within_its_server_only(storage):
    await storage.record_game(game("k1", {30: 1, 10: 2, 20: 0}))
    past = await storage.past_game(GUILD, "k1")
    assert (past.kind, dict(past.options), list(past.user_ids)) == ("tap", {"target": 3}, [30, 10, 20])
    assert await storage.past_game(GUILD + 1, "k1") is None
    assert await storage.past_game(GUILD, "nope") is None
