"""A PostgreSQL server that crashes loses the last few hundred milliseconds of commits (saves do not
wait for the disk), log rows included, though the bot saw them succeed. The next save's rows would
then follow rows the server no longer has, and its state would count them: the game could not be
restored. Such a save writes nothing and says so (``LogGap``), and the whole log goes again
(issue 30, found by the chaos test's real server restarts)."""

from __future__ import annotations

import pytest
from test_sessions import scores, start_tap

from bot.storage import LogGap, LogRows, Storage

GUILD = 111


async def lose_the_last_commit(storage, key: str, rows: int) -> None:
    """What a crash of the server does to the game's last save: its rows are gone (its state
    too, but the bot's next save replaces that anyway)."""
    await storage._pool.execute("DELETE FROM session_log WHERE game_key = $1 AND position >= $2", key, rows)
    await storage._pool.execute("UPDATE sessions SET log_rows = $1 WHERE game_key = $2", rows, key)


async def test_a_save_following_rows_the_server_lost_writes_nothing(postgres_url):
    storage = await Storage.open(postgres_url)
    try:
        await storage.save_session(GUILD, 5, "tap", {"step": 1}, 1, LogRows("g1", 0, ["a", "b"]))
        await storage.save_session(GUILD, 5, "tap", {"step": 2}, 2, LogRows("g1", 2, ["c"]))
        await lose_the_last_commit(storage, "g1", 2)
        with pytest.raises(LogGap):
            await storage.save_session(GUILD, 5, "tap", {"step": 3}, 3, LogRows("g1", 3, ["d"]))
        [saved] = await storage.load_sessions()
        assert saved.log == ["a", "b"]  # nothing of the refused save was written
        await storage.save_session(GUILD, 5, "tap", {"step": 3}, 3, LogRows("g1", 0, ["a", "b", "c", "d"]))
        [saved] = await storage.load_sessions()
        assert saved.state == {"step": 3} and saved.log == ["a", "b", "c", "d"]
    finally:
        await storage.close()


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_game_whose_last_save_the_server_lost_is_saved_whole_and_restores(
    world, simcord_env, restart_bot
):
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    await alice.click(world.board(), label="Tap")
    session = simcord_env.bot.sessions.get(world.channel.id)
    await lose_the_last_commit(simcord_env.bot.storage, session.game_key, session.logged - 1)
    await bob.click(world.board(), label="Tap")  # its save meets the gap, and saves the whole log
    await restart_bot()
    await simcord_env.settle()
    assert simcord_env.bot.sessions.get(world.channel.id) is not None  # restored, not refused
    await alice.click(world.board(), label="Tap")  # and it plays on
    assert scores(world) == "alice: 2\nbob: 1"
    assert not simcord_env.errors
