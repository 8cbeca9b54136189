"""Live Python memory by owner, for ``bench_load.py --trace-memory``.

RSS cannot tell the bot from SimCord's simulated Discord and the bench in one process, nor
memory still in use from memory the allocator keeps for reuse. ``tracemalloc`` can: every live
block is charged to whoever allocated it, found by walking its traceback from the innermost
frame to the first one in the project: the bot (``bot/``, ``cogs/``: what discord.py, Pillow or
the standard library allocate on its behalf counts as the bot's), SimCord, or the bench (its
instruments included: the stack sampler's records are made inside the bench's own frames).
Blocks with no project frame (imports at start-up, the interpreter) are "other".

Tracing slows everything several times over: a run with it measures memory, not speed.
"""

from __future__ import annotations

import collections
import tracemalloc
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
BOT = (f"{ROOT}/bot/", f"{ROOT}/cogs/")
BENCH = f"{ROOT}/bench/"
FRAMES = 24  # deep enough to get from a library's allocation back to the bot's frame


def start() -> None:
    tracemalloc.start(FRAMES)


def owner(traceback: tracemalloc.Traceback) -> str:
    for frame in reversed(traceback):  # innermost first
        name = frame.filename
        if "/simcord/" in name:
            return "SimCord"
        if name.startswith(BENCH):
            return "bench"
        if name.startswith(BOT):
            return "bot"
    return "other"


def by_owner() -> dict[str, int] | None:
    """Bytes of live blocks per owner now, or None when tracing is off."""
    if not tracemalloc.is_tracing():
        return None
    sizes: collections.Counter[str] = collections.Counter()
    for stat in tracemalloc.take_snapshot().statistics("traceback"):
        sizes[owner(stat.traceback)] += stat.size
    return dict(sizes)
