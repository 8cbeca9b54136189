"""Settings read from the environment (and a ``.env`` file next to where the bot runs)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv

from bot.storage import Shards, is_postgres_url

HEALTH_LOG_S = 300.0  # the health line's period when there is no metrics endpoint
DISCORD_API = "https://discord.com/api/v10"
ACTIVITY_PORT = 8080
# A ticket opens a page's socket (bot/activity/tickets.py): long enough for a page to load and
# reconnect, short enough that one copied out of a closed page soon opens nothing.
ACTIVITY_TICKET_S = 600


class ConfigError(ValueError):
    """A setting the bot cannot run with; the message says which and how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: str
    dev_guild_id: int | None
    log_level: str
    database_url: str | None = None  # postgresql://…: PostgreSQL instead of the SQLite file
    shard_count: int | None = None  # None: the count Discord recommends
    shard_ids: tuple[int, ...] | None = None  # None: every shard, in this process
    metrics_port: int | None = None
    metrics_host: str = "0.0.0.0"
    health_log_s: float | None = None  # None: no health line (tests); from_env sets it
    # The Activity (bot/activity): served only when the app's client id and secret are both set.
    client_id: int | None = None
    client_secret: str | None = None
    activity_host: str = "127.0.0.1"  # behind a TLS proxy on the same machine (README)
    activity_port: int = ACTIVITY_PORT
    discord_api: str = DISCORD_API  # Discord's HTTP API; the tests point it at a stand-in
    activity_ticket_s: int = ACTIVITY_TICKET_S
    # Whether the command sync keeps the app's Entry Point command (bot/activity/entry_point.py):
    # an app with Activities enabled holds one. The playground's in-memory Discord holds none.
    entry_point: bool = True
    # Worker processes that draw the boards' pictures off the event loop's interpreter lock
    # (bot/glue/picture_processes.py); 0: every picture in the one pictures' thread (tests).
    picture_processes: int = 0

    @property
    def activity(self) -> bool:
        """Whether this process serves the Activity."""
        return self.client_id is not None and bool(self.client_secret)

    @property
    def database(self) -> str:
        """What ``Storage.open`` opens: the PostgreSQL address if there is one, else the file."""
        return self.database_url or self.database_path

    def shards(self) -> Shards | None:
        """The shards this process serves, or None when it serves them all."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        return Shards(self.shard_count, frozenset(self.shard_ids))

    @classmethod
    def from_env(cls, *, load_file: bool = True) -> Config:
        if load_file:
            load_dotenv()
        guild = os.getenv("DEV_GUILD_ID", "").strip()
        url = os.getenv("DATABASE_URL", "").strip() or None
        if url is not None and not is_postgres_url(url):
            raise ConfigError(
                "DATABASE_URL must be a PostgreSQL address (postgresql://user:password@host:5432/db); "
                "leave it empty to use the SQLite file at DATABASE_PATH."
            )
        count = _number("SHARD_COUNT", minimum=1)
        ids = parse_shard_ids(os.getenv("SHARD_IDS", ""))
        if ids is not None:
            if count is None:
                raise ConfigError("SHARD_IDS needs SHARD_COUNT: the total number of shards of every process.")
            if max(ids) >= count:
                raise ConfigError(f"SHARD_IDS go from 0 to SHARD_COUNT - 1 ({count - 1}); got {max(ids)}.")
        port = _number("METRICS_PORT", minimum=1, maximum=65535)
        client_id = _number("DISCORD_CLIENT_ID", minimum=1)
        client_secret = os.getenv("DISCORD_CLIENT_SECRET", "").strip() or None
        if (client_id is None) != (client_secret is None):
            raise ConfigError(
                "The Activity needs both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (developer portal → "
                "your app → OAuth2); leave both empty to run without it."
            )
        api = os.getenv("DISCORD_API_BASE", "").strip() or DISCORD_API
        if not api.startswith(("https://", "http://")):
            raise ConfigError(f"DISCORD_API_BASE must be an http(s) address; got {api!r}.")
        return cls(
            token=os.getenv("DISCORD_TOKEN", "").strip() or None,
            database_path=os.getenv("DATABASE_PATH", "").strip() or "data/bot.db",
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=(os.getenv("LOG_LEVEL", "").strip() or "INFO").upper(),
            database_url=url,
            shard_count=count,
            shard_ids=ids,
            metrics_port=port,
            metrics_host=os.getenv("METRICS_HOST", "").strip() or "0.0.0.0",
            health_log_s=None if port is not None else HEALTH_LOG_S,
            client_id=client_id,
            client_secret=client_secret,
            activity_host=os.getenv("ACTIVITY_HOST", "").strip() or "127.0.0.1",
            activity_port=_number("ACTIVITY_PORT", minimum=1, maximum=65535) or ACTIVITY_PORT,
            discord_api=api,
            activity_ticket_s=_number("ACTIVITY_TICKET_SECONDS", minimum=30, maximum=86400)
            or ACTIVITY_TICKET_S,
            picture_processes=_processes(),
        )


def parse_shard_ids(text: str) -> tuple[int, ...] | None:
    """``"0-3"``, ``"4,5"`` or ``"0-1,6"`` as sorted shard ids; None when empty."""
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, _, high = part.partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS: {part!r} is neither a shard number nor a range like 0-3."
            ) from None
        if first < 0 or last < first:
            raise ConfigError(f"SHARD_IDS: {part!r} is not a range of shard numbers from 0 up.")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids)) if ids else None


def _number(name: str, *, minimum: int, maximum: int | None = None) -> int | None:
    text = os.getenv(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < minimum or (maximum is not None and int(text) > maximum):
        bound = f"{minimum}–{maximum}" if maximum is not None else f"{minimum} or more"
        raise ConfigError(f"{name} must be a whole number, {bound}; got {text!r}.")
    return int(text)


def _processes() -> int:
    """``PICTURE_PROCESSES``, or by default one worker per core beyond the event loop's, at most
    two (each worker is a Python process of its own, with Pillow and the card art)."""
    given = _number("PICTURE_PROCESSES", minimum=0, maximum=32)
    if given is not None:
        return given
    return max(0, min(2, (os.cpu_count() or 1) - 1))
