"""The load bench's printed figures, from a phase's log (see ``load_run.PhaseLog``)."""

from __future__ import annotations

import collections
import math
import random
import statistics
from typing import Any

from load_run import ACK, FLOOR, GAME, LOBBY, PhaseLog

ANSWER = {4: "message", 5: "deferred message", 6: "defer", 7: "edit", -1: "none"}
CATEGORIES = (
    ("REST edit", "REST edits of a channel message (count against the channel's ~5 per 5 s)"),
    ("REST writes", "all REST message writes of a channel (posts + edits + deletes)"),
    ("type7 board", "board edits inside a press's answer (callback type 7: exempt)"),
    ("followup", "interaction followups (webhook limits: ~5 per 2 s, 30 per 60 s)"),
)


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(q * len(ordered))) - 1)]


def ratio_interval(game: list[float], acks: list[float], rounds: int = 1000) -> tuple[float, float]:
    """A 95 % interval for median(game) / median(acks), by resampling both (the bootstrap): the
    acknowledges are few, so one run's median ratio moves with which of them it happened to get."""
    rng = random.Random(0)
    median = statistics.median
    ratios = sorted(
        median(rng.choices(game, k=len(game))) / median(rng.choices(acks, k=len(acks))) for _ in range(rounds)
    )
    return ratios[int(rounds * 0.025)], ratios[int(rounds * 0.975) - 1]


def ms(seconds: float) -> str:
    if math.isinf(seconds):
        return "never"
    return f"{seconds * 1000:.1f} ms" if seconds >= 0.01 else f"{seconds * 1000:.2f} ms"


def _select(log: PhaseLog, kind: int, column: Any, label: str | None = None) -> list[float]:
    want = None if label is None else log.labels.index(label)
    return [
        column[i]
        for i in range(len(log.kind))
        if log.kind[i] == kind and (want is None or log.label[i] == want)
    ]


def _delta(log: PhaseLog, key: str) -> dict[str, float]:
    before, after = log.before[key], log.after[key]
    return {col: after.get(col, 0.0) - before.get(col, 0.0) for col in set(after) | set(before)}


def latency_line(latencies: list[float]) -> str:
    late = sum(1 for x in latencies if x >= 3.0)
    return (
        f"p50 {ms(quantile(latencies, 0.5))}, p99 {ms(quantile(latencies, 0.99))}, "
        f"max {ms(max(latencies, default=0.0))}; {late} at or past 3 s"
    )


def cpu_line(values: list[float]) -> str:
    return f"median {ms(statistics.median(values))}, p99 {ms(quantile(values, 0.99))} (n={len(values)})"


def requests_line(values: list[float]) -> str:
    return f"requests mean {statistics.mean(values):.2f}"


def machine_line(log: PhaseLog) -> str:
    """How much of the machine this process had, and how much went to everything else."""
    wall = log.after["wall"] - log.before["wall"]
    busy = log.after["machine"][0] - log.before["machine"][0]
    total = log.after["machine"][1] - log.before["machine"][1]
    process = log.after["process"] - log.before["process"]
    thread = log.after["loop_thread"] - log.before["loop_thread"]
    cores = total / wall if wall else 0.0
    waited = log.after["runqueue"] - log.before["runqueue"]
    return (
        f"loop thread on a core {thread / wall * 100:.0f}% of the time, waiting for one "
        f"{waited / wall * 100:.0f}%; other programs used {max(0.0, busy - process) / wall:.2f} of the "
        f"machine's {cores:.0f} cores"
    )


def print_phase(log: PhaseLog, *, games: int, stack_of: Any, gc_of: Any) -> None:
    wall = (log.ended or log.started) - log.started
    presses = [i for i in range(len(log.kind)) if log.kind[i] == GAME]
    acks = _select(log, ACK, log.bot)
    lobby = _select(log, LOBBY, log.bot)
    print(f"\n== {log.name} ==")
    by_label = collections.Counter(log.labels[log.label[i]] for i in presses)
    mix = ", ".join(f"{name} {n}" for name, n in by_label.most_common())
    print(
        f"game presses: {len(presses)} ({mix}) in {wall:.1f} s = {len(presses) / wall:.1f}/s; "
        f"bare acks {len(acks)}; lobby presses (new games) {len(lobby)}"
    )
    if log.offered:
        print(f"  arrivals no game could take (all waiting on their rules): {log.unserved}/{log.offered}")
    if not presses:
        return
    latencies = [log.latency[i] for i in presses]
    failed = sum(1 for i in presses if not log.ok[i])
    print(f"answer time (press due → its first answer at Discord): {latency_line(latencies)}")
    print(f'  failed ("This interaction failed": answered after 3 s or never): {failed}')
    print(f"  {shed_line(log)}")
    if acks:
        print(f"  bare acks: {latency_line(_select(log, ACK, log.latency))}")
    for label in sorted(by_label, key=lambda name: -by_label[name]):
        want = log.labels.index(label)
        kinds = collections.Counter(
            ANSWER.get(log.answer[i], str(log.answer[i])) for i in presses if log.label[i] == want
        )
        total = sum(kinds.values())
        shares = ", ".join(f"{k} {n * 100 / total:.0f}%" for k, n in kinds.most_common())
        print(f"  {label} answered by: {shares}")

    print(
        "bot CPU per press (loop thread; SimCord's work and the bench's excluded), "
        "and the press's requests to Discord (REST calls and answers):"
    )
    for label in sorted(by_label, key=lambda name: -by_label[name]):
        line = cpu_line(_select(log, GAME, log.bot, label))
        print(f"  {label:<10} {line}; {requests_line(_select(log, GAME, log.requests, label))}")
    game = _select(log, GAME, log.bot)
    print(f"  {'all':<10} {cpu_line(game)}; {requests_line(_select(log, GAME, log.requests))}")
    if acks:
        print(f"  {'bare ack':<10} {cpu_line(acks)}; {requests_line(_select(log, ACK, log.requests))}")
        ratio = statistics.median(game) / statistics.median(acks)
        p99 = quantile(game, 0.99) / quantile(acks, 0.99)
        low, high = ratio_interval(game, acks)
        print(
            f"  game press / bare ack: {ratio:.2f}× at the median (95 % interval {low:.2f}–{high:.2f}×), "
            f"{p99:.2f}× at p99 (target ≤ 2×)"
        )
    floors = _select(log, FLOOR, log.bot)
    if acks and floors:
        low, high = ratio_interval(floors, acks)
        print(
            f"  {'floor':<10} {cpu_line(floors)}; {requests_line(_select(log, FLOOR, log.requests))}: "
            f"a board of this game answered, built once (--floor, a diagnostic); / bare ack "
            f"{statistics.median(floors) / statistics.median(acks):.2f}× (95 % interval {low:.2f}–{high:.2f}×), "
            f"game press / floor {statistics.median(game) / statistics.median(floors):.2f}×"
        )
    steps = _select(log, GAME, log.task_steps)
    if acks:
        print(
            f"  the loop's task steps per press (each a wake-up of a task): game press median "
            f"{statistics.median(steps):.0f}, bare ack {statistics.median(_select(log, ACK, log.task_steps)):.0f}"
        )
    sim = _select(log, GAME, log.sim)
    print(f"  SimCord's own work per game press (not the bot's): {cpu_line(sim)}")
    if acks:
        print(f"  SimCord's own work per bare ack: {cpu_line(_select(log, ACK, log.sim))}")
    workers = _select(log, GAME, log.worker)
    if any(workers):
        print(
            "  worker threads (pictures drawn, SQLite's session saves written, off the loop) per game press: "
            f"mean {ms(statistics.mean(workers))}"
        )
    writer = _delta(log, "writer")
    if writer.get("saves"):
        print(
            f"  SQLite's session writer thread: {ms(writer['cpu'] / writer['saves'])} CPU per save, "
            f"{writer['saves'] / max(1.0, writer['batches']):.2f} saves per commit "
            f"({writer['saves']:.0f} saves, presses' and timers')"
        )

    timers = _delta(log, "timers")
    runs = list(log.timer_runs)
    count = log.after["timer_count"] - log.before["timer_count"]
    loop = _delta(log, "loop")
    # The loop's own work for the bench's 1 kHz sampler is there even with no game: leave it out.
    loop_bot = max(0.0, loop.get("bot", 0.0) - log.idle_loop * wall)
    other = _delta(log, "bot-other")
    bench = _delta(log, "bench")
    lobby_cpu = sum(lobby)
    all_bot = sum(game) + sum(acks) + lobby_cpu + timers.get("bot", 0.0) + loop_bot + other.get("bot", 0.0)
    print(
        f"session timers: {count} finished, {len(runs)} fired; bot CPU per fired timer "
        + (cpu_line(runs) if runs else "—")
        + f"; all timers {ms(timers.get('bot', 0.0) / len(presses))} per game press"
    )
    print(
        f"all of the bot's loop-thread CPU (presses, acks, new games, timers, the event loop itself "
        f"{ms(loop_bot)} beyond its idle {ms(log.idle_loop * wall)}) per game press: {ms(all_bot / len(presses))}"
    )
    process = log.after["process"] - log.before["process"]
    thread = log.after["loop_thread"] - log.before["loop_thread"]
    print(
        f"process CPU {process:.2f} s in {wall:.1f} s ({process / wall * 100:.0f}% of one core): loop thread "
        f"{thread:.2f} s (bench {bench.get('bench', 0.0):.2f} s, SimCord "
        f"{sum(_select(log, GAME, log.sim)) + sum(_select(log, ACK, log.sim)) + sum(_select(log, LOBBY, log.sim)) + timers.get('simcord', 0.0) + other.get('simcord', 0.0):.2f} s), "
        f"other threads {max(0.0, process - thread):.2f} s"
    )
    print(f"  {machine_line(log)}")

    print(f"event loop: longest stall {ms(log.max_lag)} (a 1 ms sleep woken that late)")
    for start, seconds, cpu, process, runqueue in log.stalls[:5]:
        gcs = gc_of(start, start + seconds)
        cause = ", ".join(f"GC gen{g} {ms(d)}" for _, d, g in gcs) or "no GC"
        stacks = stack_of(start, start + seconds)
        where = "; ".join(f"{stack} ×{n}" for stack, n in stacks.most_common(2)) or "(no stack sample)"
        print(f"  {ms(seconds)}: {stall_kind(seconds, cpu, process, runqueue)}; {cause}; running: {where}")
    for seconds, _, label in log.steps[:5]:
        print(f"  longest single task step {ms(seconds)}: {label}")
    for seconds, _, label in log.own_steps[:3]:
        print(
            f"  the bot's own CPU in one task step (SimCord's and the bench's work in it left out), longest {ms(seconds)}: {label}"
        )
    gc_lines = []
    for gen in sorted(log.after["gc"]):
        n1, total1, worst, freed1 = log.after["gc"][gen]
        n0, total0, _, freed0 = log.before["gc"].get(gen, (0, 0.0, 0.0, 0))
        if n1 - n0:
            gc_lines.append(
                f"gen{gen} {n1 - n0}× ({ms(total1 - total0)} in all, {freed1 - freed0:,} objects freed)"
            )
    if log.after.get("walks"):
        gc_lines.append(
            f"full collections walked {', '.join(f'{n:,}' for n in log.after['walks'][-4:])} objects"
        )
    print(
        f"  garbage collections: {', '.join(gc_lines) or 'none'}; longest ever {ms(max((v[2] for v in log.after['gc'].values()), default=0.0))} (the bench's own thawed collections at its memory points included)"
    )

    print(f"message writes per channel, most in any 5 s window (over {games} channels):")
    for category, meaning in CATEGORIES:
        worst, over = log.edits.get(category, (0, 0))
        total = log.edit_totals.get(category, 0)
        print(f"  {category:<12} max {worst}, channels over 5: {over}, total {total} — {meaning}")


def stall_kind(seconds: float, cpu: float, process: float, runqueue: float) -> str:
    """Whether the loop thread was working through a stall, or waiting: for a CPU, the GIL or I/O."""
    if cpu >= 0.6 * seconds:
        return f"loop thread busy ({ms(cpu)} CPU)"
    if runqueue >= 0.4 * seconds:
        return f"loop thread waiting {ms(runqueue)} for a CPU (other programs had them)"
    if process - cpu >= 0.4 * seconds:
        return f"GIL held by another thread ({ms(process - cpu)} of their CPU, {ms(cpu)} of the loop's)"
    return f"loop thread blocked off the CPU ({ms(cpu)} CPU, {ms(runqueue)} waiting for one): I/O or a lock"


def shed_line(log: PhaseLog) -> str:
    """The bot's own count (its metrics) of presses it could not answer in time."""
    shed = log.after.get("too_late", 0) - log.before.get("too_late", 0)
    late = log.after.get("late", 0) - log.before.get("late", 0)
    first = log.after.get("answered_first", 0) - log.before.get("answered_first", 0)
    return (
        f"the bot: {shed} presses reached too late to take (not applied), {first} answered before "
        f"their move (over 1 s old when taken), {late} answered late"
    )


def failed_by_kind(log: PhaseLog, presses: list[int]) -> str:
    """`` (card 200, cut 105)``: the failed presses by kind, when any failed."""
    kinds = collections.Counter(log.labels[log.label[i]] for i in presses if not log.ok[i])
    return f" ({', '.join(f'{name} {n}' for name, n in kinds.most_common())})" if kinds else ""


def print_ramp(steps: list[tuple[float, PhaseLog]]) -> None:
    print("\n== ramp: highest press rate held ==")
    held_3s = held_250 = 0.0
    for rate, log in steps:
        presses = [i for i in range(len(log.kind)) if log.kind[i] == GAME]
        wall = (log.ended or log.started) - log.started
        latencies = [log.latency[i] for i in presses]
        failed = sum(1 for i in presses if not log.ok[i])
        delivered = len(presses) / wall if wall else 0.0
        short = log.unserved / log.offered if log.offered else 0.0
        p99 = quantile(latencies, 0.99)
        worst = max(latencies, default=float("inf"))
        verdict = []
        if short > 0.05:
            verdict.append(f"games could take only {100 - short * 100:.0f}% of it")
        if worst < 3.0 and not failed:
            held_3s = max(held_3s, delivered)
            if p99 < 0.25:
                held_250 = max(held_250, delivered)
        kinds = collections.Counter(log.labels[log.label[i]] for i in presses)
        mix = ", ".join(f"{name} {n / wall:.0f}/s" for name, n in kinds.most_common()) if wall else ""
        print(
            f"  offered {rate:g}/s: delivered {delivered:.1f}/s ({mix}), answers p50 {ms(quantile(latencies, 0.5))} "
            f"p99 {ms(p99)} max {ms(worst)}, failed {failed}{failed_by_kind(log, presses)}; longest stall {ms(log.max_lag)}, "
            f"the bot's longest step {ms(log.own_steps[0][0] if log.own_steps else 0.0)}"
            + (f" ({'; '.join(verdict)})" if verdict else "")
        )
        print(f"    {shed_line(log)}")
        print(f"    {machine_line(log)}")
    print(f"  held with every answer inside 3 s: {held_3s:.0f} presses/s")
    print(f"  held with p99 under 250 ms (the target): {held_250:.0f} presses/s")
    # On a shared machine the loop thread may get well under a core: the CPU it spent per press
    # says what one whole core would carry.
    rate, log = steps[0]
    for step_rate, candidate in steps:
        answers = [x for x, k in zip(candidate.latency, candidate.kind, strict=True) if k == GAME]
        if answers and max(answers) < 3.0:
            rate, log = step_rate, candidate
    presses = sum(1 for k in log.kind if k == GAME)
    if presses:
        per_press = (log.after["loop_thread"] - log.before["loop_thread"]) / presses
        print(
            f"  loop thread CPU per game press (everything on it: bot, SimCord, bench) at {rate:g}/s: "
            f"{ms(per_press)}, so one whole core would carry about {1 / per_press:.0f} presses/s"
        )


def print_memory(points: list[tuple[str, dict[str, Any]]], games: int) -> None:
    print("\n== memory ==")
    base = points[0][1]
    for name, point in points:
        grown = point["rss"] - base["rss"]
        store = (point["store"] - base["store"]) / 2**20
        line = (
            f"  {name:<34} RSS {point['rss']:7.1f} MB ({grown:+.1f}; SimCord's store {store:+.1f} MB of it)"
            f", Python blocks {point['blocks']:,}, sessions {point['sessions']}, publishers {point['shown']}"
        )
        if point.get("trimmed") is not None:
            line += f"; after malloc_trim {point['trimmed']:.1f} MB"
        print(line)
        total, theirs = point["tracked"]
        print(
            f"    the collector's next full collection walked {point['walked']:,} objects in "
            f"{point['collect_ms']:.1f} ms, {point['collect_cpu_ms']:.1f} ms of CPU (what survived the "
            f"last one is frozen: bot.ops.gc_tuning); with nothing frozen, {total:,} objects ({theirs:,} "
            f"of them SimCord's store or the bench's records, start-up's included) in "
            f"{point['collect_all_ms']:.0f} ms, {point['collect_all_cpu_ms']:.0f} ms of CPU; "
            f"the bench's records {point['bench'] / 2**20:.1f} MB"
        )
        freed, ours, top = point["frozen_garbage"]
        print(
            f"    frozen, then died in a cycle (found by the collection with nothing frozen): {freed:,} "
            f"objects, {ours:,} of them the bot's or discord.py's"
            + (f" ({', '.join(f'{k} {n}' for k, n in top)})" if top else "")
        )
        owners = point.get("owners")
        if owners is not None:
            first = base["owners"] or {}
            print(
                "    live Python memory by owner (tracemalloc): "
                + ", ".join(
                    f"{who} {size / 2**20:.1f} MB ({(size - first.get(who, 0)) / 2**20:+.1f})"
                    for who, size in sorted(owners.items(), key=lambda item: -item[1])
                )
            )
        if point.get("per_game"):
            print(f"    per open game: {point['per_game']}")
        if point.get("breakdown"):
            print(f"    {point['breakdown']}")
        cached, top = point["caches"]
        if cached:
            print(f"    picture caches: {cached / 2**20:.1f} MB (largest: {top})")
        if name != points[0][0]:
            grown_types = [(kind, n - base["types"].get(kind, 0)) for kind, n in point["types"].items()]
            grown_types = sorted((g for g in grown_types if g[1] > 0), key=lambda g: -g[1])[:8]
            print("    objects grown since the start: " + ", ".join(f"{k} +{n:,}" for k, n in grown_types))
            made = point.get("functions", {})
            grown = [(k, n - base.get("functions", {}).get(k, 0)) for k, n in made.items()]
            grown = sorted((g for g in grown if g[1] > 0), key=lambda g: -g[1])[:4]
            if grown:
                print(
                    "    of them functions (closures) made in: " + ", ".join(f"{k} +{n:,}" for k, n in grown)
                )
