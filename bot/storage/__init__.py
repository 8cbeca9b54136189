"""The one storage interface (``interface``): open sessions, finished games, leaderboards and stats.

Two backends speak it, each with its own SQL next to this file: SQLite (``sqlite.py``, the default,
one file at ``DATABASE_PATH``; its per-press saves written by the thread of ``session_writer.py``)
and PostgreSQL (``postgres.py``, when ``DATABASE_URL`` names a
``postgresql://`` server, shared by every process of a sharded bot). The rest of the bot only
sees ``Storage``, imported from here; ``Storage.open`` picks the backend.

Every row and every query is keyed by guild id, so one server never sees another's data.
May import: ``bot.community.ratings`` (a game's rating change is stored with it); nothing else.
"""

from bot.storage import postgres as postgres  # noqa: F401  (each backend registers by subclassing)
from bot.storage import sqlite as sqlite  # noqa: F401
from bot.storage.interface import (
    ALL_TIME,
    FORMER_MEMBER,
    POSTGRES_SCHEMES,
    RUNNING_SEASON,
    SETTINGS_COLUMNS,
    SORTS,
    GameRecord,
    GuildSettings,
    KindStats,
    LogGap,
    LogRows,
    MemberRating,
    PastGame,
    PlayedGame,
    PlayedSeat,
    PlayerRecord,
    SavedSession,
    Season,
    Shards,
    Standing,
    Storage,
    StorageUnavailable,
    StoredGame,
    fold_stats,
    is_postgres_url,
    member_ratings,
    pack_log,
    rating_rows,
    redacted,
    replay_ratings,
    season_key,
    setting_columns,
    settings_of,
    unpack_log,
)

__all__ = [
    "ALL_TIME",
    "FORMER_MEMBER",
    "GameRecord",
    "GuildSettings",
    "KindStats",
    "LogGap",
    "LogRows",
    "MemberRating",
    "POSTGRES_SCHEMES",
    "PastGame",
    "PlayedGame",
    "PlayedSeat",
    "PlayerRecord",
    "RUNNING_SEASON",
    "SETTINGS_COLUMNS",
    "SORTS",
    "SavedSession",
    "Season",
    "Shards",
    "Standing",
    "Storage",
    "StorageUnavailable",
    "StoredGame",
    "fold_stats",
    "is_postgres_url",
    "member_ratings",
    "pack_log",
    "rating_rows",
    "redacted",
    "replay_ratings",
    "season_key",
    "setting_columns",
    "settings_of",
    "unpack_log",
]
