"""SimCord driven as a load generator: wall-clock time, presses injected without waiting.

SimCord's public actions (``member.click``, ``member.slash``) dispatch one interaction and then
settle: they wait until the bot is idle (~50 ms of wall time) and refuse to overlap. A load
bench needs thousands of presses in flight, so it goes one level lower, to the same calls
``click`` makes before it settles:

* ``simcord.interactions.base_payload`` builds the INTERACTION_CREATE payload and SimCord's
  interaction record (token, 3 s deadline), exactly as a click does, plus the clicked message;
* ``backend.emit("INTERACTION_CREATE", payload)`` hands it to the bot's gateway feed, which
  parses it and schedules the bot's handlers, and returns at once;
* the answer is seen where it arrives: every REST call and interaction callback the bot makes
  goes through ``simcord.http.router.dispatch``, which the bench wraps (``Wire``).

Time: SimCord's clock is virtual and its timers fire only when it is advanced or settled, which
would hold a race window open until the next settle, and would let Discord's 3 s rule judge
answers by a clock that does not move while the bot works. ``to_wall_clock`` therefore makes
SimCord's clock follow the machine's monotonic clock from the instant of the switch, and gives
the event loop its own timer methods back, so the bot's ``asyncio.sleep`` timers, the snowflake
timestamps of presses and SimCord's 3 s deadline all run on real seconds, as on Discord. After
the switch no SimCord operation (click, settle, advance_time) may be used.
"""

from __future__ import annotations

import asyncio
import collections
import copy
import datetime as real_datetime
import json
import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import discord
import discord.ext.tasks
import orjson
from simcord import _dpy_internals as sim_internals
from simcord import interactions as sim_interactions
from simcord._clock import Clock
from simcord.backend import serializers
from simcord.backend.errors import BackendError
from simcord.enums import AppCommandType, InteractionType
from simcord.http import router as sim_router

REAL_MONOTONIC = time.monotonic  # SimCord replaces time.monotonic inside the bot; this is the real one
_LOOP_METHODS = (
    "create_task",
    "call_soon",
    "call_later",
    "call_at",
    "call_soon_threadsafe",
    "run_in_executor",
)


class WallClock(Clock):
    """SimCord's clock, moving with the real monotonic clock.

    ``elapsed`` *is* the real monotonic time: SimCord answers ``time.monotonic()`` inside the bot
    with it, so the loop's ``time()`` stays the real one for the bot's own timers too."""

    def __init__(self, at: datetime) -> None:  # noqa: D107 - no Clock.__init__: elapsed is computed
        self._epoch = at - timedelta(seconds=REAL_MONOTONIC())

    @property
    def elapsed(self) -> float:  # type: ignore[override]
        return REAL_MONOTONIC()

    def advance(self, seconds: float) -> None:
        raise RuntimeError("the load bench's clock follows the wall clock; it cannot be advanced")


def to_wall_clock(env: Any) -> None:
    """Switch a started SimCord environment to real time (see the module docstring)."""
    loop = env._loop
    runtime = env._runtime
    virtual_now = env._virtual_time
    env.backend.clock = WallClock(env.backend.clock.now())
    for name in _LOOP_METHODS:
        setattr(loop, name, getattr(runtime, name))
    # Timers the bot set before the switch live only in SimCord's virtual schedule: put them on
    # the real loop, due after the same remaining time.
    for record in list(env._work.callbacks):
        handle = record.handle
        if record.real_handle is not None:
            record.real_handle.cancel()
        if record.when is not None and handle is not None and not handle.cancelled():
            loop.call_later(max(0.0, record.when - virtual_now), handle._run)
    env._work.callbacks.clear()


# What discord.py reads through SimCord's stand-in for its ``datetime`` module.
_DATETIME_NAMES = ("timezone", "timedelta", "date", "time", "tzinfo", "UTC", "MINYEAR", "MAXYEAR")
_DATETIME_CLASS_NAMES = (
    "fromtimestamp",
    "fromisoformat",
    "utcfromtimestamp",
    "combine",
    "strptime",
    "min",
    "max",
)


class _CopyShim:
    """A module's ``copy`` (or ``json``) as SimCord's module sees it, ``deepcopy`` (``loads``)
    replaced."""

    def __init__(self, real: Any, **names: Any) -> None:
        self._real = real
        self.__dict__.update(names)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def json_copy(value: Any, memo: Any = None) -> Any:
    """A copy of a JSON payload as a decode of its bytes gives one (as the wire does: a tuple
    comes back a list); anything JSON cannot hold (an int key, a model object) by ``deepcopy``."""
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:
        return copy.deepcopy(value, memo)


def copies_at_cost() -> Callable[[], None]:
    """SimCord's copies of payloads at the cost of decoding JSON. SimCord deep-copies every
    request's body into its request log, every gateway event before discord.py parses it, and
    every component list it validates: ~0.2 ms of Python per Kabuki placement on the loop thread
    (``copy.deepcopy`` walks each dict in Python), where production's process decodes a gateway
    event from JSON in C (``--gateway`` weighs that) and keeps no log. As a round trip through
    orjson each copy is the same data for a tenth of the time; SimCord's work stays on the loop
    thread and in its column, only cheaper, so the ramp's ceiling says more of the bot's and less
    of the simulated Discord's. A multipart body's JSON part is read by orjson too. Returns the
    undo."""
    from simcord import components as sim_components
    from simcord import gateway as sim_gateway

    patched: list[tuple[Any, str, Any]] = []

    def swap(module: Any, name: str, value: Any) -> None:
        patched.append((module, name, getattr(module, name)))
        setattr(module, name, value)

    swap(sim_router, "copy", _CopyShim(copy, deepcopy=json_copy))
    swap(sim_router, "_json", _CopyShim(json, loads=orjson.loads))
    swap(sim_gateway, "copy", _CopyShim(copy, deepcopy=json_copy))
    swap(sim_components, "deepcopy", json_copy)
    swap(serializers, "deepcopy", json_copy)

    def undo() -> None:
        for module, name, value in reversed(patched):
            setattr(module, name, value)

    return undo


def clocks_at_cost(env: Any) -> Callable[[], None]:
    """SimCord's clocks after ``to_wall_clock``: the same answers, at production's cost.

    SimCord stands in for the clocks the bot reads with Python code: ``time.monotonic`` (read by
    the event loop at every timer and by the bot), and discord.py's ``datetime`` module, each of
    whose names is looked up through a ``__getattr__`` and whose ``now`` asks which environment
    is current. Each is a C call in production, ~0.1-0.5 µs, against ~1-3 µs for SimCord's, and a
    game press reads them several times as often as a bare acknowledge does (``now_ms`` ~10 times
    a Kabuki placement, never in an acknowledge), so the meter charged the bot for SimCord's
    clocks. Once SimCord's clock follows the machine's monotonic clock, each answer is known
    without asking: ``time.monotonic`` is the machine's (SimCord's answer *is* it: ``WallClock``),
    ``now`` is computed as SimCord's ``Clock.now`` computes it, and the module's other names are
    the real module's. Returns the undo."""
    epoch = env.backend.clock._epoch
    clock_dt = sim_internals._ClockDatetime
    original_now = clock_dt.__dict__["now"]
    shim_monotonic = time.monotonic
    modules = [m for m in (discord.utils.datetime, discord.ext.tasks.datetime) if m is not real_datetime]

    def now(tz: Any = None) -> datetime:
        current = epoch + timedelta(seconds=REAL_MONOTONIC())  # SimCord's Clock.now on a WallClock
        return current.astimezone(tz) if tz is not None else current.astimezone().replace(tzinfo=None)

    simcords = clock_dt.now(real_datetime.UTC)
    if (
        abs((now(real_datetime.UTC) - simcords).total_seconds()) > 0.01
        or time.monotonic() - REAL_MONOTONIC() > 0.01
    ):
        raise RuntimeError("SimCord's clock does not follow the machine's: call to_wall_clock first")
    clock_dt.now = staticmethod(now)  # type: ignore[method-assign,assignment]
    for name in _DATETIME_CLASS_NAMES:
        setattr(clock_dt, name, getattr(datetime, name))
    for module in modules:
        for name in _DATETIME_NAMES:
            setattr(module, name, getattr(real_datetime, name))
    time.monotonic = REAL_MONOTONIC

    def undo() -> None:
        time.monotonic = shim_monotonic
        clock_dt.now = original_now  # type: ignore[method-assign]
        for name in _DATETIME_CLASS_NAMES:
            delattr(clock_dt, name)
        for module in modules:
            for name in _DATETIME_NAMES:
                module.__dict__.pop(name, None)

    return undo


def sim_ms(env: Any) -> int:
    """Discord's 'now' in ms (what the bot's clock and the press snowflakes say)."""
    return int(env.backend.clock.now().timestamp() * 1000)


def wall_of_ms(env: Any, ms: int) -> float:
    """The REAL_MONOTONIC instant of a Discord millisecond timestamp."""
    clock = env.backend.clock
    return (datetime.fromtimestamp(ms / 1000, tz=clock._epoch.tzinfo) - clock._epoch).total_seconds()


def component_payload(
    env: Any,
    *,
    guild_id: int,
    user_id: int,
    message: Any,
    custom_id: str,
    values: list[str] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """A button press (or a string select choice, with ``values``) on a stored message."""
    backend = env.backend
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = list(values)
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=message.channel_id,
        guild_id=guild_id,
        user_id=user_id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, message))
    record.source_message_id = message.id
    return record, payload


def slash_payload(
    env: Any, *, member: Any, channel: Any, name: str, options: dict[str, Any]
) -> tuple[Any, dict[str, Any]]:
    """A slash command, built as ``member.slash`` builds it."""
    backend = env.backend
    parts = name.split()
    root = backend.find_command(parts[0], member.guild.id, type=AppCommandType.CHAT_INPUT)
    if root is None:
        raise LookupError(f"/{parts[0]} is not synced")
    leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = sim_interactions.build_options(
        member, name, leaf, options, channel_id=channel.id
    )
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": sim_interactions.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return sim_interactions.base_payload(
        backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=member.guild.id,
        user_id=member.id,
        data=data,
    )


def stored_message(env: Any, channel_id: int, message_id: int) -> Any:
    return env.backend.get_message(channel_id, message_id)


async def yield_now() -> None:
    await asyncio.sleep(0)


class EditWindows:
    """Message writes per channel in sliding windows of real seconds, as Discord counts them."""

    def __init__(self, span: float = 5.0) -> None:
        self.span = span
        self.recent: dict[tuple[str, int], collections.deque[float]] = collections.defaultdict(
            collections.deque
        )
        self.max: dict[tuple[str, int], int] = collections.defaultdict(int)
        self.total: collections.Counter[str] = collections.Counter()

    def add(self, category: str, channel_id: int, at: float) -> None:
        self.total[category] += 1
        window = self.recent[(category, channel_id)]
        window.append(at)
        while window[0] <= at - self.span:
            window.popleft()
        if len(window) > self.max[(category, channel_id)]:
            self.max[(category, channel_id)] = len(window)

    def worst(self, category: str) -> tuple[int, int]:
        """(the most writes of ``category`` in any one channel in any window, channels over 5)."""
        counts = [n for (cat, _), n in self.max.items() if cat == category]
        return max(counts, default=0), sum(1 for n in counts if n > 5)

    def reset(self) -> None:
        self.recent.clear()
        self.max.clear()
        self.total.clear()


_MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?$")
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)(/messages/.+)?$")


class Wire:
    """Wraps ``simcord.http.router.dispatch``: every REST call and interaction answer the bot
    makes. It marks the first answer of each press (and whether Discord took it: an answer after
    the 3 s deadline is refused with 10062, which the user sees as "This interaction failed"),
    counts message writes per channel, and charges SimCord's work to SimCord; SimCord's clocks
    answer at production's cost while it is installed (``clocks_at_cost``)."""

    def __init__(self, env: Any, meter: Any) -> None:
        self.env = env
        self.meter = meter
        self.original = sim_router.dispatch
        self.original_form = sim_router.parse_form
        self.waiting: dict[int, Any] = {}  # interaction id -> the press's bucket
        self.edits = EditWindows()
        self.errors: collections.Counter[tuple[str, int]] = collections.Counter()
        self.deep_copies = False  # SimCord's own deepcopy kept (``bench_load.py --simcord-deepcopy``)

    def install(self) -> None:
        sim_router.dispatch = self.dispatch
        sim_router.parse_form = self.parse_form
        self.clocks = clocks_at_cost(self.env)
        self.copies = (lambda: None) if self.deep_copies else copies_at_cost()

    def remove(self) -> None:
        sim_router.dispatch = self.original
        sim_router.parse_form = self.original_form
        self.clocks()
        self.copies()

    def parse_form(self, *args: Any, **kwargs: Any) -> Any:
        """SimCord reading a multipart upload (a picture) is Discord's side too."""
        with self.meter.section("simcord"):
            return self.original_form(*args, **kwargs)

    def dispatch(self, backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        at = REAL_MONOTONIC()
        meter = self.meter
        bucket = meter.current()
        bucket.requests += 1
        meter.enter(bucket, "simcord")
        try:
            result = self.original(backend, method, path, **kwargs)
        except BackendError as error:
            self.seen(backend, method, path, kwargs.get("json"), at, error)
            raise
        else:
            self.seen(backend, method, path, kwargs.get("json"), at, None)
            return result
        finally:
            meter.leave()

    def seen(self, backend: Any, method: str, path: str, body: Any, at: float, error: Any) -> None:
        if error is not None:
            self.errors[(f"{method} {_route(path)}", error.code)] += 1
        if match := _CALLBACK.search(path):
            bucket = self.waiting.pop(int(match[1]), None)
            kind = body.get("type") if isinstance(body, dict) else None
            if bucket is not None:
                bucket.answered = at
                bucket.answer_ok = error is None
                bucket.answer_type = kind
            if error is None and kind == 7:
                record = backend.interactions.get(int(match[1]))
                message = _message(backend, record.channel_id, record.source_message_id)
                ephemeral = message is not None and message.is_ephemeral
                self.edits.add("type7 panel" if ephemeral else "type7 board", record.channel_id, at)
            return
        if error is not None:
            return
        if match := _MESSAGE.search(path):
            what = {"PATCH": "REST edit", "POST": "REST post", "DELETE": "REST delete"}.get(method)
            if what is not None:
                channel = int(match[1])
                self.edits.add(what, channel, at)
                self.edits.add("REST writes", channel, at)
            return
        if (match := _WEBHOOK.search(path)) and method in ("POST", "PATCH"):
            record_id = backend.interaction_tokens.get(match[1])
            record = backend.interactions.get(record_id) if record_id is not None else None
            if record is not None:
                self.edits.add("followup" if method == "POST" else "webhook edit", record.channel_id, at)


def _route(path: str) -> str:
    return re.sub(r"/\d+", "/{id}", re.sub(r"/simcord_interaction_\d+", "/{token}", path))


def _message(backend: Any, channel_id: int, message_id: int | None) -> Any:
    if message_id is None:
        return None
    return backend.messages.get(channel_id, {}).get(message_id)


class Pruner:
    """Keeps SimCord's own store from growing with every press, so the process's memory is the
    bot's: it drops SimCord's logs (transcript, request log), the bytes of uploaded pictures
    (the bot never reads them back), ephemeral messages older than a minute, interactions past
    their 15 min life, and the snowflake bookkeeping of past milliseconds. Discord keeps all of
    that on its side, not in the bot."""

    EPHEMERAL_S = 60.0
    TOKEN_S = 15 * 60.0

    def __init__(self, env: Any) -> None:
        self.backend = env.backend
        self._channels: list[int] = []
        self._ids: list[int] = []  # reserved snowflakes still to look at (``tick``)
        self._sequences: list[int] = []  # milliseconds of SimCord's sequence numbers still to look at
        cdn = self.backend.cdn
        store = cdn.store_attachment

        def store_without_bytes(
            attachment_id: int, channel_id: int, filename: str, data: bytes, description: Any
        ):
            out = store(attachment_id, channel_id, filename, data, description)
            cdn._blobs[out["url"]] = b""
            return out

        cdn.store_attachment = store_without_bytes

    # Snowflake bookkeeping looked at in one tick: the whole of it (tens of thousands of ids at
    # a busy minute) in one pass held the loop 15-30 ms, a stall of the bench's own that the
    # bench then reported as the bot's longest.
    IDS_PER_TICK = 2000

    async def run(self, interval: float = 0.1) -> None:
        while True:
            await asyncio.sleep(interval)
            self.tick(slice_size=25, ids=True)

    def tick(self, *, slice_size: int | None = None, ids: bool = False) -> None:
        backend = self.backend
        backend.transcript.clear()
        backend.http_requests.clear()
        now_ms = int(backend.clock.now().timestamp() * 1000)
        if not self._channels:
            self._channels = list(backend.messages)
        take = len(self._channels) if slice_size is None else slice_size
        cut = _snowflake_at(now_ms - self.EPHEMERAL_S * 1000)
        for channel_id in self._channels[-take:]:
            messages = backend.messages.get(channel_id, {})
            old = [mid for mid, message in messages.items() if mid < cut and message.is_ephemeral]
            for mid in old:
                del messages[mid]
        del self._channels[-take:]
        cut = _snowflake_at(now_ms - self.TOKEN_S * 1000)
        interactions = backend.interactions
        while interactions:
            first = next(iter(interactions))
            if first >= cut:
                break
            record = interactions.pop(first)
            backend.interaction_tokens.pop(record.token, None)
        cut_ms = now_ms - 60_000 - DISCORD_EPOCH_MS
        if slice_size is None:
            backend._sequences = {ms: n for ms, n in backend._sequences.items() if ms >= cut_ms}
            backend._reserved_ids = {i for i in backend._reserved_ids if i >> 22 >= cut_ms}
        elif ids:
            # A slice at a time: the ids and milliseconds seen when the last round began.
            if not self._ids and not self._sequences:
                self._ids = list(backend._reserved_ids)
                self._sequences = list(backend._sequences)
            reserved, sequences = backend._reserved_ids, backend._sequences
            for i in self._ids[-self.IDS_PER_TICK :]:
                if i >> 22 < cut_ms:
                    reserved.discard(i)
            del self._ids[-self.IDS_PER_TICK :]
            for ms in self._sequences[-self.IDS_PER_TICK :]:
                if ms < cut_ms:
                    sequences.pop(ms, None)
            del self._sequences[-self.IDS_PER_TICK :]

    def store_size(self, seen: set[int] | None = None) -> int:
        """Bytes SimCord holds for the simulated Discord (estimate, see ``load_probe.deep_size``);
        ``seen`` collects the ids of those objects."""
        from load_probe import deep_size

        backend = self.backend
        return deep_size(
            [
                backend.messages,
                backend.interactions,
                backend.interaction_tokens,
                backend.cdn._blobs,
                backend.guilds,
                backend.channels,
                backend.users,
                backend._reserved_ids,
                backend._sequences,
                backend.transcript,
                backend.http_requests,
            ],
            seen=seen,
        )


DISCORD_EPOCH_MS = 1420070400000


def _snowflake_at(ms: float) -> int:
    return int(ms - DISCORD_EPOCH_MS) << 22


DISCORD_EPOCH_MS = 1420070400000


def made_at(env: Any, record: Any, payload: dict[str, Any], late_s: float) -> None:
    """The press ``record`` as Discord would have made it ``late_s`` seconds ago: its id (its
    snowflake, whose time the bot reads as the press's age) and its 3 s answer deadline moved back
    by that much. The bench hands a press to the bot when its loop comes to it; a press due
    earlier waited in the bench's own queue, as a real one waits in the gateway's, and Discord's
    clock for it started when it was due, not when the bot was handed it."""
    if late_s <= 0.001:
        return
    backend = env.backend
    old = record.id
    due_ms = int((backend.clock.now().timestamp() - late_s) * 1000) - DISCORD_EPOCH_MS
    new = backend._allocate_at(due_ms)
    del backend.interactions[old]
    del backend.interaction_tokens[record.token]
    record.id = new
    record.token = f"simcord_interaction_{new}"
    record.initial_response_deadline = backend.iso_after(3 - late_s)
    backend.interactions[new] = record
    backend.interaction_tokens[record.token] = new
    payload["id"] = str(new)
    payload["token"] = record.token
