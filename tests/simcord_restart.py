"""Restarting the bot under SimCord without its clock moving on the wall clock meanwhile.

SimCord 3.2.1's ``Env.restart_bot`` attaches the new bot and then settles it for a fixed 5 s of
wall time, whatever the test's ``settle_timeout``. Every bare ``loop.call_later`` a bot arms also
gets a real-time fallback in SimCord: once its delay has passed in *wall* seconds it fires by
itself and moves the virtual clock to its instant, with only ``settle_timeout`` of wall time to
settle what follows. A restored game arms such timers as soon as it is back (its computers' next
moves, its deadlines), so during those 5 s it played on by the wall clock, as far as the machine
got: how far was chance, and a timer coming due near the end of the 5 s, or a board picture
slower than ``settle_timeout`` on a busy machine, failed the restart ("bot did not settle while
advancing time") and left the bot detached.

While SimCord advances time itself it holds every bot timer to the virtual clock (a fallback
that comes due then waits). ``restart_with_clock_held`` marks the restart the same way, so the
new bot comes up, the restored games are drawn again and their timers are armed at the instant
the old bot stopped, and they fire only when the test moves time (``env.advance_time``).
"""

from __future__ import annotations

from typing import Any


async def restart_with_clock_held(env: Any, bot: Any) -> None:
    # A private flag of SimCord's (``Env._advancing``): checked here so that a SimCord that no
    # longer has it fails this loudly instead of restarting on the wall clock again.
    if getattr(env, "_advancing", None) is not False:
        raise RuntimeError("SimCord changed: Env._advancing is gone or set; see tests/simcord_restart.py")
    env._advancing = True
    try:
        await env.restart_bot(bot)
    finally:
        env._advancing = False
