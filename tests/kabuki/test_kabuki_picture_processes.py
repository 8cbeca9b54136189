"""Kabuki's board pictures drawn in a worker process (``bot.glue.picture_processes``), off the
event loop's interpreter lock: the same bytes as in the pictures' thread, and drawn there."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.games.kabuki import board
from bot.games.kabuki.engine import KabukiEngine
from bot.glue import picture_processes
from bot.glue.board import PICTURES


def worker_pid(_key: object) -> bytes:
    return str(os.getpid()).encode()


@pytest.fixture
async def workers():
    await picture_processes.start(1)
    yield
    picture_processes.stop()


async def test_a_board_picture_drawn_by_a_worker_is_the_one_the_thread_draws(workers, monkeypatch):
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


async def test_the_workers_start_without_holding_the_event_loop():
    """A worker's first start waits for the fork server's imports; the loop goes on meanwhile."""
    picture_processes.stop()
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.001)

    task = asyncio.get_running_loop().create_task(ticker())
    try:
        await picture_processes.start(1)
        during = ticks
    finally:
        task.cancel()
        picture_processes.stop()
    assert during >= 3, "the event loop was held while the workers started"
