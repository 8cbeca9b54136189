"""The garbage collector of a long-running bot process: no full collection walks the open games.

A full collection walks every object the collector tracks. With 1,000 games open that was
~100,000 of the bot's objects (engines, boards shown, timers) besides discord.py's caches, and it
stopped the event loop for 70–180 ms of CPU (bench/README.md, "The garbage collector"). Python
3.11 has no incremental collector, so the walk is kept short instead:

* ``gc.freeze()`` once start-up is done: the modules, discord.py, the cogs and the restored
  sessions are never walked again;
* after every full collection, what survived it is frozen too (a ``gc.callbacks`` hook), so the
  next one walks only what was made and kept since. An open game is walked by a full collection
  once or twice in its life, not every time for as long as it is open;
* full collections come often, so each has little to walk: Python counts the middle
  generation's collections since the last full one, and with ``FULL = 0`` every other one is a
  full collection instead. Under load a press replaces its game's board, engine lists and timer,
  and with Python's default (10) a full pass walked the ~10 s of them kept since the last
  (~65,000 objects, ~55 ms, with 1,000 games at 50 presses/s); now ~7,000 objects, ~5 ms. The
  total is the same: each object is walked once before it is frozen.

What that costs: a frozen object that later dies in a reference cycle is never freed (reference
counting frees everything else, frozen or not). So nothing the bot keeps for long may die in a
cycle: a game's objects end by reference counting (boards' views are released, interactions hold
no cycle: ``bot.glue.interactions``), and ``tests/foundation/test_frozen_leaks.py`` plays every
game with everything frozen mid-press and checks that nothing of the bot's or discord.py's is left
in cycles. ``frozen_objects()`` is exported as a metric, so a leak would show as growth.

The two younger generations keep Python's defaults: a larger first generation made each of its
collections slower (a young object's traversal visits everything it references) without
fewer milliseconds in all.
"""

from __future__ import annotations

import gc
from typing import Any

YOUNG = 700  # Python's default
MIDDLE = 10  # Python's default
FULL = 0  # every other collection of the middle generation is a full one (see the docstring)


def tune_garbage_collector() -> None:
    """Once, when start-up is done (cogs loaded, sessions restored). A second bot in the same
    process (the tests) first lets the collector free what the last one left frozen."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
    if freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


def release_garbage_collector() -> None:
    """At a stop: nothing more is frozen, and what was is handed back to the collector."""
    if freeze_survivors in gc.callbacks:
        gc.callbacks.remove(freeze_survivors)
    gc.unfreeze()


def freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


def frozen_objects() -> int:
    """How many objects no collection walks (a walk of a list: for the metrics' scrape, not a press)."""
    return gc.get_freeze_count()
