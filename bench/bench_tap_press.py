"""Smoke bench of the harness with the test-only Tap game: python bench/bench_tap_press.py"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import baseline_ms, cpu_ms, report, running  # noqa: E402
from tapgame import TAP  # noqa: E402


async def main() -> None:
    async with running([TAP]) as (bot, env):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        a, b = (guild.add_member(env.create_user(n)) for n in ("a", "b"))
        base = await baseline_ms(a, channel)
        await a.slash(channel, "tap new", target=50)
        board = channel.last_message
        await b.click(board, label="Join")
        await a.click(board, label="Start")
        samples = []
        for i in range(40):
            who = (a, b)[i % 2]
            samples.append(await cpu_ms(lambda who=who: who.click(channel.last_message, label="Pass")))
        report("tap pass", samples, base)


if __name__ == "__main__":
    asyncio.run(main())
