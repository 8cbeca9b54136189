"""Settings read from the environment (and a ``.env`` file next to where the bot runs)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: str
    dev_guild_id: int | None
    log_level: str

    @classmethod
    def from_env(cls, *, load_file: bool = True) -> Config:
        if load_file:
            load_dotenv()
        guild = os.getenv("DEV_GUILD_ID", "").strip()
        return cls(
            token=os.getenv("DISCORD_TOKEN", "").strip() or None,
            database_path=os.getenv("DATABASE_PATH", "").strip() or "data/bot.db",
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=(os.getenv("LOG_LEVEL", "").strip() or "INFO").upper(),
        )
