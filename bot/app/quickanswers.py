"""A click from the playground's page returns as soon as the bot has answered it.

After each action SimCord 3.2 settles the bot until it has nothing left to do *within*
``settle_timeout`` (5 s) of wall time, timers included: a placement in Kabuki arms its 3 s grace,
so the click waited for the grace to end, the page showed "Completing action…" meanwhile, and the
other pages, which are republished only between actions, never saw the grace window at all.

On Discord a click is over when the bot has answered it, and the game's timers run beside it.
So, for actions from the page only, the settle after the bot's dispatch looks a short horizon
ahead instead (``HORIZON_SECONDS``): work still running then is waited for again, horizon after
horizon, up to the whole ``settle_timeout`` as before; a timer further off than the horizon is
left to fire in real time (SimCord's wall-clock fallback for bot timers, with the playground's
``RealTimeClock`` holding the virtual clock to the wall). SimCord is not patched: the env's
``_settle_internal`` is shadowed on the instance, as ``LivePage`` does with the preview's
methods, and every other caller (tests driving members, ``advance_time``, a timer's own settle)
gets SimCord's settle unchanged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

# Long enough that the bot's own answer (a few board edits) usually fits in one look, short
# enough that a placement's answer is back well before its 3 s grace ends.
HORIZON_SECONDS = 0.3


class QuickAnswers:
    """Installs the short-horizon settle on ``env`` for the actions of ``preview``."""

    def __init__(self, env: Any, preview: Any) -> None:
        self._env = env
        self._preview = preview
        self._settle: Callable[..., Awaitable[None]] = env._settle_internal
        self.looks = 0  # horizons looked at, for tests: more than one means work outlasted one
        env._settle_internal = self._settle_internal

    def _in_page_action(self) -> bool:
        preview = self._preview
        return preview._active_action is not None and asyncio.current_task() is preview._active_task

    async def _settle_internal(self, **kwargs: Any) -> None:
        # An explicit timeout or deadline (env.settle, advance_time, a timer's advance) is the
        # caller's to keep; so is anything that is not a page's action.
        if kwargs.get("timeout") is not None or kwargs.get("_deadline") is not None:
            return await self._settle(**kwargs)
        if not self._in_page_action():
            return await self._settle(**kwargs)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._env.settle_timeout
        while True:
            horizon = min(deadline, loop.time() + HORIZON_SECONDS)
            self.looks += 1
            try:
                return await self._settle(**kwargs, _deadline=horizon)
            except TimeoutError:
                if loop.time() >= deadline:
                    raise
                if loop.time() < horizon:
                    # Not this horizon running out: a timer's work that failed to settle earlier,
                    # collected here (the timers it held back run again from now on).
                    log.exception("a bot timer did not settle; the playground's timers run on")
