"""SQLite's session writer thread (``bot.storage.session_writer``): a save is committed before
``save_session`` returns, saves queued while the thread writes go in one transaction, a channel's
saves are applied in order (across a hand-back to aiosqlite too), an error raised in the thread
reaches the caller (and the guarded write path retries it), ``close`` writes what was handed over,
and a database held by aiosqlite's connection (a game being recorded) neither deadlocks nor
reorders the saves that meet it.

The thread is stopped where a test needs saves to queue behind it by a trace callback on its own
connection, which SQLite calls in that thread as a statement starts: no test waits for a time."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from simcord_clock import clock_held_still
from test_sessions import start_tap

from bot.session.guarded import RETRY_MAX_S
from bot.storage import GameRecord, LogRows, PlayerRecord, Storage, session_writer

GUILD = 111
REPOSITORY = Path(__file__).resolve().parents[2]


class Gate:
    """Stops the writer thread inside its next upsert of a session until ``release``; records
    every statement the thread's connection runs."""

    def __init__(self, monkeypatch) -> None:
        self.statements: list[str] = []
        self.entered = threading.Event()
        self.released = threading.Event()
        self.armed = True
        self.at = 0  # how many statements had run when the gate closed (it included)
        connect = session_writer.connect

        def traced(path):
            connection = connect(path)
            connection.set_trace_callback(self._trace)
            return connection

        monkeypatch.setattr(session_writer, "connect", traced)

    def _trace(self, sql: str) -> None:
        self.statements.append(sql)
        if self.armed and sql.startswith("INSERT INTO sessions"):
            self.armed = False
            self.at = len(self.statements)
            self.entered.set()
            self.released.wait(30)

    async def closed(self) -> None:
        """Until the thread is inside the gate."""
        await asyncio.to_thread(self.entered.wait, 30)
        assert self.entered.is_set()

    def release(self) -> None:
        self.released.set()

    def after_gate(self) -> list[str]:
        return self.statements[self.at :]


async def queued(storage, count: int) -> None:
    """Until ``count`` saves wait in the writer's queue (each task hands its save over at once)."""
    for _ in range(1000):
        if len(storage._writer._queue) >= count:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{len(storage._writer._queue)} saves queued, not {count}")


async def handed_back(storage) -> None:
    """Until the writer thread has handed saves back to the loop and waits for them."""
    for _ in range(3000):
        if storage._writer._held:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the writer handed nothing back")


async def state_of(storage, channel: int):
    for saved in await storage.load_sessions():
        if saved.state.get("channel") == channel:
            return saved
    return None


def save(storage, channel: int, step: int, log: LogRows | None = None, kind: str | None = "tap"):
    return asyncio.create_task(
        storage.save_session(GUILD, channel, kind, {"channel": channel, "step": step}, step, log)
    )


@pytest.fixture
async def storage(tmp_path):
    store = await Storage.open(tmp_path / "bot.db")
    yield store
    await store.close()


# ------------------------------------------------------------------ commit, group commit, order


async def test_a_save_is_written_in_the_writer_thread_and_committed_when_it_returns(
    storage, tmp_path, monkeypatch
):
    threads: list[str] = []
    write = session_writer.write

    def spied(cursor, saves):
        threads.append(threading.current_thread().name)
        write(cursor, saves)

    monkeypatch.setattr(session_writer, "write", spied)
    await storage.save_session(GUILD, 5, "tap", {"step": 1}, 1, LogRows("g1", 0, ["a"]))
    assert threads == ["sqlite-session-writer"]
    other = sqlite3.connect(tmp_path / "bot.db")  # another connection sees it: committed
    try:
        assert other.execute("SELECT state, log_rows FROM sessions").fetchall() == [('{"step":1}', 1)]
    finally:
        other.close()


async def test_saves_queued_while_the_writer_writes_go_in_one_transaction(tmp_path, monkeypatch):
    gate = Gate(monkeypatch)
    storage = await Storage.open(tmp_path / "bot.db")
    try:
        first = save(storage, 1, 0)
        await gate.closed()  # the thread is writing the first save
        rest = [save(storage, 10 + c, c, LogRows(f"g{c}", 0, [c, c])) for c in range(5)]
        await queued(storage, 5)
        gate.release()
        await asyncio.gather(first, *rest)
        after = gate.after_gate()
        assert [s for s in after if not s.startswith(("INSERT", "DELETE"))] == ["BEGIN IMMEDIATE", "COMMIT"]
        assert sum(s.startswith("INSERT INTO sessions") for s in after) == 5
        assert (storage._writer.batches, storage._writer.saves) == (2, 6)
        for c in range(5):
            saved = await state_of(storage, 10 + c)
            assert saved.state["step"] == c and saved.log == [c, c]
    finally:
        await storage.close()


async def test_a_channels_saves_are_applied_in_the_order_they_were_made(tmp_path, monkeypatch):
    gate = Gate(monkeypatch)
    storage = await Storage.open(tmp_path / "bot.db")
    try:
        first = save(storage, 5, 0, LogRows("g", 0, [0]))
        await gate.closed()
        # The same channel, one entry of its log each; another channel in between.
        rest = [save(storage, 5, step, LogRows("g", step, [step])) for step in range(1, 20)]
        rest += [save(storage, 6, 1)]
        await queued(storage, 20)
        gate.release()
        await asyncio.gather(first, *rest)
        saved = await state_of(storage, 5)
        assert saved.state["step"] == 19 and saved.log == list(range(20))
        upserts = [s for s in gate.statements if s.startswith("INSERT INTO sessions")]
        assert len(upserts) == 21
    finally:
        await storage.close()


# ------------------------------------------------------------------ errors


async def test_an_error_in_the_thread_reaches_the_caller_and_the_next_save_goes_through(storage, monkeypatch):
    failed_in: list[str] = []
    write = session_writer.write

    def failing_once(cursor, saves):
        if not failed_in:
            failed_in.append(threading.current_thread().name)
            raise sqlite3.OperationalError("disk I/O error")
        write(cursor, saves)

    monkeypatch.setattr(session_writer, "write", failing_once)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        await storage.save_session(GUILD, 5, "tap", {"step": 1}, 1)
    assert failed_in == ["sqlite-session-writer"]
    assert await storage.load_sessions() == []
    await storage.save_session(GUILD, 5, "tap", {"step": 2}, 2)
    assert [s.state for s in await storage.load_sessions()] == [{"step": 2}]


async def test_a_save_that_fails_in_a_transaction_of_several_fails_alone(tmp_path, monkeypatch):
    gate = Gate(monkeypatch)
    storage = await Storage.open(tmp_path / "bot.db")
    try:
        first = save(storage, 1, 0)
        await gate.closed()
        good = [save(storage, 10, 1, LogRows("g10", 0, [1])), save(storage, 12, 1, LogRows("g12", 0, [1]))]
        bad = save(storage, 11, 1, LogRows("g11", 0, [1]), kind=None)  # kind is NOT NULL: SQLite refuses
        await queued(storage, 3)
        gate.release()
        await asyncio.gather(first, *good)
        with pytest.raises(sqlite3.IntegrityError):
            await bad
        assert {s.state["channel"] for s in await storage.load_sessions()} == {1, 10, 12}
    finally:
        await storage.close()


async def test_a_press_whose_save_fails_in_the_writer_thread_is_retried_by_the_guard(
    world, simcord_env, monkeypatch
):
    # The fault is SQLite's own, raised in the writer thread (not in front of save_session).
    down = {"on": False, "hits": 0}
    write = session_writer.write

    def failing(cursor, saves):
        if down["on"]:
            down["hits"] += 1
            raise sqlite3.OperationalError("disk I/O error")
        write(cursor, saves)

    alice = world.members[0]
    await start_tap(world, target=5)
    monkeypatch.setattr(session_writer, "write", failing)
    down["on"] = True
    with clock_held_still(simcord_env):  # the retry runs by the advance below only
        tapped = await alice.click(world.board(), label="Tap")
    assert down["hits"] == 1
    texts = [tapped.response.content] + [f.content or "" for f in tapped.followups if f.ephemeral]
    assert any(text.startswith("Your move counts: the board shows it.") for text in texts)
    assert simcord_env.bot.guard.waiting
    down["on"] = False
    await simcord_env.advance_time(RETRY_MAX_S)
    assert not simcord_env.bot.guard.waiting
    (saved,) = await simcord_env.bot.storage.load_sessions()
    assert saved.state["engine"]["scores"] == [1, 0]
    assert not simcord_env.errors


# ------------------------------------------------------------------ close


async def test_close_writes_the_saves_handed_over_and_ends_the_thread(tmp_path, monkeypatch):
    gate = Gate(monkeypatch)
    storage = await Storage.open(tmp_path / "bot.db")
    thread = storage._writer._thread
    first = save(storage, 1, 0)
    await gate.closed()
    rest = [save(storage, 10 + c, c, LogRows(f"g{c}", 0, [c])) for c in range(4)]
    await queued(storage, 4)
    closing = asyncio.create_task(storage.close())
    await asyncio.sleep(0)
    gate.release()
    await closing
    await asyncio.gather(first, *rest)  # each committed, none refused
    assert not thread.is_alive()
    await storage.close()  # twice: nothing left to do
    again = await Storage.open(tmp_path / "bot.db")
    try:
        assert sorted(s.state["channel"] for s in await again.load_sessions()) == [1, 10, 11, 12, 13]
    finally:
        await again.close()


def test_a_process_that_never_closes_its_storage_still_exits(tmp_path):
    # The writer thread is a daemon: an exit without close() does not wait for it. (aiosqlite's
    # own connection is closed, so only the writer's thread is left.)
    script = (
        "import asyncio, sys\n"
        f"sys.path.insert(0, {str(REPOSITORY)!r})\n"
        "from bot.storage import Storage\n"
        "async def main():\n"
        f"    storage = await Storage.open({str(tmp_path / 'bot.db')!r})\n"
        "    await storage.save_session(1, 2, 'tap', {'step': 1}, 1)\n"
        "    await storage._db.close()\n"
        "    print(storage._writer._thread.is_alive())\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"  # the thread was still there at the exit


# ------------------------------------------------------------------ busy: a game being recorded


def record(key: str) -> GameRecord:
    return GameRecord(
        game_key=key,
        guild_id=GUILD,
        channel_id=99,
        kind="tap",
        options={},
        seed=1,
        started_at=1,
        ended_at=2,
        outcome="finished",
        players=[PlayerRecord(1, 0, 3, True), PlayerRecord(2, 1, 1, False)],
    )


async def test_saves_meeting_a_game_being_recorded_wait_for_it_without_deadlock(storage, monkeypatch):
    # record_game holds the write lock across awaits; the thread hands the saves back at once (its
    # busy timeout is 0) and they are written on aiosqlite once the record has committed.
    inside, go_on = asyncio.Event(), asyncio.Event()
    rate = storage._rate

    async def slow_rate(game):
        inside.set()
        await go_on.wait()  # inside the record's transaction
        await rate(game)

    monkeypatch.setattr(storage, "_rate", slow_rate)
    # Never waiting for a lock is what keeps a save awaited inside such a transaction from waiting
    # on its own caller (test_storage's save made inside a raw transaction would then only be slow).
    assert storage._writer._connection.execute("PRAGMA busy_timeout").fetchone() == (0,)
    recording = asyncio.create_task(storage.record_game(record("once")))
    await inside.wait()
    saves = [save(storage, 10 + c, c, LogRows(f"g{c}", 0, [c])) for c in range(3)]
    await handed_back(storage)
    assert not any(s.done() for s in saves)  # they wait for the record
    go_on.set()
    done, _ = await asyncio.wait([recording, *saves], timeout=30)  # a guard against a deadlock
    assert len(done) == 4 and recording.result() is True
    await asyncio.gather(*saves)
    for c in range(3):
        saved = await state_of(storage, 10 + c)
        assert saved.state["step"] == c and saved.log == [c]
    assert await storage.game_count(GUILD) == 1
    assert not storage._writer._held  # the thread writes again
    await storage.save_session(GUILD, 20, "tap", {"channel": 20}, 1)
    assert storage._writer.saves == 1  # the three went on aiosqlite, this one in the thread


async def test_a_later_save_of_a_channel_waits_for_its_save_handed_back(storage):
    # The first save met the lock and waits for aiosqlite; the lock is free again when the second
    # comes, but the thread must not write it before the first (the channel would go back a step).
    async with storage._writing:
        await storage._db.execute("BEGIN IMMEDIATE")
        first = save(storage, 5, 1, LogRows("g", 0, [1]))
        await handed_back(storage)
        await storage._db.execute("COMMIT")
        second = save(storage, 5, 2, LogRows("g", 1, [2]))
        await asyncio.sleep(0.05)  # time a thread that did not wait would take to write it
        assert not first.done() and not second.done()
    await asyncio.gather(first, second)
    saved = await state_of(storage, 5)
    assert saved.state["step"] == 2 and saved.log == [1, 2]
