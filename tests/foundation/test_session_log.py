"""An open game's log is saved append-only: each save stores the state without the log plus the
entries added since the last save, as rows of their own, in one transaction with the state; a
restart puts them back. On both backends, then through SimCord with the Tap test game."""

from __future__ import annotations

import asyncio

import orjson
import pytest
from test_sessions import finish_tap, start_tap

from bot.session.sessions import restored_state
from bot.storage import LogRows, Shards, Storage

GUILD, OTHER_GUILD = 111, 222


@pytest.fixture
async def storage(storage_target):
    store = await Storage.open(storage_target)
    yield store
    await store.close()


@pytest.fixture
async def sqlite_storage(tmp_path):
    store = await Storage.open(tmp_path / "bot.db")
    yield store
    await store.close()


async def stored_rows(storage: Storage) -> list[tuple[str, int, int]]:
    """Every log row in the database: (game key, position, channel)."""
    sql = "SELECT game_key, position, channel_id FROM session_log ORDER BY game_key, position"
    if storage.backend == "sqlite":
        rows = await storage._db.execute_fetchall(sql)  # type: ignore[attr-defined]
    else:
        rows = await storage._pool.fetch(sql)  # type: ignore[attr-defined]
    return [(key, int(at), int(channel)) for key, at, channel in rows]


async def stored_state(storage: Storage, channel_id: int) -> bytes:
    sql = "SELECT state FROM sessions WHERE channel_id = {}"
    if storage.backend == "sqlite":
        (row,) = await storage._db.execute_fetchall(sql.format("?"), (channel_id,))  # type: ignore[attr-defined]
    else:
        row = await storage._pool.fetchrow(sql.format("$1"), channel_id)  # type: ignore[attr-defined]
    return row[0].encode()


async def test_each_save_writes_only_the_rows_added_since_the_last_and_a_load_gives_them_all(storage):
    await storage.save_session(GUILD, 5, "kingdom", {"step": 1}, 1, LogRows("g1", 0, [{"e": 0}, {"e": 1}]))
    assert await stored_rows(storage) == [("g1", 0, 5), ("g1", 1, 5)]
    await storage.save_session(GUILD, 5, "kingdom", {"step": 2}, 2, LogRows("g1", 2, [{"e": 2}]))
    assert await stored_rows(storage) == [("g1", 0, 5), ("g1", 1, 5), ("g1", 2, 5)]
    assert await stored_state(storage, 5) == b'{"step":2}'  # the log is not in the state
    (saved,) = await storage.load_sessions()
    assert saved.state == {"step": 2} and saved.log == [{"e": 0}, {"e": 1}, {"e": 2}]


async def test_a_load_gives_only_the_rows_the_saved_state_counts(storage):
    # Two saves of one game racing on PostgreSQL's pool may commit out of order: the older state,
    # counting fewer rows, may land last. State and log must still agree.
    await storage.save_session(GUILD, 5, "kingdom", {"step": 3}, 1, LogRows("g1", 0, [1, 2, 3]))
    await storage.save_session(GUILD, 5, "kingdom", {"step": 2}, 2, LogRows("g1", 1, [2]))
    (saved,) = await storage.load_sessions()
    assert saved.state == {"step": 2} and saved.log == [1, 2]


async def test_a_session_saved_whole_loads_without_rows(storage):
    await storage.save_session(GUILD, 5, "kingdom", {"engine": {"log": [1, 2]}}, 1)
    (saved,) = await storage.load_sessions()
    assert saved.log is None and saved.state == {"engine": {"log": [1, 2]}}


async def test_deleting_a_session_deletes_its_log_rows_and_no_other_channels(storage):
    await storage.save_session(GUILD, 5, "kingdom", {"step": 1}, 1, LogRows("g1", 0, [1, 2]))
    await storage.save_session(GUILD, 6, "kingdom", {"step": 1}, 1, LogRows("g2", 0, [3]))
    await storage.delete_session(OTHER_GUILD, 5)  # another server's command cannot reach it
    assert len(await stored_rows(storage)) == 3
    await storage.delete_session(GUILD, 5)
    assert await stored_rows(storage) == [("g2", 0, 6)]


async def test_a_later_game_in_the_channel_never_reads_nor_keeps_an_earlier_ones_rows(storage):
    # As if the process died before the first game's session was deleted: the next game's first
    # save replaces the session, and its log starts afresh.
    await storage.save_session(GUILD, 5, "kingdom", {"game": 1}, 1, LogRows("first", 0, [1, 2, 3]))
    await storage.save_session(GUILD, 5, "kingdom", {"game": 2}, 2, LogRows("second", 0, ["a"]))
    assert await stored_rows(storage) == [("second", 0, 5)]
    (saved,) = await storage.load_sessions()
    assert saved.state == {"game": 2} and saved.log == ["a"]


async def test_a_lobby_saved_after_a_game_reads_no_rows(storage):
    await storage.save_session(GUILD, 5, "kingdom", {"game": 1}, 1, LogRows("first", 0, [1, 2, 3]))
    await storage.save_session(GUILD, 5, "kingdom", {"lobby": 2}, 2)
    (saved,) = await storage.load_sessions()
    assert saved.state == {"lobby": 2} and saved.log is None


async def test_shard_filtered_loads_get_their_own_sessions_logs(storage):
    on_shard = {shard: (1000 + shard) << 22 for shard in range(4)}  # guild ids on shards 0-3 of 4
    for shard, guild in on_shard.items():
        log = LogRows(f"game-{shard}", 0, [shard, shard * 10])
        await storage.save_session(guild, 10 + shard, "kingdom", {"shard": shard}, 1, log)
    loaded = await storage.load_sessions(Shards(4, frozenset({1, 3})))
    assert [(s.state, s.log) for s in loaded] == [({"shard": 1}, [1, 10]), ({"shard": 3}, [3, 30])]


async def test_a_save_with_rows_while_a_game_is_recorded_waits_and_keeps_state_and_rows_together(
    sqlite_storage,
):
    # The direct writer finds the database busy (a recording transaction holds the write lock
    # across awaits) and the save queues behind it on aiosqlite, state and rows still together.
    storage = sqlite_storage
    async with storage._writing:
        await storage._db.execute("BEGIN IMMEDIATE")
        save = asyncio.create_task(
            storage.save_session(GUILD, 5, "kingdom", {"step": 1}, 1, LogRows("g1", 0, [1, 2]))
        )
        await asyncio.sleep(0.05)
        assert not save.done()  # it tried the writer, found it busy, and waits for its turn
        await storage._db.execute("COMMIT")
    await save
    (saved,) = await storage.load_sessions()
    assert saved.state == {"step": 1} and saved.log == [1, 2]


# ------------------------------------------------------------------ through the session layer


def spy_on_saves(monkeypatch, storage: Storage) -> list[tuple[dict, LogRows | None]]:
    saves: list[tuple[dict, LogRows | None]] = []
    save = storage.save_session

    async def recording(guild_id, channel_id, kind, state, now, log=None, **kwargs):
        saves.append((orjson.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS)), log))
        await save(guild_id, channel_id, kind, state, now, log, **kwargs)

    monkeypatch.setattr(storage, "save_session", recording)
    return saves


async def test_each_press_saves_the_state_without_its_log_and_only_the_entries_it_added(
    world, simcord_env, monkeypatch
):
    saves = spy_on_saves(monkeypatch, simcord_env.bot.storage)
    await start_tap(world, target=4)
    alice, bob = world.members[:2]
    for member in (alice, bob, alice):
        await member.click(world.board(), label="Tap")
    engine = simcord_env.bot.sessions.get(world.channel.id).engine
    logs = [log for _, log in saves if log is not None]
    assert all("log" not in state["engine"] for state, log in saves if log is not None)
    # Each save starts where the one before ended, and together they hold the log once, in order.
    assert [log.start for log in logs] == [0] + [log.end for log in logs[:-1]]
    assert [entry for log in logs for entry in log.rows] == engine.s["log"]
    assert len(engine.s["log"]) == 3 and max(len(log.rows) for log in logs) == 1
    rows = await stored_rows(simcord_env.bot.storage)
    assert [at for _, at, _ in rows] == [0, 1, 2]


async def test_a_restart_mid_game_restores_the_same_state_and_the_game_goes_on(
    world, simcord_env, restart_bot
):
    alice, bob = world.members[:2]
    await start_tap(world, target=3)
    await alice.click(world.board(), label="Tap")
    await bob.click(world.board(), label="Tap")
    before = simcord_env.bot.sessions.get(world.channel.id).to_json()
    await restart_bot()
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.to_json() == before and session.logged == 2
    await alice.click(world.board(), label="Tap")  # the third tap ends it
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert await stored_rows(simcord_env.bot.storage) == []


async def test_a_session_saved_whole_by_an_older_bot_restores_and_its_log_is_stored_once(
    world, simcord_env, restart_bot
):
    alice, bob = world.members[:2]
    await start_tap(world, target=4)
    await alice.click(world.board(), label="Tap")
    await bob.click(world.board(), label="Tap")
    session = simcord_env.bot.sessions.get(world.channel.id)
    whole = session.to_json()
    assert len(whole["engine"]["log"]) == 2
    storage = simcord_env.bot.storage
    await storage.delete_session(world.guild.id, world.channel.id)
    await storage.save_session(world.guild.id, world.channel.id, "tap", whole, now=0)  # the old way
    await restart_bot()
    restored = simcord_env.bot.sessions.get(world.channel.id)
    assert restored.to_json() == whole
    await alice.click(world.board(), label="Tap")
    # The saves since store the two old entries and the new one, each once.
    assert [at for _, at, _ in await stored_rows(simcord_env.bot.storage)] == [0, 1, 2]
    (saved,) = await simcord_env.bot.storage.load_sessions()
    assert restored_state(saved)["engine"]["log"] == restored.engine.s["log"]
    assert [e.get("seat") for e in restored.engine.s["log"]] == [0, 1, 0]


async def test_two_games_in_a_row_in_one_channel_never_mix_logs(world, simcord_env, restart_bot):
    await finish_tap(world)
    assert await stored_rows(simcord_env.bot.storage) == []  # the finished game took its rows along
    await start_tap(world, target=3)
    await world.members[0].click(world.board(), label="Tap")
    await restart_bot()
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.engine.s["log"] == [{"seat": 0, "type": "tap", "now": session.engine.s["log"][0]["now"]}]
    assert {k for k, *_ in await stored_rows(simcord_env.bot.storage)} == {session.game_key}


async def test_a_save_that_cannot_be_restored_is_logged_and_left_while_the_other_games_go_on(
    world, simcord_env, restart_bot, caplog
):
    alice, bob = world.members[:2]
    await start_tap(world, target=3)
    await alice.click(world.board(), label="Tap")
    good = world.channel
    # A second game, in another channel, whose saved state counts a log row storage never got
    # (as if the database had been edited by hand).
    world.channel = world.guild.create_text_channel("broken")
    await start_tap(world, target=3)
    await alice.click(world.board(), label="Tap")
    storage = simcord_env.bot.storage
    broken = simcord_env.bot.sessions.get(world.channel.id)
    state, rows = broken.to_save()
    state["logged"] += 1
    await storage.save_session(
        world.guild.id, world.channel.id, "tap", state, 0, LogRows(rows.key, rows.end, [])
    )

    await restart_bot()

    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert f"channel {world.channel.id} could not be restored" in caplog.text
    assert len(await simcord_env.bot.storage.load_sessions()) == 2  # the broken save is left as it is
    world.channel = good
    await bob.click(world.board(), label="Tap")
    assert simcord_env.bot.sessions.get(good.id).engine.s["scores"] == [1, 1]
