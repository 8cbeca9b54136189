"""Instruments of the load bench: whose CPU a press costs, loop stalls and their causes, memory.

CPU per press. Every asyncio task gets a *bucket*: a press's bucket is set (a context variable)
while the bench injects it, and every task the bot creates while handling it inherits the
bucket with the context. A task factory wraps each task's coroutine so that the loop thread's
CPU (``time.thread_time``) of each of its steps is charged to the task's bucket. Inside a step,
``Meter`` sections move the time of SimCord's own work (building the press's payload, serving
the bot's REST calls and interaction answers, its gateway feed) to the ``simcord`` column of the
same bucket, and discord.py's gateway parsers back to ``bot``. Work a slow picture does in a
worker thread (``asyncio.to_thread``, or the pictures' thread, ``bot.glue.board.drawn``) is charged to
the press's ``worker`` column, and so is the CPU SQLite's session writer thread spent on the press's
save (``bot.storage.session_writer``: its share of the transaction the save went in). A session
timer task (``SessionTimers._run``) gets a bucket of its own: a race closed by a timer is not
the work of the press that armed it. What runs outside any task step (the event loop itself,
future callbacks) goes to the ``loop`` bucket. The meter costs about two ``thread_time`` calls
(~1 µs each here) per task step; that is inside the figures.

Stalls. ``LagSampler`` sleeps 1 ms in a loop and records how late it wakes: the longest time
the loop could not serve anything. A timer signal samples the loop's Python stack while the
sampler is more than 10 ms overdue, and ``gc.callbacks`` time every collection, so each long stall comes with
what was running and whether the garbage collector was.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import gc
import os
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

thread_time = time.thread_time
perf = time.perf_counter

PRESS: contextvars.ContextVar[Bucket | None] = contextvars.ContextVar("loadbench_press", default=None)


class Bucket:
    """CPU seconds by column (``bot``, ``simcord``, ``worker``, ``bench``) of one press, one timer
    run, or one aggregate (the loop, the bench, the bot's work outside presses)."""

    __slots__ = (
        "kind",
        "label",
        "cpu",
        "steps",
        "live",
        "sent",
        "offered",
        "answered",
        "answer_ok",
        "answer_type",
        "done_at",
        "done",
        "on_done",
        "longest_step",
        "workers",
        "record",
        "requests",
    )

    def __init__(self, kind: str, label: str = "", *, offered: float = 0.0) -> None:
        self.kind = kind  # press, ack, timer, lobby, loop, bench, bot-other
        self.label = label  # the press name (place, slap, …) or the game of a timer
        self.cpu: dict[str, float] = collections.defaultdict(float)
        self.steps = 0
        self.live = 0  # tasks of this press still running
        self.sent = False  # the press has been handed to the bot
        self.offered = offered  # when the press was due (REAL_MONOTONIC): latency counts from here
        self.answered: float | None = None  # when its first answer reached SimCord
        self.answer_ok = True
        self.answer_type: int | None = None
        self.done_at: float | None = None
        self.done: asyncio.Future[None] | None = None
        self.on_done: Callable[[Bucket], None] | None = None
        self.longest_step = 0.0
        self.workers: list[float] = []
        self.record: Any = None  # SimCord's record of the interaction (its answer message id)
        self.requests = 0  # the bot's requests to Discord: REST calls and interaction answers

    @property
    def tracked(self) -> bool:
        return self.kind in ("press", "ack", "floor", "lobby")

    def task_done(self, _task: Any = None) -> None:
        self.live -= 1
        self.maybe_done()

    def maybe_done(self) -> None:
        if self.live == 0 and self.sent and self.done_at is None:
            self.done_at = time.monotonic()
            self.cpu["worker"] += sum(self.workers)
            if self.done is not None and not self.done.done():
                self.done.set_result(None)
            if self.on_done is not None:
                self.on_done(self)


class Meter:
    """Charges the loop thread's CPU to (bucket, column) sections; sections nest."""

    def __init__(self) -> None:
        self.loop_bucket = Bucket("loop")
        self.stack: list[tuple[Bucket, str]] = []
        self.mark = thread_time()
        self.transitions = 0

    def _charge(self) -> None:
        now = thread_time()
        bucket, column = self.stack[-1] if self.stack else (self.loop_bucket, "bot")
        bucket.cpu[column] += now - self.mark
        self.mark = now
        self.transitions += 1

    def enter(self, bucket: Bucket, column: str) -> None:
        self._charge()
        self.stack.append((bucket, column))

    def leave(self) -> None:
        self._charge()
        self.stack.pop()

    def current(self) -> Bucket:
        return self.stack[-1][0] if self.stack else self.loop_bucket

    def section(self, column: str, bucket: Bucket | None = None) -> _Section:
        return _Section(self, bucket or self.current(), column)


class _Section:
    __slots__ = ("meter", "bucket", "column")

    def __init__(self, meter: Meter, bucket: Bucket, column: str) -> None:
        self.meter, self.bucket, self.column = meter, bucket, column

    def __enter__(self) -> None:
        self.meter.enter(self.bucket, self.column)

    def __exit__(self, *exc: Any) -> None:
        self.meter.leave()


class Steps:
    """The longest single task steps (wall time), with what ran: a step is the loop blocked."""

    def __init__(self, keep: int = 8) -> None:
        self.keep = keep
        self.top: list[tuple[float, float, str]] = []  # (seconds, at, label)
        self.floor = 0.0
        # The same by the bot's own CPU in the step (its ``bot`` column: SimCord's and the bench's
        # work inside the step left out), the stall the bot's code alone makes.
        self.own: list[tuple[float, float, str]] = []
        self.own_floor = 0.0

    def note_own(self, seconds: float, at: float, label: str) -> None:
        self.own.append((seconds, at, label))
        self.own.sort(reverse=True)
        del self.own[self.keep :]
        if len(self.own) == self.keep:
            self.own_floor = self.own[-1][0]

    def clear(self) -> None:
        self.top.clear()
        self.own.clear()
        self.floor = self.own_floor = 0.0

    def note(self, seconds: float, at: float, label: str) -> None:
        if seconds <= self.floor:
            return
        self.top.append((seconds, at, label))
        self.top.sort(reverse=True)
        del self.top[self.keep :]
        if len(self.top) == self.keep:
            self.floor = self.top[-1][0]


class TimedCoro(Coroutine[Any, Any, Any]):
    """A task's coroutine, each of whose steps is charged to its bucket."""

    __slots__ = ("coro", "bucket", "meter", "steps", "column")

    def __init__(self, coro: Any, bucket: Bucket, meter: Meter, steps: Steps) -> None:
        self.coro, self.bucket, self.meter, self.steps = coro, bucket, meter, steps
        self.column = "bench" if bucket.kind == "bench" else "bot"

    def _step(self, method: Callable[..., Any], *args: Any) -> Any:
        bucket = self.bucket
        cpu = bucket.cpu
        column = self.column
        started = perf()
        self.meter.enter(bucket, column)
        before = cpu[column]
        try:
            return method(*args)
        finally:
            # An exception thrown in (``throw``) would be held by this frame's locals, and this
            # frame by that exception's traceback: a cycle, kept by the bot's frozen collector.
            args = ()
            self.meter.leave()
            spent = perf() - started
            bucket.steps += 1
            if spent > bucket.longest_step:
                bucket.longest_step = spent
            if spent > self.steps.floor:
                self.steps.note(spent, started, f"{bucket.kind}:{bucket.label} {self.__qualname__}")
            # The step's own column alone (SimCord's work inside it, serving the bot's requests,
            # is in another): how long the bot's code held the loop in one go.
            own = cpu[column] - before
            if column == "bot" and own > self.steps.own_floor:
                self.steps.note_own(own, started, f"{bucket.kind}:{bucket.label} {self.__qualname__}")

    def send(self, value: Any) -> Any:
        return self._step(self.coro.send, value)

    def throw(self, *args: Any) -> Any:
        try:
            return self._step(self.coro.throw, *args)
        finally:
            args = ()  # as in ``_step``

    def close(self) -> None:
        self.coro.close()

    def __await__(self) -> Any:
        return self.coro.__await__()

    def __getattr__(self, name: str) -> Any:
        # cr_frame, cr_code, __qualname__ … of the wrapped coroutine, for asyncio's reprs.
        if name == "coro":
            raise AttributeError(name)
        return getattr(self.coro, name)


class TaskAccounting:
    """The task factory: every task's steps are charged to a bucket (see the module docstring)."""

    TIMER = "SessionTimers._run"

    def __init__(self, meter: Meter, bot_scope: contextvars.ContextVar[Any]) -> None:
        self.meter = meter
        self.steps = Steps()
        self.bot_scope = bot_scope
        self.bench = Bucket("bench")
        self.bot_other = Bucket("bot-other")
        self.on_timer_done: Callable[[Bucket], None] | None = None
        self.timed = True  # False: tasks counted to tell when a press is done, nothing charged

    def factory(self, loop: asyncio.AbstractEventLoop, coro: Any, context: Any = None) -> asyncio.Task[Any]:
        if context is None:
            context = contextvars.copy_context()
        bucket = context.get(PRESS)
        if getattr(coro, "__qualname__", "") == self.TIMER:
            owner = getattr(getattr(coro, "cr_frame", None), "f_locals", {}).get("self")
            bucket = Bucket("timer", getattr(getattr(owner, "cog", None), "kind", "?"))
            context.run(PRESS.set, bucket)
        elif bucket is None:
            bucket = self.bot_other if context.get(self.bot_scope) is not None else self.bench
            context.run(PRESS.set, bucket)
        timed = TimedCoro(coro, bucket, self.meter, self.steps) if self.timed else coro
        task = asyncio.Task(timed, loop=loop, context=context)
        if bucket.tracked:
            bucket.live += 1
            task.add_done_callback(bucket.task_done)
        elif bucket.kind == "timer" and self.on_timer_done is not None:
            # A timer run ends with the last of its tasks (a board edit it queued may outlive it).
            bucket.live += 1
            task.add_done_callback(lambda _task, b=bucket: self._timer_task_done(b))
        return task

    def _timer_task_done(self, bucket: Bucket) -> None:
        bucket.live -= 1
        if bucket.live == 0 and self.on_timer_done is not None:
            self.on_timer_done(bucket)


def timed_to_thread(original: Callable[..., Any]) -> Callable[..., Any]:
    """``asyncio.to_thread`` whose worker CPU is charged to the calling press."""

    async def to_thread(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        bucket = PRESS.get()

        def timed(*a: Any, **k: Any) -> Any:
            started = thread_time()
            try:
                return func(*a, **k)
            finally:
                if bucket is not None:
                    bucket.workers.append(thread_time() - started)

        return await original(timed, *args, **kwargs)

    return to_thread


def timed_submit(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """SQLite's session writer's ``submit`` whose thread CPU for a save (the result of the save's
    future, measured by the writer thread) is charged to the saving press's ``worker`` column."""

    def submit(statements: Any) -> Any:
        future = original(statements)
        bucket = PRESS.get()
        if future is not None and bucket is not None:
            # Added before the press awaits the future, so it runs before the press goes on.
            future.add_done_callback(lambda done, b=bucket: _charge_save(done, b))
        return future

    return submit


def _charge_save(done: asyncio.Future[float], bucket: Bucket) -> None:
    if not done.cancelled() and done.exception() is None:
        bucket.workers.append(done.result())


class GcTimes:
    """Every garbage collection: generation, wall duration (and the loop thread's CPU), start."""

    def __init__(self) -> None:
        self.started: float | None = None
        self.started_cpu = 0.0
        self.by_gen: dict[int, list[float]] = collections.defaultdict(list)
        self.cpu_by_gen: dict[int, list[float]] = collections.defaultdict(list)
        self.freed: collections.Counter[int] = collections.Counter()  # objects freed, by generation
        self.walks: list[int] = []  # objects each full collection walked
        self.long: list[tuple[float, float, int]] = []  # (start, seconds, generation) over 2 ms

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if info["generation"] == 2:  # counted before the pass is timed
                self.walks.append(sum(len(gc.get_objects(g)) for g in range(3)))
            self.started = perf()
            self.started_cpu = thread_time()
        elif self.started is not None:
            spent = perf() - self.started
            self.by_gen[info["generation"]].append(spent)
            self.cpu_by_gen[info["generation"]].append(thread_time() - self.started_cpu)
            self.freed[info["generation"]] += info["collected"]
            if spent > 0.002:
                self.long.append((self.started, spent, info["generation"]))
            self.started = None

    def overlapping(self, start: float, end: float) -> list[tuple[float, float, int]]:
        return [g for g in self.long if g[0] < end and g[0] + g[1] > start]

    def install(self) -> None:
        gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


def runqueue_wait() -> float:
    """Seconds the calling thread has spent runnable but waiting for a CPU (Linux schedstat)."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class LagSampler:
    """How late a 1 ms sleep wakes: the loop's longest unresponsive stretches. For each stall it
    also keeps how much CPU the loop thread and the whole process got meanwhile, and how long the
    loop thread waited for a CPU: a loop thread that was not on the CPU was waiting for one (other
    programs), for the GIL (another thread of ours held it) or for I/O."""

    INTERVAL = 0.001

    def __init__(self) -> None:
        self.heartbeat = perf()
        # (start, seconds, loop CPU, process CPU, loop thread's wait for a CPU)
        self.stalls: list[tuple[float, float, float, float, float]] = []
        self.max_lag = 0.0
        self.samples = 0
        self._stop = False
        self.on_beat: Callable[[], None] | None = None

    async def run(self) -> None:
        process_time = time.process_time
        try:
            schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        except OSError:
            schedstat = None

        def waited() -> int:
            return int(os.pread(schedstat, 64, 0).split()[1]) if schedstat is not None else 0

        try:
            while not self._stop:
                started, cpu, process, wait = perf(), thread_time(), process_time(), waited()
                await asyncio.sleep(self.INTERVAL)
                now = perf()
                self.heartbeat = now
                if self.on_beat is not None:
                    self.on_beat()
                lag = now - started - self.INTERVAL
                self.samples += 1
                if lag > self.max_lag:
                    self.max_lag = lag
                if lag > 0.005:
                    self.stalls.append(
                        (
                            started + self.INTERVAL,
                            lag,
                            thread_time() - cpu,
                            process_time() - process,
                            (waited() - wait) / 1e9,
                        )
                    )
        finally:
            if schedstat is not None:
                os.close(schedstat)

    def stop(self) -> None:
        self._stop = True

    def reset(self) -> None:
        self.stalls.clear()
        self.max_lag = 0.0
        self.samples = 0


class StackSampler:
    """Samples the loop's Python stack while the lag sampler is more than 10 ms overdue.

    Each sampler wake-up sets a one-shot timer signal 10 ms ahead; only when the loop fails to
    wake the sampler in time does the signal fire, and its handler runs in the main thread (the
    loop's), between two bytecodes, with the running frame in hand; it samples again every 2 ms
    while the stall lasts. A sampling *thread* would have to take the GIL from the loop to look,
    and under load that hand-over itself stalls the loop."""

    OVERDUE = 0.010
    PERIOD = 0.002

    def __init__(self, sampler: LagSampler) -> None:
        self.sampler = sampler
        self.samples: list[tuple[float, str]] = []  # (sampler heartbeat it belongs to, stack)

    def arm(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, self.OVERDUE + self.sampler.INTERVAL)

    def _handler(self, _signum: int, frame: Any) -> None:
        beat = self.sampler.heartbeat
        if frame is not None and perf() - beat >= self.OVERDUE:
            self.samples.append((beat, describe_stack(frame)))
        signal.setitimer(signal.ITIMER_REAL, self.PERIOD)

    def start(self) -> None:
        signal.signal(signal.SIGALRM, self._handler)
        self.sampler.on_beat = self.arm
        self.arm()

    def stop(self) -> None:
        self.sampler.on_beat = None
        # Ignored first: a signal already due runs the handler between two bytecodes of this very
        # method, and a handler that re-armed the timer after the default action came back killed
        # the bench (SIGALRM's default is to end the process).
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    def stacks_for(self, start: float, end: float) -> collections.Counter[str]:
        return collections.Counter(stack for beat, stack in self.samples if start - 0.002 <= beat <= end)


_ROOT = Path(__file__).resolve().parent.parent
_INTERESTING = ("bot/", "cogs/", "PIL/", "sqlite3", "aiosqlite", "orjson", "json/", "copy.py")


def describe_stack(frame: Any, depth: int = 4) -> str:
    """The innermost frames worth naming: the project's code and the libraries that cost."""
    names: list[str] = []
    if frame is not None and frame.f_code is GcTimes.__call__.__code__:
        return "the garbage collector (sampled in its callback)"
    if frame is not None and frame.f_code is StackSampler._handler.__code__:
        frame = frame.f_back
    while frame is not None and len(names) < depth:
        path = frame.f_code.co_filename
        short = path.replace(str(_ROOT) + "/", "")
        if "site-packages/" in short:
            short = short.split("site-packages/", 1)[1]
        if not names or any(mark in short for mark in _INTERESTING):
            names.append(f"{short}:{frame.f_code.co_name}")
        frame = frame.f_back
    return " ← ".join(names)


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def malloc_trim() -> bool:
    """Give freed heap back to the OS (glibc), to tell a leak from allocator fragmentation."""
    try:
        import ctypes

        return bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except OSError:
        return False


def deep_size(roots: list[Any], stop: tuple[type, ...] = (), seen: set[int] | None = None) -> int:
    """Bytes of the objects reachable from ``roots`` (sys.getsizeof; not allocator overhead),
    not going through instances of ``stop``, modules or types. Objects already in ``seen`` (a
    set shared between calls) are not counted again."""
    seen = set() if seen is None else seen
    todo = list(roots)
    total = 0
    stop = (*stop, type, type(sys), type(deep_size))
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, stop):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total
