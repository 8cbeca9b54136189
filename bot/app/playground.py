"""``python -m bot play``: the real bot inside SimCord, played from a local browser page.

No token and no Discord: SimCord runs the unmodified discord.py client against an in-memory
Discord, and its preview page shows the #games channel. The "Viewing as" switch on that page
changes which member you are, so one person can play every seat, slash commands included. The
members speak different Discord languages (``LOCALES``), and Alice, the host, may manage the
server, so ``/settings language:`` changes the language of the boards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import webbrowser
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord

from bot.app import playtable
from bot.app.client import create_bot
from bot.app.config import Config
from bot.app.livepage import LivePage, RealTimeClock, follow, supervised
from bot.app.livepictures import LivePictures
from bot.app.memberlocales import member_locales
from bot.app.playtable import PlaygroundDiscord
from bot.app.quickanswers import QuickAnswers

log = logging.getLogger(__name__)

MEMBERS = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")
# Each member's Discord language (their private answers); the others' is "en-US". The first four
# speak English, so a first game reads as the README shows it.
LOCALES = {"Erin": "de", "Frank": "de", "Grace": "fr", "Heidi": "fr"}


async def run_playground(
    *,
    database: str,
    port: int | None,
    open_browser: bool,
    ready: Callable[..., Awaitable[None]] | None = None,
    game_cogs: Sequence[Any] | None = None,
    server_locale: str = "en-US",
    locales: Mapping[str, str] = LOCALES,
) -> None:
    """Serve the playground until interrupted, or until ``ready`` (used by tests) returns.
    ``server_locale`` is the server's Discord language, ``locales`` the members' (by name)."""
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    discord_api = PlaygroundDiscord()  # the Activity's sign-in asks it, not Discord (bot.app.playtable)
    # One shard: SimCord, like Discord, needs a count, and the playground is one small server.
    config = Config(
        token=None,
        database_path=database,
        dev_guild_id=None,
        log_level="WARNING",
        shard_count=1,
        client_id=playtable.CLIENT_ID,
        client_secret=playtable.CLIENT_SECRET,
        activity_port=0,  # a free port, printed
        discord_api=await discord_api.start(),
        entry_point=False,  # SimCord's Discord holds no Entry Point command
    )
    bot = create_bot(config, games=game_cogs)
    bot.table_server.autostart = False  # started outside the bot's work, beside the channel's page
    try:
        await _serve(
            bot,
            port=port,
            open_browser=open_browser,
            ready=ready,
            server_locale=server_locale,
            locales=locales,
            discord_api=discord_api,
        )
    finally:
        await bot.table_server.stop()
        await discord_api.stop()
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
    bot: Any,
    *,
    port: int | None,
    open_browser: bool,
    ready: Callable[..., Awaitable[None]] | None,
    server_locale: str,
    locales: Mapping[str, str],
    discord_api: PlaygroundDiscord,
) -> None:
    import simcord  # the playground extra; imported here so the bot itself never needs it

    async with simcord.run(bot, check_errors=False) as env:
        guild = env.create_guild("Playground", preferred_locale=server_locale)
        channel = guild.create_text_channel("games")
        # The host moderates (ends games, rematches) and manages the server (/settings).
        host_roles = [
            guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True)),
            guild.create_role("Server admins", permissions=discord.Permissions(manage_guild=True)),
        ]
        members = [
            guild.add_member(
                env.create_user(name.lower(), global_name=name),
                roles=host_roles if name == MEMBERS[0] else [],
            )
            for name in MEMBERS
        ]
        spoken = {
            member.id: locales.get(name, "en-US") for name, member in zip(MEMBERS, members, strict=True)
        }
        discord_api.seat(
            guild.id,
            channel.id,
            {member.id: (name, spoken[member.id]) for name, member in zip(MEMBERS, members, strict=True)},
        )
        with member_locales(env, spoken):
            async with env.preview(channel, viewers=members, layout="channel", port=port) as preview:
                tables = [(name, member.id) for name, member in zip(MEMBERS, members, strict=True)]
                await _follow(
                    env,
                    preview,
                    bot,
                    channel,
                    members,
                    ready,
                    welcome=lambda: _welcome(
                        preview.url,
                        server_locale,
                        locales,
                        open_browser,
                        games=bot.game_cogs,
                        tables=[
                            (n, playtable.page_address(bot.table_server, guild.id, channel.id, u))
                            for n, u in tables
                        ],
                    ),
                )


def _welcome(
    url: str,
    server_locale: str,
    locales: Mapping[str, str],
    open_browser: bool,
    *,
    games: Iterable[str],
    tables: Sequence[tuple[str, str]] = (),
) -> None:
    print("\nThe playground is running: open this address in your browser")
    print(f"  {url}\n")
    if tables:
        print("The games' table (Discord's Activity), as each member, beside the channel:")
        for name, address in tables:
            print(f"  {name}: {address}")
        print()
    print(f"Use 'Viewing as' to switch member. Try /help, then {new_commands(games)}.")
    languages = ", ".join(f"{name} {locales.get(name, 'en-US')}" for name in MEMBERS)
    print(f"Members' Discord languages (their private answers): {languages}.")
    print(
        f"The server's is {server_locale} (the boards'); {MEMBERS[0]} may change it with "
        "/settings language:, being the host and a server admin."
    )
    print("Press Ctrl+C to stop.")
    if open_browser:
        with contextlib.suppress(Exception):
            webbrowser.open(url)


async def _follow(
    env: Any,
    preview: Any,
    bot: Any,
    channel: Any,
    members: list[Any],
    ready: Callable[..., Awaitable[None]] | None,
    welcome: Callable[[], None] = lambda: None,
) -> None:
    """Keep the page following the bot until interrupted, or until ``ready`` returns."""
    # Timers, grace periods, race windows and interaction timestamps run in real time,
    # and the page shows what the bot changes without anyone pressing Refresh.
    live = LivePage(env, preview)
    # The Activity's table beside it: served outside the bot's own work (an open page's socket
    # never settles), its presses run as the bot's work in turn with the channel page's clicks.
    table = bot.table_server
    table.dispatch = live.as_bot_work
    await table.start()
    # The lobby's Open the table cannot launch anything in SimCord: it answers with the address.
    table.link_for = lambda user: playtable.page_address(table, channel.guild.id, channel.id, user)
    welcome()
    # A click returns once the bot has answered it; its timers (Kabuki's grace) run on.
    QuickAnswers(env, preview)
    LivePictures(env, preview)  # and a picture it showed stays until the page is redrawn
    clock = RealTimeClock(env)
    follower = asyncio.create_task(supervised("follow the bot", lambda: follow(live, clock)))
    try:
        if ready is not None:
            await ready(env=env, channel=channel, members=members, preview=preview, bot=bot, live=live)
        else:
            await asyncio.Event().wait()
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
