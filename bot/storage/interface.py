"""The storage interface, the rows it reads and writes, and what both backends share (the
package, ``bot.storage``, says how it is laid out)."""

from __future__ import annotations

import asyncio
import logging
import math
import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any, ClassVar

import orjson

from bot.community.ratings import NEW, Rating, counts, places, update

log = logging.getLogger(__name__)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def redacted(url: str) -> str:
    """A database address fit for a log line or an error message: without its password, whether
    in the address (``user:password@``) or among its parameters (``?password=``)."""
    scheme, _, rest = url.partition("://")
    rest, _, query = rest.partition("?")
    credentials, at, place = rest.rpartition("@")
    address = f"{scheme}://{credentials.partition(':')[0]}@{place}" if at else f"{scheme}://{rest}"
    kept = [p for p in query.split("&") if p and not p.lower().startswith(("password=", "passfile="))]
    return f"{address}?{'&'.join(kept)}" if kept else address


class LogGap(Exception):
    """A save's log rows follow rows the database no longer has (a server crash lost their commit):
    nothing was written, and the whole log must be saved again."""

    def __init__(self, key: str, start: int) -> None:
        super().__init__(f"the log of game {key} lacks rows before {start}")


class StorageUnavailable(RuntimeError):
    """The database cannot be opened; the message says which one (never its password) and why."""


@dataclass(frozen=True)
class LogRows:
    """Rows appended to an open session's log by one save: ``rows`` (JSON values) take positions
    ``start``, ``start + 1``, … of the log named ``key`` (the game's key, so a later game in the
    same channel never reads an earlier one's rows). Rows once stored are never changed; the state
    saved with them counts ``end`` rows, so state and rows always agree."""

    key: str
    start: int
    rows: Sequence[Any]

    @property
    def end(self) -> int:
        return self.start + len(self.rows)


@dataclass(frozen=True)
class SavedSession:
    """An open session as loaded: its state, and the rows of its log stored apart, in order
    (None when it was saved whole, as before the log had rows of its own)."""

    state: dict[str, Any]
    log: list[Any] | None = None


@dataclass(frozen=True)
class PlayerRecord:
    user_id: int
    seat: int
    score: int
    won: bool
    name: str | None = None  # the display name in that game
    place: int | None = None  # finishing place (1 best, ties share): rated only when every seat has one
    computer: bool = False  # a computer player: never rated (see bot/community/ratings.py, ``counts``)


# Games and ratings carry a season: the one in progress is 0, an archived one its ``seasons`` id.
RUNNING_SEASON = 0
# Ratings are also kept over every game, seasons or not, under this mark.
ALL_TIME = -1
# A forgotten member's seat in others' finished games (``forget_member``): never ranked.
FORMER_MEMBER = 0
SORTS = ("rating", "wins", "score")


@dataclass(frozen=True)
class GameRecord:
    game_key: str  # unique per game: recording the same key twice changes nothing
    guild_id: int
    channel_id: int
    kind: str
    options: Mapping[str, Any]
    seed: int
    started_at: int  # ms since the epoch
    ended_at: int
    outcome: str  # "finished" or "abandoned"
    players: Sequence[PlayerRecord]
    # A finished game's record (bot.community.replays): stored with it, compressed, for /replay and verify.
    log: Mapping[str, Any] | None = None

    @property
    def had_computers(self) -> bool:
        """Whether a computer player sat in the game: then it rates nobody unless the server
        allows it (``bot.community.ratings.counts``), and the computers' seats are stored under
        ``FORMER_MEMBER``, which no leaderboard ranks."""
        return any(p.computer for p in self.players)


@dataclass(frozen=True)
class PastGame:
    """What a rematch needs of a recorded game: its game, options and seated members."""

    kind: str
    options: Mapping[str, Any]
    user_ids: Sequence[int]  # by seat; FORMER_MEMBER for a forgotten member or a computer seat


@dataclass(frozen=True)
class StoredGame:
    """A recorded game that kept its record, as /replay lists and shows it."""

    game_key: str
    kind: str
    channel_id: int
    ended_at: int
    names: Sequence[str | None]  # each seat's display name in that game (None: not saved)
    log: Mapping[str, Any] | None = None  # read only by ``game_log``; listings leave it out


def pack_log(log: Mapping[str, Any]) -> bytes:
    """A record as stored: JSON compressed with zlib (a Kabuki record of ~30 kB takes ~4 kB)."""
    return zlib.compress(orjson.dumps(log), 6)


def unpack_log(data: bytes) -> dict[str, Any]:
    return orjson.loads(zlib.decompress(data))


@dataclass(frozen=True)
class Standing:
    user_id: int
    games: int
    wins: int
    score: int  # summed over the games
    name: str | None = None  # the newest display name saved with any of the member's games here
    rating: Rating | None = None  # on the rating board only (whose rows carry no score: 0)


@dataclass(frozen=True)
class MemberRating:
    kind: str
    season_id: int  # RUNNING_SEASON or ALL_TIME
    rating: Rating
    before: Rating  # before the member's last game (the same when that game changed nothing)
    games: int  # rated games
    wins: int

    @property
    def change(self) -> int:
        """What the member's last game did to the number they see."""
        return self.rating.shown - self.before.shown


@dataclass(frozen=True)
class PlayedSeat:
    """One seat of a finished game as stored, for replaying ratings (``rating_history``)."""

    user_id: int  # FORMER_MEMBER for a computer or a forgotten member
    score: int
    won: bool
    named: bool  # a name was saved with the seat: FORMER_MEMBER with a name is a computer


@dataclass(frozen=True)
class PlayedGame:
    """A finished game with every seat, in seat order (``Storage.history_rows``, ``played_games``)."""

    kind: str
    seats: tuple[PlayedSeat, ...]


@dataclass(frozen=True)
class Season:
    id: int
    name: str
    ended_at: int  # ms since the epoch


@dataclass(frozen=True)
class KindStats:
    kind: str
    games: int
    wins: int
    total_score: int
    best_score: int | None
    abandoned: int


@dataclass(frozen=True)
class GuildSettings:
    """A server's switches (/settings); a server that never set one has these defaults."""

    computers_rated: bool = False  # games with a computer seat change the humans' ratings
    turn_pings: bool = True  # mention the player (or players) a turn waits for, once per turn
    champion_role_id: int | None = None  # the role given to a season's champions
    language: str | None = None  # public boards' language; None: the server's own locale


# The guild_settings columns, in GuildSettings' order: the one list both backends read and write.
SETTINGS_COLUMNS: tuple[str, ...] = tuple(GuildSettings.__dataclass_fields__)


def settings_of(row: tuple | None) -> GuildSettings:
    """A server's settings from its row of SETTINGS_COLUMNS (None: it never set one)."""
    if row is None:
        return GuildSettings()
    rated, pings, role, language = row
    return GuildSettings(
        computers_rated=bool(rated),
        turn_pings=bool(pings),
        champion_role_id=int(role) if role is not None else None,
        language=language,
    )


def setting_columns(changes: Mapping[str, object]) -> list[str]:
    """The columns a settings change names, refusing any that is not a setting (the names go
    into SQL, so only the known ones may)."""
    unknown = set(changes) - set(SETTINGS_COLUMNS)
    if unknown or not changes:
        raise ValueError(f"not settings: {sorted(unknown) or 'none given'}")
    return [column for column in SETTINGS_COLUMNS if column in changes]


@dataclass(frozen=True)
class Shards:
    """The shards one process serves, out of ``count``. Discord puts a guild on shard
    ``(guild_id >> 22) % count``, so a process owns exactly the guilds of its shards."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


class Storage(ABC):
    backend: ClassVar[str]  # "sqlite" or "postgresql": for logs and metrics only

    @staticmethod
    async def open(target: str | Path) -> Storage:
        """A ``postgresql://`` address opens PostgreSQL; anything else is a SQLite file (or
        ``":memory:"``). Pending migrations are applied first, one process at a time."""
        # The backends subclass this interface, so they are found among its subclasses: the
        # package (``bot.storage``) imports both, and nothing here imports a backend back.
        backend = "postgresql" if is_postgres_url(target) else "sqlite"
        opener = next(cls for cls in Storage.__subclasses__() if cls.backend == backend)
        return await opener.connect(str(target) if backend == "postgresql" else target)  # type: ignore[attr-defined]

    @abstractmethod
    async def close(self) -> None:
        """Safe to call twice."""

    @abstractmethod
    async def schema_version(self) -> int:
        """How many migrations this database has run."""

    # ----------------------------------------------------------------- open sessions

    @abstractmethod
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
        """Written before the board changes, after every press: the hot path. The state replaces
        the channel's; ``log``'s rows are appended to its log in the same transaction (None: the
        state has no log apart). Rows of another game in the channel go when its log starts.
        ``durable``: the commit waits for the disk even where saves do not (PostgreSQL's
        ``synchronous_commit=off``), so a crash of the database cannot take it back: a game's
        state at its Start (else a restart could bring it back as its lobby) and a finished game's
        state (which a restart records when its record did not go through)."""

    @abstractmethod
    async def delete_session(self, guild_id: int, channel_id: int) -> None:
        """The channel's session and every row of its log."""

    @abstractmethod
    async def load_sessions(self, shards: Shards | None = None) -> list[SavedSession]:
        """The open sessions of the guilds on ``shards`` (every guild when None), each with the
        log rows its state counts: what a process restores at start-up. Another process's guilds
        stay untouched."""

    # ----------------------------------------------------------------- finished games

    @abstractmethod
    async def record_game(self, record: GameRecord) -> bool:
        """Store a game and its seats in one transaction; False if it was already recorded."""

    @abstractmethod
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
        """One page of the server's ranking for a game (finished games only) and the row count.
        ``sort``: "wins" (wins, then the summed score, then games played), "score" (score, then
        wins), or "rating" (μ − 3σ; members with ``bot.community.ratings.MIN_RATED_GAMES`` rated games only).
        ``season``: None for all time, ``RUNNING_SEASON`` or an archived season's id."""

    @abstractmethod
    async def stats(
        self, guild_id: int, user_id: int, lower_score_wins: Mapping[str, bool] | None = None
    ) -> list[KindStats]:
        """Per game: games, wins and scores of one member in one server."""

    @abstractmethod
    async def game_count(
        self, guild_id: int, kind: str | None = None, *, season: int | None = None
    ) -> int: ...

    @abstractmethod
    async def ratings_of(self, guild_id: int, user_id: int) -> list[MemberRating]:
        """A member's ratings in one server: per game, this season's and all time."""

    @abstractmethod
    async def history_rows(self, guild_id: int, user_id: int) -> list[Sequence[Any]]:
        """As rows for ``played_games`` (made into games off the event loop: a big server has
        thousands), the finished games that made a member's all-time ratings in one server, in the order
        they were recorded: for each game the member finished, every finished game of that game
        up to their last one, with all its seats (their opponents' ratings came from the others)."""

    async def rating_history(
        self, guild_id: int, user_id: int, lower_score_wins: Mapping[str, bool] | None = None
    ) -> dict[str, list[Rating]]:
        """Per game, a member's all-time rating after each of their rated games, oldest first.
        Storage keeps only each rating and the one before the last game (``ratings``), so the
        sequence is computed again, as recording computed it: the server's finished games replayed
        in order through ``rating_rows`` (``replay_ratings``), off the event loop. A game whose
        replay does not end at the stored rating (see ``replay_ratings`` for when) is left out,
        so no chart contradicts the number /stats shows; a member with no rated game has none."""
        stored = {
            r.kind: r for r in await self.ratings_of(guild_id, user_id) if r.season_id == ALL_TIME and r.games
        }
        if not stored:
            return {}
        rows = await self.history_rows(guild_id, user_id)
        rated = (await self.settings(guild_id)).computers_rated
        replayed = await asyncio.to_thread(
            lambda: replay_ratings(played_games(rows), user_id, lower_score_wins or {}, computers_rated=rated)
        )
        history = {}
        for kind, ratings in replayed.items():
            kept = stored.get(kind)
            if kept is not None and len(ratings) == kept.games and _same(ratings[-1], kept.rating):
                history[kind] = ratings
            else:
                log.info(
                    "rating history of a member of guild %s in %s not drawn: its replay ends at %s "
                    "after %d games, the stored rating is %s",
                    guild_id,
                    kind,
                    ratings[-1].shown if ratings else None,
                    len(ratings),
                    kept and f"{kept.rating.shown} after {kept.games} games",
                )
        return history

    # ----------------------------------------------------------------- seasons

    @abstractmethod
    async def new_season(self, guild_id: int, name: str, now: int) -> Season | None:
        """Archive the running season under ``name`` (its games and ratings) and start afresh;
        None, changing nothing, if the server already has a season of that name (any case)."""

    @abstractmethod
    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's archived seasons, newest first."""

    # ----------------------------------------------------------------- server settings

    @abstractmethod
    async def settings(self, guild_id: int) -> GuildSettings: ...

    @abstractmethod
    async def update_settings(self, guild_id: int, **changes: object) -> None:
        """Set some of this server's settings (GuildSettings' field names), keeping the others."""

    async def set_computers_rated(self, guild_id: int, rated: bool) -> None:
        """Whether this server's games with a computer seat change the humans' ratings from now on."""
        await self.update_settings(guild_id, computers_rated=rated)

    # ----------------------------------------------------------------- members' data

    @abstractmethod
    async def forget_member(self, user_id: int) -> int:
        """In every server: the member's ratings go, and their seats in finished games become
        ``FORMER_MEMBER`` without a name. Returns how many rows were changed or removed."""

    @abstractmethod
    async def reset_standings(self, guild_id: int) -> int:
        """Remove one server's finished games, seats, ratings and seasons; returns the games removed.
        Games in progress are untouched."""

    # ----------------------------------------------------------------- replays

    @abstractmethod
    async def recent_games(
        self, guild_id: int, *, channel_id: int | None = None, user_id: int | None = None, limit: int = 25
    ) -> list[StoredGame]:
        """The server's newest finished games that kept their record, newest first, in one channel
        or with one member seated (or both); without their records."""

    @abstractmethod
    async def game_log(self, guild_id: int, game_key: str) -> StoredGame | None:
        """One finished game of this server with its record, or None."""

    @abstractmethod
    async def past_game(self, guild_id: int, game_key: str) -> PastGame | None:
        """One recorded game of this server (finished or abandoned) with its seats, or None."""


def season_key(name: str) -> str:
    """Season names are unique per server whatever their case."""
    return name.strip().casefold()


RatingRow = tuple[int, int, float, float, float, float, int, int]


def rating_rows(
    record: GameRecord,
    current: Mapping[tuple[int, int], Sequence[Any]],
    *,
    computers_rated: bool = False,
    seasons: Sequence[int] = (RUNNING_SEASON, ALL_TIME),
) -> list[RatingRow]:
    """The rating rows a recorded game writes: ``(season, user, μ, σ, μ before, σ before, games,
    wins)`` for this season and all time (``seasons``: a replay asks for all time only). ``current``
    holds the rows found, by (season, user), as (μ, σ, games, wins). A game that rates nobody (abandoned, without places, or one that does
    not count: ``bot.community.ratings.counts``, computers unless ``computers_rated``, fewer than two
    humans) still is its players' last game: their rows keep μ and σ and set "before" to them,
    so /stats shows no change for it instead of the change of an older rated game."""
    seats = record.players
    humans = [p for p in seats if not p.computer]
    rated = record.outcome == "finished" and all(p.place is not None for p in seats)
    if not rated or not counts([p.computer for p in seats], computers_rated=computers_rated):
        return [
            (season, p.user_id, float(f[0]), float(f[1]), float(f[0]), float(f[1]), int(f[2]), int(f[3]))
            for season in seasons
            for p in humans
            if (f := current.get((season, p.user_id)))
        ]
    rows: list[RatingRow] = []
    for season in seasons:
        found = [current.get((season, p.user_id)) for p in humans]
        before = [Rating(float(f[0]), float(f[1])) if f else NEW for f in found]
        after = update(before, [p.place or 0 for p in humans])
        for p, old, new, f in zip(humans, before, after, found, strict=True):
            games, wins = (int(f[2]), int(f[3])) if f else (0, 0)
            rows.append(
                (season, p.user_id, new.mu, new.sigma, old.mu, old.sigma, games + 1, wins + int(p.won))
            )
    return rows


def replay_ratings(
    games: Iterable[PlayedGame],
    user_id: int,
    lower_score_wins: Mapping[str, bool],
    *,
    computers_rated: bool = False,
) -> dict[str, list[Rating]]:
    """Per game, ``user_id``'s all-time rating after each game that rated them, replaying
    ``games`` (in recorded order) as recording rated them: finishing places from the stored
    scores and wins (``places``, as ``bot.session.recording`` computes them), then ``rating_rows``.

    What storage does not keep, this cannot know, and the replay may then end elsewhere than the
    stored rating (``Storage.rating_history`` checks): whether the server rated games with computers
    at the time (today's ``computers_rated`` is used), the ratings of members who were forgotten
    since (each forgotten seat plays as a newcomer), and games recorded before ratings existed
    (those rated nobody then; a replay rates them)."""
    current: dict[str, dict[tuple[int, Any], Sequence[Any]]] = {}
    history: dict[str, list[Rating]] = {}
    for game in games:
        found = current.setdefault(game.kind, {})
        finish = places(
            [s.score for s in game.seats],
            [seat for seat, s in enumerate(game.seats) if s.won],
            lower_score_wins.get(game.kind, False),
        )
        players = []
        strangers = []
        for seat, s in enumerate(game.seats):
            computer = s.user_id == FORMER_MEMBER and s.named
            user = s.user_id
            if user == FORMER_MEMBER and not computer:
                user = -1 - seat  # a forgotten member: a newcomer of this game alone
                strangers.append(user)
            players.append(PlayerRecord(user, seat, s.score, s.won, place=finish[seat], computer=computer))
        record = GameRecord("", 0, 0, game.kind, {}, 0, 0, 0, "finished", players)
        before = found.get((ALL_TIME, user_id))
        for season, user, mu, sigma, _, _, played, wins in rating_rows(
            record, found, computers_rated=computers_rated, seasons=(ALL_TIME,)
        ):
            found[(season, user)] = (mu, sigma, played, wins)
        for user in strangers:
            found.pop((ALL_TIME, user), None)
        after = found.get((ALL_TIME, user_id))
        if after is not None and (before is None or after[2] > before[2]):
            history.setdefault(game.kind, []).append(Rating(after[0], after[1]))
    return history


def played_games(rows: Iterable[Sequence[Any]]) -> list[PlayedGame]:
    """Rows of (game id, kind, user, score, won, named), by game and seat, as ``PlayedGame``s."""
    return [
        PlayedGame(kind, tuple(PlayedSeat(int(u), int(s), bool(w), bool(n)) for _, _, u, s, w, n in seats))
        for (_, kind), seats in groupby(rows, key=lambda row: (row[0], row[1]))
    ]


def _same(one: Rating, other: Rating) -> bool:
    """The same rating, but for the last bits a database's floating point may round."""
    return math.isclose(one.mu, other.mu, abs_tol=1e-9) and math.isclose(one.sigma, other.sigma, abs_tol=1e-9)


def member_ratings(rows: Iterable[Sequence[Any]]) -> list[MemberRating]:
    """Rows of (kind, season, μ, σ, μ before, σ before, games, wins)."""
    return [
        MemberRating(k, int(s), Rating(float(m), float(sd)), Rating(float(pm), float(ps)), int(g), int(w))
        for k, s, m, sd, pm, ps, g, w in rows
    ]


def fold_stats(rows: Iterable[Sequence[Any]], lower_score_wins: Mapping[str, bool] | None) -> list[KindStats]:
    """Rows of (kind, outcome, games, wins, total, lowest, highest), grouped by kind and outcome,
    folded into one ``KindStats`` per kind: abandoned games are counted apart."""
    lower = lower_score_wins or {}
    by_kind: dict[str, KindStats] = {}
    for kind, outcome, n, wins, total, low, high in rows:
        current = by_kind.get(kind, KindStats(kind, 0, 0, 0, None, 0))
        if outcome == "abandoned":
            by_kind[kind] = KindStats(
                kind, current.games, current.wins, current.total_score, current.best_score, int(n)
            )
        else:
            best = int(low) if lower.get(kind, False) else int(high)
            by_kind[kind] = KindStats(kind, int(n), int(wins), int(total), best, current.abandoned)
    return list(by_kind.values())
