"""What the load bench's own probes add to a press, by hand: python bench/bench_probes.py

``bench_load.py`` charges the loop thread's CPU to each press through probes of its own (a task
factory that times every task step, sections around SimCord's work and discord.py's parsers,
wrappers around the pictures' thread and SQLite's writer; ``load_probe``). Those probes run on
the loop thread too, so some of their cost lands in the very columns they measure, the bare
acknowledge's included, and a ratio of two such figures reads low if the acknowledge carries
more of it in proportion.

Here the same presses are made with the probes installed and without them, in alternating
batches, one press at a time, handed over as the load bench hands them (``LoadRun.send``) and
waited for until every task they made is done: a bare acknowledge, and a Kabuki placement (the
move with the most task steps and requests), each batch in a game of its own. Without the probes
only the tasks are counted (to tell when a press is done), nothing is timed; SimCord's clocks and
copies run at production's cost both ways (``load_sim``), as in the load bench. The difference of
the loop thread's whole CPU per press (bot, SimCord and probes together) is what the probes cost
that press in all: an upper bound of what they put in its bot column, and what the ratio's two
sides would lose if they were taken out.

Left out: load (a few games, one press at a time: the caches are warmer than under load); the
other games' presses (fewer task steps than a placement). A run takes about three minutes of
wall time, most of it waiting for the next turn to open, a few seconds of CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_sim  # noqa: E402
from bench_load import ack_messages, build_world  # noqa: E402
from load_run import LoadRun  # noqa: E402
from load_sim import REAL_MONOTONIC, sim_ms, to_wall_clock, wall_of_ms  # noqa: E402
from press_harness import running  # noqa: E402

PRESSES = 40  # of each kind in a batch: the placements stay inside a game's first round
BATCHES = 10  # with the probes and without, alternating


async def batch(run: LoadRun, table: Any) -> tuple[float, float]:
    """Loop-thread CPU ms per bare acknowledge and per Kabuki placement, over one batch, each
    press handed over as the load bench hands it and waited for (every task it made done)."""
    acks = places = 0.0
    for _ in range(PRESSES):
        started = time.thread_time()
        await run.send_and_wait(lambda: run.send_ack(REAL_MONOTONIC()))
        acks += time.thread_time() - started
        # The game says when to ask again (its next turn opens then): no event to wait on.
        while not isinstance(plan := table.next_presses(sim_ms(run.env)), list):  # noqa: ASYNC110
            await asyncio.sleep(max(0.0, wall_of_ms(run.env, plan.until_ms) - REAL_MONOTONIC()))
        press = plan[0]
        started = time.thread_time()
        await run.send_and_wait(lambda p=press: run.send(table, p, due=REAL_MONOTONIC()))
        places += time.thread_time() - started
    return acks * 1000 / PRESSES, places * 1000 / PRESSES


async def main() -> None:
    args = argparse.Namespace(
        game="kabuki", games=2 * BATCHES, players=3, option=[("grace", 0), ("turn_timer", 600)]
    )
    async with running(["kabuki"], check_errors=False) as (bot, env):
        tables = build_world(env, bot, args, random.Random(1))
        acks = await ack_messages(env)
        to_wall_clock(env)
        # SimCord's clocks and copies at production's cost both ways (the load bench installs
        # them with its probes, but they are not probes: without them a placement costs SimCord
        # ~0.3 ms more, which read as the probes costing less than nothing).
        undo = [load_sim.clocks_at_cost(env), load_sim.copies_at_cost()]
        real = load_sim.clocks_at_cost, load_sim.copies_at_cost
        load_sim.clocks_at_cost = lambda _env: lambda: None
        load_sim.copies_at_cost = lambda: lambda: None
        run = LoadRun(bot, env, tables, acks, seed=1)
        run.install_probes(timed=False)
        for table in tables:  # a game for each batch
            table.MISTAKE = 0.0  # placements only: a mistake would bring Stop! presses and reveals
            assert await run.open_game(table), "every game must start"
        figures: dict[str, dict[str, list[float]]] = {
            "ack": {"off": [], "on": []},
            "place": {"off": [], "on": []},
        }
        for batch_number in range(BATCHES):
            # Which way goes first alternates too: the first batch after a switch pays for it.
            for probes in ("off", "on") if batch_number % 2 == 0 else ("on", "off"):
                run.remove_probes()
                run.install_probes(timed=probes == "on")
                ack, place = await batch(run, tables.pop())
                figures["ack"][probes].append(ack)
                figures["place"][probes].append(place)
        run.remove_probes()
        load_sim.clocks_at_cost, load_sim.copies_at_cost = real
        for step in undo:
            step()
    print(
        f"{BATCHES} batches of {PRESSES} each way, alternating; loop-thread CPU per press, medians of the batches"
    )
    added = {}
    for kind, ways in figures.items():
        off, on = statistics.median(ways["off"]), statistics.median(ways["on"])
        added[kind] = on - off
        spread = f"without {min(ways['off']):.3f}-{max(ways['off']):.3f}, with {min(ways['on']):.3f}-{max(ways['on']):.3f}"
        print(
            f"  {kind:6} without the probes {off:.3f} ms, with them {on:.3f} ms: the probes {on - off:.3f} ms ({spread})"
        )
    print(f"--probes-ms {added['ack']:.3f},{added['place']:.3f}")


if __name__ == "__main__":
    asyncio.run(main())
