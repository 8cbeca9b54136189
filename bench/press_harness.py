"""Shared tools for measuring the bot's own cost of one press inside SimCord.

SimCord idles about 50 ms of wall time after every simulated action, so wall time says nothing
about the bot. We count CPU time of the process (``time.process_time``) around one action, and
compare a game press with a bare button that only acknowledges, measured in the same run. That
CPU holds SimCord's own work for the action as well as the bot's, for both; the garbage
collector is left on, so p90 shows the presses that paid for a collection. One press at a time
in one game: ``bench_load.py`` measures many games under load and splits the bot's CPU from
SimCord's.
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import simcord
from discord import app_commands
from discord.ext import commands

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app.client import GameBot, create_bot  # noqa: E402
from bot.app.config import Config  # noqa: E402
from bot.glue.answer import edit_board  # noqa: E402
from bot.glue.board import drawn  # noqa: E402
from bot.session.sessions import PLAYING  # noqa: E402


class AckCog(commands.Cog):
    """The baseline: a button whose callback only acknowledges the press (callback type 6)."""

    @app_commands.command(name="ackbench", description="Post a button that only acknowledges")
    async def ackbench(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        button = discord.ui.Button(label="Ack", custom_id="ackbench")

        async def ack(press: discord.Interaction) -> None:
            # Too late (an overloaded run): the bench counts the refusal as a failed press; raised,
            # it would be logged among the bot's errors, which it is not.
            with contextlib.suppress(discord.NotFound):
                await press.response.defer()

        button.callback = ack
        view.add_item(button)
        await interaction.response.send_message("baseline", view=view)


class FloorCog(commands.Cog):
    """A diagnostic floor (``bench_load.py --floor``): a button answered with a board of the game
    under load, as a press answers (``edit_board``, its picture handed over from the pictures'
    thread and uploaded anew), the board built once and the game never asked: what answering with
    a board costs by itself, before any game's work."""

    def __init__(self) -> None:
        self.board: Any = None
        self.png: bytes | None = None

    @app_commands.command(name="floorbench", description="Post a button answered with a fixed board")
    async def floorbench(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        button = discord.ui.Button(label="Floor", custom_id="floorbench")
        button.callback = self.answer
        view.add_item(button)
        await interaction.response.send_message("floor", view=view)

    async def answer(self, press: discord.Interaction) -> None:
        if self.board is None:
            await self._take_board(press.client)
        board, attachments = self.board, None
        if self.png is not None:
            png = self.png
            data = await drawn(lambda: png)
            attachments = [discord.File(io.BytesIO(data), filename=board.picture.filename)]
        with contextlib.suppress(discord.NotFound):  # too late: counted as failed, as for the ack
            await edit_board(
                press,
                embed=board.embed,
                content=board.content,
                items=[*board.items, _FloorButton()],
                attachments=attachments,
            )

    async def _take_board(self, bot: Any) -> None:
        """The board of the first game in play, with its picture drawn once."""
        session = next(s for s in bot.sessions if s.status == PLAYING)
        board = bot.game_cogs[session.kind].current_board(session)
        board.attach_picture()
        if board.picture is not None:
            self.png = await drawn(board.picture.render)
        self.board = board


class _FloorButton:
    """The floor's own button, kept on the answered board so the next press finds it."""

    width = 1
    row = None

    def to_component_dict(self) -> dict[str, Any]:
        return {"type": 2, "style": 2, "label": "Floor", "custom_id": "floorbench"}


def bench_bot(game_cogs: list[Any]) -> GameBot:
    db = Path(tempfile.mkdtemp()) / "bench.db"
    bot = create_bot(
        Config(
            token=None,
            database_path=str(db),
            dev_guild_id=None,
            log_level="WARNING",
            shard_count=1,
            database_url=os.getenv("BENCH_DATABASE_URL") or None,  # a shard's database (bench_shards.py)
            # Only when asked: a checkout from before picture processes has no such setting.
            **({"picture_processes": count} if (count := int(os.getenv("PICTURE_PROCESSES", "0"))) else {}),
        ),
        games=game_cogs,
    )

    async def add_ack() -> None:
        await bot.add_cog(AckCog())
        await bot.add_cog(FloorCog())

    original = bot.setup_hook

    async def setup_hook() -> None:
        await add_ack()
        await original()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@contextlib.asynccontextmanager
async def running(game_cogs: list[Any], **simcord_options: Any) -> AsyncIterator[tuple[GameBot, Any]]:
    """The bench bot inside SimCord. SimCord detaches a bot without closing it, and the database's
    worker thread would then keep the process alive after the figures are printed."""
    bot = bench_bot(game_cogs)
    try:
        async with simcord.run(bot, **simcord_options) as env:
            yield bot, env
    finally:
        storage = getattr(bot, "storage", None)
        if storage is not None:
            await storage.close()


async def cpu_ms(action: Callable[[], Awaitable[Any]]) -> float:
    start = time.process_time()
    await action()
    return (time.process_time() - start) * 1000


async def baseline_ms(member: Any, channel: Any, repeats: int = 60) -> list[float]:
    """CPU ms of each press on the acknowledge-only button."""
    await member.slash(channel, "ackbench")
    message = channel.last_message
    return [await cpu_ms(lambda: member.click(message, custom_id="ackbench")) for _ in range(repeats)]


def report(name: str, samples: list[float], baseline: list[float]) -> None:
    med, base = statistics.median(samples), statistics.median(baseline)
    p90 = statistics.quantiles(samples, n=10)[-1] if len(samples) > 1 else med
    print(
        f"{name}: median {med:.2f} ms CPU per press, p90 {p90:.2f} ms ({len(samples)} presses); "
        f"bare acknowledge {base:.2f} ms; ratio {med / base:.2f} (target ≤ 2.0)"
    )
