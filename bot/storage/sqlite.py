"""The SQLite backend (the default): aiosqlite on one file in WAL mode, plus a writer thread with a
sqlite3 connection of its own for the per-press session save (``session_writer``). See
docs/storage.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import orjson  # a session is saved after every press; orjson is ~15x faster than json there

from bot.community.ratings import MIN_RATED_GAMES, Rating
from bot.storage.interface import (
    ALL_TIME,
    FORMER_MEMBER,
    RUNNING_SEASON,
    SETTINGS_COLUMNS,
    GameRecord,
    GuildSettings,
    KindStats,
    LogRows,
    MemberRating,
    PastGame,
    SavedSession,
    Season,
    Shards,
    Standing,
    Storage,
    StoredGame,
    fold_stats,
    member_ratings,
    pack_log,
    rating_rows,
    season_key,
    setting_columns,
    settings_of,
    unpack_log,
)
from bot.storage.session_writer import BUSY_CODES, SessionWriter, Statements

log = logging.getLogger(__name__)

# Each entry upgrades the schema by one version; never edit a released one, append a new one (and
# its PostgreSQL twin in postgres.py). One statement per line end: they run one by one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        channel_id INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        state      TEXT    NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_guild ON sessions (guild_id);
    CREATE TABLE games (
        id         INTEGER PRIMARY KEY,
        game_key   TEXT    NOT NULL UNIQUE,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        options    TEXT    NOT NULL,
        seed       INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at   INTEGER NOT NULL,
        outcome    TEXT    NOT NULL CHECK (outcome IN ('finished', 'abandoned'))
    );
    CREATE INDEX games_guild_kind ON games (guild_id, kind, outcome);
    CREATE TABLE game_players (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        score    INTEGER NOT NULL,
        won      INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_guild_user ON game_players (guild_id, user_id);
    """,
    # The display name a seat had in the game: the leaderboard shows it, because a mention of a
    # member who left (or any member the reader's client has not loaded) reads as a raw <@id>.
    # Older rows have none and fall back to the mention.
    """
    ALTER TABLE game_players ADD COLUMN name TEXT;
    """,
    # A finished game's record (bot.community.replays), zlib-compressed JSON, for /replay: a table of its
    # own so the leaderboard's scans of games stay as small as before.
    """
    CREATE TABLE game_logs (
        game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER NOT NULL,
        record   BLOB    NOT NULL
    );
    """,
    # Ratings and seasons: each game belongs to a season (0: the one running; an archived one's
    # id), ratings are kept per season and all time (-1); a forgotten member's seats are found
    # by user across every server.
    """
    ALTER TABLE games ADD COLUMN season_id INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE seasons (
        id       INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        key      TEXT    NOT NULL,
        ended_at INTEGER NOT NULL,
        UNIQUE (guild_id, key)
    );
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        season_id  INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        prev_mu    REAL    NOT NULL,
        prev_sigma REAL    NOT NULL,
        games      INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        PRIMARY KEY (guild_id, kind, season_id, user_id)
    );
    CREATE INDEX ratings_user ON ratings (user_id);
    CREATE INDEX game_players_user ON game_players (user_id);
    """,
    # Per-server switches set with /settings; a server without a row has the defaults.
    """
    CREATE TABLE guild_settings (
        guild_id        INTEGER PRIMARY KEY,
        computers_rated INTEGER NOT NULL DEFAULT 0
    );
    """,
    # An open game's log, stored apart from its session's state and appended to, so a save writes
    # only what a press added. Keyed by the game, not the channel: a later game in the channel
    # never reads an earlier one's rows. A session counts the rows its state goes with
    # (``log_rows``); one saved before this (no ``game_key``) keeps its log inside its state.
    """
    ALTER TABLE sessions ADD COLUMN game_key TEXT;
    ALTER TABLE sessions ADD COLUMN log_rows INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE session_log (
        game_key   TEXT    NOT NULL,
        position   INTEGER NOT NULL,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        entry      TEXT    NOT NULL,
        PRIMARY KEY (game_key, position)
    ) WITHOUT ROWID;
    CREATE INDEX session_log_channel ON session_log (channel_id);
    """,
    # More /settings switches: turn pings, the role given to a season's champions, the language
    # of public boards (NULL: the server's own locale).
    """
    ALTER TABLE guild_settings ADD COLUMN turn_pings INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE guild_settings ADD COLUMN champion_role_id INTEGER;
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    """,
)

# Looked up for a page's rows only: the member's newest saved name in this server.
NEWEST_NAME = (
    "(SELECT q.name FROM game_players q JOIN games h ON h.id = q.game_id "
    "WHERE q.guild_id = ? AND h.guild_id = ? AND q.user_id = {user} AND q.name IS NOT NULL "
    "ORDER BY h.ended_at DESC, h.id DESC LIMIT 1)"
)
STANDINGS_TABLES = (
    "game_logs",
    "game_players",
    "games",
    "ratings",
    "seasons",
)  # a server's, in deletion order
# Every finished game of each game the member finished, up to their last one, seat by seat, in
# the order they were recorded (a game's id): what made their all-time ratings.
HISTORY_GAMES = (
    "WITH last AS (SELECT h.kind, MAX(h.id) AS id FROM games h JOIN game_players q ON q.game_id = h.id "
    "WHERE h.guild_id = ? AND q.guild_id = ? AND q.user_id = ? AND h.outcome = 'finished' GROUP BY h.kind) "
    "SELECT g.id, g.kind, p.user_id, p.score, p.won, p.name IS NOT NULL FROM last "
    "JOIN games g ON g.kind = last.kind AND g.id <= last.id JOIN game_players p ON p.game_id = g.id "
    "WHERE g.guild_id = ? AND p.guild_id = ? AND g.outcome = 'finished' ORDER BY g.id, p.seat"
)
UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, kind, season_id, user_id, mu, sigma, prev_mu, prev_sigma, games, wins) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, season_id, user_id) DO UPDATE SET "
    "mu=excluded.mu, sigma=excluded.sigma, prev_mu=excluded.prev_mu, prev_sigma=excluded.prev_sigma, "
    "games=excluded.games, wins=excluded.wins"
)


SAVE_SESSION = (
    "INSERT INTO sessions (channel_id, guild_id, kind, state, updated_at, game_key, log_rows) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET guild_id=excluded.guild_id, "
    "kind=excluded.kind, state=excluded.state, updated_at=excluded.updated_at, "
    "game_key=excluded.game_key, log_rows=excluded.log_rows"
)
# A row already there (a save retried after a failure it did not see) is the same entry again.
APPEND_LOG = (
    "INSERT INTO session_log (game_key, position, guild_id, channel_id, entry) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (game_key, position) DO UPDATE SET entry=excluded.entry"
)
# When a game's log starts: whatever an earlier game in the channel may have left.
DROP_OTHER_LOGS = "DELETE FROM session_log WHERE channel_id = ? AND game_key <> ?"
SAVED_SESSIONS = "SELECT s.state, s.game_key FROM sessions s{where} ORDER BY s.channel_id"
# Only the rows the saved state counts, in order.
SAVED_LOGS = (
    "SELECT l.game_key, l.entry FROM session_log l JOIN sessions s ON s.game_key = l.game_key "
    "AND s.channel_id = l.channel_id AND l.position < s.log_rows{where} ORDER BY l.game_key, l.position"
)
JSON_OPTIONS = orjson.OPT_NON_STR_KEYS
# The session writer never checkpoints (a checkpoint fsyncs, and every save queued behind it would
# wait); the aiosqlite connection does it in its own thread after this many saves, in a task of its
# own that no save awaits, and at every commit of its own once the log is long.
CHECKPOINT_EVERY = 500
WAL_TRIES = 100  # 50 ms apart: the busy timeout's 5 s


class SqliteStorage(Storage):
    backend = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._writer: SessionWriter | None = None  # none on ":memory:": every write on aiosqlite
        self._saves_since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None
        # aiosqlite runs every statement of the connection in one queue, so a write queued while
        # record_game's transaction is open would join it, and vanish with its rollback. Writes
        # through aiosqlite take turns with that transaction instead.
        self._writing = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str | Path) -> SqliteStorage:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # Autocommit: saving a session is one statement, so one trip to SQLite's thread; the
        # statements that must go together are wrapped in explicit BEGIN/COMMIT.
        db = await aiosqlite.connect(str(path), isolation_level=None)
        storage = cls(db)
        try:
            await _use_wal(db)
            # NORMAL survives a process crash (what a bot restart is); FULL would cost ~6x per commit.
            for pragma in ("synchronous=NORMAL", "foreign_keys=ON"):
                # A PRAGMA that answers leaves its statement open until read; close it before a commit.
                async with db.execute(f"PRAGMA {pragma}") as cursor:
                    await cursor.fetchall()
            await storage._migrate()
        except BaseException:
            await db.close()  # its worker thread would otherwise keep the process alive
            raise
        if str(path) != ":memory:":  # a second connection to ":memory:" would be another database
            storage._writer = SessionWriter(path, storage._save_on_aiosqlite)
        return storage

    async def close(self) -> None:
        """Writes the saves handed to the writer thread and ends it, then closes the database.
        Safe to call twice."""
        if self._writer is not None:
            await self._writer.close()  # its saves that find the database busy still need aiosqlite
            self._writer = None
        if self._checkpointing is not None:
            await self._checkpointing  # it keeps its own errors
            self._checkpointing = None
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        # The write lock comes before the version is read: a second process starting at the same
        # moment waits here (busy timeout) and then finds nothing left to do.
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            version = await self.schema_version()
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in _statements(script):
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version={number}")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    # ----------------------------------------------------------------- open sessions

    async def save_session(
        self,
        guild_id: int,
        channel_id: int,
        kind: str,
        state: Mapping[str, Any],
        now: int,
        log: LogRows | None = None,
        *,
        durable: bool = False,
    ) -> None:
        """Written before the board changes, after every press, and committed when this returns.
        Every commit is ``durable`` here: a crash of the process loses none (WAL, synchronous=NORMAL).
        The state and the log rows are serialized here, on the loop (the state shares lists and
        dicts with the live session and engine, which the loop goes on changing; orjson is faster
        than any copy that would make them safe to hand over), and the writer thread writes them
        (``session_writer``: saves queued together go in one transaction). A save that finds the
        database busy (a game being recorded holds the write lock across awaits) is written on
        aiosqlite after it instead; so is every save on ":memory:"."""
        text = orjson.dumps(state, option=JSON_OPTIONS).decode()
        if log is None:
            statements: Statements = [(SAVE_SESSION, [(channel_id, guild_id, kind, text, now, None, 0)])]
        else:
            statements = [(SAVE_SESSION, [(channel_id, guild_id, kind, text, now, log.key, log.end)])]
            if log.start == 0:
                statements.append((DROP_OTHER_LOGS, [(channel_id, log.key)]))
            if log.rows:
                dump = orjson.dumps
                entries = [
                    (log.key, at, guild_id, channel_id, dump(entry, option=JSON_OPTIONS).decode())
                    for at, entry in enumerate(log.rows, log.start)
                ]
                statements.append((APPEND_LOG, entries))
        writer = self._writer
        if writer is not None:
            written = writer.submit(statements)
            if written is not None:
                await written
                self._saves_since_checkpoint += 1
                if self._saves_since_checkpoint >= CHECKPOINT_EVERY:
                    self._checkpoint_soon()
                return
        await self._save_on_aiosqlite(statements)

    async def _save_on_aiosqlite(self, statements: Statements) -> None:
        """One save on aiosqlite's connection, in its own transaction, taking turns with the others."""
        async with self._writing:
            if len(statements) == 1 and len(statements[0][1]) == 1:
                await self._db.execute(statements[0][0], statements[0][1][0])
                return
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, rows in statements:
                    await self._db.executemany(sql, rows)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    def _checkpoint_soon(self) -> None:
        """A passive checkpoint in a task of its own: the save that counted to ``CHECKPOINT_EVERY``
        is a press's, and a press does not wait for an fsync (or for a game being recorded, which
        holds ``_writing``). One at a time; the saves go on meanwhile."""
        if self._checkpointing is not None and not self._checkpointing.done():
            return
        self._saves_since_checkpoint = 0
        self._checkpointing = asyncio.get_running_loop().create_task(
            self._checkpoint(), name="wal-checkpoint"
        )

    async def _checkpoint(self) -> None:
        try:
            async with self._writing:
                await self._db.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, OSError) as error:
            # Nothing is lost: the log keeps the saves, and the next checkpoint (or SQLite's own, at
            # aiosqlite's next commit) copies them.
            log.warning("the write-ahead log's checkpoint failed (%s: %s)", type(error).__name__, error)

    async def delete_session(self, guild_id: int, channel_id: int) -> None:
        await self._change(
            ("DELETE FROM session_log WHERE guild_id=? AND channel_id=?", (guild_id, channel_id)),
            ("DELETE FROM sessions WHERE guild_id=? AND channel_id=?", (guild_id, channel_id)),
        )

    async def load_sessions(self, shards: Shards | None = None) -> list[SavedSession]:
        where, args = "", ()
        if shards is not None:
            ids = sorted(shards.ids)
            where = f" WHERE ((s.guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
            args = (shards.count, *ids)
        async with self._writing:
            # One snapshot: a session saved meanwhile cannot count rows this read missed.
            await self._db.execute("BEGIN")
            try:
                entries = await self._db.execute_fetchall(SAVED_LOGS.format(where=where), args)
                sessions = await self._db.execute_fetchall(SAVED_SESSIONS.format(where=where), args)
            finally:
                await self._db.execute("COMMIT")
        logs: dict[str, list[Any]] = {}
        for key, entry in entries:
            logs.setdefault(key, []).append(orjson.loads(entry))
        return [
            SavedSession(orjson.loads(state), None if key is None else logs.get(key, []))
            for state, key in sessions
        ]

    # ----------------------------------------------------------------- finished games

    async def record_game(self, record: GameRecord) -> bool:
        async with self._writing:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                return await self._insert_game(record)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    async def _insert_game(self, record: GameRecord) -> bool:
        async with self._db.execute(
            "INSERT INTO games (game_key, guild_id, channel_id, kind, options, seed, started_at, ended_at, "
            "outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_key) DO NOTHING",
            (
                record.game_key,
                record.guild_id,
                record.channel_id,
                record.kind,
                json.dumps(dict(record.options), sort_keys=True),
                record.seed,
                record.started_at,
                record.ended_at,
                record.outcome,
            ),
        ) as cur:
            inserted = cur.rowcount == 1
            game_id = cur.lastrowid
        if not inserted:
            await self._db.execute("ROLLBACK")
            return False
        await self._db.executemany(
            "INSERT INTO game_players (game_id, guild_id, user_id, seat, score, won, name) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, record.guild_id, p.user_id, p.seat, p.score, int(p.won), p.name)
                for p in record.players
            ],
        )
        if record.log is not None:
            await self._db.execute(
                "INSERT INTO game_logs (game_id, guild_id, record) VALUES (?, ?, ?)",
                (game_id, record.guild_id, pack_log(record.log)),
            )
        await self._rate(record)
        await self._db.execute("COMMIT")
        return True

    async def _rate(self, record: GameRecord) -> None:
        """Inside the record's transaction (which holds the write lock): read the players'
        ratings, write the new ones."""
        users = sorted({p.user_id for p in record.players})
        async with self._db.execute(
            "SELECT season_id, user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND kind = ? "
            f"AND season_id IN (?, ?) AND user_id IN ({', '.join('?' * len(users))})",
            (record.guild_id, record.kind, RUNNING_SEASON, ALL_TIME, *users),
        ) as cur:
            current = {(int(s), int(u)): rest async for s, u, *rest in cur}
        async with self._db.execute(
            "SELECT computers_rated FROM guild_settings WHERE guild_id = ?", (record.guild_id,)
        ) as cur:
            setting = await cur.fetchone()
        rows = rating_rows(record, current, computers_rated=bool(setting and setting[0]))
        if rows:
            await self._db.executemany(UPSERT_RATING, [(record.guild_id, record.kind, *row) for row in rows])

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        *,
        lower_score_wins: bool = False,
        offset: int = 0,
        limit: int = 10,
        sort: str = "wins",
        season: int | None = None,
    ) -> tuple[list[Standing], int]:
        if sort == "rating":
            return await self._rating_board(
                guild_id, kind, ALL_TIME if season is None else season, offset, limit
            )
        order = "ASC" if lower_score_wins else "DESC"
        base = (
            "FROM game_players p JOIN games g ON g.id = p.game_id "
            "WHERE g.guild_id = ? AND p.guild_id = ? AND g.kind = ? AND g.outcome = 'finished' "
            "AND p.user_id <> ?"
        )
        args: tuple[Any, ...] = (guild_id, guild_id, kind, FORMER_MEMBER)
        if season is not None:
            base += " AND g.season_id = ?"
            args += (season,)
        async with self._db.execute(f"SELECT COUNT(DISTINCT p.user_id) {base}", args) as cur:
            total = int((await cur.fetchone())[0])
        ranking = f"SUM(p.won) DESC, SUM(p.score) {order}"
        if sort == "score":
            ranking = f"SUM(p.score) {order}, SUM(p.won) DESC"
        async with self._db.execute(
            f"SELECT p.user_id, COUNT(*), SUM(p.won), SUM(p.score), {NEWEST_NAME.format(user='p.user_id')} "
            f"{base} GROUP BY p.user_id ORDER BY {ranking}, COUNT(*) DESC, p.user_id ASC LIMIT ? OFFSET ?",
            (guild_id, guild_id, *args, limit, offset),
        ) as cur:
            rows = [Standing(int(u), int(n), int(w), int(s), name) async for u, n, w, s, name in cur]
        return rows, total

    async def _rating_board(
        self, guild_id: int, kind: str, season: int, offset: int, limit: int
    ) -> tuple[list[Standing], int]:
        base = "FROM ratings r WHERE r.guild_id = ? AND r.kind = ? AND r.season_id = ? AND r.games >= ?"
        args = (guild_id, kind, season, MIN_RATED_GAMES)
        async with self._db.execute(f"SELECT COUNT(*) {base}", args) as cur:
            total = int((await cur.fetchone())[0])
        async with self._db.execute(
            f"SELECT r.user_id, r.games, r.wins, r.mu, r.sigma, {NEWEST_NAME.format(user='r.user_id')} {base} "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id ASC LIMIT ? OFFSET ?",
            (guild_id, guild_id, *args, limit, offset),
        ) as cur:
            rows = [
                Standing(int(u), int(n), int(w), 0, name, Rating(mu, sigma))
                async for u, n, w, mu, sigma, name in cur
            ]
        return rows, total

    async def stats(
        self, guild_id: int, user_id: int, lower_score_wins: Mapping[str, bool] | None = None
    ) -> list[KindStats]:
        async with self._db.execute(
            "SELECT g.kind, g.outcome, COUNT(*), SUM(p.won), SUM(p.score), MIN(p.score), MAX(p.score) "
            "FROM game_players p JOIN games g ON g.id = p.game_id "
            "WHERE g.guild_id = ? AND p.guild_id = ? AND p.user_id = ? GROUP BY g.kind, g.outcome "
            "ORDER BY g.kind",
            (guild_id, guild_id, user_id),
        ) as cur:
            rows = await cur.fetchall()
        return fold_stats(rows, lower_score_wins)

    async def game_count(self, guild_id: int, kind: str | None = None, *, season: int | None = None) -> int:
        sql = "SELECT COUNT(*) FROM games WHERE guild_id = ?"
        args: tuple[Any, ...] = (guild_id,)
        if kind is not None:
            sql += " AND kind = ?"
            args += (kind,)
        if season is not None:
            sql += " AND season_id = ?"
            args += (season,)
        async with self._db.execute(sql, args) as cur:
            return int((await cur.fetchone())[0])

    async def recent_games(
        self, guild_id: int, *, channel_id: int | None = None, user_id: int | None = None, limit: int = 25
    ) -> list[StoredGame]:
        sql = (
            "SELECT g.id, g.game_key, g.kind, g.channel_id, g.ended_at FROM games g "
            "JOIN game_logs l ON l.game_id = g.id WHERE g.guild_id = ? AND l.guild_id = ?"
        )
        args: tuple[Any, ...] = (guild_id, guild_id)
        if channel_id is not None:
            sql += " AND g.channel_id = ?"
            args += (channel_id,)
        if user_id is not None:
            sql += " AND EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.user_id = ?)"
            args += (user_id,)
        async with self._db.execute(
            f"{sql} ORDER BY g.ended_at DESC, g.id DESC LIMIT ?", (*args, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [
            StoredGame(key, kind, int(ch), int(end), await self._names(gid))
            for gid, key, kind, ch, end in rows
        ]

    async def game_log(self, guild_id: int, game_key: str) -> StoredGame | None:
        async with self._db.execute(
            "SELECT g.id, g.kind, g.channel_id, g.ended_at, l.record FROM games g "
            "JOIN game_logs l ON l.game_id = g.id WHERE g.guild_id = ? AND l.guild_id = ? AND g.game_key = ?",
            (guild_id, guild_id, game_key),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        gid, kind, channel, ended, data = row
        return StoredGame(game_key, kind, int(channel), int(ended), await self._names(gid), unpack_log(data))

    async def past_game(self, guild_id: int, game_key: str) -> PastGame | None:
        async with self._db.execute(
            "SELECT id, kind, options FROM games WHERE guild_id = ? AND game_key = ?", (guild_id, game_key)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        gid, kind, options = row
        async with self._db.execute(
            "SELECT user_id FROM game_players WHERE game_id = ? AND guild_id = ? ORDER BY seat",
            (gid, guild_id),
        ) as cur:
            users = [int(user) async for (user,) in cur]
        return PastGame(kind, json.loads(options), users)

    async def _names(self, game_id: int) -> list[str | None]:
        async with self._db.execute(
            "SELECT name FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cur:
            return [name async for (name,) in cur]

    async def ratings_of(self, guild_id: int, user_id: int) -> list[MemberRating]:
        async with self._db.execute(
            "SELECT kind, season_id, mu, sigma, prev_mu, prev_sigma, games, wins FROM ratings "
            "WHERE guild_id = ? AND user_id = ? AND season_id IN (?, ?) ORDER BY kind, season_id DESC",
            (guild_id, user_id, RUNNING_SEASON, ALL_TIME),
        ) as cur:
            return member_ratings(await cur.fetchall())

    async def history_rows(self, guild_id: int, user_id: int) -> list[Sequence[Any]]:
        async with self._db.execute(HISTORY_GAMES, (guild_id, guild_id, user_id, guild_id, guild_id)) as cur:
            return list(await cur.fetchall())

    # ----------------------------------------------------------------- seasons

    async def new_season(self, guild_id: int, name: str, now: int) -> Season | None:
        async with self._writing:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                async with self._db.execute(
                    "INSERT INTO seasons (guild_id, name, key, ended_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO NOTHING",
                    (guild_id, name.strip(), season_key(name), now),
                ) as cur:
                    season_id = cur.lastrowid if cur.rowcount == 1 else None
                if season_id is None:
                    await self._db.execute("ROLLBACK")
                    return None
                for table in ("games", "ratings"):
                    await self._db.execute(
                        f"UPDATE {table} SET season_id = ? WHERE guild_id = ? AND season_id = ?",
                        (season_id, guild_id, RUNNING_SEASON),
                    )
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
        return Season(int(season_id), name.strip(), now)

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self._db.execute(
            "SELECT id, name, ended_at FROM seasons WHERE guild_id = ? ORDER BY ended_at DESC, id DESC",
            (guild_id,),
        ) as cur:
            return [Season(int(i), n, int(e)) async for i, n, e in cur]

    # ----------------------------------------------------------------- server settings

    async def settings(self, guild_id: int) -> GuildSettings:
        async with self._db.execute(
            f"SELECT {', '.join(SETTINGS_COLUMNS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return settings_of(row)

    async def update_settings(self, guild_id: int, **changes: object) -> None:
        columns = setting_columns(changes)
        await self._change(
            (
                f"INSERT INTO guild_settings (guild_id, {', '.join(columns)}) "
                f"VALUES (?, {', '.join('?' for _ in columns)}) "
                f"ON CONFLICT (guild_id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in columns),
                (guild_id, *(changes[c] for c in columns)),
            )
        )

    # ----------------------------------------------------------------- members' data

    async def forget_member(self, user_id: int) -> int:
        return await self._change(
            ("UPDATE game_players SET user_id = ?, name = NULL WHERE user_id = ?", (FORMER_MEMBER, user_id)),
            ("DELETE FROM ratings WHERE user_id = ?", (user_id,)),
        )

    async def reset_standings(self, guild_id: int) -> int:
        games = await self.game_count(guild_id)
        await self._change(*((f"DELETE FROM {t} WHERE guild_id = ?", (guild_id,)) for t in STANDINGS_TABLES))
        return games

    async def _change(self, *statements: tuple[str, tuple[Any, ...]]) -> int:
        """Run statements in one transaction; the rows they changed."""
        changed = 0
        async with self._writing:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    async with self._db.execute(sql, args) as cur:
                        changed += max(cur.rowcount, 0)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
        return changed


async def _use_wal(db: aiosqlite.Connection) -> None:
    """WAL mode, with a 5 s busy timeout. Switching a new file to WAL needs it alone; when another
    process is making the same switch, SQLite answers "busy" at once rather than wait (waiting
    could deadlock), so the switch is tried again for as long as the busy timeout."""
    async with db.execute("PRAGMA busy_timeout=5000") as cursor:
        await cursor.fetchall()
    for _ in range(WAL_TRIES - 1):
        try:
            async with db.execute("PRAGMA journal_mode=WAL") as cursor:
                await cursor.fetchall()
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF not in BUSY_CODES:
                raise
        await asyncio.sleep(0.05)
    async with db.execute("PRAGMA journal_mode=WAL") as cursor:
        await cursor.fetchall()


def _statements(script: str) -> Iterator[str]:
    """A migration's statements, one by one (aiosqlite runs one statement per call, and
    executescript would commit the transaction that holds the migration lock)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement.strip()
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete statement in a migration: {statement.strip()[:60]}")
