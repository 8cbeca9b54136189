"""Session timers: each session's next deadline armed on the event loop, and the computer moves
that come due.

A session waits for at most one instant: its engine's next deadline, a computer seat's next
move or its turn ping falling due (``bot.session.turn_pings``), whichever comes first, or a lobby's idle
deadline. It is armed as a bare loop timer
(``loop.call_later``, an ``Alarm``), and a task is made only when it fires. Presses re-arm after
every change, yet most leave the deadline where it was (a Kabuki placement inside a round, a slap
joining a race): such a press costs a comparison, where cancelling a sleeping task and starting
another cost a task each (see bench/README.md, "Speed under load", *Timers*).

The task that fires takes the session's lock and acts on the state it finds then, at
``max(now, deadline)``: a press that moved the deadline meanwhile has cancelled it or (same
deadline) left it to run; a session ended meanwhile is not touched. Under SimCord the loop's
clock is virtual (``env.advance_time`` fires the timer), as it was for a sleeping task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.engine import Event, IllegalAction
from bot.glue.clock import now_ms
from bot.i18n import duration, t
from bot.session import computers, gone
from bot.session.guarded import describe
from bot.session.sessions import LOBBY, Session

if TYPE_CHECKING:
    from bot.session.host import Table

log = logging.getLogger(__name__)

# A timer whose step failed (a bug: the database's faults never reach here) is set again no
# sooner than this, so a step that keeps failing is logged every few seconds, not in a loop.
FAILED_STEP_RETRY_MS = 5_000


class Alarm:
    """A session's armed instant: the loop timer until it fires, then the task acting on it."""

    __slots__ = ("deadline", "handle", "task")

    def __init__(self, deadline: int | None) -> None:
        self.deadline = deadline
        self.handle: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None

    def pending(self) -> bool:
        """Whether this alarm will still act: not yet fired, or its task not yet begun acting.
        The running task itself counts as spent: whatever it arms next is a new alarm."""
        task = self.task
        if task is None:
            return self.handle is not None and not self.handle.cancelled()
        return not task.done() and task is not asyncio.current_task()

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        task = self.task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()


class SessionTimers:
    """One game cog's timers: arms and cancels its sessions' alarms, and acts when one fires."""

    def __init__(self, cog: Table) -> None:
        self.cog = cog

    def arm(self, session: Session, *, not_before: int | None = None) -> None:
        """Wait for the session's next instant, if it has one (``not_before`` at the earliest);
        an alarm already set for that instant is left as it is."""
        deadline = self.next_instant(session)
        if deadline is not None and not_before is not None:
            deadline = max(deadline, not_before)
        alarm = session.timer
        if alarm is not None:
            if alarm.deadline == deadline and alarm.pending():
                return
            alarm.cancel()
            session.timer = None
        if deadline is None:
            return
        alarm = Alarm(deadline)
        loop = asyncio.get_running_loop()
        # Discord's clock (SimCord's in tests) says how far off the deadline is; the loop's own
        # clock counts it down, as asyncio.sleep did.
        alarm.handle = loop.call_later(max(0.0, (deadline - now_ms()) / 1000), self._fire, session, alarm)
        session.timer = alarm

    def cancel(self, session: Session) -> None:
        alarm, session.timer = session.timer, None
        if alarm is not None:
            alarm.cancel()

    def next_instant(self, session: Session) -> int | None:
        if session.status == LOBBY:
            return session.lobby_deadline
        assert session.engine is not None
        self.cog._plan_computers(session)
        moves = [
            computers.next_move_at(session),
            session.engine.next_deadline(),
            self.cog.pings.instant(session),
        ]
        return min((d for d in moves if d is not None), default=None)

    def restore(self, session: Session) -> None:
        """Re-arm a session brought back after a restart, once the bot is ready and has seen that
        its channel is still there (``_resume``)."""
        alarm = Alarm(None)  # cancelled like any other, should the game end before it runs
        alarm.task = asyncio.get_running_loop().create_task(self._resume(session))
        session.timer = alarm

    def _fire(self, session: Session, alarm: Alarm) -> None:
        if session.timer is alarm:
            assert alarm.deadline is not None
            alarm.task = asyncio.get_running_loop().create_task(self._run(session, alarm.deadline))

    async def _resume(self, session: Session) -> None:
        """A restored game goes on: computer moves and deadlines due meanwhile happen, the board
        is drawn again (an edit may have been waiting when the process stopped), the turn pings
        its save did not keep are looked for (``TurnPings.recover``) and the timer is
        set; a game stopped between its last action and its recording is finished. A game whose
        channel went while the bot was away ends as abandoned instead (``bot.session.gone``)."""
        cog = self.cog
        await cog.bot.wait_until_ready()
        why = await gone.missing(cog.bot, session)
        if why is not None:
            await cog.drop(session, why)
            return
        async with session.lock:
            if not cog._alive(session, session.status):
                return
            if session.status == LOBBY:
                self.arm(session)
                return
            assert session.engine is not None
            now = now_ms()
            cog.pings.recover(session, now)  # in a task of its own: the game goes on meanwhile
            try:
                events = [] if session.engine.is_over else computers_act(session, now)
                await cog._after_change(session, events + session.engine.advance(now))
            except Exception:
                self._failed(session, now)

    async def _run(self, session: Session, deadline: int) -> None:
        cog = self.cog
        await cog.bot.wait_until_ready()  # a session restored before the bot is ready
        async with session.lock:
            if not cog._alive(session, session.status):
                return
            # The timer may fire a hair early on a coarse clock; the deadline is what was due.
            now = max(now_ms(), deadline)
            try:
                await self._act(session, deadline, now)
            except Exception:
                self._failed(session, now)

    def _failed(self, session: Session, now: int) -> None:
        """A timer's step failed: logged with its game, and the clock set again, so the game is
        never left without one (the database's faults are kept by ``bot.session.guarded`` and
        never reach here; a board Discord refused heals at the next redraw)."""
        log.exception("%s: its timer's step failed; the timer is set again", describe(session))
        if self.cog._alive(session, session.status):
            self.arm(session, not_before=now + FAILED_STEP_RETRY_MS)

    async def _act(self, session: Session, deadline: int, now: int) -> None:
        cog = self.cog
        if session.status == LOBBY:
            if session.lobby_deadline is not None and now >= session.lobby_deadline:
                idle = duration(session.locale, cog.lobby_idle_ms(session.options))
                text = t(session.locale, "This lobby closed itself after {idle} without activity.", idle=idle)
                await cog._close(session, text)
            else:
                self.arm(session)
            return
        assert session.engine is not None
        events = computers_act(session, now)
        events += session.engine.advance(now)
        if not events and session.engine.next_deadline() == deadline:
            # An engine that does not consume its own deadline would wake us forever.
            log.error("%s engine in channel %s kept deadline %s", cog.kind, session.channel_id, deadline)
            return
        # Redraw even without events: a passing deadline (a grace period ending) can change
        # what the board offers.
        await cog._after_change(session, events)


def computers_act(session: Session, now: int) -> list[Event]:
    """The computer moves due by ``now``, each made at its own instant as if pressed then (or,
    for something said, kept as heard and returned as a ``said`` event for the cog to post)."""
    assert session.engine is not None
    events: list[Event] = []
    for at, seat, action in computers.due(session, now):
        if session.engine.is_over:
            break
        events += session.engine.advance(at)
        if action.get("type") == computers.SAY:
            events += computers.say(session, seat, action)
            continue
        # Overtaken by the time it came due: the next plan starts from the new state.
        with contextlib.suppress(IllegalAction):
            events += session.engine.apply(seat, action, at)
    return events
