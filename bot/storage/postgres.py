"""The PostgreSQL backend (asyncpg), chosen by ``DATABASE_URL=postgresql://…``: one database shared
by every process of a sharded bot. The SQL mirrors sqlite.py; see docs/storage.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from bot.community.ratings import MIN_RATED_GAMES, Rating
from bot.storage.interface import (
    ALL_TIME,
    FORMER_MEMBER,
    RUNNING_SEASON,
    SETTINGS_COLUMNS,
    GameRecord,
    GuildSettings,
    KindStats,
    LogGap,
    LogRows,
    MemberRating,
    PastGame,
    SavedSession,
    Season,
    Shards,
    Standing,
    Storage,
    StorageUnavailable,
    StoredGame,
    fold_stats,
    member_ratings,
    pack_log,
    rating_rows,
    redacted,
    season_key,
    setting_columns,
    settings_of,
    unpack_log,
)

if TYPE_CHECKING:
    import asyncpg

# Each entry upgrades the schema by one version, the twin of the same entry in sqlite.py; never edit
# a released one, append a new one. An entry may hold several statements.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        channel_id BIGINT PRIMARY KEY,
        guild_id   BIGINT NOT NULL,
        kind       TEXT   NOT NULL,
        state      TEXT   NOT NULL,
        updated_at BIGINT NOT NULL
    );
    CREATE INDEX sessions_guild ON sessions (guild_id);
    -- Uncompressed: a late-game state is ~45 kB and pglz would double the time of every save.
    ALTER TABLE sessions ALTER COLUMN state SET STORAGE EXTERNAL;
    CREATE TABLE games (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_key   TEXT   NOT NULL UNIQUE,
        guild_id   BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        kind       TEXT   NOT NULL,
        options    TEXT   NOT NULL,
        seed       BIGINT NOT NULL,
        started_at BIGINT NOT NULL,
        ended_at   BIGINT NOT NULL,
        outcome    TEXT   NOT NULL CHECK (outcome IN ('finished', 'abandoned'))
    );
    CREATE INDEX games_guild_kind ON games (guild_id, kind, outcome);
    CREATE TABLE game_players (
        game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild_id BIGINT  NOT NULL,
        user_id  BIGINT  NOT NULL,
        seat     INTEGER NOT NULL,
        score    INTEGER NOT NULL,
        won      INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_guild_user ON game_players (guild_id, user_id);
    """,
    # The display name a seat had in the game, for the leaderboard (see sqlite.py).
    """
    ALTER TABLE game_players ADD COLUMN name TEXT;
    """,
    # A finished game's record, zlib-compressed JSON, for /replay (see sqlite.py).
    """
    CREATE TABLE game_logs (
        game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id BIGINT NOT NULL,
        record   BYTEA  NOT NULL
    );
    """,
    # Ratings and seasons (see sqlite.py).
    """
    ALTER TABLE games ADD COLUMN season_id BIGINT NOT NULL DEFAULT 0;
    CREATE TABLE seasons (
        id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        name     TEXT   NOT NULL,
        key      TEXT   NOT NULL,
        ended_at BIGINT NOT NULL,
        UNIQUE (guild_id, key)
    );
    CREATE TABLE ratings (
        guild_id   BIGINT           NOT NULL,
        kind       TEXT             NOT NULL,
        season_id  BIGINT           NOT NULL,
        user_id    BIGINT           NOT NULL,
        mu         DOUBLE PRECISION NOT NULL,
        sigma      DOUBLE PRECISION NOT NULL,
        prev_mu    DOUBLE PRECISION NOT NULL,
        prev_sigma DOUBLE PRECISION NOT NULL,
        games      INTEGER          NOT NULL,
        wins       INTEGER          NOT NULL,
        PRIMARY KEY (guild_id, kind, season_id, user_id)
    );
    CREATE INDEX ratings_user ON ratings (user_id);
    CREATE INDEX game_players_user ON game_players (user_id);
    """,
    """
    CREATE TABLE guild_settings (
        guild_id        BIGINT  PRIMARY KEY,
        computers_rated BOOLEAN NOT NULL DEFAULT FALSE
    );
    """,
    # An open game's log in rows of its own, appended to (see sqlite.py).
    """
    ALTER TABLE sessions ADD COLUMN game_key TEXT;
    ALTER TABLE sessions ADD COLUMN log_rows INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE session_log (
        game_key   TEXT    NOT NULL,
        position   INTEGER NOT NULL,
        guild_id   BIGINT  NOT NULL,
        channel_id BIGINT  NOT NULL,
        entry      TEXT    NOT NULL,
        PRIMARY KEY (game_key, position)
    );
    CREATE INDEX session_log_channel ON session_log (channel_id);
    """,
    """
    ALTER TABLE guild_settings ADD COLUMN turn_pings BOOLEAN NOT NULL DEFAULT TRUE;
    ALTER TABLE guild_settings ADD COLUMN champion_role_id BIGINT;
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    """,
)

# Any constant every process agrees on: the advisory lock that lets one process migrate at a time.
MIGRATION_LOCK = 0x70617274_79636172  # "partycar"
VERSIONS_TABLE = """
    CREATE TABLE IF NOT EXISTS schema_migrations (
        version    INTEGER PRIMARY KEY,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )
"""

UPSERT_SESSION = (
    "INSERT INTO sessions (channel_id, guild_id, kind, state, updated_at, game_key, log_rows) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (channel_id) DO UPDATE SET guild_id=excluded.guild_id, "
    "kind=excluded.kind, state=excluded.state, updated_at=excluded.updated_at, "
    "game_key=excluded.game_key, log_rows=excluded.log_rows"
)
SAVE_SESSION = UPSERT_SESSION.replace("$6, $7", "NULL, 0")
# The state and a press's new log rows in one statement, so one round trip and one transaction:
# $8 says the game's log starts here (rows an earlier game in the channel left go), $9 the first
# row's position, $10 the rows. A row already there (a save retried) is the same entry again.
# Commits do not wait for the disk (SERVER_SETTINGS), so a server crash loses the last few hundred
# milliseconds of saves, rows included, though the bot saw them succeed; the row before $9 is then
# missing and nothing is written ("whole" is false): the caller saves the whole log again
# (``LogGap``), else the next state would count rows the server no longer has. A crash loses a
# suffix of the log (the WAL is sequential), so that one row stands for all before it.
SAVE_SESSION_AND_LOG = (
    "WITH ok AS (SELECT $9::int = 0 OR EXISTS (SELECT 1 FROM session_log "
    "WHERE game_key = $6 AND position = $9::int - 1) AS whole), "
    "saved AS (INSERT INTO sessions (channel_id, guild_id, kind, state, updated_at, game_key, log_rows) "
    "SELECT $1::bigint, $2::bigint, $3::text, $4::text, $5::bigint, $6::text, $7::int "
    "WHERE (SELECT whole FROM ok) ON CONFLICT (channel_id) DO UPDATE SET guild_id=excluded.guild_id, "
    "kind=excluded.kind, state=excluded.state, updated_at=excluded.updated_at, "
    "game_key=excluded.game_key, log_rows=excluded.log_rows), "
    "dropped AS (DELETE FROM session_log WHERE $8 AND channel_id = $1 AND game_key <> $6 "
    "AND (SELECT whole FROM ok)), "
    "logged AS (INSERT INTO session_log (game_key, position, guild_id, channel_id, entry) "
    "SELECT $6, $9 + n - 1, $2, $1, entry FROM unnest($10::text[]) WITH ORDINALITY AS t(entry, n) "
    "WHERE (SELECT whole FROM ok) ON CONFLICT (game_key, position) DO UPDATE SET entry = excluded.entry) "
    "SELECT whole FROM ok"
)
SAVED_SESSIONS = "SELECT s.state, s.game_key FROM sessions s{where} ORDER BY s.channel_id"
# Only the rows the saved state counts, in order.
SAVED_LOGS = (
    "SELECT l.game_key, l.entry FROM session_log l JOIN sessions s ON s.game_key = l.game_key "
    "AND s.channel_id = l.channel_id AND l.position < s.log_rows{where} ORDER BY l.game_key, l.position"
)
JSON_OPTIONS = orjson.OPT_NON_STR_KEYS
INSERT_GAME = (
    "INSERT INTO games (game_key, guild_id, channel_id, kind, options, seed, started_at, ended_at, outcome) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (game_key) DO NOTHING RETURNING id"
)
INSERT_PLAYER = (
    "INSERT INTO game_players (game_id, guild_id, user_id, seat, score, won, name) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7)"
)
# Looked up for the page's rows only: the member's newest saved name in this server.
NEWEST_NAME = (
    "(SELECT q.name FROM game_players q JOIN games h ON h.id = q.game_id "
    "WHERE q.guild_id = $1 AND h.guild_id = $1 AND q.user_id = {user} AND q.name IS NOT NULL "
    "ORDER BY h.ended_at DESC, h.id DESC LIMIT 1)"
)
# $5: a season's id, or NULL for all time.
RANKED = (
    "FROM game_players p JOIN games g ON g.id = p.game_id "
    "WHERE g.guild_id = $1 AND p.guild_id = $1 AND g.kind = $2 AND g.outcome = 'finished' "
    "AND p.user_id <> $6 AND ($5::bigint IS NULL OR g.season_id = $5)"
)
# Every finished game of each game the member finished, up to their last one, seat by seat, in
# the order they were recorded (a game's id): what made their all-time ratings (sqlite.py's twin).
HISTORY_GAMES = (
    "WITH last AS (SELECT h.kind, MAX(h.id) AS id FROM games h JOIN game_players q ON q.game_id = h.id "
    "WHERE h.guild_id = $1 AND q.guild_id = $1 AND q.user_id = $2 AND h.outcome = 'finished' GROUP BY h.kind) "
    "SELECT g.id, g.kind, p.user_id, p.score, p.won, p.name IS NOT NULL FROM last "
    "JOIN games g ON g.kind = last.kind AND g.id <= last.id JOIN game_players p ON p.game_id = g.id "
    "WHERE g.guild_id = $1 AND p.guild_id = $1 AND g.outcome = 'finished' ORDER BY g.id, p.seat"
)
UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, kind, season_id, user_id, mu, sigma, prev_mu, prev_sigma, games, wins) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (guild_id, kind, season_id, user_id) "
    "DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma, prev_mu=excluded.prev_mu, "
    "prev_sigma=excluded.prev_sigma, games=excluded.games, wins=excluded.wins"
)
STANDINGS_TABLES = (
    "game_logs",
    "game_players",
    "games",
    "ratings",
    "seasons",
)  # a server's, in deletion order
# With the guild id: recording a game, archiving a season and resetting a server take turns per
# server (a rating is read, then written).
STANDINGS_LOCK = "SELECT pg_advisory_xact_lock(hashtext('party-cards standings'), hashtext($1::bigint::text))"

POOL_SIZE = 10
# A session save commits without waiting for the disk (synchronous_commit=off): like SQLite's
# synchronous=NORMAL, a crash of the bot loses nothing, a crash of the server at worst the last
# few hundred milliseconds of presses, and the database stays consistent. Recorded games wait for
# the disk.
SERVER_SETTINGS = {"synchronous_commit": "off", "application_name": "party-cards-bot"}
# What waits for the disk all the same, in its own transaction: a record, a finished game's save
# before it, a game's save at its Start, the migrations.
DURABLE = "SET LOCAL synchronous_commit TO on"
# A statement the server has not answered in this long is cancelled and raises TimeoutError (a
# database fault): a lock held by another client or a network that drops packets without a reset
# would otherwise hold a slash command's read past Discord's 3 s, and its pooled connection for
# good. Writes give up sooner (bot.session.guarded.WRITE_WAIT_S). What may rightly take longer
# (start-up's migrations and load, a member forgotten, a server's standings reset) says so.
STATEMENT_WAIT_S = 2.0
LONG_WAIT_S = 300.0


class PostgresStorage(Storage):
    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def connect(cls, dsn: str) -> PostgresStorage:
        try:
            import asyncpg
        except ImportError as error:  # the extra is optional: SQLite needs none of it
            raise StorageUnavailable(
                "DATABASE_URL names a PostgreSQL server, which needs asyncpg: pip install -e '.[postgres]'"
            ) from error
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=POOL_SIZE,
                server_settings=SERVER_SETTINGS,
                reset=_keep_session,
                command_timeout=STATEMENT_WAIT_S,
            )
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageUnavailable(f"Could not open the database at {redacted(dsn)}: {error}") from error
        storage = cls(pool)
        try:
            await storage._migrate()
        except BaseException:
            await pool.close()
            raise
        return storage

    async def close(self) -> None:
        await self._pool.close()  # asyncpg makes a second close a no-op

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            if await conn.fetchval("SELECT to_regclass('schema_migrations')", timeout=LONG_WAIT_S) is None:
                return 0
            return int(
                await conn.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", timeout=LONG_WAIT_S
                )
            )

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            # A schema waits for the disk: the pool's commits do not (SERVER_SETTINGS), and a
            # crash taking back a new table would leave the bot on a database without it.
            await conn.execute(DURABLE, timeout=LONG_WAIT_S)
            # One process migrates at a time; the others wait here, then find nothing left to do.
            # The lock is released with the transaction, so a crash cannot leave it held.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=LONG_WAIT_S)
            await conn.execute(VERSIONS_TABLE, timeout=LONG_WAIT_S)
            version = await conn.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", timeout=LONG_WAIT_S
            )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                await conn.execute(script, timeout=LONG_WAIT_S)
                await conn.execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)", number, timeout=LONG_WAIT_S
                )

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
        """One round trip: asyncpg prepares the statement once per pooled connection and then only
        binds and executes it, and the commit does not wait for the disk (``SERVER_SETTINGS``).
        With log rows, still one statement: one transaction. A ``durable`` save (a game's state at
        its Start, and a finished game's, written before its record) waits for the disk as a
        record does: a server crash right after it must not bring the game back as it was before
        (its lobby, an earlier turn), which a restart would then never record."""
        text = orjson.dumps(state, option=JSON_OPTIONS).decode()
        args: list[Any] = [channel_id, guild_id, kind, text, now]
        if log is None:
            statement = SAVE_SESSION
        else:
            statement = SAVE_SESSION_AND_LOG
            entries = [orjson.dumps(entry, option=JSON_OPTIONS).decode() for entry in log.rows]
            args += [log.key, log.end, log.start == 0, log.start, entries]
        if durable:
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute(DURABLE)
                whole = await conn.fetchval(statement, *args)
        else:
            whole = await self._pool.fetchval(statement, *args)
        if log is not None and not whole:
            raise LogGap(log.key, log.start)

    async def delete_session(self, guild_id: int, channel_id: int) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            for table in ("session_log", "sessions"):
                await conn.execute(
                    f"DELETE FROM {table} WHERE guild_id = $1 AND channel_id = $2", guild_id, channel_id
                )

    async def load_sessions(self, shards: Shards | None = None) -> list[SavedSession]:
        where, args = "", ()
        if shards is not None:
            where = " WHERE ((s.guild_id >> 22) % $1) = ANY($2::bigint[])"
            args = (shards.count, sorted(shards.ids))
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            # One snapshot: a session saved meanwhile cannot count rows this read missed.
            entries = await conn.fetch(SAVED_LOGS.format(where=where), *args, timeout=LONG_WAIT_S)
            sessions = await conn.fetch(SAVED_SESSIONS.format(where=where), *args, timeout=LONG_WAIT_S)
        logs: dict[str, list[Any]] = {}
        for key, entry in entries:
            logs.setdefault(key, []).append(orjson.loads(entry))
        return [
            SavedSession(orjson.loads(state), None if key is None else logs.get(key, []))
            for state, key in sessions
        ]

    # ----------------------------------------------------------------- finished games

    async def record_game(self, record: GameRecord) -> bool:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(DURABLE)  # a result is never lost
            # A second process recording the same key waits on the unique index until this commits,
            # then inserts nothing.
            game_id = await conn.fetchval(
                INSERT_GAME,
                record.game_key,
                record.guild_id,
                record.channel_id,
                record.kind,
                json.dumps(dict(record.options), sort_keys=True),
                record.seed,
                record.started_at,
                record.ended_at,
                record.outcome,
            )
            if game_id is None:
                return False
            await conn.executemany(
                INSERT_PLAYER,
                [
                    (game_id, record.guild_id, p.user_id, p.seat, p.score, int(p.won), p.name)
                    for p in record.players
                ],
            )
            if record.log is not None:
                await conn.execute(
                    "INSERT INTO game_logs (game_id, guild_id, record) VALUES ($1, $2, $3)",
                    game_id,
                    record.guild_id,
                    pack_log(record.log),
                )
            await self._rate(conn, record)
        return True

    @staticmethod
    async def _rate(conn: asyncpg.Connection, record: GameRecord) -> None:
        await conn.execute(STANDINGS_LOCK, record.guild_id)
        found = await conn.fetch(
            "SELECT season_id, user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = $1 AND kind = $2 "
            "AND season_id = ANY($3::bigint[]) AND user_id = ANY($4::bigint[])",
            record.guild_id,
            record.kind,
            [RUNNING_SEASON, ALL_TIME],
            sorted({p.user_id for p in record.players}),
        )
        rated = await conn.fetchval(
            "SELECT computers_rated FROM guild_settings WHERE guild_id = $1", record.guild_id
        )
        current = {(int(r[0]), int(r[1])): tuple(r)[2:] for r in found}
        rows = rating_rows(record, current, computers_rated=bool(rated))
        if rows:
            await conn.executemany(UPSERT_RATING, [(record.guild_id, record.kind, *row) for row in rows])

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
        ranking = f"SUM(p.won) DESC, SUM(p.score) {order}"
        if sort == "score":
            ranking = f"SUM(p.score) {order}, SUM(p.won) DESC"
        args = (guild_id, kind, season, FORMER_MEMBER)
        async with self._pool.acquire() as conn:
            total = await conn.fetchval(
                f"SELECT COUNT(DISTINCT p.user_id) {RANKED.replace('$5', '$3').replace('$6', '$4')}", *args
            )
            rows = await conn.fetch(
                f"SELECT p.user_id, COUNT(*), SUM(p.won), SUM(p.score), {NEWEST_NAME.format(user='p.user_id')} "
                f"{RANKED} GROUP BY p.user_id ORDER BY {ranking}, COUNT(*) DESC, p.user_id ASC LIMIT $3 OFFSET $4",
                guild_id,
                kind,
                limit,
                offset,
                season,
                FORMER_MEMBER,
            )
        return [Standing(int(u), int(n), int(w), int(s), name) for u, n, w, s, name in rows], int(total)

    async def _rating_board(
        self, guild_id: int, kind: str, season: int, offset: int, limit: int
    ) -> tuple[list[Standing], int]:
        base = "FROM ratings r WHERE r.guild_id = $1 AND r.kind = $2 AND r.season_id = $3 AND r.games >= $4"
        async with self._pool.acquire() as conn:
            total = await conn.fetchval(f"SELECT COUNT(*) {base}", guild_id, kind, season, MIN_RATED_GAMES)
            rows = await conn.fetch(
                f"SELECT r.user_id, r.games, r.wins, r.mu, r.sigma, {NEWEST_NAME.format(user='r.user_id')} "
                f"{base} ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id ASC LIMIT $5 OFFSET $6",
                guild_id,
                kind,
                season,
                MIN_RATED_GAMES,
                limit,
                offset,
            )
        return [
            Standing(int(u), int(n), int(w), 0, name, Rating(mu, sigma)) for u, n, w, mu, sigma, name in rows
        ], int(total)

    async def stats(
        self, guild_id: int, user_id: int, lower_score_wins: Mapping[str, bool] | None = None
    ) -> list[KindStats]:
        rows = await self._pool.fetch(
            "SELECT g.kind, g.outcome, COUNT(*), SUM(p.won), SUM(p.score), MIN(p.score), MAX(p.score) "
            "FROM game_players p JOIN games g ON g.id = p.game_id "
            "WHERE g.guild_id = $1 AND p.guild_id = $1 AND p.user_id = $2 GROUP BY g.kind, g.outcome "
            "ORDER BY g.kind",
            guild_id,
            user_id,
        )
        return fold_stats(rows, lower_score_wins)

    async def game_count(self, guild_id: int, kind: str | None = None, *, season: int | None = None) -> int:
        count = await self._pool.fetchval(
            "SELECT COUNT(*) FROM games WHERE guild_id = $1 AND ($2::text IS NULL OR kind = $2) "
            "AND ($3::bigint IS NULL OR season_id = $3)",
            guild_id,
            kind,
            season,
        )
        return int(count)

    async def recent_games(
        self, guild_id: int, *, channel_id: int | None = None, user_id: int | None = None, limit: int = 25
    ) -> list[StoredGame]:
        rows = await self._pool.fetch(
            "SELECT g.game_key, g.kind, g.channel_id, g.ended_at, "
            "ARRAY(SELECT p.name FROM game_players p WHERE p.game_id = g.id ORDER BY p.seat) "
            "FROM games g JOIN game_logs l ON l.game_id = g.id WHERE g.guild_id = $1 AND l.guild_id = $1 "
            "AND ($2::BIGINT IS NULL OR g.channel_id = $2) AND ($3::BIGINT IS NULL OR EXISTS "
            "(SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.user_id = $3)) "
            "ORDER BY g.ended_at DESC, g.id DESC LIMIT $4",
            guild_id,
            channel_id,
            user_id,
            limit,
        )
        return [StoredGame(key, kind, int(ch), int(end), list(names)) for key, kind, ch, end, names in rows]

    async def game_log(self, guild_id: int, game_key: str) -> StoredGame | None:
        row = await self._pool.fetchrow(
            "SELECT g.kind, g.channel_id, g.ended_at, l.record, "
            "ARRAY(SELECT p.name FROM game_players p WHERE p.game_id = g.id ORDER BY p.seat) "
            "FROM games g JOIN game_logs l ON l.game_id = g.id "
            "WHERE g.guild_id = $1 AND l.guild_id = $1 AND g.game_key = $2",
            guild_id,
            game_key,
        )
        if row is None:
            return None
        kind, channel, ended, data, names = row
        return StoredGame(game_key, kind, int(channel), int(ended), list(names), unpack_log(data))

    async def past_game(self, guild_id: int, game_key: str) -> PastGame | None:
        row = await self._pool.fetchrow(
            "SELECT g.kind, g.options, "
            "ARRAY(SELECT p.user_id FROM game_players p WHERE p.game_id = g.id AND p.guild_id = $1 "
            "ORDER BY p.seat) FROM games g WHERE g.guild_id = $1 AND g.game_key = $2",
            guild_id,
            game_key,
        )
        if row is None:
            return None
        kind, options, users = row
        return PastGame(kind, json.loads(options), [int(user) for user in users])

    async def ratings_of(self, guild_id: int, user_id: int) -> list[MemberRating]:
        rows = await self._pool.fetch(
            "SELECT kind, season_id, mu, sigma, prev_mu, prev_sigma, games, wins FROM ratings "
            "WHERE guild_id = $1 AND user_id = $2 AND season_id = ANY($3::bigint[]) "
            "ORDER BY kind, season_id DESC",
            guild_id,
            user_id,
            [RUNNING_SEASON, ALL_TIME],
        )
        return member_ratings(rows)

    async def history_rows(self, guild_id: int, user_id: int) -> list[Sequence[Any]]:
        return await self._pool.fetch(HISTORY_GAMES, guild_id, user_id)

    # ----------------------------------------------------------------- seasons

    async def new_season(self, guild_id: int, name: str, now: int) -> Season | None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(STANDINGS_LOCK, guild_id)
            season_id = await conn.fetchval(
                "INSERT INTO seasons (guild_id, name, key, ended_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (guild_id, key) DO NOTHING RETURNING id",
                guild_id,
                name.strip(),
                season_key(name),
                now,
            )
            if season_id is None:
                return None
            for table in ("games", "ratings"):
                await conn.execute(
                    f"UPDATE {table} SET season_id = $1 WHERE guild_id = $2 AND season_id = $3",
                    season_id,
                    guild_id,
                    RUNNING_SEASON,
                )
        return Season(int(season_id), name.strip(), now)

    async def seasons(self, guild_id: int) -> list[Season]:
        rows = await self._pool.fetch(
            "SELECT id, name, ended_at FROM seasons WHERE guild_id = $1 ORDER BY ended_at DESC, id DESC",
            guild_id,
        )
        return [Season(int(i), n, int(e)) for i, n, e in rows]

    # ----------------------------------------------------------------- server settings

    async def settings(self, guild_id: int) -> GuildSettings:
        row = await self._pool.fetchrow(
            f"SELECT {', '.join(SETTINGS_COLUMNS)} FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return settings_of(tuple(row) if row is not None else None)

    async def update_settings(self, guild_id: int, **changes: object) -> None:
        columns = setting_columns(changes)
        await self._pool.execute(
            f"INSERT INTO guild_settings (guild_id, {', '.join(columns)}) "
            f"VALUES ($1, {', '.join(f'${i}' for i in range(2, len(columns) + 2))}) "
            f"ON CONFLICT (guild_id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in columns),
            guild_id,
            *(changes[c] for c in columns),
        )

    # ----------------------------------------------------------------- members' data

    async def forget_member(self, user_id: int) -> int:
        async with self._pool.acquire() as conn, conn.transaction():
            seats = await conn.execute(
                "UPDATE game_players SET user_id = $1, name = NULL WHERE user_id = $2",
                FORMER_MEMBER,
                user_id,
                timeout=LONG_WAIT_S,
            )
            ratings = await conn.execute(
                "DELETE FROM ratings WHERE user_id = $1", user_id, timeout=LONG_WAIT_S
            )
        return _rows(seats) + _rows(ratings)

    async def reset_standings(self, guild_id: int) -> int:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(STANDINGS_LOCK, guild_id, timeout=LONG_WAIT_S)
            games = await conn.fetchval(
                "SELECT COUNT(*) FROM games WHERE guild_id = $1", guild_id, timeout=LONG_WAIT_S
            )
            for table in STANDINGS_TABLES:
                await conn.execute(f"DELETE FROM {table} WHERE guild_id = $1", guild_id, timeout=LONG_WAIT_S)
        return int(games)


def _rows(status: str) -> int:
    """The row count of a command status such as ``UPDATE 3``."""
    return int(status.rsplit(" ", 1)[-1])


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a pooled connection needs between uses: nothing. This module leaves no session state
    behind (its one lock and its one SET last a transaction), and asyncpg's default reset query
    (RESET ALL, UNLISTEN *, …) would cost a second round trip on every save."""
