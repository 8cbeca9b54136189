"""Load bench: N games open at once, presses going round them, as a busy server feels it.

Run by hand (never a unit test), e.g.::

    python bench/bench_load.py --game kabuki --games 100 --rate 50 --seconds 20
    python bench/bench_load.py --game masks --games 1000 --ramp 100,200,300,400 --step-seconds 10
    python bench/bench_load.py --game kingdom --games 10 --players 5 --option timer=60

One bot process inside SimCord on this machine. N channels (50 per server), each with a game of
``--players`` members, opened by slash command, joins and Start like real players. Presses then
arrive as a Poisson stream at ``--rate`` per second (``load_tables.py`` says what the players at
each table press and when), plus one press on a bare acknowledge-only button to every five
game presses: the baseline, measured in the same run. Every picture is drawn when the bot needs it (nothing is drawn ahead),
garbage collection stays on, and the bot's timers run on real seconds. Printed per run:

* RSS before any game, with N open, per open game, and after every game has ended (``/end``)
  and a ``gc.collect()``; SimCord's own share of the growth is shown apart; with ``--rounds K``
  the games are opened, loaded and ended K times, so memory the bot keeps (growing each round)
  is told from memory the allocator holds for reuse (level); what a full collection walks, how
  much of it SimCord's, and how long ``gc.collect()`` took there; with ``--trace-memory``, live
  Python memory by owner (the bot, SimCord, the bench: ``load_owners.py``; slow, memory only);
* the bot's CPU per press (median, p99) beside a bare acknowledge's, with SimCord's cost apart;
* answer times (from the instant a press was due to its first answer reaching Discord) and how
  many missed Discord's 3 s;
* the longest event-loop stall with what was running and any garbage collection in it;
* message writes per channel in 5 s windows: REST edits (Discord's ~5 per 5 s per channel) and
  type-7 answers (exempt) apart;
* with ``--ramp``: the highest offered rate held with every answer inside 3 s, and with p99 under
  250 ms, and how many presses the bot itself counted too late to take (``bot.session.overload``);
* with ``--profile``: where the loop thread's CPU went in the measured phase, by stage of a press
  (parse, engine, board text, embed and components, answer, publisher, save, metrics…), per game
  press (``load_profile.py``, a sampling profiler);
* with ``--floor``: half the baseline's presses are answered instead with a board of the game
  under load, built once and its picture uploaded anew at each press, as a press answers
  (``press_harness.FloorCog``): what answering with such a board costs before any game's work,
  against the bare acknowledge, in the same run (a diagnostic).

How: ``load_sim.py`` (SimCord on wall-clock time, presses injected without waiting for idle,
why), ``load_probe.py`` (CPU accounting per press, stall sampler, GC timing), ``load_run.py``
(arrivals, tables, phases); ``--transport`` (``load_transport.py``) and ``--gateway``
(``load_gateway.py``) add what production's loop pays for each request and each gateway event.
Left out, and why: without those two, the requests' and the gateway's own work (SimCord serves
requests in-process and deep-copies its payloads instead, counted as SimCord's); always, the
websocket's framing, the socket reads and real network latency; Discord's rate limits are
counted, not enforced (SimCord has none);
SimCord's store is pruned as the run goes (see ``load_sim.Pruner``). The machine is shared:
figures from a loaded machine are upper bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextvars
import gc
import logging
import os
import random
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_owners  # noqa: E402
import orjson  # noqa: E402
from load_gateway import Gateway  # noqa: E402
from load_leave_out import PARTS, leave_out  # noqa: E402
from load_probe import deep_size, malloc_trim, rss_mb  # noqa: E402
from load_profile import StageProfiler  # noqa: E402
from load_report import (  # noqa: E402
    latency_line,
    machine_line,
    ms,
    print_memory,
    print_phase,
    print_ramp,
    ratio_interval,
)
from load_run import ACK, FLOOR, GAME, LoadRun  # noqa: E402
from load_sim import to_wall_clock  # noqa: E402
from load_tables import TABLES  # noqa: E402
from load_transport import Transport  # noqa: E402
from press_harness import running  # noqa: E402

DEFAULT_PLAYERS = {"kabuki": 4, "masks": 6, "kingdom": 5}
CHANNELS_PER_GUILD = 50
ACK_CHANNELS = 4


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return options


def build_world(env: Any, bot: Any, args: argparse.Namespace, rng: random.Random) -> list[Any]:
    """Servers of 50 channels, each channel a table of distinct members."""
    tables = []
    cls = TABLES[args.game]
    guild = None
    for n in range(args.games):
        if n % CHANNELS_PER_GUILD == 0:
            guild = env.create_guild(f"Server {n // CHANNELS_PER_GUILD}")
        channel = guild.create_text_channel(f"games-{n}")
        members = [guild.add_member(env.create_user(f"p{n}-{seat}")) for seat in range(args.players)]
        table = cls(
            kind=args.game,
            bot=bot,
            guild_id=guild.id,
            channel=channel,
            members=members,
            options=dict(args.option),
            rng=random.Random(rng.randrange(1 << 30)),
        )
        tables.append(table)
    return tables


async def ack_messages(env: Any, name: str = "ack") -> list[tuple[Any, list[Any]]]:
    """The bare acknowledge buttons (posted with SimCord's own slash, before the switch); with
    ``name="floor"``, the floor's buttons (``--floor``)."""
    guild = env.create_guild("Baseline" if name == "ack" else "Floor")
    out = []
    for n in range(ACK_CHANNELS):
        channel = guild.create_text_channel(f"{name}-{n}")
        members = [guild.add_member(env.create_user(f"{name}{n}-{i}")) for i in range(4)]
        await members[0].slash(channel, f"{name}bench")
        message = env.backend.get_message(channel.id, channel.last_message.id)
        out.append((message, members))
    return out


def type_name(kind: type) -> str:
    """``list``, ``discord:Interaction``, ``simcord:Interaction`` (SimCord's own record) …"""
    module = kind.__dict__.get("__module__") if isinstance(kind.__dict__.get("__module__"), str) else None
    package = module or getattr(kind, "__module__", "builtins") or "builtins"
    package = package.split(".")[0] if isinstance(package, str) else "builtins"
    return kind.__qualname__ if package == "builtins" else f"{package}:{kind.__qualname__}"


def session_breakdown(run: LoadRun, sample: int = 50) -> str:
    """Where an open game's memory is (a sample of sessions; shared caches such as the guild,
    its channels, users and the client are not walked): the engine, the last board shown, each
    seat's last interaction, and the rest of the session."""
    import discord
    from discord.ext import commands
    from discord.http import HTTPClient
    from discord.state import ConnectionState
    from simcord.backend import Backend

    from bot.session.timers import SessionTimers

    stop = (
        discord.Client,
        ConnectionState,
        HTTPClient,  # shared by all (an attachment keeps a reference to it)
        Backend,
        discord.Guild,
        discord.abc.GuildChannel,
        discord.User,
        discord.ClientUser,
        asyncio.AbstractEventLoop,
        asyncio.Task,
        commands.Cog,  # shared by all its games (an armed timer's callback leads to it)
        SessionTimers,
        # An armed timer's handle keeps a copy of the context it was armed in, whose values
        # (the bench's record of the press, SimCord's scope: the whole simulated Discord) are
        # shared, not the game's; walked, they made up most of an open game's "session".
        contextvars.Context,
    )
    seen: set[int] = set()
    parts = collections.Counter()
    sessions = list(run.bot.sessions)[:sample]
    for session in sessions:
        parts["engine"] += deep_size([session.engine], stop, seen)
        publisher = run.bot.publishers.get(session.channel_id)
        parts["last board shown (publisher)"] += deep_size([publisher and publisher.shown], stop, seen)
        parts["seats' last interactions"] += deep_size([session.last_interaction], stop, seen)
        parts["armed timer"] += deep_size([session.timer], stop, seen)
        parts["rest of the session"] += deep_size([session], stop, seen)
    if not sessions:
        return ""
    total = sum(parts.values())
    return f"{total / len(sessions) / 1024:.0f} KB of objects per open game: " + ", ".join(
        f"{name} {n * 100 / total:.0f}%" for name, n in parts.most_common()
    )


def picture_caches() -> tuple[int, str]:
    """Bytes held by the pictures' caches (``functools`` caches in the games' modules, and the
    board's cache of encoded pictures)."""
    sizes = []
    seen: set[int] = set()  # a picture held by two caches counts once
    for name, module in list(sys.modules.items()):
        if not name.startswith(("bot.", "cogs.")):
            continue
        for attr, value in vars(module).items():
            if hasattr(value, "cache_info") and getattr(value, "__module__", None) == name:
                # An lru_cache's referents are its keys and results (and its own dicts).
                caches = [x for x in gc.get_referents(value) if not callable(x)]
                entries = value.cache_info().currsize
                sizes.append((deep_size(caches, seen=seen), f"{name.rsplit('.', 2)[-2]}.{attr} ({entries})"))
    board = sys.modules.get("bot.glue.board")
    if board is not None and hasattr(board, "PICTURES"):  # encoded pictures by key, bounded in bytes
        held = deep_size([board.PICTURES._items], seen=seen)
        sizes.append((held, f"board.PICTURES ({len(board.PICTURES)})"))
    sizes.sort(reverse=True)
    top = ", ".join(f"{label} {size / 2**20:.1f} MB" for size, label in sizes[:3] if size)
    return sum(size for size, _ in sizes), top


def memory_point(
    run: LoadRun, *, trim: bool = False, games: int = 0, base: dict | None = None, breakdown: bool = False
) -> dict:
    # The bot freezes what survives each full collection (bot.ops.gc_tuning), so a full collection
    # costs what was made and kept since the last one. Timed first, as the bot's collector would
    # make it at this point (after SimCord's store is pruned: SimCord's garbage is not the bot's).
    run.pruner.tick(ids=True)
    walked = len(gc.get_objects())
    started, cpu = time.perf_counter(), time.thread_time()
    gc.collect()
    collect_ms = (time.perf_counter() - started) * 1000
    collect_cpu_ms = (time.thread_time() - cpu) * 1000  # on a shared machine, wall time waits too
    # Then every object handed back (start-up's too) for the census, and a full collection with
    # nothing frozen timed: what every full collection cost before the bot froze its survivors.
    gc.unfreeze()
    run.pruner.tick(ids=True)
    simcord_objects: set[int] = set()
    point: dict[str, Any] = {
        "collect_ms": collect_ms,
        "collect_cpu_ms": collect_cpu_ms,
        "walked": walked,
        "rss": rss_mb(),
        "store": run.pruner.store_size(simcord_objects),
        "blocks": sys.getallocatedblocks(),
        "sessions": len(run.bot.sessions),
        "shown": len(run.bot.publishers),
        "caches": picture_caches(),
    }
    # The census counts the bot's objects: SimCord's store and the bench's own records are left out.
    point["bench"] = deep_size(
        [run.wire.edits, run.tasks.steps, run.gc, run.sampler, run.stacks], seen=simcord_objects
    )
    # What a full collection walks (the frozen start-up objects are not walked), and how much of
    # it is SimCord's simulated Discord or the bench's records, which a real bot would not hold.
    tracked = gc.get_objects()
    theirs = sum(1 for o in tracked if id(o) in simcord_objects)
    point["tracked"] = (len(tracked), theirs)
    point["types"] = collections.Counter(type_name(type(o)) for o in tracked if id(o) not in simcord_objects)
    # Closures by where they were made: a function's cells are its closure's, so this says whose.
    point["functions"] = collections.Counter(
        f"{getattr(o, '__module__', '?')}:{o.__qualname__}"
        for o in tracked
        if type(o) is types.FunctionType and id(o) not in simcord_objects
    )
    del tracked
    # Kept for a look, what this collection finds unreachable was frozen by the bot's collector
    # and died since in a cycle: what freezing leaks (bot.ops.gc_tuning); SimCord's own is told apart.
    gc.set_debug(gc.DEBUG_SAVEALL)
    started, cpu = time.perf_counter(), time.thread_time()
    gc.collect()  # walks everything, then freezes it all again (the bot's collector hook)
    point["collect_all_ms"] = (time.perf_counter() - started) * 1000
    point["collect_all_cpu_ms"] = (time.thread_time() - cpu) * 1000
    gc.set_debug(0)
    ours = collections.Counter(
        f"{type(o).__module__}.{type(o).__qualname__}"
        for o in gc.garbage
        if type(o).__module__.startswith(("bot.", "discord."))
    )
    point["frozen_garbage"] = (len(gc.garbage), sum(ours.values()), ours.most_common(4))
    gc.garbage.clear()
    # That collection left the collector believing every object is a survivor it just walked, and
    # Python waits for a quarter as many new ones before its next full pass, which would then be
    # long. One more pass (everything frozen: it walks nothing) puts it back where the bot's own
    # collections keep it.
    gc.collect()
    sizes = [len(orjson.dumps(s.to_save()[0])) for s in run.bot.sessions]  # without its log rows
    if sizes:
        point["save"] = statistics.median(sizes)
    if base is not None and games:
        bot_mb = (point["rss"] - base["rss"]) - (point["store"] - base["store"]) / 2**20
        point["per_game"] = (
            f"{(point['rss'] - base['rss']) * 1024 / games:.0f} KB of RSS, "
            f"{bot_mb * 1024 / games:.0f} KB without SimCord's store"
            + (f"; a saved session is {point['save']:,.0f} bytes (median)" if sizes else "")
        )
    if breakdown:
        point["breakdown"] = session_breakdown(run)
    point["owners"] = load_owners.by_owner()
    if trim:
        malloc_trim()
        point["trimmed"] = rss_mb()
    return point


async def main(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    if args.leave_out:
        leave_out(args.leave_out)
        print(f"LEFT OUT (a diagnostic, not the bot's figures): {', '.join(args.leave_out)}")
    if args.trace_memory:
        load_owners.start()
    logs = LogCount()
    root = logging.getLogger()
    root.handlers[:] = [logs]
    root.setLevel(logging.INFO)
    async with running([args.game], check_errors=False) as (bot, env):
        made = time.perf_counter()
        tables = build_world(env, bot, args, rng)
        acks = await ack_messages(env)
        floors = await ack_messages(env, "floor") if args.floor else None
        to_wall_clock(env)
        built = time.perf_counter() - made
        if args.ready_dir is not None:
            (args.ready_dir / f"ready.{os.getpid()}").touch()
            await until_exists(args.ready_dir / "go")
        run = LoadRun(bot, env, tables, acks, args.seed, floors)
        run.wire.deep_copies = args.simcord_deepcopy
        transport = Transport() if args.transport else None
        if transport is not None:
            await transport.start()
            transport.install(run.meter)
            print("TRANSPORT: each request also goes through discord.py's HTTP client, aiohttp and TLS")
        events = Gateway() if args.gateway else None
        if events is not None:
            events.install(run.meter)
            print("GATEWAY: each event also arrives compressed, inflated and decoded as discord.py does")
        run.install()
        try:
            await measure(run, env, tables, args, built)
        finally:
            run.remove()
            if transport is not None:
                await transport.close()
                print(f"  requests that went the real way too: {transport.requests}")
            if events is not None:
                events.remove()
                print(
                    f"  gateway events inflated and decoded: {events.events} ({events.sent_bytes:,} bytes sent)"
                )
            for (level, message), n in logs.counts.most_common(8):
                print(f"  bot log {level} ×{n}: {message}")


async def measure(run: LoadRun, env: Any, tables: list[Any], args: argparse.Namespace, built: float) -> None:
    await run.calibrate()
    print(
        f"{args.games} {args.game} tables of {args.players} players, options {args.option or 'default'}; "
        f"world built in {built:.1f} s"
    )
    points = [("before any game", memory_point(run))]
    for round_number in range(1, args.rounds + 1):
        label = f" (round {round_number})" if args.rounds > 1 else ""
        points += await one_round(run, env, tables, args, points[0][1], label)
    print_memory(points, args.games)
    errors = env._errors
    if getattr(args, "phase", None) is not None:
        print("\nsummary " + orjson.dumps({**summary(args, points), "bot_errors": len(errors)}).decode())
    if errors or run.wire.errors:
        print(f"\nbot errors: {len(errors)} {[repr(e)[:120] for e in errors[:3]]}")
        for (route, code), n in run.wire.errors.most_common(8):
            print(f"  refused by Discord: {route} code {code}: {n}")


async def one_round(
    run: LoadRun, env: Any, tables: list[Any], args: argparse.Namespace, base: dict, label: str
) -> list[tuple[str, dict]]:
    """Open every game, put the load on, end them all. Repeated (``--rounds``), it shows whether
    what stays after the games end is kept by the bot (it would grow round after round) or is
    memory the allocator holds for reuse (it stays level)."""
    points = []
    await run.begin("opening the games")
    took = await run.open_all()
    setup = run.end()
    opened = sum(t.playing() for t in tables)
    answers = list(setup.latency)
    print(
        f"opened {opened}/{args.games} games in {took:.1f} s ({len(answers) / took:.0f} lobby presses/s, "
        f"16 lobbies at a time); lobby answers {latency_line(answers)}; longest stall {ms(setup.max_lag)}"
    )
    points.append(("all games open" + label, memory_point(run, games=args.games, base=base)))

    if args.seconds > 0:
        await run.begin(
            f"{args.games} {args.game} games, offered {args.rate:g} presses/s for {args.seconds:g} s"
        )
        gc_before = {gen: len(spans) for gen, spans in run.gc.by_gen.items()}
        profiler = StageProfiler(run.meter) if args.profile else None
        if profiler is not None:
            profiler.start()
        workers_before = descendants_cpu_s()
        await run.offer(args.rate, args.seconds)
        await run.drain()
        workers_cpu = descendants_cpu_s() - workers_before
        if profiler is not None:
            profiler.stop()
        log = run.end()
        args.workers_cpu_per_press_ms = workers_cpu * 1000 / max(1, sum(1 for k in log.kind if k == GAME))
        args.phase = (
            log,
            {gen: spans[gc_before.get(gen, 0) :] for gen, spans in run.gc.by_gen.items()},
            {gen: spans[gc_before.get(gen, 0) :] for gen, spans in run.gc.cpu_by_gen.items()},
        )
        print_phase(log, games=args.games, stack_of=run.stacks.stacks_for, gc_of=run.gc.overlapping)
        if profiler is not None:
            presses = sum(1 for k in log.kind if k == GAME)
            acks = [cpu for cpu, k in zip(log.bot, log.kind, strict=True) if k == ACK]
            print(profiler.report(presses, statistics.median(acks) * 1000 if acks else None, len(acks)))

    steps = []
    for rate in args.ramp:
        await run.begin(f"ramp {rate:g}/s")
        await run.offer(rate, args.step_seconds)
        drained = await run.drain(10.0)
        log = run.end()
        steps.append((rate, log))
        presses = [x for x, k in zip(log.latency, log.kind, strict=True) if k == 0]
        if not drained or (presses and max(presses) >= 3.0):
            print(f"  (stopped the ramp at {rate:g}/s: answers slipped past 3 s)")
            await run.drain(60.0)
            break
    if steps:
        print_ramp(steps)

    after = memory_point(run, games=args.games, base=base, breakdown=True)
    points.append(("after the load, N open" + label, after))
    await run.quiesce()
    took = await run.end_all()
    await asyncio.sleep(0.5)
    await run.drain()
    print(f"ended every game with /end in {took:.1f} s")
    points.append(("every game ended" + label, memory_point(run, trim=True)))
    return points


async def until_exists(path: Path) -> None:
    """Another process's word, a file: polled, since no event of this loop can say it."""
    while not path.exists():  # noqa: ASYNC110, ASYNC240  (before the measured phase; one stat a poll)
        await asyncio.sleep(0.05)


def by_kind(log: Any, acks: list[float]) -> dict[str, list[float]]:
    kinds: dict[str, list[float]] = {}
    for want, label in enumerate(log.labels):
        chosen = [i for i in range(len(log.kind)) if log.kind[i] == GAME and log.label[i] == want]
        if not chosen or not acks:
            continue
        cpu = [log.bot[i] for i in chosen]
        low, high = ratio_interval(cpu, acks)
        ack = statistics.median(acks)
        kinds[label] = [
            len(chosen),
            round(statistics.median(cpu) * 1000, 3),
            round(statistics.median(cpu) / ack, 2),
            round(low, 2),
            round(high, 2),
            round(statistics.median([log.bot[i] + log.worker[i] for i in chosen]) / ack, 2),
        ]
    return kinds


def descendants_cpu_s() -> float:
    """CPU seconds this process's live descendants have used (the picture workers, under their
    fork server: ``--picture-processes``), read from /proc; 0 elsewhere."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)
        cpu[pid] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        todo += children.get(pid, [])
    return total


def summary(args: argparse.Namespace, points: list[tuple[str, dict]]) -> dict[str, Any]:
    """The run in one line (``bench_table.py`` gathers these into one table): the measured phase
    of the first round, and memory with every game open and after the load."""
    log, gc_spans, gc_cpu = args.phase

    def median(values: list[float]) -> float:
        return statistics.median(values) * 1000 if values else float("nan")

    game = [i for i, k in enumerate(log.kind) if k == GAME]
    acks = [i for i, k in enumerate(log.kind) if k == ACK]
    floors = [i for i, k in enumerate(log.kind) if k == FLOOR]
    opened = next(point for name, point in points if name.startswith("all games open"))
    loaded = next(point for name, point in points if name.startswith("after the load"))
    return {
        "game": args.game,
        "games": args.games,
        "left_out": args.leave_out,
        "transport": args.transport,
        "gateway": args.gateway,
        "press_ms": median([log.bot[i] for i in game]),
        # With the worker threads' CPU for the press: its pictures, SQLite's session writer.
        "press_with_workers_ms": median([log.bot[i] + log.worker[i] for i in game]),
        # The picture processes' CPU in the phase, per game press (a mean: not per press).
        "picture_processes_ms": round(getattr(args, "workers_cpu_per_press_ms", 0.0), 3),
        "ack_ms": median([log.bot[i] for i in acks]),
        "ack_sim_ms": median([log.sim[i] for i in acks]),
        "ack_steps": statistics.median([log.task_steps[i] for i in acks]) if acks else 0,
        "press_steps": statistics.median([log.task_steps[i] for i in game]) if game else 0,
        **({"floor_ms": median([log.bot[i] for i in floors])} if floors else {}),
        "ratio_interval": [
            round(x, 2) for x in ratio_interval([log.bot[i] for i in game], [log.bot[i] for i in acks])
        ],
        # Each press kind on its own (a Kingdom "My card" look is not a move): count, median CPU,
        # ratio to the bare acknowledge with its interval, and with the worker threads' CPU added.
        "by_kind": by_kind(log, [log.bot[i] for i in acks]),
        # The longest stall of the loop (anything on it), and the bot's own CPU in its longest step.
        "stall_ms": round(log.max_lag * 1000, 1),
        "bot_step_ms": round(log.own_steps[0][0] * 1000, 1) if log.own_steps else 0.0,
        "gc": {
            f"gen{gen}": [len(spans), round(max(spans, default=0.0) * 1000, 1)]
            for gen, spans in sorted(gc_spans.items())
        },
        "gc_cpu": {
            f"gen{gen}": round(max(spans, default=0.0) * 1000, 1) for gen, spans in sorted(gc_cpu.items())
        },
        "full_gc_ms": [round(opened["collect_cpu_ms"], 1), round(loaded["collect_cpu_ms"], 1)],
        "full_gc_all_ms": [round(opened["collect_all_cpu_ms"], 1), round(loaded["collect_all_cpu_ms"], 1)],
        "rss_mb": [round(opened["rss"], 1), round(loaded["rss"], 1)],
        "machine": machine_line(log),
    }


class LogCount(logging.Handler):
    """The bot's log lines, counted by message template instead of printed among the figures."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: collections.Counter[tuple[str, str]] = collections.Counter()

    def emit(self, record: logging.LogRecord) -> None:
        message = str(record.msg)[:100]
        if message == "Ignoring exception in %s" and record.args:
            message = f"Ignoring exception in {record.args[0]}"  # which event handler raised
        elif message.startswith("Ignoring exception in view"):
            message += " (the bench's acknowledge-only button)"
        self.counts[(record.levelname, message)] += 1


def cli(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(TABLES), required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int)
    parser.add_argument("--rate", type=float, default=50.0, help="offered game presses per second")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the measured phase")
    parser.add_argument(
        "--ramp", default="", help="offered rates to step through, e.g. 50,100,200,300 (default: no ramp)"
    )
    parser.add_argument("--step-seconds", type=float, default=10.0)
    parser.add_argument(
        "--option", action="append", default=[], help="an option of /<game> new, e.g. grace=1 (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="live Python memory by owner (bot, SimCord, bench) at each point; slows the run (memory only)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="where the loop thread's CPU goes in the measured phase, by stage (a sampling profiler)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="open, load and end every game this many times (memory kept?)"
    )
    parser.add_argument(
        "--leave-out",
        default="",
        help=f"parts of a press not done, to weigh them by difference (a diagnostic): any of {', '.join(PARTS)}",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="half the baseline's presses answered with a board of the game built once (a diagnostic floor)",
    )
    parser.add_argument(
        "--transport",
        action="store_true",
        help="each request also goes the real way (discord.py's HTTP code, aiohttp, TLS) to a local stand-in",
    )
    parser.add_argument(
        "--gateway",
        action="store_true",
        help="each gateway event also arrives compressed and is inflated and decoded as discord.py does",
    )
    parser.add_argument(
        "--simcord-deepcopy",
        action="store_true",
        help="SimCord copies payloads with its own deepcopy, as the bench had it before 2821a7f (for "
        "figures beside older ones; default: a JSON round trip, load_sim.copies_at_cost)",
    )
    parser.add_argument(
        "--picture-processes",
        type=int,
        default=0,
        help="worker processes drawing the pictures (the bot's PICTURE_PROCESSES; 0: the pictures' thread). "
        "Their CPU is not in the bot's columns: the summary gives it apart",
    )
    parser.add_argument(
        "--database-url", default="", help="PostgreSQL for the bot's storage (default: SQLite)"
    )
    parser.add_argument(
        "--ready-dir",
        type=Path,
        help="with the world built, write ready.<pid> here and wait for a file named go (bench_shards.py "
        "starts every process's load at once)",
    )
    args = parser.parse_args(argv)
    os.environ["PICTURE_PROCESSES"] = str(args.picture_processes)
    if args.database_url:
        os.environ["BENCH_DATABASE_URL"] = args.database_url
    args.players = args.players or DEFAULT_PLAYERS[args.game]
    args.ramp = [float(x) for x in args.ramp.split(",") if x.strip()]
    args.option = parse_options(args.option)
    args.leave_out = [part.strip() for part in args.leave_out.split(",") if part.strip()]
    return args


if __name__ == "__main__":
    asyncio.run(main(cli()))
