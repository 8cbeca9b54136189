"""How far behind the event loop is: the time work handed to it now waits for its turn.

Every task step, callback and answered request of every channel runs on one loop, in the order it
became ready; under overload that queue is what a press waits in, once before its handler starts
and again at each await (a save's commit, a picture, an answer's request). ``bot.session.overload``
adds the trips a press still has to make to its age before deciding whether to answer it before
applying its move, and the last picture's wait (``RecentWait``: the pictures' thread or processes
may be behind as well).

Measured, not sampled by a timer: each game press hands the loop one callback (only when the last
has run, so at most one waits in the queue) and notes, on the loop's own clock, how long it took
to be run. A timer would wake an idle process, and under SimCord (whose loop clock is virtual) it
would be a deadline of its own for the tests to step through; this costs a handle per queue trip
at most, and reads 0 wherever the loop's clock does not move while work waits.
"""

from __future__ import annotations

import asyncio
import weakref


class QueueTrip:
    """The event loop's queue, as last measured: ``seconds`` from handing a callback to the loop
    to its run."""

    __slots__ = ("seconds", "_since", "_loop")

    def __init__(self) -> None:
        self.seconds = 0.0
        self._since: float | None = None  # when the callback waiting in the queue was handed over
        self._loop: weakref.ref[asyncio.AbstractEventLoop] | None = None

    def measure(self) -> None:
        """Hand the running loop a callback to time, unless one is waiting there already (a
        callback handed to a loop that has since closed never runs: a new loop starts afresh)."""
        loop = asyncio.get_running_loop()
        if self._since is not None and self._loop is not None and self._loop() is loop:
            return
        self._loop = weakref.ref(loop)
        self._since = loop.time()
        loop.call_soon(self._came, loop)

    def _came(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._since is not None:
            self.seconds = loop.time() - self._since
            self._since = None

    def ms(self) -> float:
        return self.seconds * 1000


class RecentWait:
    """The last wait of a kind measured (a picture's, from asking to having it), on the loop's
    clock, forgotten after ``keep_s``: a burst's backlog does not make every later press look
    late. Process-wide where what it measures is (the pictures' thread, the picture processes)."""

    __slots__ = ("seconds", "at", "keep_s")

    def __init__(self, keep_s: float = 5.0) -> None:
        self.seconds = 0.0
        self.at = float("-inf")
        self.keep_s = keep_s

    def note(self, seconds: float, at: float) -> None:
        self.seconds, self.at = seconds, at

    def ms(self) -> float:
        now = asyncio.get_running_loop().time()
        # Measured on another loop (a clock that started afresh) counts as long ago.
        return self.seconds * 1000 if 0.0 <= now - self.at <= self.keep_s else 0.0
