"""Pictures drawn in other processes, off this process's interpreter lock.

A Kabuki placement draws a new board picture (a few milliseconds of Pillow), and a Kingdom round's
end its revealed table (tens of them at 16 seats). In the pictures'
thread (``bot.glue.board.drawn``) the event loop goes on meanwhile, but only while Pillow has let
go of the interpreter lock: the drawing's Python and most of its pasting hold it, so under load
the loop and the pictures' thread take turns on one core while the machine's other cores idle.
A game whose picture is a pure function of a small, picklable key (``Picture.job``) is drawn here
instead, by worker processes with interpreters of their own: the loop's share is pickling the key
and the PNG's bytes (tens of microseconds).

``PICTURE_PROCESSES`` workers (``Config.picture_processes``; 0: none, every picture in the
pictures' thread). They fork from a server process that imported Pillow and the games' pictures
once (``forkserver``, preloaded: a fork from this multi-threaded process would be unsafe), and
each keeps its own caches of card art. They are started with the bot, from a thread: the first
start of a worker waits for the fork server's imports (0.8 s here), and so would a press whose
picture were the first job submitted from the loop. A worker that dies breaks the pool: the
picture asked of it is drawn in the pictures' thread instead, and the pool is started again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

# Imported once by the fork server, so each worker starts with them (and shares their pages).
PRELOAD = ["PIL.Image", "PIL.ImageDraw", "bot.games.kabuki.pictures", "bot.games.kingdom.pictures"]

_pool: ProcessPoolExecutor | None = None
_count = 0
_restarting: set[asyncio.Task[None]] = set()  # a pool started again after a worker died


async def start(count: int) -> None:
    """Draw ``Picture.job`` s in ``count`` worker processes from now on (0: in the pictures'
    thread), started before this returns. Started once per process; a second start changes
    nothing. A worker's first start waits for the fork server's imports (0.8 s here), and so does
    whoever submits the first job: the workers are started from a thread, never from the loop."""
    global _pool, _count
    if count <= 0 or _pool is not None:
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    pool = _pool = ProcessPoolExecutor(max_workers=count, mp_context=context)
    _count = count
    await asyncio.to_thread(_spawn, pool, count)


def _spawn(pool: ProcessPoolExecutor, count: int) -> None:
    for future in [pool.submit(_ready) for _ in range(count)]:
        future.result()


def _ready() -> None:
    """A worker's first job: nothing (its start was the work)."""


def stop() -> None:
    """The workers end (a stopping bot); pictures go back to the pictures' thread."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def running() -> bool:
    return _pool is not None


async def draw(job: tuple[Callable[..., bytes], tuple[Any, ...]]) -> bytes | None:
    """``job`` (a module-level function and its arguments) drawn by a worker process; None when
    there are none, or the pool broke (the caller draws it in the pictures' thread)."""
    global _pool
    pool = _pool
    if pool is None:
        return None
    function, arguments = job
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, function, *arguments)
    except BrokenProcessPool:
        log.warning("a picture worker process died: its picture is drawn in the pictures' thread")
        if _pool is pool:
            _pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            _restarting.add(task := asyncio.get_running_loop().create_task(start(_count)))
            task.add_done_callback(_restarting.discard)
        return None
