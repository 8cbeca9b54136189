"""Small answers every cog gives: a reply only the presser sees, who may moderate, where a
session's board is."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.glue import faults
from bot.glue.answer import send_private
from bot.glue.layout import layout
from bot.i18n import DEFAULT, t

log = logging.getLogger(__name__)


async def reply_card(
    interaction: discord.Interaction, embed: discord.Embed, items: Sequence[Any] = ()
) -> None:
    """``reply_private`` with one card (``bot.glue.layout``): ``embed`` and its controls."""
    await reply_private(interaction, None, view=layout(embed, items))


async def reply_private(interaction: discord.Interaction, text: str | None, **kwargs: Any) -> None:
    """Answer only the presser, whether or not the interaction was answered already. An answer
    Discord fails (a 5xx or 429 discord.py gave up on, or one too late to take) is logged, with
    its status and code only, and dropped: it changed nothing, and nothing else can carry it."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await send_private(interaction, content=text, **kwargs)
    except discord.HTTPException as error:
        if not faults.discords_fault(error):
            raise
        log.warning(
            "private answer in channel %s not sent: %s/%s", interaction.channel_id, error.status, error.code
        )


def is_moderator(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_messages)


async def member_moderates(guild: discord.Guild | None, channel_id: int, user_id: int) -> bool:
    """``is_moderator`` for a member known by id alone (an Activity page's, which carries no
    interaction): Manage Messages in the channel, from the member's roles and the channel's
    overwrites as Discord holds them now (fetched when not cached). False when unknown."""
    if guild is None:
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return False
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            return False
    return bool(channel.permissions_for(member).manage_messages)


class Boarded(Protocol):
    """Where a session's board is (``bot.session.sessions.Session`` is one)."""

    guild_id: int
    channel_id: int
    board_message_id: int | None


def message_link(session: Boarded, locale: str = DEFAULT) -> str:
    """A link to the session's board, or "this channel" in ``locale`` while it has none."""
    if session.board_message_id is None:
        return t(locale, "this channel")
    return f"https://discord.com/channels/{session.guild_id}/{session.channel_id}/{session.board_message_id}"
