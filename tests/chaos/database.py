"""The database's faults in the chaos test (issue 30), beside Discord's.

On SQLite the bot's writes (a session's save, a game's record, a saved game's clean-up) are made to
fail with SQLite's own errors: "database is locked" for the next one to three writes, or "disk I/O
error" on every write for a few steps (an outage). SimCord fakes Discord, not the disk, so these
are raised in front of the real storage, as ``sqlite3`` raises them. On PostgreSQL the faults are
real: the bot's connections are killed on the server (``pg_terminate_backend``: a connection lost)
or the server itself is stopped at once (``pg_ctl stop -m immediate``, as a crash) and started
again a few steps later. On both, the first record and the first clean-up of the run fail once,
so every title's finish and clean-up meet a fault whenever the game ends.

A seed draws its database faults from an RNG of their own, so Discord's faults and the members'
presses stay as they were drawn before the database joined the chaos.
"""

from __future__ import annotations

import asyncio
import collections
import random
import sqlite3
from typing import Any

from bot.session.guarded import database_fault

WRITES = ("save_session", "record_game", "delete_session")
CHANCE = 0.07  # of a database fault at each chaos step
UNSAVED = "Your move counts: the board shows it."


class DatabaseChaos:
    def __init__(self, kind: str, seed: int, backend: str, cluster: Any = None, dsn: str = "") -> None:
        self.rng = random.Random(f"chaos-db:{kind}:{seed}")
        self.backend = backend
        self.cluster = cluster  # tests/pg_cluster.Cluster: a real server to stop and start
        self.dsn = dsn
        self.injected: collections.Counter[str] = collections.Counter()
        self.hits: collections.Counter[str] = collections.Counter()  # where a fault met a write
        self.failing: str | None = None  # the SQLite fault now injected: "locked" or "io"
        self.left: int | None = None  # writes still to fail ("locked"); None: until lifted
        self.until: int | None = None  # the step at which an outage is lifted
        self.once = {"record_game": 1, "delete_session": 1}
        self.phase = "timer"  # what the driver is doing: "press" or "timer"
        self.server_down = False
        self.told_unsaved = 0
        self.waiting_peak = 0
        self.through_in_press = 0  # waiting writes that went through during the latest press

    # ------------------------------------------------------------------ the bot's writes

    def tap(self, storage: Any, guard: Any) -> None:
        """Put the faults in front of the bot's storage, and count the guard's waiting writes that
        go through during a press (again after every restart)."""
        for name in WRITES:
            setattr(storage, name, self._wrapped(name, getattr(type(storage), name).__get__(storage)))
        through = type(guard)._through.__get__(guard)

        def counted(entry: Any) -> None:
            self.through_in_press += self.phase == "press"
            through(entry)

        guard._through = counted

    def pressing(self) -> None:
        """A press (or command) starts: the bot's writes it meets are a press's."""
        self.phase = "press"
        self.through_in_press = 0

    def _wrapped(self, name: str, real: Any) -> Any:
        async def write(*args: Any, **kwargs: Any) -> Any:
            error = self._injected(name)
            if error is not None:
                self._hit(name)
                raise error
            try:
                return await real(*args, **kwargs)
            except Exception as failure:
                if database_fault(failure):
                    self._hit(name)
                raise

        return write

    def _injected(self, name: str) -> BaseException | None:
        if self.once.get(name):
            self.once[name] -= 1
            self.injected["once"] += 1
            return self._error("database is locked")
        if self.failing is None:
            return None
        if self.left is not None:
            self.left -= 1
            if self.left <= 0:
                self.failing, self.left = None, None
        return self._error("disk I/O error" if self.failing == "io" else "database is locked")

    def _error(self, text: str) -> BaseException:
        if self.backend == "postgres":
            from asyncpg.exceptions import ConnectionDoesNotExistError

            return ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return sqlite3.OperationalError(text)

    def _hit(self, name: str) -> None:
        if name == "record_game":
            where = "finish"
        elif name == "delete_session":
            where = "clean-up"
        else:
            task = asyncio.current_task()
            retry = task is not None and task.get_name().startswith("retry:")
            where = "retry" if retry else self.phase
        self.hits[where] += 1

    # ------------------------------------------------------------------ faults over time

    async def step(self, step: int, bot: Any) -> None:
        self.waiting_peak = max(self.waiting_peak, len(bot.guard.waiting))
        if self.until is not None and step >= self.until:
            await self.lift()
        if self.failing is not None or self.server_down or self.rng.random() >= CHANCE:
            return
        if self.backend == "postgres":
            if self.rng.random() < 0.5:
                await self._kill_connections()
            else:
                self._stop_server()
                self.until = step + self.rng.randint(2, 8)
            return
        if self.rng.random() < 0.5:
            self.failing, self.left = "locked", self.rng.randint(1, 3)
            self.injected["locked"] += 1
        else:
            self.failing, self.left = "io", None
            self.until = step + self.rng.randint(2, 8)
            self.injected["I/O error"] += 1

    async def lift(self) -> None:
        """Every fault of the database lifted (before a restart, and for the game's last part)."""
        self.failing, self.left, self.until = None, None, None
        if self.server_down:
            await asyncio.to_thread(self.cluster.resume)
            self.server_down = False

    def _stop_server(self) -> None:
        # Blocking on purpose: the stop is one instant between two steps, and the bot is idle.
        self.cluster.halt()
        self.server_down = True
        self.injected["server restart"] += 1

    async def _kill_connections(self) -> None:
        import asyncpg

        name = self.dsn.rsplit("/", 1)[1]
        admin = await asyncpg.connect(self.cluster.dsn("postgres"))
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
            )
        finally:
            await admin.close()
        self.injected["connection lost"] += 1

    # ------------------------------------------------------------------ what members were told

    def check_answer(self, texts: list[str], bot: Any, session: Any) -> str | None:
        """A press told its move waits for the database must have a save waiting; none is ever
        told the bot's apology. The failure, if any."""
        self.waiting_peak = max(self.waiting_peak, len(bot.guard.waiting))
        if any("something went wrong" in text for text in texts):
            return "a press was answered with the apology"
        if any(text.startswith(UNSAVED) for text in texts):
            self.told_unsaved += 1
            # Unless the wait ended within the press: its retry went through while the press was
            # still being handled (a press that outlasts the retry's pause, on SimCord's clock while
            # the real server restarts), so what the member was told was true when it was sent.
            if (session is None or not bot.guard.pending(session)) and not self.through_in_press:
                return "a press was told its move waits for the database, and nothing waits"
        return None

    def summary(self) -> str:
        hits = sum(self.hits.values())
        return (
            f"database ({self.backend}): {sum(self.injected.values())} faults injected "
            f"({dict(sorted(self.injected.items()))}), {hits} writes failed "
            f"({dict(sorted(self.hits.items()))}), {self.told_unsaved} presses told their move waits, "
            f"at most {self.waiting_peak} game(s) waiting"
        )
