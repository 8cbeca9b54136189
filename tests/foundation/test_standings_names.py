"""The leaderboard names members by the display name saved with their games, so it reads well
for a member who left; rows saved before names were, by the member's id."""

from __future__ import annotations

import sqlite3

from shown import card

from bot.storage import GameRecord, PlayerRecord, Storage
from bot.storage.sqlite import MIGRATIONS

GUILD = 111


def record(key: str, players: list[PlayerRecord], *, guild: int = GUILD, ended_at: int = 2000) -> GameRecord:
    return GameRecord(key, guild, 5, "tap", {}, 1, 1000, ended_at, "finished", players)


async def test_a_recorded_game_keeps_each_seats_display_name_and_the_newest_one_is_shown(storage_target):
    storage = await Storage.open(storage_target)
    try:
        await storage.record_game(
            record("g1", [PlayerRecord(1, 0, 3, True, "Ann"), PlayerRecord(2, 1, 1, False)])
        )
        await storage.record_game(record("g2", [PlayerRecord(1, 0, 2, True, "Annie")], ended_at=3000))
        # Another server's name for the same user is not this server's business.
        await storage.record_game(
            record("g3", [PlayerRecord(1, 0, 2, True, "Elsewhere")], guild=222, ended_at=4000)
        )
        rows, _ = await storage.leaderboard(GUILD, "tap")
        assert [(r.user_id, r.name) for r in rows] == [(1, "Annie"), (2, None)]
    finally:
        await storage.close()


async def test_a_database_from_before_names_migrates_and_its_rows_fall_back_to_the_mention(tmp_path):
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(f"{MIGRATIONS[0]}\nPRAGMA user_version=1;")
    old.execute("INSERT INTO games VALUES (1, 'k', ?, 5, 'tap', '{}', 1, 1, 2, 'finished')", (GUILD,))
    old.execute("INSERT INTO game_players VALUES (1, ?, 7, 0, 4, 1)", (GUILD,))
    old.commit()
    old.close()
    storage = await Storage.open(path)
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        rows, _ = await storage.leaderboard(GUILD, "tap")
        assert [(r.user_id, r.score, r.name) for r in rows] == [(7, 4, None)]
    finally:
        await storage.close()


async def test_the_leaderboard_shows_the_saved_name_of_a_member_who_left_and_the_id_for_old_rows(
    world, simcord_env
):
    bob = world.members[1]
    players = [
        PlayerRecord(999, 0, 5, True, "Zed *the* great `x`"),
        PlayerRecord(998, 1, 1, False),
        PlayerRecord(bob.id, 2, 0, False),
    ]
    await simcord_env.bot.storage.record_game(record("left", players, guild=world.guild.id))
    result = await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="wins")
    lines = card(result.response).description.splitlines()
    # In a code block Markdown shows as typed; a backtick, which would end the block, looks alike.
    assert lines[2] == "1     1     5      1  Zed *the* great ˋxˋ"
    # Saved before names were: their id.
    assert lines[3:5] == ["2     0     1      1  @998", f"3     0     0      1  @{bob.id}"]
