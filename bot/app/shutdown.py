"""A graceful stop: SIGTERM (a service manager or a container stopping the bot) and SIGINT (Ctrl+C)
close the bot instead of killing it. ``GameBot.close`` then tries the writes still waiting on the
database once more, stops every game's timer, and closes the database, so the next start resumes
every game where it was (each was saved after its last action already).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGTERM, signal.SIGINT)


def stop_on_signals(bot: Any) -> asyncio.Event:
    """From now on, SIGTERM and SIGINT close ``bot`` (called on its event loop). The event is set
    once the bot is closed."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()
    stopped = asyncio.Event()

    def stop(received: signal.Signals) -> None:
        if closing:
            return  # closing already: a second signal changes nothing
        log.info("%s received: stopping", received.name)
        task = loop.create_task(bot.close(), name="graceful stop")
        task.add_done_callback(lambda _: stopped.set())
        closing.add(task)

    for received in SIGNALS:
        loop.add_signal_handler(received, stop, received)
    return stopped
