"""CPU cost of one Death Over the Kingdom press handled end to end in SimCord, against a bare
acknowledge-only button in the same run: python bench/bench_kingdom_press.py

Four players, Classic; each measured press is the active player's move through the board
(advance, apply, save, board edit in the interaction's own answer, private followups). Reveal
pauses are skipped with "Next round" and not measured. Two series: "stand" only, and the moves
a simple computer player makes (exchanges, powers, Thief looks and choices, cuts).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import baseline_ms, cpu_ms, report, running  # noqa: E402

from bot.games.kingdom.board import component_for  # noqa: E402
from bot.games.kingdom.players import SimplePlayer  # noqa: E402
from cogs.kingdom import KingdomCog  # noqa: E402

PRESSES = 80  # a 4-player game of length 6 has 24 rounds: at least 96 moves


async def press(env, channel, member, action) -> None:
    engine = env.bot.sessions.get(channel.id).engine
    kind, custom_id, value = component_for(action, engine.version, channel.id)
    if kind == "select":
        await member.select(channel.last_message, [value], custom_id=custom_id)
    else:
        await member.click(channel.last_message, custom_id=custom_id)


async def series(env, guild, members, name: str, brain) -> list[float]:
    channel = guild.create_text_channel(name)
    await members[0].slash(channel, "kingdom new", length=6, timer=600)
    lobby = channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    samples: list[float] = []
    while len(samples) < PRESSES:
        engine = env.bot.sessions.get(channel.id).engine
        if engine.phase == "reveal":
            await press(env, channel, members[0], {"type": "next"})
            continue
        seat = engine.active
        action = brain.choose(engine, seat) if brain else {"type": "stand"}
        samples.append(await cpu_ms(lambda s=seat, a=action: press(env, channel, members[s], a)))
    return samples


async def main() -> None:
    async with running([KingdomCog]) as (bot, env):
        guild = env.create_guild()
        members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
        base = await baseline_ms(members[0], guild.create_text_channel("ack"), repeats=PRESSES)
        stand = await series(env, guild, members, "stand", None)
        mixed = await series(env, guild, members, "mixed", SimplePlayer(1))
        report("kingdom stand", stand, base)
        report("kingdom mixed moves", mixed, base)


if __name__ == "__main__":
    asyncio.run(main())
