"""Ratings, seasons and members' data in storage, on both backends: a recorded game rates its
players once; a season archives the running standings; forget-me and a server reset remove
exactly what they say."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.community.ratings import MIN_RATED_GAMES, NEW, Rating, update
from bot.storage import (
    ALL_TIME,
    FORMER_MEMBER,
    RUNNING_SEASON,
    GameRecord,
    GuildSettings,
    PlayerRecord,
    Storage,
)

GUILD, OTHER = 111, 222


@pytest.fixture
async def storage(storage_target):
    store = await Storage.open(storage_target)
    yield store
    await store.close()


def game(key: str, order: list[int], *, guild: int = GUILD, kind: str = "tap", ended_at: int = 2000, **kw):
    """Users in finishing order, first place winning, scores 10, 9, 8…"""
    players = [
        PlayerRecord(user, seat, 10 - seat, seat == 0, f"user{user}", place=seat + 1, **kw)
        for seat, user in enumerate(order)
    ]
    return GameRecord(key, guild, 5, kind, {}, 1, 1000, ended_at, "finished", players)


def rating_of(rows, kind="tap", season=RUNNING_SEASON):
    return next(r for r in rows if r.kind == kind and r.season_id == season)


async def test_a_finished_game_rates_its_players_this_season_and_all_time(storage):
    assert await storage.record_game(game("g1", [1, 2]))
    winner, loser = update([NEW, NEW], [1, 2])
    for season in (RUNNING_SEASON, ALL_TIME):
        one = rating_of(await storage.ratings_of(GUILD, 1), season=season)
        two = rating_of(await storage.ratings_of(GUILD, 2), season=season)
        assert (one.rating, one.before, one.games, one.wins) == (winner, NEW, 1, 1)
        assert (two.rating, two.games, two.wins) == (loser, 1, 0)
        assert (one.change, two.change) == (69, -37)  # 1000 → 1069 and 1000 → 963


async def test_recording_the_same_game_twice_rates_it_once(storage):
    await storage.record_game(game("g1", [1, 2]))
    assert not await storage.record_game(game("g1", [1, 2]))
    assert rating_of(await storage.ratings_of(GUILD, 1)).games == 1


async def test_the_second_game_starts_from_the_first_games_ratings(storage):
    await storage.record_game(game("g1", [1, 2]))
    await storage.record_game(game("g2", [2, 1], ended_at=3000))
    first = update([NEW, NEW], [1, 2])
    second = update(first, [2, 1])
    mine = rating_of(await storage.ratings_of(GUILD, 1))
    assert (mine.rating, mine.before, mine.games, mine.wins) == (second[0], first[0], 2, 1)


async def test_abandoned_games_games_without_places_and_games_with_computers_change_no_rating(storage):
    await storage.record_game(replace(game("a", [1, 2]), outcome="abandoned"))
    unplaced = [PlayerRecord(1, 0, 1, True), PlayerRecord(2, 1, 0, False)]
    await storage.record_game(GameRecord("u", GUILD, 5, "tap", {}, 1, 1, 2, "finished", unplaced))
    with_computer = game("c", [1, 2])
    seats = [*with_computer.players[:1], PlayerRecord(2, 1, 0, False, "cpu", place=2, computer=True)]
    await storage.record_game(GameRecord("c", GUILD, 5, "tap", {}, 1, 1, 2, "finished", seats))
    assert await storage.game_count(GUILD) == 3
    assert await storage.ratings_of(GUILD, 1) == []


async def test_a_server_that_rates_games_with_computers_rates_the_humans_and_never_the_computer(storage):
    def with_computer(key: str, guild: int = GUILD) -> GameRecord:
        humans = game(key, [1, 2], guild=guild).players
        cpu = PlayerRecord(FORMER_MEMBER, 2, 0, False, "🤖 Robo 1", place=3, computer=True)
        return GameRecord(key, guild, 5, "tap", {}, 1, 1, 2, "finished", [*humans, cpu])

    assert not (await storage.settings(GUILD)).computers_rated  # off until a server turns it on
    await storage.record_game(with_computer("off"))
    assert await storage.ratings_of(GUILD, 1) == []
    await storage.set_computers_rated(GUILD, True)
    assert (await storage.settings(GUILD)).computers_rated
    assert not (await storage.settings(OTHER)).computers_rated  # one server's switch only
    await storage.record_game(with_computer("on"))
    await storage.record_game(with_computer("other", guild=OTHER))
    # Rated among the three seats' places, the humans first and second.
    expected = update([NEW, NEW], [1, 2])
    assert [rating_of(await storage.ratings_of(GUILD, u)).rating for u in (1, 2)] == expected
    assert await storage.ratings_of(GUILD, FORMER_MEMBER) == []
    assert await storage.ratings_of(OTHER, 1) == []
    for n in range(MIN_RATED_GAMES):
        await storage.record_game(replace(with_computer(f"more{n}"), ended_at=3000 + n))
    rows, _ = await storage.leaderboard(GUILD, "tap", sort="rating")
    assert [r.user_id for r in rows] == [1, 2]
    await storage.set_computers_rated(GUILD, False)
    await storage.record_game(replace(with_computer("off again"), ended_at=9000))
    assert rating_of(await storage.ratings_of(GUILD, 1)).games == 1 + MIN_RATED_GAMES


async def test_the_rating_board_ranks_by_mu_minus_three_sigma_after_enough_games(storage):
    # user 1 wins every game, 3 always comes last, 2 in between; 4 played once only.
    for n in range(MIN_RATED_GAMES):
        await storage.record_game(game(f"g{n}", [1, 2, 3], ended_at=2000 + n))
    await storage.record_game(game("late", [4, 3], ended_at=9000))
    rows, total = await storage.leaderboard(GUILD, "tap", sort="rating", season=RUNNING_SEASON)
    assert total == 3 and [r.user_id for r in rows] == [1, 2, 3]
    assert rows[0].rating is not None and rows[0].rating.shown > rows[1].rating.shown > rows[2].rating.shown
    assert (rows[0].games, rows[0].wins, rows[0].name) == (MIN_RATED_GAMES, MIN_RATED_GAMES, "user1")
    # Ratings are per server and per game.
    assert (await storage.leaderboard(OTHER, "tap", sort="rating"))[1] == 0
    assert (await storage.leaderboard(GUILD, "other", sort="rating"))[1] == 0


async def test_sort_by_score_puts_the_highest_total_first_whatever_the_wins(storage):
    await storage.record_game(game("g1", [1, 2]))  # 1: 10, 2: 9
    await storage.record_game(game("g2", [3, 2]))  # 3: 10, 2: 9 → 2 has 18
    rows, _ = await storage.leaderboard(GUILD, "tap", sort="score")
    assert [(r.user_id, r.score) for r in rows] == [(2, 18), (1, 10), (3, 10)]
    rows, _ = await storage.leaderboard(GUILD, "tap", sort="wins")
    assert [r.user_id for r in rows] == [1, 3, 2]


async def test_a_new_season_archives_the_running_standings_and_everyone_starts_fresh(storage):
    for n in range(MIN_RATED_GAMES):
        await storage.record_game(game(f"g{n}", [1, 2], ended_at=2000 + n))
    await storage.record_game(game("x", [7, 8], guild=OTHER))
    before, _ = await storage.leaderboard(GUILD, "tap", sort="rating", season=RUNNING_SEASON)
    season = await storage.new_season(GUILD, "Spring", 5000)
    assert season is not None and season.name == "Spring"
    # The running season is empty, rating and wins alike.
    assert (await storage.leaderboard(GUILD, "tap", sort="rating", season=RUNNING_SEASON))[1] == 0
    assert (await storage.leaderboard(GUILD, "tap", season=RUNNING_SEASON))[1] == 0
    assert [r.kind for r in await storage.ratings_of(GUILD, 1) if r.season_id == RUNNING_SEASON] == []
    # The archive restores exactly what was running, ratings and wins.
    archived, _ = await storage.leaderboard(GUILD, "tap", sort="rating", season=season.id)
    assert [(r.user_id, r.rating) for r in archived] == [(r.user_id, r.rating) for r in before]
    wins, _ = await storage.leaderboard(GUILD, "tap", season=season.id)
    assert [(r.user_id, r.wins) for r in wins] == [(1, MIN_RATED_GAMES), (2, 0)]
    # All time keeps everything and goes on from where it was.
    all_time = rating_of(await storage.ratings_of(GUILD, 1), season=ALL_TIME)
    await storage.record_game(game("after", [1, 2], ended_at=6000))
    fresh = rating_of(await storage.ratings_of(GUILD, 1))
    assert (fresh.games, fresh.before, fresh.rating) == (1, NEW, update([NEW, NEW], [1, 2])[0])
    later = rating_of(await storage.ratings_of(GUILD, 1), season=ALL_TIME)
    assert later.games == MIN_RATED_GAMES + 1 and later.before == all_time.rating
    assert (await storage.leaderboard(GUILD, "tap"))[0][0].wins == MIN_RATED_GAMES + 1
    # Another server's running season was not touched.
    assert (await storage.leaderboard(OTHER, "tap", season=RUNNING_SEASON))[1] == 2
    assert await storage.seasons(OTHER) == []


async def test_season_names_are_unique_per_server_whatever_their_case(storage):
    first = await storage.new_season(GUILD, "Spring", 5000)
    assert await storage.new_season(GUILD, " spring ", 6000) is None
    assert await storage.new_season(OTHER, "Spring", 6000) is not None
    second = await storage.new_season(GUILD, "Summer", 7000)
    assert [s.name for s in await storage.seasons(GUILD)] == ["Summer", "Spring"]
    assert first is not None and second is not None and first.id != second.id


async def test_forget_me_removes_exactly_one_members_rows_in_every_server(storage):
    await storage.record_game(game("g1", [1, 2, 3]))
    await storage.record_game(game("g2", [2, 1], guild=OTHER))
    others_before = {
        (g, u): (await storage.ratings_of(g, u)) for g, u in ((GUILD, 1), (GUILD, 3), (OTHER, 1))
    }
    changed = await storage.forget_member(2)
    # 2 seats anonymised, 4 ratings (two servers, this season and all time) removed.
    assert changed == 6
    for guild in (GUILD, OTHER):
        assert await storage.ratings_of(guild, 2) == []
        assert await storage.stats(guild, 2) == []
    for (g, u), rows in others_before.items():
        assert await storage.ratings_of(g, u) == rows
    # The games stay whole for the others: the seat is a former member, never ranked.
    rows, total = await storage.leaderboard(GUILD, "tap")
    assert total == 2 and [r.user_id for r in rows] == [1, 3]
    assert [s.games for s in await storage.stats(GUILD, 3)] == [1]
    assert await storage.game_count(GUILD) == 1 and await storage.game_count(OTHER) == 1
    assert FORMER_MEMBER not in [r.user_id for r in (await storage.leaderboard(OTHER, "tap"))[0]]


async def test_a_server_reset_removes_that_servers_standings_only(storage):
    await storage.record_game(game("g1", [1, 2]))
    await storage.new_season(GUILD, "Spring", 3000)
    await storage.record_game(game("g2", [1, 2], ended_at=4000))
    await storage.record_game(game("x", [1, 2], guild=OTHER))
    await storage.save_session(GUILD, 5, "tap", {"kind": "tap"}, 1)
    assert await storage.reset_standings(GUILD) == 2
    assert await storage.game_count(GUILD) == 0
    assert await storage.ratings_of(GUILD, 1) == [] and await storage.seasons(GUILD) == []
    assert (await storage.leaderboard(GUILD, "tap"))[1] == 0
    assert await storage.game_count(OTHER) == 1 and len(await storage.ratings_of(OTHER, 1)) == 2
    assert len(await storage.load_sessions()) == 1  # games in progress are untouched


async def test_a_database_from_before_ratings_migrates_and_keeps_its_games_in_the_running_season(tmp_path):
    import sqlite3

    from bot.storage.sqlite import MIGRATIONS

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(f"{MIGRATIONS[0]}\n{MIGRATIONS[1]}\nPRAGMA user_version=2;")
    old.execute("INSERT INTO games VALUES (1, 'k', ?, 5, 'tap', '{}', 1, 1, 2, 'finished')", (GUILD,))
    old.execute("INSERT INTO game_players VALUES (1, ?, 7, 0, 4, 1, 'Ann')", (GUILD,))
    old.commit()
    old.close()
    storage = await Storage.open(path)
    try:
        assert await storage.game_count(GUILD, season=RUNNING_SEASON) == 1
        assert (await storage.leaderboard(GUILD, "tap", season=RUNNING_SEASON))[0][0].wins == 1
        assert await storage.ratings_of(GUILD, 7) == []  # ratings start with the next game
    finally:
        await storage.close()


def test_the_shown_rating_rounds_half_up_and_stops_at_zero():
    assert Rating(0.025, 0).shown == 1001 and Rating(-0.025, 0).shown == 1000 and Rating(-60, 0).shown == 0


async def test_settings_change_only_what_is_named_and_refuse_unknown_names(storage):
    assert await storage.settings(GUILD) == GuildSettings()
    await storage.update_settings(GUILD, turn_pings=False, champion_role_id=1234567890123)
    await storage.update_settings(GUILD, language="de")
    await storage.set_computers_rated(GUILD, True)
    assert await storage.settings(GUILD) == GuildSettings(
        computers_rated=True, turn_pings=False, champion_role_id=1234567890123, language="de"
    )
    await storage.update_settings(GUILD, champion_role_id=None, language=None)
    assert await storage.settings(GUILD) == GuildSettings(computers_rated=True, turn_pings=False)
    assert await storage.settings(GUILD + 1) == GuildSettings()
    with pytest.raises(ValueError):
        await storage.update_settings(GUILD, **{"computers_rated = 1; --": True})


async def test_a_game_that_rates_nobody_leaves_its_players_ratings_with_no_change(storage):
    await storage.record_game(game("g1", [1, 2]))
    rated = rating_of(await storage.ratings_of(GUILD, 2))
    assert rated.change < 0
    with_computer = game("c", [1, 2, 3])
    seats = [
        *with_computer.players[:2],
        replace(with_computer.players[2], user_id=FORMER_MEMBER, computer=True),
    ]
    await storage.record_game(replace(with_computer, players=seats))
    await storage.record_game(replace(game("a", [2, 4]), outcome="abandoned"))
    for season in (RUNNING_SEASON, ALL_TIME):
        after = rating_of(await storage.ratings_of(GUILD, 2), season=season)
        assert (after.rating, after.before, after.games, after.wins) == (rated.rating, rated.rating, 1, 0)
        assert after.change == 0
    assert await storage.ratings_of(GUILD, 4) == []  # an unrated game gives nobody a rating
