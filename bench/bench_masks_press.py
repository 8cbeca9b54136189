"""CPU cost of one Monster Masks slap in SimCord vs a bare acknowledge: python bench/bench_masks_press.py

A slap is handled end to end: routing, the engine under the session lock, saving the session
and the slapper's private answer. The board does not change with the slap itself: the session
timer redraws it when the slap's race window closes (a REST edit; since issue 13 the picture stays
the same, and changes only when a card is revealed and at the next turn). That redraw is part of what a slap costs, so it is measured too (time
moved past the window after each turn's slaps) and its share is added per slap on its own line.
The garbage collector runs as it would, inside whichever press trips it.

Left out: other games and channels (one game, one press at a time: ``bench_load.py`` measures
load) and the split between the bot and SimCord (process CPU holds both, for the slap and the
acknowledge alike).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import cpu_ms, report, running  # noqa: E402

from bot.glue.components import bound_id  # noqa: E402

PLAYERS = 8  # a whole game: 24 turns of 7 slaps, so late slaps (longer saved logs) count too
# SimCord fires a timer by itself once its wall time has passed: a 2 s window keeps each race
# open until the presses of a turn are measured, and a short settle timeout never waits for it.
WINDOW_MS = 2000


async def main() -> None:
    async with running(["masks"], settle_timeout=0.2) as (bot, env):
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

        samples: list[float] = []
        base: list[float] = []
        per_turn: list[list[float]] = []
        per_turn_base: list[list[float]] = []
        settles: list[float] = []
        with_settle: list[float] = []
        turn_starts: list[float] = []
        for _ in range(session.engine.view(None)["turns"]):
            view = session.engine.view(None)
            per_turn.append([])
            per_turn_base.append([])
            for tile, seat in enumerate(s for s in range(PLAYERS) if s != view["mime"]):
                message = next(m for m in reversed(channel.history()) if m.id == session.board_message_id)
                custom_id = bound_id(f"pc:{channel.id}:slap:{view['turn']}.{tile}", session.tag)
                press = members[seat].click
                # Each slap follows a bare acknowledge, so both meet the same machine weather.
                base.append(await cpu_ms(lambda: members[0].click(ack, custom_id="ackbench")))
                per_turn_base[-1].append(base[-1])
                spent = await cpu_ms(lambda p=press, m=message, c=custom_id: p(m, custom_id=c))
                samples.append(spent)
                per_turn[-1].append(spent)
            # The timer settles the 7 races (7 REST board edits) and reveals the card (the picture
            # with the card ringed): the rest of what this turn's slaps cost.
            settles.append(await cpu_ms(lambda: env.advance_time(WINDOW_MS / 1000 + 0.1)) / (PLAYERS - 1))
            with_settle += [slap + settles[-1] for slap in per_turn[-1]]
            if session.engine is not None and not session.engine.is_over:
                # The reveal pause ends: the next Mime draws and the board is redrawn.
                turn_starts.append(await cpu_ms(lambda: env.advance_time(6)))
        report("masks slap (the press alone)", samples, base)
        report("masks slap with its share of the race settle (the board's redraw)", with_settle, base)
        report("masks slap, first turn", per_turn[0], per_turn_base[0])
        report("masks slap, last turn", per_turn[-1], per_turn_base[-1])
        print(
            f"race settled by the timer (board edit; the reveal's picture shared out), per tile: median "
            f"{statistics.median(settles):.2f} ms CPU"
        )
        print(
            f"next turn's board after the reveal pause, per turn: median "
            f"{statistics.median(turn_starts):.2f} ms CPU"
        )


if __name__ == "__main__":
    asyncio.run(main())
