"""Kabuki's board pictures drawn in a worker process (``bot.glue.picture_processes``), off the
event loop's interpreter lock: the same bytes as in the pictures' thread, and drawn there."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest
from kabuki_tables import FAST, SETTLE_S

from bot.games.kabuki import board
from bot.games.kabuki.engine import KabukiEngine
from bot.glue import picture_processes
from bot.glue.board import PICTURES


def worker_pid(_key: object) -> bytes:
    return str(os.getpid()).encode()


async def test_a_board_picture_drawn_by_a_worker_is_the_one_the_thread_draws(picture_workers, monkeypatch):
    engine = KabukiEngine.new(3, 7, {}, 0)
    picture = board.picture(engine.view(None), locale="de")
    assert picture.job is not None
    PICTURES.clear()

    async def no_thread(render):  # the pictures' thread must not be asked
        raise AssertionError("drawn in the pictures' thread")

    monkeypatch.setattr("bot.glue.board.drawn", no_thread)
    png = await picture.png()
    assert png == board.render_picture(picture.key)  # byte for byte
    assert png.startswith(b"\x89PNG")
    # And a worker drew it: another process.
    assert int(await picture_processes.draw((worker_pid, (None,)))) != os.getpid()


async def test_without_workers_pictures_are_drawn_in_the_thread():
    picture_processes.stop()
    engine = KabukiEngine.new(2, 3, {}, 0)
    picture = board.picture(engine.view(None))
    PICTURES.clear()
    assert await picture_processes.draw(picture.job) is None
    assert await picture.png() == board.render_picture(picture.key)


async def test_the_workers_start_without_holding_the_event_loop(monkeypatch):
    """A worker's first start waits for the fork server's imports (here made to take 0.3 s,
    whatever state the fork server is in); the loop goes on meanwhile."""
    picture_processes.stop()
    real = picture_processes._spawn
    started = threading.Event()

    def slow_spawn(pool, count):
        started.set()
        time.sleep(0.3)
        real(pool, count)

    monkeypatch.setattr(picture_processes, "_spawn", slow_spawn)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            if started.is_set():
                ticks += 1
            await asyncio.sleep(0)

    task = asyncio.get_running_loop().create_task(ticker())
    try:
        await picture_processes.start(1)
        during = ticks
    finally:
        task.cancel()
        picture_processes.stop()
    assert during >= 3, "the event loop was held while the workers started"


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["kabuki"], picture_processes=1)


@pytest.mark.simcord(settle_timeout=SETTLE_S)
async def test_a_bot_with_picture_processes_plays_kabuki_with_their_pictures(simcord_env, world, monkeypatch):
    """The bot started with a worker (``PICTURE_PROCESSES=1``): a placement's board shows the
    picture the worker drew, never one drawn in the pictures' thread."""
    assert picture_processes.running()

    async def no_thread(render):
        raise AssertionError("drawn in the pictures' thread")

    monkeypatch.setattr("bot.glue.board.drawn", no_thread)
    PICTURES.clear()
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "kabuki new", **FAST)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    session = simcord_env.bot.sessions.get(world.channel.id)
    placer = world.members[session.engine.view(None)["current"]["seat"]]
    await placer.click(world.board(), label="1 · actor")
    key = board.picture_key(session.engine.view(None))
    stored = simcord_env.backend.messages[world.channel.id][session.board_message_id]
    (attachment,) = stored.attachments
    assert attachment["filename"] == board.PICTURE_NAME
    assert PICTURES.get(key) == board.render_picture(key)  # drawn by the worker, kept by its key
