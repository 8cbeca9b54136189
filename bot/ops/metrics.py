"""Operations: Prometheus metrics (``METRICS_PORT``), event-loop lag and the health log line.

The press path only bumps counters here (a microsecond or two). The endpoint and the lag sampler
run in their own daemon threads: a scrape never waits for the event loop, and the sampler measures
the loop from outside, which is the only way to see it when it is stuck.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.glue.clock import now_ms, snowflake_ms
from bot.glue.queue_trip import QueueTrip
from bot.ops.gc_tuning import frozen_objects

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

# The open sessions as the metrics count them (``bot.session.sessions.SessionRegistry``): each
# has a ``kind`` and a ``status``. Operations sit below the session layer and import none of it.
SessionRegistry = Iterable[Any]
# The session layer's keeper of failed writes (``bot.session.guarded.Guard``), as the metrics read
# it: ``database_ok`` (bool), ``faults`` (int) and ``waiting`` (a dict of games).
Guard = Any

ANSWER_WINDOW_MS = 3000  # Discord refuses a first answer later than this
# A game whose armed instant is this far behind is stuck: a timer fires within milliseconds, a
# loaded loop within seconds, and one waiting for its game's lock (a slow save) not much later.
STUCK_AFTER_MS = 60_000
COUNT_STUCK_EVERY_S = 5.0  # the sampler has the loop count stuck games this often
SAMPLE_EVERY_S = 0.5
PRESS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
SAVE_BUCKETS = (0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25)
LAG_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class MetricsUnavailable(RuntimeError):
    """The metrics endpoint could not listen on its port."""


class _OpenGames(Collector):
    """``games_open`` is counted when scraped, from the session registry itself."""

    def __init__(self, sessions: SessionRegistry) -> None:
        self._sessions = sessions

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "partycards_games_open", "Lobbies and games open in this process", labels=["kind", "status"]
        )
        for (kind, status), count in sorted(open_games(self._sessions).items()):
            family.add_metric([kind, status], count)
        yield family


class _Collector(Collector):
    """What the garbage collector no longer walks (``bot.ops.gc_tuning``), counted when scraped:
    it grows with open games and falls back as they end; growth with none open would be a leak."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "partycards_gc_frozen_objects",
            "Objects frozen out of the garbage collector's walks (start-up, and survivors of full collections)",
            value=frozen_objects(),
        )


class _Database(Collector):
    """The database's state and the games it holds back, counted when scraped."""

    def __init__(self, metrics: Metrics, guard: Guard | None) -> None:
        self._metrics = metrics
        self._guard = guard

    def collect(self) -> Iterator[GaugeMetricFamily]:
        up, waiting = database_state(self._guard)
        yield GaugeMetricFamily(
            "partycards_database_up", "1 if the latest write went through, 0 if it failed", value=up
        )
        yield CounterMetricFamily(
            "partycards_database_faults",
            "Writes the database failed (each is kept and retried)",
            value=self._guard.faults if self._guard is not None else 0,
        )
        yield GaugeMetricFamily(
            "partycards_games_waiting_on_database",
            "Games whose latest write failed and waits for a retry",
            value=waiting,
        )
        yield GaugeMetricFamily(
            "partycards_games_stuck",
            f"Games whose timer is more than {STUCK_AFTER_MS // 1000} s past its instant (should stay 0)",
            value=self._metrics.stuck(),
        )


def database_state(guard: Guard | None) -> tuple[int, int]:
    """(1 if the latest write went through else 0, games waiting on a retry)."""
    if guard is None:
        return 1, 0
    return int(guard.database_ok), len(guard.waiting)


def stuck_games(sessions: SessionRegistry, now: int) -> int:
    """Games whose timer was due more than ``STUCK_AFTER_MS`` before ``now`` (Discord's clock, in
    ms) and is still the game's timer: it never fired, or its step died without setting the next
    one (a timer that ran sets a new one)."""
    count = 0
    for session in sessions:
        alarm = session.timer
        deadline = alarm.deadline if alarm is not None else None
        if deadline is not None and now - deadline > STUCK_AFTER_MS:
            count += 1
    return count


def open_games(sessions: SessionRegistry) -> Tally[tuple[str, str]]:
    # Iterating the registry copies it in one step, so another thread may read it safely.
    return Tally((session.kind, session.status) for session in sessions)


class Metrics:
    def __init__(self, sessions: SessionRegistry, guard: Guard | None = None) -> None:
        self.sessions = sessions
        self.guard = guard
        self.registry = CollectorRegistry()
        r = self.registry
        self._presses = Counter("partycards_presses", "Presses handled", ["kind"], registry=r)
        self._press_seconds = Histogram(
            "partycards_press_seconds", "Time to handle a press", ["kind"], buckets=PRESS_BUCKETS, registry=r
        )
        self._late = Counter(
            "partycards_late_answers", "Presses left unanswered past Discord's 3 s", ["kind"], registry=r
        )
        self._too_late = Counter(
            "partycards_presses_too_late",
            "Presses older than the answer window allows when reached: not applied",
            ["kind"],
            registry=r,
        )
        self._answered_first = Counter(
            "partycards_presses_answered_first",
            "Presses old enough when taken to be acknowledged before their move was applied",
            ["kind"],
            registry=r,
        )
        self._refused = Counter(
            "partycards_refused_presses", "Presses refused, by reason", ["kind", "reason"], registry=r
        )
        self._save_seconds = Histogram(
            "partycards_session_save_seconds", "Time to save a session", buckets=SAVE_BUCKETS, registry=r
        )
        self._lag = Histogram(
            "partycards_event_loop_lag_seconds", "Event-loop lag samples", buckets=LAG_BUCKETS, registry=r
        )
        r.register(_OpenGames(sessions))
        r.register(_Database(self, guard))
        r.register(_Collector())
        # Plain tallies for the health line, which reports what happened since the last one.
        self.queue = QueueTrip()  # the event loop's queue, for the overload decision
        self.press_count = 0
        self.refused_count = 0
        self.late_count = 0
        self.too_late_count = 0
        self.answered_first_count = 0
        self.lag_last = 0.0
        self.lag_max = 0.0
        self._server: Any = None
        self._sampler: _Sampler | None = None
        self._per_kind: dict[str, tuple[Any, Any]] = {}  # labelled children: labels() takes a lock
        self._loop_thread: int | None = None  # the event loop's thread, once started
        self._stuck = 0  # games stuck past their timer, as last counted on the loop

    # ----------------------------------------------------------------- hooks (event loop)

    def pressed(self, kind: str, started: float, interaction: discord.Interaction | None) -> None:
        """A press has been handled; ``started`` is its ``time.perf_counter()`` on arrival. An
        Activity page's press has no interaction: nothing of Discord's 3 s applies to it."""
        children = self._per_kind.get(kind)
        if children is None:
            children = self._per_kind[kind] = (self._press_seconds.labels(kind), self._presses.labels(kind))
        children[0].observe(time.perf_counter() - started)
        children[1].inc()
        self.press_count += 1
        # Every press is answered; one still unanswered this late is one Discord refused. A press
        # shed as too late (``bot.session.overload``) is counted there instead.
        if interaction is None or interaction.extras.get("too_late"):
            return
        if not interaction.response.is_done() and now_ms() - snowflake_ms(interaction.id) > ANSWER_WINDOW_MS:
            self._late.labels(kind).inc()
            self.late_count += 1

    def too_late(self, kind: str) -> None:
        """A press reached too late to answer, and so not applied (``bot.session.overload``)."""
        self._too_late.labels(kind).inc()
        self.too_late_count += 1

    def answered_first(self, kind: str) -> None:
        """A press acknowledged before its move was applied (``bot.session.overload``)."""
        self._answered_first.labels(kind).inc()
        self.answered_first_count += 1

    def refused(self, kind: str, reason: str) -> None:
        self._refused.labels(kind, reason).inc()
        self.refused_count += 1

    def saved(self, seconds: float) -> None:
        self._save_seconds.observe(seconds)

    # ----------------------------------------------------------------- threads

    def start(self, *, port: int | None, host: str = "0.0.0.0", health_log_s: float | None = None) -> None:
        """The endpoint on ``port`` if given, and the lag sampler (which also writes the health
        line every ``health_log_s``) when either is wanted. Called on the event loop."""
        if port is not None:
            try:
                self._server, _ = start_http_server(port, host, self.registry)
            except OSError as error:
                raise MetricsUnavailable(f"METRICS_PORT {port}: cannot listen on {host}: {error}") from error
            log.info("metrics on http://%s:%s/metrics", host, self._server.server_port)
        self._loop_thread = threading.get_ident()
        if port is not None or health_log_s is not None:
            self._sampler = _Sampler(self, asyncio.get_running_loop(), health_log_s)
            self._sampler.start()

    @property
    def port(self) -> int | None:
        return self._server.server_port if self._server is not None else None

    def stop(self) -> None:
        """Safe to call twice."""
        sampler, self._sampler = self._sampler, None
        if sampler is not None:
            sampler.stop()
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    def stuck(self) -> int:
        """Games stuck past their timer: counted on the event loop, where Discord's clock is (in
        tests, SimCord's virtual one); another thread (a scrape, the health line) reads the count
        the sampler last had the loop make."""
        if self._loop_thread is not None and threading.get_ident() != self._loop_thread:
            return self._stuck
        self._stuck = stuck_games(self.sessions, now_ms())
        return self._stuck

    def record_lag(self, seconds: float) -> None:
        self._lag.observe(seconds)
        self.lag_last = seconds
        self.lag_max = max(self.lag_max, seconds)

    def health_line(self, period_s: float) -> str:
        """What happened since the last line; the tallies start again from zero."""
        games = open_games(self.sessions)
        kinds = Tally[str]()
        for (kind, _), count in games.items():
            kinds[kind] += count
        open_text = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())) or "none"
        line = (
            f"health: {sum(games.values())} open ({open_text}); {self.press_count} presses in "
            f"{period_s:.0f} s ({self.press_count / period_s:.2f}/s), {self.refused_count} refused, "
            f"{self.late_count} late, {self.too_late_count} too late to take, {self.answered_first_count} answered first; loop lag max {self.lag_max * 1000:.1f} ms, "
            f"last {self.lag_last * 1000:.1f} ms"
        )
        up, waiting = database_state(self.guard)
        line += f"; database {'up' if up else 'failing'}, {waiting} waiting on it, {self.stuck()} stuck"
        self.press_count = self.refused_count = self.late_count = self.too_late_count = 0
        self.answered_first_count = 0
        self.lag_max = 0.0
        return line


class _Sampler(threading.Thread):
    """Every ``SAMPLE_EVERY_S`` asks the loop to run a no-op and times how long it took to get to
    it: that is how late every callback, press and timer is at that moment."""

    def __init__(self, metrics: Metrics, loop: asyncio.AbstractEventLoop, health_log_s: float | None) -> None:
        super().__init__(name="loop-lag-sampler", daemon=True)
        self._metrics = metrics
        self._loop = loop
        self._health_log_s = health_log_s
        self._stopping = threading.Event()

    def stop(self) -> None:
        self._stopping.set()

    def run(self) -> None:
        last_line = last_count = time.perf_counter()
        while not self._stopping.wait(SAMPLE_EVERY_S):
            lag = self._probe()
            if lag is None:
                return  # the loop is gone
            self._metrics.record_lag(lag)
            now = time.perf_counter()
            if now - last_count >= COUNT_STUCK_EVERY_S:
                last_count = now
                self._loop.call_soon_threadsafe(self._metrics.stuck)
            if self._health_log_s is not None and now - last_line >= self._health_log_s:
                log.info(self._metrics.health_line(now - last_line))
                last_line = now

    def _probe(self) -> float | None:
        reached = threading.Event()
        started = time.perf_counter()
        try:
            self._loop.call_soon_threadsafe(reached.set)
        except RuntimeError:
            return None
        while not reached.wait(1.0):
            if self._stopping.is_set() or self._loop.is_closed():
                return None
        return time.perf_counter() - started
