"""Keep SimCord's preview page following the bot in real time, for ``python -m bot play``.

SimCord's preview serves a *published* snapshot of the channel: the browser polls it every
0.5 s, and it changes only when an action from the page (a click, a command) settles, or when
someone republishes it. Following a live game in it meets these flaws of SimCord 3.2, worked
around here without patching SimCord (docs/playground.md):

1. ``Preview.refresh()`` is an env operation. A click that reaches the page's server while it
   runs is answered with HTTP 400 and no receipt, and the page locks up ("Action outcome
   uncertain", "Unavailable channel"). So pages are republished without it, synchronously (no
   click can slip in between), only between clicks, and only when the bot changed something a
   viewer can see: every such change is a bot request other than a GET (a message sent, edited or
   deleted, an interaction answered, commands synced), counted from SimCord's request log.
2. Every click and command is bound to the page revision it was made on, and refused ("Action was
   not completed.") if the page was republished before the browser's next poll, or if any other
   page's action is running ("busy"). Discord delivers a click on any button still on the
   message, a slash command whatever the channel shows, and two people's clicks independently; so
   does the playground: an action waits for the running one instead of being refused, a stale
   command is admitted, and a stale click too when a button with the same ``custom_id`` is still
   on that message (its position may have moved). A click on a button that is gone stays refused,
   as in Discord.
3. A bot timer whose work does not settle in time leaves the failure in the env's timer task, and
   until some operation collects it every later timer is skipped: the game stops moving. Between
   clicks the follower collects it (logged with its traceback) and lets the skipped timers run.
4. An embed's footer is drawn as one line, its line breaks (which Discord shows) collapsed: a
   board's last footer line ran into the shuffle commitment under it ("… left the game Shuffle:
   seed …"). Each publication joins a footer's lines with " · " instead.
5. A picture the page was shown turns into "Embed 1 image unavailable" once the bot edits it
   away, until the page is republished: see ``bot.app.livepictures``.
6. A click is settled until no bot timer is due within 5 s, so one arming Kabuki's 3 s grace
   waited it out: see ``bot.app.quickanswers``. (Interactions all say "en-US":
   ``bot.app.memberlocales``.)

Everything here runs on the bot's event loop; ``follow`` is restarted by ``supervised`` if it
ever fails.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

log = logging.getLogger(__name__)

TICK_SECONDS = 0.1
RESTART_SECONDS = 1.0
REVISIONS_KEPT = 32  # per page: how far back a click may have been made and still be matched
FOOTER_BREAK = " · "
STALE_ADMITTED = frozenset({"run_command", "autocomplete_command", "send_message"})
STALE_MATCHED = frozenset({"click", "select"})
_MESSAGE_OF_KEY = re.compile(r"message:(\d+):component:")


def controls(components: Any, message_id: int | str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(control key, component)`` of every component with a ``custom_id``, keyed as SimCord's
    page keys them: ``message:<id>:component:<wire id, or path such as 0.components.2>``."""

    def walk(value: Any, path: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        if not isinstance(value, Mapping):
            return
        if value.get("custom_id"):
            wire_id = value.get("id")
            positive = isinstance(wire_id, int) and not isinstance(wire_id, bool) and wire_id > 0
            yield f"message:{message_id}:component:{wire_id if positive else path}", value
        children = value.get("components")
        if isinstance(children, list):
            for index, child in enumerate(children):
                yield from walk(child, f"{path}.components.{index}")
        for name in ("accessory", "component"):
            yield from walk(value.get(name), f"{path}.{name}")

    for index, root in enumerate(components if isinstance(components, list) else []):
        yield from walk(root, str(index))


def footers_on_one_line(value: Any) -> None:
    """Every embed footer under ``value`` (a snapshot's messages) with its lines joined by
    ``FOOTER_BREAK``, in place."""
    if isinstance(value, list):
        for item in value:
            footers_on_one_line(item)
    elif isinstance(value, dict):
        footer = value.get("footer")
        if isinstance(footer, dict) and isinstance(footer.get("text"), str) and "\n" in footer["text"]:
            footer["text"] = FOOTER_BREAK.join(line for line in footer["text"].splitlines() if line.strip())
        for key, item in value.items():
            if key != "footer":
                footers_on_one_line(item)


class RealTimeClock:
    """SimCord's virtual clock, held to the wall clock from the moment it is made.

    The target is absolute, so a tick that comes late, or a restart of the follower, catches up
    instead of losing time, and time a bot timer already moved the clock by (SimCord jumps it to
    the timer's instant when it fires) is not added a second time.
    """

    def __init__(self, env: Any) -> None:
        self._env = env
        self._real0 = time.perf_counter()  # not time.monotonic: SimCord replaces that one
        self._virtual0 = env.backend.clock.elapsed

    def catch_up(self) -> None:
        behind = self._virtual0 + (time.perf_counter() - self._real0) - self._env.backend.clock.elapsed
        if behind > 0:
            self._env.backend.advance_clock(behind)


class LivePage:
    """Republishes a SimCord preview when the bot changed something, and admits stale clicks."""

    def __init__(self, env: Any, preview: Any) -> None:
        self._env = env
        self._preview = preview
        self._seen_requests = 0
        self.changes = 0  # bot requests that changed something, so far
        self.stale_admitted = 0  # actions made on an older revision and admitted all the same
        self._published: dict[str, int] = {}  # page id -> ``changes`` when it was last published
        self._controls: dict[str, OrderedDict[int, dict[str, str]]] = {}
        # SimCord runs one action at a time and refuses the others as "busy"; here they queue,
        # and so does the settling that recovers the timers, which no click may overlap.
        self._turn = asyncio.Lock()
        self._publish = preview._publish
        self._admit = preview._action
        # Instance attributes shadow the methods, so SimCord's own calls come through here too.
        preview._publish = self._publish_page
        preview._action = self._action

    # -- what changed -----------------------------------------------------------------------------

    def _count_changes(self) -> None:
        requests = self._env.backend.http_requests
        if len(requests) < self._seen_requests:  # the log was cleared
            self._seen_requests = 0
            self.changes += 1
        for entry in requests[self._seen_requests :]:
            if entry.method != "GET":
                self.changes += 1
        self._seen_requests = len(requests)

    def _publish_page(self, page: Any, **kwargs: Any) -> None:
        self._count_changes()  # what the snapshot is about to show
        # Relative times ("in 3 seconds") count from the publication; SimCord moves this only in
        # refresh(), so a click's own republication would show them from a stale instant.
        self._preview._advance_presentation_time()
        self._publish(page, **kwargs)
        footers_on_one_line(page.snapshot.get("messages", {}))
        self._published[page.id] = self.changes
        seen = self._controls.setdefault(page.id, OrderedDict())
        seen[page.revision] = {
            key: str(component["custom_id"])
            for message_id, message in page.snapshot.get("messages", {}).items()
            for key, component in controls(message.get("components"), message_id)
        }
        while len(seen) > REVISIONS_KEPT:
            seen.popitem(last=False)

    def publish_changes(self) -> int:
        """Republish every browser page that has not shown the latest change; never during a
        click. (The Python-side page nobody looks at is left to ``Preview.snapshot``.)"""
        preview = self._preview
        if self._turn.locked() or preview._active_action is not None:
            return 0
        self._count_changes()
        stale = [
            page
            for page in preview._pages.values()
            if page is not preview._python and self._published.get(page.id) != self.changes
        ]
        for page in stale:
            if page.id in preview._pages:  # a publish prunes pages whose lease ran out
                preview._publish(page, reason="refresh")
        for gone in set(self._published) - set(preview._pages):
            self._published.pop(gone, None)
            self._controls.pop(gone, None)
        return len(stale)

    async def as_bot_work(self, run: Callable[[], Awaitable[None]]) -> None:
        """A press from the playground's Activity page, run as SimCord runs a click: as the bot's
        own work, then settled, in its turn with the channel page's clicks (SimCord runs one
        action at a time)."""
        async with self._turn:
            with self._env._bot_scope():  # SimCord's own way into the bot's work
                task = asyncio.ensure_future(run())
            try:
                await task
            finally:
                await self._env.settle()

    # -- clicks made on an older revision ---------------------------------------------------------

    async def _action(self, context_id: Any, body: Any) -> Any:
        async with self._turn:
            if isinstance(body, Mapping):
                body = self.rebased(context_id, body)
            return await self._admit(context_id, body)

    def rebased(self, context_id: Any, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """``body`` made current if Discord would still deliver it, else as it came."""
        page = self._preview._pages.get(context_id) if isinstance(context_id, str) else None
        kind, made_on = body.get("kind"), body.get("published_revision")
        if (
            page is None
            or not isinstance(made_on, int)
            or isinstance(made_on, bool)
            or made_on >= page.revision
            or kind not in STALE_ADMITTED | STALE_MATCHED
        ):
            return body
        if kind in STALE_MATCHED:
            key = self._same_control(page, made_on, body.get("control_key"))
            if key is None:
                return body
            body = {**body, "control_key": key}
        self.stale_admitted += 1
        return {**body, "published_revision": page.revision}

    def _same_control(self, page: Any, revision: int, key: Any) -> str | None:
        custom_id = self._controls.get(page.id, {}).get(revision, {}).get(key)
        found = _MESSAGE_OF_KEY.match(key) if isinstance(key, str) else None
        if custom_id is None or found is None:
            return None
        message = self._env.backend.messages.get(page.channel_id, {}).get(int(found.group(1)))
        if message is None:
            return None
        return next(
            (
                now_key
                for now_key, component in controls(message.components, message.id)
                if component.get("custom_id") == custom_id and not component.get("disabled")
            ),
            None,
        )

    # -- timers the env skipped -------------------------------------------------------------------

    async def recover_timers(self) -> bool:
        """Collect a failed timer advance and run the timers it held back; True if there was one."""
        task = self._env._real_advance_task
        if task is None or not task.done() or task.cancelled() or task.exception() is None:
            return False
        if self._turn.locked():
            return False  # a click is settling: that collects it
        async with self._turn:
            # The first settle raises the failure it collects; the second runs the timers it held.
            for step in ("a bot timer did not settle", "the timers it held back did not settle"):
                try:
                    await self._env.settle()
                except Exception:
                    log.exception("%s; the playground's timers run on", step)
        return True


async def follow(live: LivePage, clock: RealTimeClock) -> None:
    """Move the clock with the wall clock and republish what changed, every tick, forever."""
    while True:
        clock.catch_up()
        await live.recover_timers()
        live.publish_changes()
        await asyncio.sleep(TICK_SECONDS)


async def supervised(name: str, run: Callable[[], Awaitable[None]]) -> None:
    """Run ``run()`` forever: log any failure with its traceback and start it again."""
    while True:
        try:
            await run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("playground task %r failed; restarting it in %g s", name, RESTART_SECONDS)
        else:
            log.error("playground task %r returned; restarting it in %g s", name, RESTART_SECONDS)
        await asyncio.sleep(RESTART_SECONDS)
