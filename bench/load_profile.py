"""Where a press's CPU goes, by stage: the load bench's ``--profile`` (a sampling profiler).

A signal every millisecond of the process's CPU (``ITIMER_PROF``) looks at the event loop's
Python stack (the handler runs on the loop's thread, between two bytecodes) and charges the loop
thread's CPU since the previous look (``thread_time``) to one stage: the innermost frame that
names a stage decides, library frames that name none (the standard library, ``discord.utils``,
the translations) pass it on to their caller. A sample taken while the loop sleeps costs ~0.
Whether it was a press's work or a session timer's is the outermost frame's say
(``GameBot.on_interaction`` or ``SessionTimers``). C code (orjson, SQLite, Pillow's encoder) cannot
be interrupted, so its time lands in the Python frame that called it, which names the right stage;
a garbage collection, started by whatever allocated last, lands in the first ``gc.callbacks``
entry run after it, and is a stage of its own. Work in the pictures' thread is not sampled (the
press benches count it apart).

Sampling rather than ``cProfile``: a deterministic profiler makes every Python call several times
dearer, which inflates small functions (the engine, the session layer) against C (JSON, SQLite)
and would show a different press. The signal costs ~10-30 µs a sample (~2 % at 1 kHz).
"""

from __future__ import annotations

import collections
import signal
import time
from types import FrameType
from typing import Any

thread_time = time.thread_time

# Stages, in the words; each frame is tested in this order.
PARSE = "parse (gateway event, Interaction, press_of)"
ROUTE = "routing and session checks"
ENGINE = "engine (advance, apply, action_for)"
BOARD = "board text (render_board and the game's board module)"
EMBED = "card and components (embed, buttons, bound, laid out as a V2 card)"
ANSWER = "answer request (discord.py: params, JSON, HTTP)"
TRANSPORT = "transport (aiohttp, TLS: --transport only)"
GATEWAY = "gateway (events inflated and decoded: --gateway only)"
PUBLISHER = "publisher (compare, queue, REST edits)"
SAVE = "save (state to JSON, SQLite)"
COMPUTERS = "computers' plans"
TIMERS = "timers (arming) and turn pings"
PRIVATE = "private messages (render_private, followups)"
METRICS = "metrics"
GC = "garbage collection (inside a press)"
SIMCORD = "SimCord (Discord's side)"
BENCH = "the bench's own probes"
LOOP = "event loop and other"

ORDER = (
    PARSE,
    ROUTE,
    ENGINE,
    BOARD,
    EMBED,
    ANSWER,
    TRANSPORT,
    GATEWAY,
    PUBLISHER,
    SAVE,
    COMPUTERS,
    TIMERS,
    PRIVATE,
    METRICS,
    GC,
)

_FUNCTIONS = {
    "save": SAVE,
    "to_save": SAVE,
    "to_json": SAVE,
    "save_session": SAVE,
    "press_of": PARSE,
    "render_board": BOARD,
    "render_final": BOARD,
    "board_state": BOARD,
    "action_for": ENGINE,
    "render_private": PRIVATE,
    "_deliver": PRIVATE,
    "_push": PRIVATE,
    "_save": SAVE,
    "_plan_computers": COMPUTERS,
    "edit_board": ANSWER,
    "send_private": ANSWER,
    "_answer": ANSWER,
    "to_components": EMBED,
}


_WRAPPERS = ("to_thread", "timed", "submit")


def _by_file(path: str) -> str | None:
    if "/simcord/" in path:
        return SIMCORD
    # The request on the wire (``load_transport``), production's and so the bot's; aiohttp writes
    # a request's body in a task of its own, with no discord.py frame above it.
    if "/aiohttp/" in path or path.endswith(("/asyncio/sslproto.py", "/ssl.py", "/bench/load_transport.py")):
        return TRANSPORT
    if path.endswith("/bench/load_gateway.py"):
        return GATEWAY
    if "/bench/" in path:
        return BENCH
    if "/bot/ops/" in path:
        return METRICS
    if "/bot/storage/" in path:
        return SAVE
    if path.endswith("/bot/session/computers.py") or "/players.py" in path:
        return COMPUTERS
    if path.endswith(("/bot/session/timers.py", "/bot/session/turn_pings.py")):
        return TIMERS
    if path.endswith("/bot/session/publisher.py"):
        return PUBLISHER
    if "/bot/games/" in path and path.endswith(("/engine.py", "/rules.py")) or "/bot/engine/" in path:
        return ENGINE
    if "/bot/games/" in path and ("/board" in path or path.endswith("/cog.py")):
        return BOARD
    if path.endswith(
        ("/bot/glue/components.py", "/bot/glue/layout.py", "/discord/embeds.py", "/discord/ui/button.py")
    ):
        return EMBED
    if path.endswith(("/bot/glue/answer.py", "/discord/http.py", "/discord/webhook/async_.py")):
        return ANSWER
    if path.endswith(("/discord/state.py", "/discord/interactions.py", "/discord/member.py")):
        return PARSE
    if path.endswith(("/discord/message.py", "/discord/user.py", "/discord/components.py")):
        return PARSE
    if path.endswith(("/bot/app/client.py", "/bot/session/gamecog.py", "/bot/session/sessions.py")):
        return ROUTE
    return None


def _collecting(frame: FrameType) -> bool:
    """Whether ``frame`` is the first Python run after a collection's C work: a ``gc.callbacks``
    entry at its "stop" (the bot's ``freeze_survivors``, the bench's ``GcTimes``). The signal is
    handled there, so without this the collection was charged to the metrics or to the bench."""
    code = frame.f_code
    if code.co_name == "freeze_survivors":
        return True
    return (
        code.co_name == "__call__"
        and code.co_filename.endswith("/bench/load_probe.py")
        and (frame.f_locals.get("phase") == "stop")
    )


def stage_of(code: Any, cache: dict[Any, str | None] = {}) -> str | None:  # noqa: B006 - a cache
    found = cache.get(code, False)
    if found is False:
        path = code.co_filename.replace("\\", "/")
        if path.endswith("/bench/load_sim.py") and code.co_name == "now":
            found = None  # the clock at production's cost (``clocks_at_cost``): the caller's, as the stdlib's
        elif path.endswith("/bench/load_sim.py") and code.co_name == "json_copy":
            found = SIMCORD  # SimCord's copies at JSON's cost (``copies_at_cost``): still its work
        elif path.endswith("/bench/load_probe.py") and code.co_name in _WRAPPERS:
            # The bench's wrappers of the bot's own hand-overs (a picture to its thread, a save to
            # SQLite's writer): what runs under them (``run_in_executor``, the writer's ``submit``)
            # is the bot's work and its caller's stage; charged to the bench, it was taken off both
            # sides of the ratio as if it were the bench's (``bench_probes.py`` weighs the probes).
            found = None
        else:
            # By name only in the bot's own code: Pillow has a ``save`` too.
            found = (_FUNCTIONS.get(code.co_name) if "/bot/" in path else None) or _by_file(path)
        cache[code] = found
    return found


class StageProfiler:
    """Loop-thread CPU by (context, stage), sampled; ``context``: a press, a session timer, the
    publisher's REST edits (``Publisher._flush``), or anything else."""

    PERIOD_S = 0.001

    def __init__(self, meter: Any = None) -> None:
        self.meter = meter  # the CPU meter, to say which of its columns each sample was charged to
        self.metered: collections.Counter[tuple[str, str, str]] = collections.Counter()
        self.misplaced: collections.Counter[str] = (
            collections.Counter()
        )  # SimCord's or the bench's, metered as the bot's
        self.cpu: collections.Counter[tuple[str, str]] = collections.Counter()
        self.samples = 0
        self.leaves: collections.Counter[str] = collections.Counter()  # in presses, by function
        self._last = 0.0
        self._old: Any = None

    def start(self) -> None:
        self._last = thread_time()
        self._old = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.PERIOD_S, self.PERIOD_S)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, self._old or signal.SIG_DFL)

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        now = thread_time()
        spent, self._last = now - self._last, now
        stage: str | None = GC if frame is not None and _collecting(frame) else None
        context = "other"
        leaf = frame
        while frame is not None:
            code = frame.f_code
            if stage is None:
                stage = stage_of(code)
            name = code.co_name
            if name == "on_interaction" and code.co_filename.endswith("client.py"):
                context = "press"
            elif context == "other" and code.co_filename.endswith("/bot/session/timers.py"):
                context = "timer"
            elif context == "other" and name == "_flush" and code.co_filename.endswith("publisher.py"):
                context = "rest"
            frame = frame.f_back
        self.cpu[(context, stage or LOOP)] += spent
        if self.meter is not None and self.meter.stack:
            bucket, column = self.meter.stack[-1]
            self.metered[(bucket.kind, column, stage or LOOP)] += spent
            if bucket.kind == "press" and column == "bot" and stage in (SIMCORD, BENCH) and leaf is not None:
                code = leaf.f_code
                where = code.co_filename.rsplit("/", 2)
                self.misplaced[f"{'/'.join(where[-2:])}:{code.co_name}"] += spent
        if context == "press" and leaf is not None:
            code = leaf.f_code
            where = code.co_filename.rsplit("/", 2)
            self.leaves[f"{'/'.join(where[-2:])}:{code.co_name} [{stage or LOOP}]"] += spent
        self.samples += 1

    def _own_ratio(self, presses: int, acks: int) -> str:
        """The meter's bot column of a game press and of a bare acknowledge, each without what the
        samples say was SimCord's or the bench's own: the same ratio, Discord's side taken out."""

        def own(kind: str) -> tuple[float, float]:
            column = [(st, v) for (k, col, st), v in self.metered.items() if k == kind and col == "bot"]
            return sum(v for _, v in column), sum(v for st, v in column if st not in (SIMCORD, BENCH))

        press_all, press_own = own("press")
        ack_all, ack_own = own("ack")
        if not acks or not ack_own:
            return "  (no bare acknowledge sampled)"
        p_all, p_own = press_all * 1000 / presses, press_own * 1000 / presses
        a_all, a_own = ack_all * 1000 / acks, ack_own * 1000 / acks
        return (
            f"  sampled means of the meter's bot column: a game press {p_all:.3f} ms, a bare acknowledge "
            f"{a_all:.3f} ms ({p_all / a_all:.1f}×); without SimCord's and the bench's own: "
            f"{p_own:.3f} / {a_own:.3f} ms ({p_own / a_own:.1f}×; {acks} acknowledges)"
        )

    def report(self, presses: int, ack_ms: float | None, acks: int = 0) -> str:
        """Milliseconds of loop-thread CPU per game press, by stage, in presses and in timers."""
        if not presses:
            return "no game presses to profile"
        total = sum(self.cpu.values())
        lines = [
            f"\n== where the loop thread's CPU went ({self.samples:,} samples, {total * 1000 / presses:.2f} ms "
            f"per game press in all) ==",
            f"  {'stage':<52} {'in presses':>11} {'in timers':>10} {'REST edits':>10} {'elsewhere':>10}"
            "  (ms per game press)",
        ]
        stages = list(ORDER) + [s for s in (SIMCORD, BENCH, LOOP) if s not in ORDER]
        for stage in stages:
            row = [
                self.cpu.get((context, stage), 0.0) * 1000 / presses
                for context in ("press", "timer", "rest", "other")
            ]
            if sum(row) < 0.0005:
                continue
            lines.append(f"  {stage:<52} {row[0]:>11.3f} {row[1]:>10.3f} {row[2]:>10.3f} {row[3]:>10.3f}")
        bot_press = sum(v for (c, s), v in self.cpu.items() if c == "press" and s not in (SIMCORD, BENCH))
        line = f"  the bot's part of a press: {bot_press * 1000 / presses:.3f} ms"
        if ack_ms:
            line += f"; a bare acknowledge (same run, not sampled): {ack_ms:.3f} ms"
        lines.append(line)
        if self.metered:
            lines.append(
                "  what the meter charged to a game press's bot column, by sampled stage (ms per game press):"
            )
            charged = [
                (v, st) for (kind, col, st), v in self.metered.items() if kind == "press" and col == "bot"
            ]
            for spent, stage in sorted(charged, reverse=True):
                if spent * 1000 / presses >= 0.0005:
                    lines.append(f"    {spent * 1000 / presses:.3f}  {stage}")
            lines.append(f"    {sum(v for v, _ in charged) * 1000 / presses:.3f}  in all (a mean)")
            for where, spent in self.misplaced.most_common(6):
                lines.append(f"      of SimCord's or the bench's: {spent * 1000 / presses:.3f}  {where}")
            lines.append(self._own_ratio(presses, acks))
        lines.append("  the functions a press was in when sampled (innermost frame), ms per game press:")
        for where, spent in self.leaves.most_common(15):
            lines.append(f"    {spent * 1000 / presses:.3f}  {where}")
        return "\n".join(lines)
