"""Holding SimCord's clock still through an operation, so that only ``env.advance_time`` fires
the bot's timers.

SimCord (3.2.1) gives every bare ``loop.call_later`` a bot arms a real-time fallback: once its
delay has passed in *wall* seconds, it fires by itself and moves the virtual clock to its
instant, with only ``settle_timeout`` of wall time to settle what follows. An operation's settle
waits for every such timer due before its own wall-clock deadline. ``Env.restart_bot`` settles
the new bot for a fixed 5 s, whatever the test's ``settle_timeout``, and a restored game arms its
timers as soon as it is back (its computers' next moves, its deadlines): during those 5 s it
played on by the wall clock, as far as the machine got. How far was chance, and a timer coming
due near the end of the 5 s, or a board picture slower than ``settle_timeout`` on a busy machine,
failed the restart ("bot did not settle while advancing time") and left the bot detached.

While SimCord advances time itself it holds every bot timer to the virtual clock: a timer not
yet due is parked, a fallback coming due meanwhile waits. ``clock_held_still`` marks an
operation the same way (SimCord's private ``Env._advancing``, checked so that a SimCord without
it fails here loudly): the bot does all the work the operation caused, board pictures included,
and its timers stay armed at their instants until the test moves time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def clock_held_still(env: Any) -> Iterator[None]:
    if not isinstance(getattr(env, "_advancing", None), bool):
        raise RuntimeError("SimCord changed: Env._advancing is gone; see tests/simcord_clock.py")
    env._advancing = True
    try:
        yield
    finally:
        env._advancing = False
