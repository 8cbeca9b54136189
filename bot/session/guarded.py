"""One guarded path for every write a game makes: a press's or a timer's save, a finish (its
record, then its clean-up), an ending (``/end``, a lobby closing, a channel gone).

A write that meets a database fault (SQLite "database is locked" or an I/O error, a PostgreSQL
connection lost or its server restarting) is neither lost nor retried where it was made: the
``Guard`` keeps it and tries it again, with backoff, from here alone. Only a game's latest write is
kept, since each covers the ones before it: a save writes the state as it is when it runs, a
finish saves, records and removes the saved game. While a game waits, its new writes join the wait
instead of meeting the dead database again, so no press waits on it. A game that waits is logged
once (and again once when the wait reaches its longest pause), counted in the metrics, and resumes
by itself once a retry goes through. A write the database has not answered within
``WRITE_WAIT_S`` (a disk or a network that hangs instead of failing) is given up on and counts as
a fault like any other: a press is answered within Discord's 3 s, and its game's lock is free for
the next press. See docs/operations.md.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.session.host import Host
    from bot.session.sessions import Session

log = logging.getLogger(__name__)

RETRY_S = 5.0  # the first retry of a failed write waits this long...
RETRY_MAX_S = 60.0  # ...doubling each time, up to this: a database back is used within a minute
FLUSH_S = 5.0  # at a stop, the last try of the writes still waiting gets this long in all
# A write not answered by then is given up on (a fault): a press taken up to 1 s after it was made
# still gets its answer in Discord's 3 s (bot.session.overload sheds those taken later).
WRITE_WAIT_S = 1.5
LATE_S = 0.02  # a check later than this counts its lateness as the loop's, not the database's
BUSY_MAX_S = 3.0  # at most this much more time for a write the loop held back

Write = Callable[[], Awaitable[Any]]
SAVE = "save"  # the one write an ending covers (see ``covers``)


def _database_errors() -> tuple[type[BaseException], ...]:
    # "database is locked", "disk I/O error", a full disk: what a restart of nothing fixes but time
    errors: list[type[BaseException]] = [sqlite3.OperationalError, OSError, TimeoutError]
    try:
        from asyncpg import exceptions as pg
    except ImportError:  # the PostgreSQL extra is optional
        return tuple(errors)
    # A connection lost or refused, a server shutting down or starting up, out of resources; and
    # a pooled connection still consuming the error the server killed it with (asyncpg says
    # "another operation is in progress"), seen when the server ends connections.
    errors += [
        pg.PostgresConnectionError,
        pg.InterfaceError,
        pg.OperatorInterventionError,
        pg.InsufficientResourcesError,
        pg.InternalClientError,
    ]
    return tuple(errors)


DATABASE_ERRORS = _database_errors()


def database_fault(error: BaseException) -> bool:
    """Whether ``error`` is the database failing, not a bug: worth trying again later."""
    return isinstance(error, DATABASE_ERRORS)


async def within_wait(op: Write) -> None:
    """``op``, cancelled if the database has not answered within ``WRITE_WAIT_S`` of the event
    loop's own time. Cancelling is safe for every write the bot makes: SQLite's are each one
    transaction that a cancel rolls back or leaves to commit in order on the writer's queue, and
    asyncpg resets a cancelled connection; whatever lands late is overtaken by the retry, which
    writes the game as it is then.

    The loop's time, not the wall's: on a loop busy with other presses, the write's answer waits
    in the loop's queue like everything else, and that wait is not the database's. So when the
    time is up, the loop's lateness in coming to it (it was busy elsewhere) is given back, and
    again at the next check, up to ``BUSY_MAX_S`` in all: a write only the loop held back is not
    reported as the database failing, and a database that hangs on a busy loop is still given up
    on. One timer at a time, as a plain timeout would have."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(None) as limit:
            wait = _Wait(loop, limit)
            planned = loop.time() + WRITE_WAIT_S
            wait.handle = loop.call_at(planned, _check, wait, planned)
            try:
                await op()
            finally:
                wait.handle.cancel()  # its callback and arguments go: no cycle outlives the write
    except TimeoutError as error:
        if isinstance(error.__cause__, asyncio.CancelledError):  # ours, not the driver's own
            raise TimeoutError(f"no answer within {WRITE_WAIT_S:g} s") from error
        raise


class _Wait:
    """A write's wait: its timeout, the time given back so far, and its next check."""

    __slots__ = ("loop", "limit", "given", "handle")

    def __init__(self, loop: asyncio.AbstractEventLoop, limit: asyncio.Timeout) -> None:
        self.loop = loop
        self.limit = limit
        self.given = 0.0
        self.handle: asyncio.TimerHandle | asyncio.Handle


def _check(wait: _Wait, planned: float) -> None:
    """The write's time is up at ``planned``: the loop's lateness in coming here is given back
    (at most ``BUSY_MAX_S`` in all), or else the write is cancelled."""
    loop = wait.loop
    late = loop.time() - planned
    if late > LATE_S and wait.given < BUSY_MAX_S:
        wait.given += late
        wait.handle = loop.call_at(loop.time() + late, _check, wait, loop.time() + late)
    else:
        wait.limit.reschedule(loop.time())


@dataclass(eq=False)
class Waiting:
    """A game's write that met a database fault, kept until a retry goes through."""

    session: Session
    what: str  # "save", "finish", "end", … for the log
    again: Write  # the whole step again, under the game's lock
    since: float = field(default_factory=lambda: time.monotonic())  # as the log line reads it
    tries: int = 0
    running: bool = False  # a retry is writing now: its writes go to the database
    task: asyncio.Task[None] | None = None


def describe(session: Session) -> str:
    """A game as the log names it: its key, game and channel (never its state: it has secrets)."""
    return f"game {session.game_key} ({session.kind}) in channel {session.channel_id}"


def covers(what: str, entry: Waiting) -> bool:
    """Whether a write ``what`` stands for the one ``entry`` waits with: a later write covers an
    earlier (a save writes the state as it is then), but a save never an ending (a finish, /end,
    a close, a drop)."""
    return what != SAVE or entry.what == SAVE


class Guard:
    """The bot's one keeper of failed writes, keyed by channel (one game per channel)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.waiting: dict[int, Waiting] = {}
        self.faults = 0  # database faults met since start-up
        self.database_ok = True  # as the latest write found it

    async def write(self, session: Session, what: str, op: Write, again: Write | None = None) -> bool:
        """Run ``op`` (a write of ``session``'s game) now, or keep it for a retry: False when it did
        not go through (yet). ``again`` is the whole step a retry runs, under the game's lock
        (``op`` itself by default). Errors other than the database's are raised: they are bugs."""
        entry = self.waiting.get(session.channel_id)
        if entry is not None and entry.session is not session:
            entry = None
        if entry is not None and not entry.running:
            # The latest covers the earlier (a save writes the state as it is then).
            if covers(what, entry):
                entry.what, entry.again = what, again or op
            return False
        try:
            await within_wait(op)
        except Exception as error:
            if not database_fault(error):
                raise
            self._failed(session, what, again or op, error)
            return False
        self.database_ok = True
        # Inside a retry's step: its write went through. A save made on the way (a board posted
        # anew saves the session) is not the finish it retries.
        if entry is not None and entry.running and covers(what, entry):
            self._through(entry)
        return True

    def _through(self, entry: Waiting) -> None:
        self.database_ok = True
        session = entry.session
        if self.waiting.get(session.channel_id) is entry:
            del self.waiting[session.channel_id]
            log.info(
                "%s: its %s went through after %d tries (%.0f s); the game goes on",
                describe(session),
                entry.what,
                entry.tries + 1,
                time.monotonic() - entry.since,
            )

    def pending(self, session: Session) -> bool:
        entry = self.waiting.get(session.channel_id)
        return entry is not None and entry.session is session

    def _failed(self, session: Session, what: str, again: Write, error: BaseException) -> None:
        self.faults += 1
        self.database_ok = False
        entry = self.waiting.get(session.channel_id)
        if entry is None or entry.session is not session:
            entry = self.waiting[session.channel_id] = Waiting(session, what, again)
            # The error's type and text only: asyncpg's and sqlite3's name the fault, not the data.
            log.warning(
                "%s: the database failed on its %s (%s: %s); it waits, and is tried again by itself",
                describe(session),
                what,
                type(error).__name__,
                error,
            )
        if covers(what, entry):
            entry.what, entry.again = what, again
        entry.tries += 1
        if entry.task is None or entry.task.done():
            entry.task = asyncio.get_running_loop().create_task(
                self._retry(entry), name=f"retry:{session.channel_id}"
            )

    def _pause(self, entry: Waiting) -> float:
        return min(RETRY_S * 2 ** (entry.tries - 1), RETRY_MAX_S)

    async def _retry(self, entry: Waiting) -> None:
        session = entry.session
        told_long = False
        while self.waiting.get(session.channel_id) is entry:
            pause = self._pause(entry)
            if pause >= RETRY_MAX_S and not told_long:
                told_long = True
                log.warning(
                    "%s: still waiting for the database after %d tries; tried every %.0f s",
                    describe(session),
                    entry.tries,
                    pause,
                )
            await asyncio.sleep(pause)
            await self._attempt(entry)

    async def _attempt(self, entry: Waiting) -> None:
        """One more try of a waiting write: its whole step, under its game's lock."""
        session = entry.session
        async with session.lock:
            if self.waiting.get(session.channel_id) is not entry:
                return
            if self.bot.sessions.get(session.channel_id) is not session:
                del self.waiting[session.channel_id]  # ended meanwhile: nothing left to write
                return
            entry.running = True
            tries = entry.tries
            try:
                await within_wait(entry.again)
            except Exception as error:
                if database_fault(error):
                    self._failed(session, entry.what, entry.again, error)
                else:
                    # A bug in the step, not the database: logged with its game, tried again.
                    log.exception("%s: retrying its %s failed", describe(session), entry.what)
                    entry.tries += 1
            else:
                if entry.tries == tries:
                    self._through(entry)  # the step wrote, or found nothing left to write
            finally:
                entry.running = False

    async def flush(self, timeout_s: float = FLUSH_S) -> int:
        """The process stops: each write still waiting is tried once more now, within
        ``timeout_s`` in all. Returns how many still wait (their games' last saves stand)."""
        entries = list(self.waiting.values())
        for entry in entries:
            if entry.task is not None:
                entry.task.cancel()  # its pause, not a write: writes run under the game's lock
        if entries:
            try:
                await asyncio.wait_for(asyncio.gather(*(self._attempt(e) for e in entries)), timeout_s)
            except TimeoutError:
                log.warning("stopping: the database did not answer within %.0f s", timeout_s)
        return len(self.waiting)

    async def stop(
        self, save: Callable[[Session], Awaitable[bool]], timeout_s: float = FLUSH_S
    ) -> tuple[int, int]:
        """The process stops: the writes still waiting are tried once more (``flush``), then every
        other open game is saved once more with ``save`` (each was saved after its last action
        already: this is for whatever a bug left unsaved). Returns (games saved, games still
        waiting), within about twice ``timeout_s``."""
        await self.flush(timeout_s)
        saved = 0

        async def save_all() -> None:
            nonlocal saved
            for session in self.bot.sessions:
                async with session.lock:
                    if not self.pending(session) and self.bot.sessions.get(session.channel_id) is session:
                        saved += await save(session)

        try:
            await asyncio.wait_for(save_all(), timeout_s)
        except TimeoutError:
            log.warning("stopping: the open games were not all saved within %.0f s", timeout_s)
        return saved, len(self.waiting)

    def close(self) -> None:
        """The process stops: retries still waiting stop (their games' last saves stand)."""
        for entry in list(self.waiting.values()):
            if entry.task is not None:
                entry.task.cancel()
