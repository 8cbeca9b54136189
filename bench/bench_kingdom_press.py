"""CPU cost of one Death Over the Kingdom press handled end to end in SimCord, against a bare
acknowledge-only button in the same run: python bench/bench_kingdom_press.py

Four players, Classic; each measured press is the active player's move through the board
(advance, apply, save, board edit in the interaction's own answer, private followups). Reveal
pauses are skipped with "Next round" and not measured. Two series: "stand" only, and the moves
a simple computer player makes (exchanges, powers, Thief looks and choices, cuts). Each measured
press follows a press on the bare button, so both meet the same machine and the same bot state.

Then the floor: a bench button (routed like the bot's) that only edits its message with
a copy of a real Kingdom board (no game, no save), alone and with the two private card messages
an exchange sends. That is what Discord's side of a move costs in SimCord before the bot does
anything of its own.

Pictures are drawn when the game needs them (a reveal's table, in a worker thread: process CPU
counts it), and the garbage collector runs as it would, inside whichever press trips it. Left
out: other games and channels (one game, one press at a time: ``bench_load.py`` measures load),
the reveal pauses, the turn timers, and the split between the bot and SimCord (process CPU
holds both, for the move and the acknowledge alike).
"""

from __future__ import annotations

import asyncio
import collections
import statistics
import sys
from functools import partial
from pathlib import Path

import discord
from discord.ext import commands

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_harness import cpu_ms, report, running  # noqa: E402

from bot.games.kingdom.board import POWERS, card_embed, card_file, component_for  # noqa: E402
from bot.games.kingdom.players import SimplePlayer  # noqa: E402
from bot.glue.board import Board  # noqa: E402
from bot.glue.components import bound_id, make_view  # noqa: E402

PRESSES = 80  # a 4-player game of length 6 has 24 rounds: at least 96 moves
FLOOR_PRESSES = 80


async def press(env, channel, member, action):
    """The click for ``action``, looked up now and made when awaited: the lookup (SimCord's view
    of the channel) is the bench's work, not the bot's, so it stays unmeasured. A power is pressed
    on the member's card panel, which My card opens first: a look, not a move, so unmeasured too."""
    session = env.bot.sessions.get(channel.id)
    kind, custom_id, value = component_for(action, session.engine.version, channel.id)
    custom_id = bound_id(custom_id, session.tag)
    message = channel.last_message
    if action["type"] in POWERS:
        message = (await member.click(message, label="My card")).response
    if kind == "select":
        return lambda: member.select(message, [value], custom_id=custom_id)
    return lambda: member.click(message, custom_id=custom_id)


async def series(env, guild, members, name: str, brain, ack) -> tuple[list[float], list[float], dict, Board]:
    channel = guild.create_text_channel(name)
    await members[0].slash(channel, "kingdom new", length=6, timer=600)
    lobby = channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    samples: list[float] = []
    base: list[float] = []
    by_move: dict[str, list[float]] = collections.defaultdict(list)
    board = None
    while len(samples) < PRESSES:
        session = env.bot.sessions.get(channel.id)
        engine = session.engine
        if engine.phase == "reveal":
            await (await press(env, channel, members[0], {"type": "next"}))()
            continue
        if board is None and engine.round == 2:
            board = env.bot.game_cogs["kingdom"].render_board(session)  # a mid-game board
        seat = engine.active
        action = brain.choose(engine, seat) if brain else {"type": "stand"}
        click = await press(env, channel, members[seat], action)
        base.append(await cpu_ms(lambda: members[0].click(ack, custom_id="ackbench")))
        samples.append(await cpu_ms(click))
        by_move[action["type"]].append(samples[-1])
    if env.bot.sessions.get(channel.id).engine.phase == "reveal":
        # Its 20 s pause would run out by the wall clock during the next series, and SimCord's
        # advance of the clock then can collide with a measured click.
        await (await press(env, channel, members[0], {"type": "next"}))()
    return samples, base, by_move, board


class FloorCog(commands.Cog):
    """Edits its own message with a copy of a Kingdom board: new embed and components each time,
    as the bot sends them, but no engine, no save and no session. Its presses reach it the way the
    bot's do: read from the custom id in on_interaction, with no view kept by discord.py."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def kwargs(self, followups: int) -> dict:
        items = []
        for n, item in enumerate(self.board.items):
            if isinstance(item, discord.ui.Select):
                items.append(
                    discord.ui.Select(
                        custom_id=f"floorselect:{followups}:{n}",
                        options=list(item.options),
                        placeholder=item.placeholder,
                        row=1,
                    )
                )
            else:
                items.append(
                    discord.ui.Button(
                        label=item.label,
                        emoji=item.emoji,
                        style=item.style,
                        custom_id=f"floorbench:{followups}:{n}",
                        row=0,
                    )
                )
        return {"embed": discord.Embed.from_dict(self.board.embed.to_dict()), "view": make_view(items)}

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        custom_id = (interaction.data or {}).get("custom_id", "")
        if custom_id.startswith("floorbench:"):
            await self.press(interaction, int(custom_id.split(":")[1]))

    async def press(self, interaction: discord.Interaction, followups: int) -> None:
        await interaction.response.edit_message(**self.kwargs(followups))
        for _ in range(followups):
            card = {"char": 3}
            await interaction.followup.send(
                ephemeral=True,
                content="🔁 Exchange with **bob**",
                embed=card_embed(card, "Your new card: Thief (3)"),
                file=card_file(3),
            )


async def floor(bot, guild, member, ack, cog: FloorCog, followups: int) -> tuple[list[float], list[float]]:
    channel = guild.create_text_channel(f"floor{followups}")
    await bot.get_channel(channel.id).send(**cog.kwargs(followups))  # posted by the bot, like a board
    await asyncio.sleep(0.1)
    samples: list[float] = []
    base: list[float] = []
    for _ in range(FLOOR_PRESSES):
        base.append(await cpu_ms(lambda: member.click(ack, custom_id="ackbench")))
        click = partial(member.click, channel.last_message, custom_id=f"floorbench:{followups}:0")
        samples.append(await cpu_ms(click))
    return samples, base


async def main() -> None:
    async with running(["kingdom"]) as (bot, env):
        guild = env.create_guild()
        members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
        ack_channel = guild.create_text_channel("ack")
        await members[0].slash(ack_channel, "ackbench")
        ack = ack_channel.last_message
        stand, base, _, board = await series(env, guild, members, "stand", None, ack)
        report("kingdom stand", stand, base)
        mixed, base, by_move, _ = await series(env, guild, members, "mixed", SimplePlayer(1), ack)
        report("kingdom mixed moves", mixed, base)
        ack_median = statistics.median(base)
        print(
            "  by move: "
            + ", ".join(
                f"{kind} {statistics.median(v) / ack_median:.2f}× ({len(v)})"
                for kind, v in sorted(by_move.items(), key=lambda kv: -len(kv[1]))
            )
        )
        cog = FloorCog(board)
        await bot.add_cog(cog)
        await asyncio.sleep(0)
        report("floor: the board's edit alone, no game", *await floor(bot, guild, members[0], ack, cog, 0))
        report("floor: the board's edit + 2 private cards", *await floor(bot, guild, members[0], ack, cog, 2))


if __name__ == "__main__":
    asyncio.run(main())
