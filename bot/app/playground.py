"""``python -m bot play``: the real bot inside SimCord, played from a local browser page.

No token and no Discord: SimCord runs the unmodified discord.py client against an in-memory
Discord, and its preview page shows the #games channel. The "Viewing as" switch on that page
changes which member you are, so one person can play every seat, slash commands included.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import webbrowser
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import discord

from bot.app.client import create_bot
from bot.app.config import Config
from bot.app.livepage import LivePage, RealTimeClock, follow, supervised

log = logging.getLogger(__name__)

MEMBERS = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")


async def run_playground(
    *,
    database: str,
    port: int | None,
    open_browser: bool,
    ready: Callable[..., Awaitable[None]] | None = None,
    game_cogs: Sequence[Any] | None = None,
) -> None:
    """Serve the playground until interrupted, or until ``ready`` (used by tests) returns."""
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    # One shard: SimCord, like Discord, needs a count, and the playground is one small server.
    config = Config(token=None, database_path=database, dev_guild_id=None, log_level="WARNING", shard_count=1)
    bot = create_bot(config, games=game_cogs)
    try:
        await _serve(bot, port=port, open_browser=open_browser, ready=ready)
    finally:
        # SimCord detaches the bot without closing it: the database's worker thread would outlive
        # the playground and keep the process from exiting.
        storage = getattr(bot, "storage", None)
        if storage is not None:
            await storage.close()


def new_commands(games: Iterable[str]) -> str:
    """Each game's ``new`` command, as the playground's hint names them: "/a new, /b new or /c new"."""
    commands = [f"/{game} new" for game in games]
    return " or ".join(filter(None, [", ".join(commands[:-1]), *commands[-1:]]))


async def _serve(
    bot: Any, *, port: int | None, open_browser: bool, ready: Callable[..., Awaitable[None]] | None
) -> None:
    import simcord  # the playground extra; imported here so the bot itself never needs it

    async with simcord.run(bot, check_errors=False) as env:
        guild = env.create_guild("Playground")
        channel = guild.create_text_channel("games")
        mods = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
        members = [
            guild.add_member(
                env.create_user(name.lower(), global_name=name), roles=[mods] if name == "Alice" else []
            )
            for name in MEMBERS
        ]
        async with env.preview(channel, viewers=members, layout="channel", port=port) as preview:
            print("\nThe playground is running: open this address in your browser")
            print(f"  {preview.url}\n")
            print(f"Use 'Viewing as' to switch member. Try /help, then {new_commands(bot.game_cogs)}.")
            print("Press Ctrl+C to stop.")
            if open_browser:
                with contextlib.suppress(Exception):
                    webbrowser.open(preview.url)
            # Timers, grace periods, race windows and interaction timestamps run in real time,
            # and the page shows what the bot changes without anyone pressing Refresh.
            live = LivePage(env, preview)
            clock = RealTimeClock(env)
            follower = asyncio.create_task(supervised("follow the bot", lambda: follow(live, clock)))
            try:
                if ready is not None:
                    await ready(
                        env=env, channel=channel, members=members, preview=preview, bot=bot, live=live
                    )
                else:
                    await asyncio.Event().wait()
            finally:
                follower.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await follower
