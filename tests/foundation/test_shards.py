"""A sharded bot: processes that each serve some shards and share one PostgreSQL database.

Discord sends a guild's events only to the connection of its shard, ``(guild_id >> 22) % count``;
SimCord does the same for an AutoShardedBot given ``shard_ids``. A process restores, times and
saves only its own guilds' games, and every process reads the same standings.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import simcord
from shown import card
from simcord_clock import clock_held_still
from tapgame import TAP

from bot.app.client import GameBot, create_bot
from bot.app.config import Config
from bot.storage import SavedSession, Shards

SHARDS = 2
SETTLE_S = 1.0
# Real processes each have their own modules; these threads share one interpreter's, and
# discord.py executes an extension's module afresh into ``sys.modules`` for every bot that loads
# it. Two bots loading at once could each meet the other's module half executed ("cannot import
# name 'option_name' from 'cogs.general'", seen once in a serial run), so they load one at a time.
LOADING_COGS = threading.Lock()


class BotProcess:
    """One process of a sharded bot, serving ``shard`` of ``SHARDS`` on the shared database. It
    has its own thread, event loop and SimCord (SimCord runs one environment per loop): a
    Discord of its own, with a guild on that shard and two members."""

    def __init__(self, url: str, shard: int, workdir: Path) -> None:
        self.url, self.shard, self.workdir = url, shard, workdir
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=f"shard-{shard}", daemon=True)
        self._thread.start()
        self.env: Any = None
        self.guild: Any = None
        self.channels: dict[str, Any] = {}
        self.members: list[Any] = []

    @property
    def bot(self) -> GameBot:
        return self.env.bot

    def _new_bot(self) -> GameBot:
        config = Config(
            token=None,
            database_path=str(self.workdir / "unused.db"),
            dev_guild_id=None,
            log_level="INFO",
            database_url=self.url,
            shard_count=SHARDS,
            shard_ids=(self.shard,),
        )
        bot = create_bot(config, games=[TAP])
        load_cogs = bot.load_cogs

        async def one_at_a_time() -> None:
            with LOADING_COGS:  # blocks only this thread's loop; the other bot's goes on
                await load_cogs()

        bot.load_cogs = one_at_a_time  # type: ignore[method-assign]
        return bot

    async def run(self, script: Callable[[BotProcess], Awaitable[Any]]) -> Any:
        """Run ``script(self)`` on this process's loop, on its SimCord clock."""

        async def scoped() -> Any:
            with self.env.time_context():
                return await script(self)

        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(scoped(), self.loop))

    async def start(self) -> None:
        async def start() -> None:
            self.env = simcord.Env(self._new_bot(), settle_timeout=SETTLE_S)
            await self.env.start()
            self.guild = self.env.create_guild(f"Shard {self.shard}", shard_id=self.shard)
            self.channels = {name: self.guild.create_text_channel(name) for name in ("finished", "open")}
            self.members = [
                self.guild.add_member(self.env.create_user(f"{name}-{self.shard}"))
                for name in ("alice", "bob")
            ]

        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(start(), self.loop))

    async def restart(self) -> None:
        """As a process exit and start would: the old bot's timers stop and its database closes."""

        async def restart(process: BotProcess) -> None:
            await _stop_bot(process.bot)
            with clock_held_still(process.env):
                await process.env.restart_bot(process._new_bot())

        await self.run(restart)

    async def stop(self) -> None:
        async def stop(process: BotProcess) -> None:
            await process.env.shutdown()
            await _stop_bot(process.bot)
            process.env._raise_errors_since(process.env._errors_acknowledged)  # a swallowed bot error fails

        try:
            if self.env is not None:
                await self.run(stop)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=10)
            self.loop.close()


async def _stop_bot(bot: GameBot) -> None:
    for session in bot.sessions:
        if session.timer is not None:
            session.timer.cancel()
    await bot.storage.close()


async def play_tap(channel: Any, alice: Any, bob: Any, *, target: int, taps: list[Any]) -> None:
    await alice.slash(channel, "tap new", target=target)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.last_message, label="Start")
    for member in taps:
        await member.click(channel.last_message, label="Tap")


async def finish_one_and_leave_one_open(process: BotProcess) -> None:
    alice, bob = process.members
    await play_tap(process.channels["finished"], alice, bob, target=2, taps=[alice, bob])
    await play_tap(process.channels["open"], alice, bob, target=5, taps=[alice])


def scores(channel: Any) -> str:
    return card(channel.last_message).fields[0].value


def guilds_with_games(bot: GameBot) -> set[int]:
    return {session.guild_id for session in bot.sessions}


@pytest.fixture
async def processes(postgres_url, tmp_path):
    started = [BotProcess(postgres_url, shard, tmp_path) for shard in range(SHARDS)]
    yield started
    for process in started:
        await process.stop()


async def test_two_processes_on_one_postgresql_each_play_restore_and_time_only_their_own_guilds(processes):
    zero, one = processes
    # Both start on a new database at the same moment: one migrates, the other waits for it.
    await asyncio.gather(*(process.start() for process in processes))
    await asyncio.gather(*(process.run(finish_one_and_leave_one_open) for process in processes))

    # Each process holds only its own guild's game; the database holds both.
    for process in processes:
        assert guilds_with_games(process.bot) == {process.guild.id}
    saved = await zero.run(lambda p: p.bot.storage.load_sessions())
    assert sorted(s.state["guild_id"] for s in saved) == sorted(p.guild.id for p in processes)

    # Standings are shared: each process reads the game the other finished.
    for reader, other in ((zero, one), (one, zero)):
        rows, total = await reader.run(lambda p, g=other.guild.id: p.bot.storage.leaderboard(g, "tap"))
        assert total == 2 and {r.user_id for r in rows} == {m.id for m in other.members}
        assert all(r.wins == 1 and r.games == 1 for r in rows)  # 1 tap each: a shared victory

    # Both restart at once; each restores only its own guild's game.
    await asyncio.gather(*(process.restart() for process in processes))
    for process in processes:
        assert [s.channel_id for s in process.bot.sessions] == [process.channels["open"].id]

    # Only shard 0's clock moves: its restored turn timer fires there (bob idles, alice is up
    # again) and is saved; shard 1's saved game is left exactly as it was.
    def saved_of(shard: int) -> Callable[[BotProcess], Awaitable[list[SavedSession]]]:
        return lambda p: p.bot.storage.load_sessions(Shards(SHARDS, frozenset({shard})))

    before = await zero.run(saved_of(1))
    await zero.run(lambda p: p.env.advance_time(31))
    assert "Turn 2: **alice-0**" in card(zero.channels["open"].last_message).description
    assert (await one.run(saved_of(0)))[0].state["engine"]["turn"] == 2
    assert await zero.run(saved_of(1)) == before

    # Both games go on from their restored boards.
    async def bob_taps(process: BotProcess) -> None:
        await process.members[1].click(process.channels["open"].last_message, label="Tap")

    await one.run(bob_taps)
    assert scores(one.channels["open"]) == "alice-1: 1\nbob-1: 1"
    await zero.run(lambda p: p.members[0].click(p.channels["open"].last_message, label="Tap"))
    assert scores(zero.channels["open"]) == "alice-0: 2\nbob-0: 0"


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(shard_count=SHARDS, shard_ids=(0,))


@pytest.mark.parametrize("backend", ["postgres"])
async def test_when_the_shard_count_changes_games_follow_their_guild_to_its_new_process(
    simcord_env, restart_bot
):
    env = simcord_env
    guilds = [env.create_guild(f"Shard {shard}", shard_id=shard) for shard in range(SHARDS)]
    channels = [guild.create_text_channel("games") for guild in guilds]
    members = [
        [guild.add_member(env.create_user(f"{name}-{n}")) for name in ("alice", "bob")]
        for n, guild in enumerate(guilds)
    ]
    finished = guilds[0].create_text_channel("finished")
    # The process of shard 0 finishes a game and leaves one running in its guild.
    await play_tap(finished, *members[0], target=2, taps=members[0])
    await play_tap(channels[0], *members[0], target=5, taps=[members[0][0]])
    # The process of shard 1 restores none of it, and leaves a game running in its own guild.
    bot = await restart_bot(shard_count=SHARDS, shard_ids=(1,))
    assert len(bot.sessions) == 0
    await play_tap(channels[1], *members[1], target=5, taps=[members[1][0]])
    assert guilds_with_games(bot) == {guilds[1].id}

    # Now one process runs a single shard: both games come to it and go on from their boards.
    bot = await restart_bot(shard_count=1)
    assert guilds_with_games(bot) == {guild.id for guild in guilds}
    for n, channel in enumerate(channels):
        await members[n][1].click(channel.last_message, label="Tap")
        assert scores(channel) == f"alice-{n}: 1\nbob-{n}: 1"
    # The game the first process finished is on this process's leaderboard.
    alice, bob = members[0]
    await alice.slash(finished, "leaderboard", game="tap", sort="wins")
    ranking = card(finished.last_message).description
    assert ranking.splitlines()[2:4] == ["1     1     1      1  alice-0", "2     1     1      1  bob-0"]
