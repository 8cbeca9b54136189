"""Discord time: snowflake timestamps and the current instant, in integer milliseconds."""

from __future__ import annotations

import discord

DISCORD_EPOCH_MS = 1420070400000


def snowflake_ms(snowflake: int) -> int:
    """The millisecond at which Discord created the object (an interaction, a message)."""
    return (snowflake >> 22) + DISCORD_EPOCH_MS


def now_ms() -> int:
    # discord.utils.utcnow rather than time.time: SimCord's virtual clock drives it in tests.
    return int(discord.utils.utcnow().timestamp() * 1000)
