"""Kabuki's board pictures drawn in a worker process (``bot.glue.picture_processes``), off the
event loop's interpreter lock: the same bytes as in the pictures' thread, and drawn there."""

from __future__ import annotations

import os

import pytest

from bot.games.kabuki import board
from bot.games.kabuki.engine import KabukiEngine
from bot.glue import picture_processes
from bot.glue.board import PICTURES


def worker_pid(_key: object) -> bytes:
    return str(os.getpid()).encode()


@pytest.fixture
def workers():
    picture_processes.start(1)
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
