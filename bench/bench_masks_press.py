"""CPU cost of one Monster Masks slap in SimCord vs a bare acknowledge: python bench/bench_masks_press.py

A slap is handled end to end: routing, the engine under the session lock, saving the session,
the type-7 board edit (embed + 18 buttons; the picture is unchanged by a slap, so not
re-uploaded) and the slapper's private followup. The board picture is rendered before timing
starts. Races are settled between measured presses, outside the timing.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import cpu_ms, report, running  # noqa: E402

from bot.components import bound_id  # noqa: E402
from bot.games.masks.pictures import board_png  # noqa: E402
from cogs.masks import MasksCog  # noqa: E402

PLAYERS = 8  # a whole game: 24 turns of 7 slaps, so late slaps (longer saved logs) count too
# SimCord fires a timer by itself once its wall time has passed: a 2 s window keeps each race
# open until the presses of a turn are measured, and a short settle timeout never waits for it.
WINDOW_MS = 2000


async def main() -> None:
    async with running([MasksCog], settle_timeout=0.2) as (bot, env):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(f"p{i}")) for i in range(PLAYERS)]
        await members[0].slash(channel, "ackbench")
        ack = channel.last_message

        await members[0].slash(channel, "masks new", guess_seconds=600)
        lobby = channel.last_message
        for member in members[1:]:
            await member.click(lobby, label="Join")
        session = bot.sessions.get(channel.id)
        session.options["race_window_ms"] = WINDOW_MS
        await members[0].click(lobby, label="Start")
        board_png()  # warm: the faces and the empty board

        samples: list[float] = []
        base: list[float] = []
        per_turn: list[list[float]] = []
        per_turn_base: list[list[float]] = []
        gc.disable()
        settles: list[float] = []
        for _ in range(session.engine.view(None)["turns"]):
            view = session.engine.view(None)
            per_turn.append([])
            per_turn_base.append([])
            for tile, seat in enumerate(s for s in range(PLAYERS) if s != view["mime"]):
                message = next(m for m in reversed(channel.history()) if m.id == session.board_message_id)
                custom_id = bound_id(f"pc:{channel.id}:slap:{view['turn']}.{tile}", session.tag)
                press = members[seat].click
                # Each slap follows a bare acknowledge, so both meet the same machine weather; the
                # garbage collector runs between samples, not inside whichever press trips it.
                gc.collect()
                base.append(await cpu_ms(lambda: members[0].click(ack, custom_id="ackbench")))
                per_turn_base[-1].append(base[-1])
                gc.collect()
                spent = await cpu_ms(lambda p=press, m=message, c=custom_id: p(m, custom_id=c))
                samples.append(spent)
                per_turn[-1].append(spent)
            # Not a press: the timer settles the 7 races (7 REST board edits with a new picture
            # each: its cost is reported on its own line) and reveals the card.
            settles.append(await cpu_ms(lambda: env.advance_time(WINDOW_MS / 1000 + 0.1)) / (PLAYERS - 1))
            if session.engine is not None and not session.engine.is_over:
                await env.advance_time(6)  # the reveal pause; the next Mime draws
        report("masks slap", samples, base)
        report("masks slap, first turn", per_turn[0], per_turn_base[0])
        report("masks slap, last turn", per_turn[-1], per_turn_base[-1])
        print(
            f"race settled by the timer (board edit + new picture), per tile: median "
            f"{statistics.median(settles):.2f} ms CPU"
        )


if __name__ == "__main__":
    asyncio.run(main())
