"""CPU cost of one Death Over the Kingdom press handled end to end in SimCord, against a bare
acknowledge-only button in the same run: python bench/bench_kingdom_press.py

Four players, Classic; each measured press is the active player's move through the board
(advance, apply, save, board edit in the interaction's own answer, private followups). Reveal
pauses are skipped with "Next round" and not measured. Two series: "stand" only, and the moves
a simple computer player makes (exchanges, powers, Thief looks and choices, cuts). Each measured
press follows a press on the bare button, so both meet the same machine and the same bot state.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import cpu_ms, report, running  # noqa: E402

from bot.games.kingdom.board import component_for  # noqa: E402
from bot.games.kingdom.players import SimplePlayer  # noqa: E402
from cogs.kingdom import KingdomCog  # noqa: E402

PRESSES = 80  # a 4-player game of length 6 has 24 rounds: at least 96 moves


def press(env, channel, member, action):
    """The click for ``action`` on the board, looked up now and made when awaited: the lookup
    (SimCord's view of the channel) is the bench's work, not the bot's, so it stays unmeasured."""
    engine = env.bot.sessions.get(channel.id).engine
    kind, custom_id, value = component_for(action, engine.version, channel.id)
    board = channel.last_message
    if kind == "select":
        return lambda: member.select(board, [value], custom_id=custom_id)
    return lambda: member.click(board, custom_id=custom_id)


async def series(env, guild, members, name: str, brain, ack) -> tuple[list[float], list[float]]:
    channel = guild.create_text_channel(name)
    await members[0].slash(channel, "kingdom new", length=6, timer=600)
    lobby = channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    samples: list[float] = []
    base: list[float] = []
    while len(samples) < PRESSES:
        engine = env.bot.sessions.get(channel.id).engine
        if engine.phase == "reveal":
            await press(env, channel, members[0], {"type": "next"})()
            continue
        seat = engine.active
        action = brain.choose(engine, seat) if brain else {"type": "stand"}
        # The garbage collector runs between samples, not inside whichever press trips it.
        gc.collect()
        base.append(await cpu_ms(lambda: members[0].click(ack, custom_id="ackbench")))
        gc.collect()
        samples.append(await cpu_ms(press(env, channel, members[seat], action)))
    return samples, base


async def main() -> None:
    async with running([KingdomCog]) as (bot, env):
        guild = env.create_guild()
        members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
        ack_channel = guild.create_text_channel("ack")
        await members[0].slash(ack_channel, "ackbench")
        ack = ack_channel.last_message
        gc.disable()
        stand, base = await series(env, guild, members, "stand", None, ack)
        report("kingdom stand", stand, base)
        mixed, base = await series(env, guild, members, "mixed", SimplePlayer(1), ack)
        report("kingdom mixed moves", mixed, base)


if __name__ == "__main__":
    asyncio.run(main())
