"""Turn pings: the players a turn waits for are mentioned once, in a small message of its own.

Discord notifies a mention only in a new message (an edit that adds one pings nobody), so the
board cannot ping. Instead, once a turn has waited ``PING_AFTER_MS`` with somebody still to act,
one short message mentions exactly those members (allowed mentions restricted to them: no
@everyone, no role, nobody else named in it) and links the board. Fast turns are never pinged;
computers and players who already acted never are. There is at most one ping per game at a time:
the ping of a turn is deleted once that turn is over (or the game ends), so the channel keeps no
trail of turns, and a ping says only whose turn it is, never what anyone did or holds.

Pings share the channel's REST budget with the board (``Publisher.spare_in``): a ping or a
deletion goes only while a slot stays free for the board's next edit, else it waits for the
session's timer. What a ping has done is saved with the session (``session.extra["ping"]``), so
a restart neither pings a turn twice nor leaves its ping behind. A ping whose save never reached
the database (it waited on it when the process stopped) is found in the channel instead when the
game is restored (``TurnPings.recover``). A server turns pings off with ``/settings turn-pings:``.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.glue import faults
from bot.glue.board import game_title
from bot.glue.clock import now_ms
from bot.glue.replies import message_link
from bot.session.guarded import database_fault
from bot.session.publisher import discord_now
from bot.session.sessions import PLAYING, Session

if TYPE_CHECKING:
    from bot.session.host import Table

log = logging.getLogger(__name__)

# A turn is pinged once it has waited this long: a player who acts within it needs no ping, and
# a turn timer this short or shorter never pings at all.
PING_AFTER_MS = 30_000
STATE = "ping"  # its key in ``session.extra``
PREFIX = "⏰ "  # a ping's text begins so, and no other message the bot posts does
# The messages a restored game looks through for pings it does not know (one request): the newest,
# as a lost ping is among the latest messages of a busy channel.
LOOK_BACK = 100
# Looks a game cog makes at once after a restart: with many games restored, the others wait their
# turn rather than meet Discord's global rate limit together (the boards' redraws go meanwhile).
LOOKS_AT_ONCE = 4


def _state(session: Session) -> dict[str, Any]:
    state = session.extra.get(STATE)
    if not isinstance(state, dict):
        state = session.extra[STATE] = {"turn": None, "since": 0, "sent": False, "message": None, "stale": []}
    return state


def humans(session: Session, asks: dict[int, str]) -> dict[int, str]:
    """The seats a ping would mention: members, never a computer seat."""
    return {seat: ask for seat, ask in asks.items() if session.players[seat] > 0}


def ping_text(cog: Table, session: Session, asks: dict[int, str]) -> str:
    """``<@a> <@b>: ask.`` for each ask in seat order, then the board's link."""
    grouped: dict[str, list[int]] = {}
    for seat in sorted(asks):
        grouped.setdefault(asks[seat], []).append(session.players[seat])
    lines = [" ".join(f"<@{user}>" for user in users) + f": {ask}" for ask, users in grouped.items()]
    title = game_title(session.locale, cog.title)  # the frame is public: the session's language
    return f"{PREFIX}**{title}** — " + "\n".join(lines) + f"\n{message_link(session, session.locale)}"


class TurnPings:
    """One game cog's turn pings."""

    def __init__(self, cog: Table) -> None:
        self.cog = cog
        self._looking: set[asyncio.Task[None]] = set()  # restored games' looks for lost pings
        self._looks: asyncio.Semaphore | None = None  # made on the loop, at the first look

    def note(self, session: Session, now: int) -> None:
        """After every change: a new turn starts its wait again, and the ping of the turn that is
        over is to be deleted."""
        state = _state(session)
        turn = self.cog.ping_turn(session) if session.status == PLAYING else None
        if turn == state["turn"]:
            return
        if state["message"] is not None:
            state["stale"].append(state["message"])
        state.update(turn=turn, since=now, sent=False, message=None)

    def instant(self, session: Session) -> int | None:
        """When the session's timer should wake for pings: the turn's ping falling due, or a
        deletion waiting, each no sooner than the channel's budget has a spare slot."""
        state = session.extra.get(STATE)
        if not isinstance(state, dict):
            return None
        now = now_ms()
        due = [now] if state["stale"] else []
        if state["turn"] is not None and not state["sent"]:
            due.append(state["since"] + PING_AFTER_MS)
        if not due:
            return None
        at = min(due)
        if at > now:
            return at  # asked on every change: the budget is looked at only once it is due
        spare = self.cog.publisher(session).spare_in()
        return now + int(spare * 1000) + 1 if spare > 0 else at

    async def send_due(self, session: Session, now: int) -> bool:
        """Under the session's lock, after a change or a timer: delete pings of past turns and
        ping the current turn if it has waited long enough, as the channel's budget allows.
        Whether it had anything to do (the session's timer then needs arming again)."""
        state = session.extra.get(STATE)
        if not isinstance(state, dict):
            return False
        due = state["turn"] is not None and not state["sent"] and now >= state["since"] + PING_AFTER_MS
        if not state["stale"] and not due:
            return False  # most changes: nothing to do
        publisher = self.cog.publisher(session)
        channel = self._channel(session)
        again: list[int] = []
        while state["stale"] and publisher.spare_in() == 0:
            message_id = state["stale"].pop(0)
            if not await _delete(channel, message_id) and message_id not in state.get("retried", ()):
                again.append(message_id)
            publisher.recent.append(discord_now())
        if again:  # tried once more when the timer wakes next (a slot of the budget free)
            state["stale"] += again
            state["retried"] = again
        if not due or publisher.spare_in() > 0:
            return True  # the timer wakes again when it is due, or a slot is free
        state["sent"] = True
        asks = humans(session, self.cog.awaited(session))
        if asks and await self._pings_on(session):
            users = sorted({session.players[seat] for seat in asks})
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
            )
            try:
                message = await channel.send(ping_text(self.cog, session, asks), allowed_mentions=mentions)
            except discord.HTTPException as error:
                # No right to post here, say: the game goes on without its ping.
                log.warning(
                    "turn ping in channel %s not sent: %s/%s", session.channel_id, error.status, error.code
                )
            else:
                state["message"] = message.id
            publisher.recent.append(discord_now())
        await self.cog._save(session)
        return True

    async def _pings_on(self, session: Session) -> bool:
        """The server's ``/settings turn-pings:``. A database that fails to say leaves this turn
        unpinged (a courtesy: better none than one the server turned off), with a warning; the
        pings still to delete stay to delete."""
        try:
            return (await self.cog.bot.storage.settings(session.guild_id)).turn_pings
        except Exception as error:
            if not database_fault(error):
                raise
            log.warning(
                "turn ping in channel %s not sent: the database failed (%s: %s)",
                session.channel_id,
                type(error).__name__,
                error,
            )
            return False

    def recover(self, session: Session, now: int) -> None:
        """A game restored after a restart: the bot's own pings in its channel since its saved turn
        began that the game does not know (sent while the save holding their ids waited on the
        database, and the process stopped first) are to be deleted as a past turn's are. Looked
        for in a task of its own: its one request may wait its turn behind a restart's many, and
        neither the game's presses nor its end wait for it. Such a ping was sent
        ``PING_AFTER_MS`` after the saved turn began at the soonest (a turn's ping falls due no
        sooner, and every later turn began later): a game restored sooner has none, and asks
        Discord nothing."""
        state = session.extra.get(STATE)
        if not isinstance(state, dict) or now < state["since"] + PING_AFTER_MS:
            return
        task = asyncio.get_running_loop().create_task(
            self._recover(session, state["since"]), name=f"lost pings:{session.channel_id}"
        )
        self._looking.add(task)
        task.add_done_callback(self._looking.discard)

    async def _recover(self, session: Session, since: int) -> None:
        if self._looks is None:
            self._looks = asyncio.Semaphore(LOOKS_AT_ONCE)
        async with self._looks:
            found = await self._pings_since(session, since)
        if not found:
            return
        async with session.lock:
            state = session.extra.get(STATE)
            if isinstance(state, dict) and self.cog._alive(session, PLAYING):
                known = {*state["stale"], state["message"]}  # as it is now: it may have pinged since
                state["stale"] += [message_id for message_id in found if message_id not in known]
                self.cog.timers.arm(session)  # they go when it wakes, within the channel's budget
                return
        # The game ended meanwhile, its known pings with it: these go now.
        await _delete_now(self._channel(session), found)

    async def _pings_since(self, session: Session, since: int) -> list[int]:
        """The bot's own pings in the game's channel posted after ``since`` (ms), newest first."""
        me = self.cog.bot.user
        channel = self._channel(session)
        after = datetime.fromtimestamp(since / 1000, UTC)
        found: list[int] = []
        try:
            async for message in channel.history(limit=LOOK_BACK, after=after, oldest_first=False):
                if me is not None and message.author.id == me.id and message.content.startswith(PREFIX):
                    found.append(message.id)
        except discord.HTTPException as error:
            # No right to read the channel's history, or Discord failed: such a ping stays.
            log.warning(
                "turn pings in channel %s not looked for: %s/%s", session.channel_id, error.status, error.code
            )
        return found

    def close(self) -> None:
        """The process stops: looks for lost pings still running stop (the next start looks again:
        what they found was not kept)."""
        for task in list(self._looking):
            task.cancel()

    def give_up(self, session: Session) -> None:
        """Sending or deleting failed unexpectedly: this turn is not pinged, and the pings left
        to delete stay (better a stale ping than a timer waking for it in a loop)."""
        state = _state(session)
        state.update(sent=True, stale=[])

    async def clear(self, session: Session) -> None:
        """The game is over: its pings go (whatever the budget: this happens once a game)."""
        state = session.extra.get(STATE)
        if not isinstance(state, dict):
            return
        ids = [*state["stale"], *([state["message"]] if state["message"] is not None else [])]
        state.update(turn=None, message=None, stale=[])
        await _delete_now(self._channel(session), ids)

    def _channel(self, session: Session) -> discord.PartialMessageable:
        return self.cog.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)


async def _delete_now(channel: discord.PartialMessageable, ids: list[int]) -> None:
    """Pings of a game that is over: no timer will wake for them, so one that Discord failed to
    delete is tried once more at once."""
    for message_id in ids:
        if not await _delete(channel, message_id):
            await _delete(channel, message_id)


async def _delete(channel: discord.PartialMessageable, message_id: int) -> bool:
    """Delete a ping; False only when Discord failed at it (a server error or a rate limit) and
    it is worth one more try. Gone already, or no right to delete it: nothing more to do."""
    try:
        await channel.get_partial_message(message_id).delete()
    except discord.HTTPException as error:
        if faults.transient(error):
            log.warning("turn ping %s in channel %s not deleted: %s", message_id, channel.id, error.status)
            return False
    return True
