"""The garbage collector of a long-running bot process.

A full collection walks every object the collector tracks, and with 1,000 games open it stopped
the event loop for 0.25–0.6 s, every 7 s or so under 100 presses/s (bench/bench_load.py; see
bench/README.md, "Board edits, memory per game, garbage collection"). Python 3.11 has no
incremental collector, so the full collection is made rare rather than short:

* ``gc.freeze()`` once start-up is done: the modules, discord.py, the cogs and the restored
  sessions are never walked again;
* a full collection only after ``FULL`` collections of the middle generation instead of 10.
  Garbage in cycles waits that long to be freed; the board's view, which was most of it, is no
  longer a cycle (``bot.session.publisher.release``), so little waits.

The two younger generations keep Python's defaults: a larger first generation made each of its
collections slower (a young object's traversal visits everything it references) without
fewer milliseconds in all.
"""

from __future__ import annotations

import gc

YOUNG = 700  # Python's default
MIDDLE = 10  # Python's default
FULL = 1000  # Python's default is 10


def tune_garbage_collector() -> None:
    """Once, when start-up is done (cogs loaded, sessions restored)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
