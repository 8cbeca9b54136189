"""One load run: the probes installed on a bot in SimCord, presses offered to N tables, logs.

See ``bench_load.py`` for what the bench measures and ``load_probe.py`` / ``load_sim.py`` for
how. Presses arrive as a Poisson stream at the offered rate (exponential gaps: bursts and lulls
as from many independent people); each arrival goes to the table that has waited longest among
those whose game lets someone press now. A table makes one press at a time (its players see the
board change before they act again), except the racing presses it plans on purpose. Latency is
counted from the instant the press was due, not from when the bench got round to sending it, so
a loop too busy to send on time still shows in the figures.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import random
import time
from array import array
from datetime import timedelta
from typing import Any

from load_probe import (
    PRESS,
    Bucket,
    GcTimes,
    LagSampler,
    Meter,
    StackSampler,
    TaskAccounting,
    runqueue_wait,
    thread_time,
    timed_submit,
    timed_to_thread,
)
from load_sim import (
    REAL_MONOTONIC,
    Pruner,
    Wire,
    component_payload,
    made_at,
    sim_ms,
    slash_payload,
    wall_of_ms,
)
from load_tables import Press, Table, Wait
from simcord._runtime import _BOT_SCOPE

from bot.glue import board
from bot.glue.clock import DISCORD_EPOCH_MS
from bot.glue.components import button_id

HUMAN_GAP_S = (0.15, 0.6)  # from seeing an answer to the next press at the same table
# Bare acknowledges mixed into the stream, as the baseline of the same run: one to every five game
# presses, so the baseline's median rests on a few hundred of them (at one in twenty it moved a run's
# ratio by ±0.3×).
ACK_SHARE = 0.2
GAME, ACK, LOBBY, FLOOR = 0, 1, 2, 3


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    try:
        with open("/proc/stat") as stat:
            fields = [float(x) for x in stat.readline().split()[1:]]
    except OSError:
        return (0.0, 0.0)
    tick = 100.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return ((sum(fields) - idle) / tick, sum(fields) / tick)


class PhaseLog:
    """The presses of one phase (compact: a 1,000-game run makes hundreds of thousands)."""

    def __init__(self, name: str, run: LoadRun) -> None:
        self.name = name
        self.labels: list[str] = []
        self._index: dict[str, int] = {}
        self.label = array("H")
        self.kind = array("b")
        self.latency = array("d")  # first answer - due; inf if never answered
        self.ok = array("b")  # Discord took the first answer (in time)
        self.answer = array("b")  # its callback type (4 message, 6 defer, 7 edit), -1 none
        self.bot = array("d")
        self.sim = array("d")
        self.worker = array("d")
        self.task_steps = array("H")  # the loop's task steps the press took (each a wake-up)
        self.requests = array("H")  # the press's requests to Discord (REST calls, answers)
        self.started = REAL_MONOTONIC()
        self.ended: float | None = None
        self.offered = 0
        self.unserved = 0  # arrivals no table could take (every game waiting on its rules)
        self.before = run.snapshot()
        self.after: dict[str, Any] = {}
        self.timer_runs = array("d")
        self.stalls: list[tuple[float, float]] = []
        self.steps: list[tuple[float, float, str]] = []
        self.own_steps: list[tuple[float, float, str]] = []  # by the bot's own CPU in the step
        self.max_lag = 0.0
        self.edits: dict[str, tuple[int, int]] = {}
        self.edit_totals: collections.Counter[str] = collections.Counter()
        self.idle_loop = 0.0

    def add(self, bucket: Bucket, kind: int) -> None:
        label = self._index.get(bucket.label)
        if label is None:
            label = self._index[bucket.label] = len(self.labels)
            self.labels.append(bucket.label)
        self.label.append(label)
        self.kind.append(kind)
        answered = bucket.answered
        self.latency.append(float("inf") if answered is None else answered - bucket.offered)
        self.ok.append(1 if answered is not None and bucket.answer_ok else 0)
        self.answer.append(-1 if bucket.answer_type is None else bucket.answer_type)
        self.bot.append(bucket.cpu["bot"])
        self.sim.append(bucket.cpu["simcord"])
        self.worker.append(bucket.cpu["worker"])
        self.task_steps.append(min(bucket.steps, 65535))
        self.requests.append(min(bucket.requests, 65535))


def dated(backend: Any, record: Any, payload: dict[str, Any], made: Any) -> None:
    """Give the interaction a snowflake of the instant ``made``, from SimCord's own allocator (its
    next free sequence number in that millisecond, so no other id can be the same)."""
    old = record.id
    if old >> 22 == int(made.timestamp() * 1000) - DISCORD_EPOCH_MS:
        return
    new = backend._allocate_at(int(made.timestamp() * 1000) - DISCORD_EPOCH_MS)
    record.id = new
    backend.interactions[new] = backend.interactions.pop(old)
    backend.interaction_tokens[record.token] = new
    payload["id"] = str(new)


class LoadRun:
    def __init__(
        self,
        bot: Any,
        env: Any,
        tables: list[Table],
        acks: list[tuple[Any, list[Any]]],
        seed: int,
        floors: list[tuple[Any, list[Any]]] | None = None,
    ):
        self.bot, self.env, self.tables, self.acks = bot, env, tables, acks
        self.floors = floors or []  # ``--floor``: half the baseline's slots answer with a board
        self.rng = random.Random(seed)
        self.meter = Meter()
        self.tasks = TaskAccounting(self.meter, _BOT_SCOPE)
        self.wire = Wire(env, self.meter)
        self.pruner = Pruner(env)
        self.sampler = LagSampler()
        self.stacks = StackSampler(self.sampler)
        self.gc = GcTimes()
        self.log: PhaseLog | None = None
        self.ready: list[tuple[float, int, Table]] = []
        self._seq = 0
        self.in_flight = 0
        self._idle = asyncio.Event()  # set while no press is in flight
        self._idle.set()
        self.timer_cpu: dict[str, float] = collections.defaultdict(float)
        self.timer_count = 0
        self._background: list[asyncio.Task[Any]] = []  # the sampler and the pruner
        self._restarts: list[asyncio.Task[Any]] = []
        self._restarting: set[Table] = set()
        self.setup_failures = 0
        self.idle_loop = 0.0  # the event loop's own CPU per second with no game: the probes' cost
        self._writer: Any = None  # SQLite's session writer (bot.storage.session_writer), if any

    # ---------------------------------------------------------------- probes

    def install(self) -> None:
        self.install_probes()
        self.gc.install()
        self.stacks.start()
        self._background += [
            asyncio.create_task(self.sampler.run()),
            asyncio.create_task(self.pruner.run()),
        ]

    def install_probes(self, *, timed: bool = True) -> None:
        """What charges each press its CPU (``bench_probes.py`` weighs these alone). Not
        ``timed``: only what tells when a press is done (its tasks counted), nothing charged."""
        loop = asyncio.get_running_loop()
        self.tasks.timed = timed
        loop.set_task_factory(self.tasks.factory)
        self._timed = timed
        if not timed:
            return
        self.tasks.on_timer_done = self._timer_done
        self.wire.install()
        state = self.bot._connection
        self._parsers = dict(state.parsers)
        for name, parser in self._parsers.items():
            state.parsers[name] = self._bot_section(parser)
        self._to_thread = asyncio.to_thread
        asyncio.to_thread = timed_to_thread(self._to_thread)  # type: ignore[assignment]
        self._drawn = board.drawn  # the pictures' own thread: charged to the press the same way
        board.drawn = timed_to_thread(self._drawn)  # type: ignore[assignment]
        # SQLite's session writer thread: its CPU for a save charged to the press that saved.
        self._writer = getattr(self.bot.storage, "_writer", None)
        if self._writer is not None:
            self._writer.submit = timed_submit(self._writer.submit)

    def remove(self) -> None:
        for task in self._background + self._restarts:
            task.cancel()
        self.sampler.stop()
        self.stacks.stop()
        self.gc.remove()
        self.remove_probes()

    def remove_probes(self) -> None:
        asyncio.get_running_loop().set_task_factory(None)
        if not self._timed:
            return
        self.bot._connection.parsers.update(self._parsers)
        asyncio.to_thread = self._to_thread  # type: ignore[assignment]
        board.drawn = self._drawn  # type: ignore[assignment]
        if self._writer is not None:
            del self._writer.submit  # the class's own again
        self.wire.remove()

    def _bot_section(self, parser: Any) -> Any:
        meter = self.meter

        def parse(data: Any) -> Any:
            meter.enter(meter.current(), "bot")
            try:
                return parser(data)
            finally:
                meter.leave()

        return parse

    def _timer_done(self, bucket: Bucket) -> None:
        bucket.cpu["worker"] += sum(bucket.workers)
        for column, seconds in bucket.cpu.items():
            self.timer_cpu[column] += seconds
        self.timer_count += 1
        if self.log is not None and bucket.steps > 1:
            self.log.timer_runs.append(bucket.cpu["bot"])

    def snapshot(self) -> dict[str, Any]:
        """Cumulative counters, for the differences over a phase."""
        return {
            "loop": dict(self.meter.loop_bucket.cpu),
            "bench": dict(self.tasks.bench.cpu),
            "bot-other": dict(self.tasks.bot_other.cpu),
            "timers": dict(self.timer_cpu),
            "timer_count": self.timer_count,
            "process": time.process_time(),
            "loop_thread": thread_time(),
            "wall": REAL_MONOTONIC(),
            "gc": {
                gen: (len(v), sum(v), max(v, default=0.0), self.gc.freed[gen])
                for gen, v in self.gc.by_gen.items()
            },
            "walks": list(self.gc.walks),
            "transitions": self.meter.transitions,
            "machine": machine_cpu(),
            "runqueue": runqueue_wait(),
            # The bot's own count: presses it reached too late to take, and answers it gave late.
            "too_late": getattr(self.bot.metrics, "too_late_count", 0),
            "late": self.bot.metrics.late_count,
            "answered_first": getattr(self.bot.metrics, "answered_first_count", 0),
            # SQLite's session writer thread, as it counts: transactions, saves, its CPU.
            "writer": {
                "batches": getattr(self._writer, "batches", 0),
                "saves": getattr(self._writer, "saves", 0),
                "cpu": getattr(self._writer, "cpu", 0.0),
            },
        }

    async def begin(self, name: str) -> PhaseLog:
        # Let the sampler wake first, so a stall the bench itself caused (a memory census) is
        # not counted in the phase.
        await asyncio.sleep(0.02)
        self.sampler.reset()
        self.tasks.steps.clear()
        self.gc.long.clear()
        self.wire.edits.reset()
        self.log = PhaseLog(name, self)
        self.log.idle_loop = self.idle_loop
        return self.log

    async def calibrate(self, seconds: float = 2.0) -> None:
        """The event loop's CPU with nothing but the bench's own sampler and pruner running."""
        log = await self.begin("idle")
        await asyncio.sleep(seconds)
        self.end()
        wall = log.after["wall"] - log.before["wall"]
        self.idle_loop = (log.after["loop"].get("bot", 0.0) - log.before["loop"].get("bot", 0.0)) / wall

    def end(self) -> PhaseLog:
        log = self.log
        assert log is not None
        log.ended = REAL_MONOTONIC()
        log.after = self.snapshot()
        log.stalls = sorted(self.sampler.stalls, key=lambda s: -s[1])[:20]
        log.max_lag = self.sampler.max_lag
        log.steps = list(self.tasks.steps.top)
        log.own_steps = list(self.tasks.steps.own)
        for category in self.wire.edits.total:
            log.edits[category] = self.wire.edits.worst(category)
        log.edit_totals = collections.Counter(self.wire.edits.total)
        self.log = None
        return log

    # ---------------------------------------------------------------- presses

    def send(self, table: Table, press: Press, *, due: float, kind: int = GAME) -> Bucket | None:
        """Hand one press to the bot now; its latency counts from ``due``."""
        session = table.session
        if session is None:
            return None
        message_id = table.state.get("panel") if press.on_panel else session.board_message_id
        message = self.env.backend.messages.get(table.channel_id, {}).get(message_id)
        if message is None:
            return None
        user_id = session.players[press.seat] if press.seat < len(session.players) else table.members[0].id
        bucket = Bucket("press" if kind == GAME else "lobby", press.name, offered=due)
        with self.meter.section("simcord", bucket):
            record, payload = component_payload(
                self.env,
                guild_id=table.guild_id,
                user_id=user_id,
                message=message,
                custom_id=press.custom_id,
                values=press.values,
            )
            made_at(self.env, record, payload, REAL_MONOTONIC() - due)
            self._emit(bucket, record, payload, kind)
        return bucket

    def send_slash(self, table: Table, member: Any, name: str, options: dict[str, Any]) -> Bucket:
        bucket = Bucket("lobby", name.split()[-1], offered=REAL_MONOTONIC())
        with self.meter.section("simcord", bucket):
            record, payload = slash_payload(
                self.env, member=member, channel=table.channel, name=name, options=options
            )
            self._emit(bucket, record, payload, LOBBY)
        return bucket

    def send_ack(self, due: float) -> Bucket:
        floor = bool(self.floors) and self.rng.random() < 0.5
        message, members = self.rng.choice(self.floors if floor else self.acks)
        name = "floor" if floor else "ack"
        bucket = Bucket(name, name, offered=due)
        with self.meter.section("simcord", bucket):
            record, payload = component_payload(
                self.env,
                guild_id=members[0].guild.id,
                user_id=self.rng.choice(members).id,
                message=message,
                custom_id=f"{name}bench",
            )
            self._emit(bucket, record, payload, FLOOR if floor else ACK)
        return bucket

    def _emit(self, bucket: Bucket, record: Any, payload: dict[str, Any], kind: int) -> None:
        clock = self.env.backend.clock
        # Discord's 3 s run from when the press was made, even if the bench sends it late.
        made = clock._epoch + timedelta(seconds=bucket.offered)
        record.initial_response_deadline = (made + timedelta(seconds=3)).isoformat()
        # So does the press's snowflake, which is what the bot reads a press's age from: on
        # Discord it is made when the member presses, not when the gateway delivers the event.
        dated(self.env.backend, record, payload, made)
        bucket.record = record
        self.wire.waiting[record.id] = bucket
        self.in_flight += 1
        self._idle.clear()
        previous = bucket.on_done

        def finished(done: Bucket) -> None:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()
            self.wire.waiting.pop(record.id, None)
            if self.log is not None:
                self.log.add(done, kind)
            if previous is not None:
                previous(done)
            # The bucket lives on in the context of every timer the press armed (its context
            # variable): SimCord's record would then be kept, and walked by every collection, for
            # as long as the game's timer stays armed, which a real bot does not do.
            done.record = None
            done.on_done = None  # its closures (this one, the table's) would be kept likewise

        bucket.on_done = finished
        token = PRESS.set(bucket)
        try:
            self.env.backend.emit("INTERACTION_CREATE", payload)
        finally:
            PRESS.reset(token)
        bucket.sent = True
        bucket.maybe_done()

    async def send_and_wait(self, send: Any) -> Bucket | None:
        """Send with ``send()`` and wait until the bot has finished with the press."""
        bucket = send()
        if bucket is None or bucket.done_at is not None:
            return bucket
        done = asyncio.get_running_loop().create_future()
        chained = bucket.on_done

        def wake(finished: Bucket) -> None:
            if chained is not None:
                chained(finished)
            if not done.done():
                done.set_result(None)

        bucket.on_done = wake
        await done
        return bucket

    # ---------------------------------------------------------------- tables

    async def open_game(self, table: Table) -> bool:
        """Lobby, joins and start, one press after the other, as the players would."""
        host = table.members[0]
        ch = table.channel_id
        await self.send_and_wait(lambda: self.send_slash(table, host, f"{table.kind} new", table.options))
        session = table.session
        if session is None:
            return False
        for seat, member in enumerate(table.members[1:], start=1):
            press = Press(seat, "join", button_id(ch, "join"))
            await self.send_and_wait(lambda p=press, m=member: self._lobby_press(table, p, m))
        await self.send_and_wait(
            lambda: self._lobby_press(table, Press(0, "start", button_id(ch, "start")), host)
        )
        table.games_started += 1
        table.state.clear()
        return table.playing()

    def _lobby_press(self, table: Table, press: Press, member: Any) -> Bucket | None:
        session = table.session
        if session is None:
            return None
        message = self.env.backend.messages.get(table.channel_id, {}).get(session.board_message_id)
        if message is None:
            return None
        bucket = Bucket("lobby", press.name, offered=REAL_MONOTONIC())
        with self.meter.section("simcord", bucket):
            record, payload = component_payload(
                self.env,
                guild_id=table.guild_id,
                user_id=member.id,
                message=message,
                custom_id=press.custom_id,
            )
            self._emit(bucket, record, payload, LOBBY)
        return bucket

    async def open_all(self, limit: int = 16) -> float:
        """Every table gets a game; returns the seconds it took."""
        started = REAL_MONOTONIC()
        gate = asyncio.Semaphore(limit)

        async def one(table: Table) -> None:
            async with gate:
                if not await self.open_game(table):
                    self.setup_failures += 1

        await asyncio.gather(*(one(table) for table in self.tables))
        for table in self.tables:
            self.push(table, REAL_MONOTONIC())
        return REAL_MONOTONIC() - started

    async def end_all(self, limit: int = 16) -> float:
        started = REAL_MONOTONIC()
        gate = asyncio.Semaphore(limit)

        async def one(table: Table) -> None:
            async with gate:
                if table.session is not None:
                    await self.send_and_wait(lambda: self.send_slash(table, table.members[0], "end", {}))

        await asyncio.gather(*(one(table) for table in self.tables))
        return REAL_MONOTONIC() - started

    def push(self, table: Table, at: float) -> None:
        self._seq += 1
        heapq.heappush(self.ready, (at, self._seq, table))

    def _restart(self, table: Table) -> None:
        if table in self._restarting:
            return
        self._restarting.add(table)

        async def again() -> None:
            try:
                await self.open_game(table)
            finally:
                self._restarting.discard(table)
                self.push(table, REAL_MONOTONIC())

        self._restarts = [task for task in self._restarts if not task.done()]
        self._restarts.append(asyncio.create_task(again()))

    def serve(self, due: float, tries: int = 64) -> bool:
        """Give the arrival due at ``due`` to the table that has waited longest and can press."""
        now = REAL_MONOTONIC()
        now_ms = sim_ms(self.env)
        for _ in range(tries):
            if not self.ready or self.ready[0][0] > now:
                return False
            _, _, table = heapq.heappop(self.ready)
            if table.busy or table in self._restarting:
                continue
            if not table.playing():
                self._restart(table)
                continue
            plan = table.next_presses(now_ms)
            if isinstance(plan, Wait):
                self.push(table, max(wall_of_ms(self.env, plan.until_ms), now + 0.01))
                continue
            first, *racing = plan
            bucket = self.send(table, first, due=due)
            if bucket is None:
                self.push(table, now + 0.1)
                continue
            table.busy = True
            self._when_done(bucket, table, first)
            loop = asyncio.get_running_loop()
            for press in racing:
                loop.call_at(loop.time() + press.delay, self._send_racing, table, press, due + press.delay)
            return True
        return False

    def _send_racing(self, table: Table, press: Press, due: float) -> None:
        if self.log is not None:
            self.log.offered += 1
        self.send(table, press, due=due)

    def _when_done(self, bucket: Bucket, table: Table, press: Press) -> None:
        chained = bucket.on_done

        def release(done: Bucket) -> None:
            # Read before the chained callback, which lets go of the record (see ``_emit``).
            panel = done.record.message_id if done.record is not None else None
            if chained is not None:
                chained(done)
            table.busy = False
            gap = self.rng.uniform(*HUMAN_GAP_S)
            follow = getattr(table, "follow_up", None)
            nxt = follow(press) if follow is not None else None
            if nxt is not None and panel is not None:
                table.state["panel"] = panel
                due = REAL_MONOTONIC() + gap
                loop = asyncio.get_running_loop()
                loop.call_at(loop.time() + gap, self._send_follow, table, nxt, due)
                return
            self.push(table, REAL_MONOTONIC() + gap)

        bucket.on_done = release

    def _send_follow(self, table: Table, press: Press, due: float) -> None:
        if self.log is not None:
            self.log.offered += 1
        bucket = self.send(table, press, due=due)
        if bucket is None:
            self.push(table, REAL_MONOTONIC() + 0.1)
            return
        table.busy = True
        self._when_done(bucket, table, press)

    async def offer(self, rate: float, seconds: float) -> None:
        """Presses due as a Poisson stream of ``rate`` per second for ``seconds``, plus acks."""
        log = self.log
        assert log is not None
        total = rate * (1 + ACK_SHARE)
        due = REAL_MONOTONIC()
        end = due + seconds
        while True:
            due += self.rng.expovariate(total)
            if due >= end:
                break
            wait = due - REAL_MONOTONIC()
            await asyncio.sleep(wait if wait > 0 else 0)
            if self.rng.random() < ACK_SHARE / (1 + ACK_SHARE):
                self.send_ack(due)
                continue
            log.offered += 1
            if not self.serve(due):
                log.unserved += 1

    async def drain(self, limit: float = 30.0) -> bool:
        """Wait for every press in flight to finish."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), limit)
        return self.in_flight == 0

    async def quiesce(self) -> None:
        """No more restarts or follow-ups: let the background work finish."""
        for task in list(self._restarts):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(task), 30)
        await self.drain()
