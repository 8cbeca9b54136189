"""SQLite's session writer: one thread that writes the per-press session saves, so the event loop
only serializes a save, hands it over and awaits its commit (docs/storage.md, *SQLite*).

- **Commit before return.** ``submit`` gives a future that is done once the save is committed (or
  with the error that refused it, ``sqlite3.OperationalError`` and all, raised to the caller as a
  write on the loop raised it), so a press is still answered after its save.
- **Group commit.** The saves handed over while the thread is writing wait in one queue and go in
  one transaction the next time round (one commit for all); then the loop is woken once for the
  whole batch (one ``call_soon_threadsafe``) and sets each save's future.
- **Order.** One thread, one queue, first in first out, and within a transaction the saves are
  written in the order they were made: a channel's saves are applied in order.
- **An error** in a transaction of several saves rolls it back and writes each save alone, so a
  save that cannot be written fails alone and the others still commit.
- **Busy, without deadlock.** The thread's busy timeout is 0: it never waits for a database lock.
  When aiosqlite's connection holds the write lock across awaits (a game being recorded, a clean-up,
  a settings change), waiting in the thread would no longer block the loop, but any code that
  awaits a save inside such a transaction would wait on a lock that its own await keeps held: a
  deadlock until the busy timeout. So a save that finds the database busy is handed back to the
  loop at once (``fall_back``: the storage writes it on aiosqlite's connection, after that
  transaction, state and log rows still together), and the thread writes nothing more until every
  save handed back is through, so that no later save of a channel can overtake it. The thread's
  only waits are for work and for that hand-back to finish; the hand-back runs in a task of its
  own on the loop and waits only for aiosqlite and the storage's ``asyncio.Lock``, never for this
  thread.
- **Close** writes every save already handed over, then the thread ends; once it has, ``submit``
  answers None (the storage writes on aiosqlite instead). The thread is a daemon, so a process that
  exits without closing the storage does not hang on it (a save that was awaited is committed by
  then; WAL keeps the database whole if one is cut off mid-transaction).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

# A save: its statements in order, each with its rows (``executemany``).
Statements = list[tuple[str, list[tuple[Any, ...]]]]
Job = tuple[Statements, "asyncio.Future[float]"]
BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)  # primary result codes


def busy(error: BaseException) -> bool:
    """Whether SQLite refused for a lock another connection holds."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.OperationalError) and code is not None and code & 0xFF in BUSY_CODES


def connect(path: str | Path) -> sqlite3.Connection:
    """The writer's connection: made here, used by the writer thread alone afterwards. It never
    waits for a lock (busy timeout 0, see the module's docstring) and never checkpoints the WAL (the
    storage has aiosqlite's connection do it)."""
    connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    for pragma in ("synchronous=NORMAL", "busy_timeout=0", "wal_autocheckpoint=0"):
        connection.execute(f"PRAGMA {pragma}").fetchall()
    return connection


def write(cursor: sqlite3.Cursor, saves: list[Statements]) -> None:
    """``saves`` in one transaction, taken at once or refused as busy. One statement of one row
    alone commits itself."""
    if len(saves) == 1 and len(saves[0]) == 1 and len(saves[0][0][1]) == 1:
        sql, rows = saves[0][0]
        cursor.execute(sql, rows[0])
        return
    cursor.execute("BEGIN IMMEDIATE")
    try:
        for statements in saves:
            for sql, rows in statements:
                cursor.executemany(sql, rows)
        cursor.execute("COMMIT")
    except BaseException:
        if cursor.connection.in_transaction:
            cursor.execute("ROLLBACK")
        raise


class SessionWriter:
    """The thread and its queue. ``fall_back(statements)`` is the storage's write of one save on
    aiosqlite's connection, for saves that found the database busy (run on the loop)."""

    def __init__(self, path: str | Path, fall_back: Callable[[Statements], Awaitable[None]]) -> None:
        self._connection = connect(path)
        self._fall_back = fall_back
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        # Under the lock: the saves handed over and not yet taken; whether the thread waits for
        # work (only then is it woken: a busy thread finds the queue when it comes back); whether
        # saves are being handed back (the thread waits for them); closing; the thread has ended.
        self._queue: list[Job] = []
        self._idle = False
        self._held = False
        self._closing = False
        self._ended = False
        self._ended_waiter: asyncio.Future[None] | None = None  # close() waits on it
        # Counted by the thread: transactions committed, saves in them, the thread's CPU seconds
        # spent writing (for benches and tests).
        self.batches = 0
        self.saves = 0
        self.cpu = 0.0
        self._thread = threading.Thread(target=self._run, name="sqlite-session-writer", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ on the event loop

    def submit(self, statements: Statements) -> asyncio.Future[float] | None:
        """Hand a save over. The future is done once it is committed, its result the writer
        thread's CPU seconds for it (its share of its transaction; 0 when it was written on
        aiosqlite), or with the error that refused it. None once the thread has ended."""
        future = asyncio.get_running_loop().create_future()
        with self._lock:
            if self._ended:
                return None
            self._queue.append((statements, future))
            if self._idle:
                self._idle = False
                self._wake.notify()
        return future

    async def close(self) -> None:
        """Write what was handed over, then end the thread. Safe to call twice."""
        with self._lock:
            if not self._ended and self._ended_waiter is None:
                self._ended_waiter = asyncio.get_running_loop().create_future()
                self._closing = True
                self._wake.notify()
            waiter = None if self._ended else self._ended_waiter
        if waiter is not None:
            await asyncio.shield(waiter)
        self._thread.join()

    def _handed_back(self, jobs: list[Job]) -> None:
        asyncio.get_running_loop().create_task(self._write_handed_back(jobs), name="sqlite-session-fall-back")

    async def _write_handed_back(self, jobs: list[Job]) -> None:
        """Saves that found the database busy, written on aiosqlite in their order; then the
        thread goes on (see the module's docstring)."""
        at = 0
        try:
            for at, (statements, future) in enumerate(jobs):  # noqa: B007 (read in the handler)
                try:
                    await self._fall_back(statements)
                except Exception as error:
                    if not future.done():
                        future.set_exception(error)
                else:
                    if not future.done():
                        future.set_result(0.0)
        except BaseException:
            for _, future in jobs[at:]:
                future.cancel()
            raise
        finally:
            with self._lock:
                self._held = False
                self._wake.notify()

    @staticmethod
    def _deliver(outcomes: list[tuple[asyncio.Future[float], BaseException | None]], cpu: float) -> None:
        for future, error in outcomes:
            if future.done():  # its caller was cancelled
                continue
            if error is None:
                future.set_result(cpu)
            else:
                future.set_exception(error)

    # ------------------------------------------------------------------ in the writer thread

    def _run(self) -> None:
        try:
            cursor = self._connection.cursor()
            while True:
                with self._lock:
                    while self._held or not self._queue:
                        if self._closing and not self._held and not self._queue:
                            return
                        self._idle = not self._held
                        self._wake.wait()
                    self._idle = False
                    batch, self._queue = self._queue, []
                try:
                    self._write(cursor, batch)
                except BaseException as error:  # a bug here: its saves fail rather than wait forever
                    self._send(batch[0][1], self._deliver, [(future, error) for _, future in batch], 0.0)
                    raise
        finally:
            with self._lock:
                self._ended = True
                left, self._queue = self._queue, []
                waiter = self._ended_waiter
            self._connection.close()
            if left:  # only after such a bug: nobody will write them
                stopped = RuntimeError("the session writer stopped")
                self._send(left[0][1], self._deliver, [(future, stopped) for _, future in left], 0.0)
            if waiter is not None:
                self._send(waiter, _set_done, waiter)

    def _write(self, cursor: sqlite3.Cursor, batch: list[Job]) -> None:
        started = time.thread_time()
        outcomes: list[tuple[asyncio.Future[float], BaseException | None]] = []
        rest: list[Job] = []
        try:
            write(cursor, [statements for statements, _ in batch])
        except Exception as error:
            if busy(error):
                rest = batch
            elif len(batch) == 1:
                outcomes.append((batch[0][1], error))
            else:  # which save? Each alone, in order, so the others still commit
                for at, (statements, future) in enumerate(batch):
                    try:
                        write(cursor, [statements])
                    except Exception as alone:
                        if busy(alone):
                            rest = batch[at:]
                            break
                        outcomes.append((future, alone))
                    else:
                        self.batches += 1
                        self.saves += 1
                        outcomes.append((future, None))
        else:
            self.batches += 1
            self.saves += len(batch)
            outcomes = [(future, None) for _, future in batch]
        spent = time.thread_time() - started
        self.cpu += spent
        if outcomes:
            self._send(outcomes[0][0], self._deliver, outcomes, spent / len(batch))
        if rest:
            with self._lock:
                self._held = True
            if not self._send(rest[0][1], self._handed_back, rest):
                with self._lock:
                    self._held = False  # the loop is gone: nobody waits for them

    @staticmethod
    def _send(future: asyncio.Future[Any], callback: Callable[..., None], *args: Any) -> bool:
        """Run ``callback(*args)`` on the loop of ``future`` (the loop is woken once)."""
        try:
            future.get_loop().call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is closed
            return False
        return True


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
