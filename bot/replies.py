"""Small answers every cog gives: a reply only the presser sees, who may moderate, where a
session's board is."""

from __future__ import annotations

from typing import Any

import discord

from bot.answer import send_private
from bot.sessions import Session


async def reply_private(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer only the presser, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await send_private(interaction, content=text, **kwargs)


def is_moderator(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_messages)


def message_link(session: Session) -> str:
    if session.board_message_id is None:
        return "this channel"
    return f"https://discord.com/channels/{session.guild_id}/{session.channel_id}/{session.board_message_id}"
