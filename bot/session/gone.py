"""What is gone ends cleanly: a game whose channel or thread was deleted, or whose server removed
the bot, ends as abandoned (``GameCog.drop``: no winner, no rating change, its timer stopped, its
save removed, one log line), whether the bot hears of it by an event, by Discord refusing its board
(404 Unknown Channel; 403 Missing Access with the server or channel unknown to the bot), or at
start-up, finding a saved game's channel gone.

A 403 Missing Access on a channel the bot still knows is a permission taken away, not a channel
gone: the game goes on and its players are told (``bot.session.publisher``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.glue import faults

if TYPE_CHECKING:
    from bot.session.host import Host
    from bot.session.sessions import Session

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
CHANNEL_DELETED = "its channel was deleted"
THREAD_DELETED = "its thread was deleted"
BOT_REMOVED = "the bot is no longer in its server"


def refused_for_good(bot: Host, session: Session, error: discord.HTTPException) -> str | None:
    """Why Discord's refusal of the board means the channel is gone for the bot, or None."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return CHANNEL_DELETED
    if isinstance(error, discord.Forbidden) and error.code == faults.MISSING_ACCESS:
        guild = bot.get_guild(session.guild_id)
        if guild is None:
            return BOT_REMOVED
        if not guild.unavailable and guild.get_channel_or_thread(session.channel_id) is None:
            return CHANNEL_DELETED
    return None


async def missing(bot: Host, session: Session) -> str | None:
    """At start-up: why the session's channel is gone, or None while it is there, or cannot be
    told (a server Discord has unavailable, a fault of Discord's). The cache lacks archived
    threads, so a channel it lacks is asked of Discord before the game is dropped."""
    guild = bot.get_guild(session.guild_id)
    if guild is not None and (guild.unavailable or guild.get_channel_or_thread(session.channel_id)):
        return None
    try:
        await bot.fetch_channel(session.channel_id)
    except discord.NotFound:
        return CHANNEL_DELETED if guild is not None else BOT_REMOVED
    except discord.Forbidden:
        return BOT_REMOVED if guild is None else None  # in the server but not let in: a permission
    except discord.HTTPException as error:
        log.warning(
            "channel %s of a restored game not checked: %s/%s", session.channel_id, error.status, error.code
        )
    return None


async def drop(bot: Host, session: Session, why: str) -> None:
    cog = bot.game_cogs.get(session.kind)
    if cog is not None:
        await cog.drop(session, why)


async def channel_deleted(bot: Host, channel_id: int, why: str) -> None:
    """A channel or thread was deleted: its game goes, and so do the games of its threads."""
    for session in bot.sessions:
        if session.channel_id == channel_id:
            await drop(bot, session, why)
            continue
        guild = bot.get_guild(session.guild_id)
        thread = guild.get_thread(session.channel_id) if guild is not None else None
        if thread is not None and thread.parent_id == channel_id:
            await drop(bot, session, CHANNEL_DELETED)


async def guild_left(bot: Host, guild_id: int) -> None:
    """The bot was removed from a server (kicked, banned, or the server deleted)."""
    await asyncio.gather(*(drop(bot, s, BOT_REMOVED) for s in bot.sessions if s.guild_id == guild_id))
