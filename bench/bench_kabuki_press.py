"""CPU cost of one Kabuki press in SimCord, by hand: python bench/bench_kabuki_press.py

A placement press handled end to end (interaction in, engine, state saved to SQLite, the board
edit with its new picture, drawn then and there as in play) against a bare acknowledge-only
button in the same run. The garbage collector runs as it would, inside whichever press trips it.

Left out: other games and channels (one game, one press at a time: ``bench_load.py`` measures
load), the session timers (a grace period ending redraws the board by itself), and the split
between the bot and SimCord (process CPU holds both, for the press and the acknowledge alike).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import cpu_ms, report, running  # noqa: E402

from bot.games.kabuki.board import picture_key, render_picture  # noqa: E402
from bot.games.kabuki.engine import KabukiEngine  # noqa: E402
from bot.glue.components import bound_id  # noqa: E402

PRESSES = 120  # no Stop!: a round ends when its 50th card is placed (no grace), the next begins
STOPS = 60  # each after a placement, on a fresh game when one ends


def stack_for(turn: int) -> int:
    return (turn * 7 + turn // 4) % 4


def picture_figures() -> None:
    engine = KabukiEngine.new(4, 99, {}, 0)
    keys = []
    for turn in range(30):
        view = engine.view(None)
        engine.apply(view["current"]["seat"], {"type": "place", "stack": turn % 4}, view["place_from"])
        keys.append(picture_key(engine.view(None)))
    new = []
    for key in keys:
        start = time.process_time()
        render_picture(key)
        new.append((time.process_time() - start) * 1000)
    print(
        f"board picture: new {statistics.median(new):.2f} ms CPU (median of {len(keys)}), in a worker thread"
    )


async def kabuki_table(bot: Any, env: Any, **options: Any) -> tuple[Any, Any, list[Any], Any, Any]:
    """A Kabuki game of three members started in a channel of a new server, beside a bare
    acknowledge's button: (guild, channel, members, the acknowledge's message, the session)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("a", "b", "c")]
    await members[0].slash(channel, "ackbench")
    ack_message = channel.last_message
    await members[0].slash(channel, "kabuki new", **options)
    for member in members[1:]:
        await member.click(channel.last_message, label="Join")
    await members[0].click(channel.last_message, label="Start")
    return guild, channel, members, ack_message, bot.sessions.get(channel.id)


async def main() -> None:
    async with running(["kabuki"], settle_timeout=1.0) as (bot, env):
        guild, channel, members, ack_message, session = await kabuki_table(
            bot, env, grace=0, race_window=2000, reveal=2, turn_timer=600
        )
        samples, base = [], []
        board_id = session.board_message_id
        for _ in range(PRESSES):
            # Presses alternate with bare acknowledges, so both meet the same machine weather.
            base.append(await cpu_ms(lambda: members[0].click(ack_message, custom_id="ackbench")))
            view = session.engine.view(None)
            who = members[view["current"]["seat"]]
            custom_id = bound_id(
                f"pc:{channel.id}:place:{stack_for(view['turn'])}-{view['turn']}", session.tag
            )
            board = next(m for m in reversed(channel.history()) if m.id == board_id)
            samples.append(
                await cpu_ms(lambda who=who, board=board, c=custom_id: who.click(board, custom_id=c))
            )
        assert session.engine.view(None)["turn"] == PRESSES, "every press must have been accepted"
        report("kabuki place", samples, base)
        stops, base = await stop_series(bot, env, guild, members, ack_message)
        report("kabuki Stop!", stops, base)
    picture_figures()


async def stop_series(bot, env, guild, members, ack_message) -> tuple[list[float], list[float]]:
    """A placement (not measured), then the next seat presses Stop! (measured), then time moves past
    the race window and the reveal pause. Whether the Stop wins tokens or costs one, the press is
    the same work: engine, save, board edit."""
    channel = guild.create_text_channel("stops")
    samples: list[float] = []
    base: list[float] = []
    session = None
    while len(samples) < STOPS:
        if session is None or session.engine.is_over or bot.sessions.get(channel.id) is not session:
            await members[0].slash(channel, "kabuki new", grace=0, race_window=2000, reveal=2, turn_timer=600)
            for member in members[1:]:
                await member.click(channel.last_message, label="Join")
            await members[0].click(channel.last_message, label="Start")
            session = bot.sessions.get(channel.id)
        view = session.engine.view(None)
        placer = view["current"]["seat"]
        await members[placer].click(
            channel.last_message,
            custom_id=bound_id(
                f"pc:{channel.id}:place:{stack_for(view['turn'])}-{view['turn']}", session.tag
            ),
        )
        if session.engine.is_over or bot.sessions.get(channel.id) is not session:
            continue
        view = session.engine.view(None)
        if view["stop_window"] is None:
            continue  # the placement ended the round
        board = channel.last_message
        custom_id = bound_id(f"pc:{channel.id}:stop:{view['stop_window']['turn']}", session.tag)
        challenger = members[(placer + 1) % len(members)]
        base.append(await cpu_ms(lambda: members[0].click(ack_message, custom_id="ackbench")))
        samples.append(await cpu_ms(lambda who=challenger, b=board, c=custom_id: who.click(b, custom_id=c)))
        await env.advance_time(5)
    return samples, base


if __name__ == "__main__":
    asyncio.run(main())
