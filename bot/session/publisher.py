"""Each channel's board message, kept current by one ``Publisher`` per channel.

A board reaches its message in one of two ways. A press made on the board message is answered by
editing the board inside the answer itself (interaction callback type 7: exempt from the rate
limits, and the fast path). Anything else (a timer closing a race, a press on a private panel, a
refused press redrawing a stale board, a game ended by `/end`) is a REST edit of the message, and
Discord allows about 5 of those per channel per 5 s. So REST edits wait in the channel's
publisher: at most one is in flight, at most ``EDITS`` go out per ``WINDOW_S``, and a board
queued while another waits replaces it (the latest board wins). A burst of race settles then
costs a few edits instead of one each, and the board may lag a moment but ends right. A press
answered meanwhile shows the latest board in its own answer, and the waiting edit is dropped.

The publisher also knows what the message shows, so an unchanged board is not sent again and a
picture is uploaded only when it changes. That is known only to the process that drew it: a new
publisher (after a restart) takes the message's picture as unknown and names its files on the
first edit. A publisher lives as long as its game's board needs it: once a game has ended and its
last board has gone out, the channel's entry is dropped.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.glue import faults
from bot.glue.answer import edit_board, edit_message
from bot.glue.board import PICTURE_WAIT, Board
from bot.glue.components import bind
from bot.glue.interactions import message_id
from bot.glue.layout import shown
from bot.i18n import t
from bot.session import gone
from bot.session.overload import answer_by_ms
from bot.session.sessions import PLAYING, Session
from bot.session.tables import Tables

if TYPE_CHECKING:
    from bot.session.host import Host

log = logging.getLogger(__name__)

EDITS = 5  # REST edits of one channel's messages...
WINDOW_S = 5.0  # ...in any such span: Discord's per-channel limit
EDIT_TOO_OLD = 30046  # Discord refuses edits of messages older than an hour past some count
# A board edit Discord failed (once discord.py's own retries gave up) is tried again this many
# times, BACKOFF_S, then twice, four times as long apart; then it waits for the next change.
RETRIES = 3
BACKOFF_S = 2.0

# What a board message shows when this process has not drawn it (a board restored after a
# restart): unequal to every picture key, None included, so the next edit states its picture.
UNKNOWN_PICTURE = object()
# A press's picture not drawn by the time its answer must leave (``Publisher._picture_in_time``).
LATE = object()
# Pictures count as slow, and a press's own is awaited against its answer's deadline, once the
# last one took longer than this from asking to having it.
SLOW_PICTURE_MS = 250


def discord_now() -> float:
    """Seconds on Discord's clock (SimCord's virtual clock drives it in tests)."""
    return discord.utils.utcnow().timestamp()


def picture_key(board: Board) -> Any:
    return board.picture.key if board.picture is not None else None


def release(message: dict[str, Any]) -> None:
    """Once a message is sent: its view's items point back at the view (discord.py's
    ``add_item``), a cycle that outlives the board until a full garbage collection, which is
    long with many games open. Emptied, the view and the board go with their last reference."""
    view = message.get("view")
    if view is not None:
        view.clear_items()


def _texts_differ(old: discord.Embed, new: discord.Embed) -> bool:
    """Whether two embeds' dicts (``to_dict``) certainly differ, found from their description and
    fields alone, without building the dicts: a redrawn board that changed usually changed there
    (a Monster Masks race settled: a player's line), and building both dicts cost as much as
    drawing the board. A dict holds the description only when it is not empty, and the fields
    as they are, once any was added."""
    return (old.description or None) != (new.description or None) or getattr(old, "_fields", None) != getattr(
        new, "_fields", None
    )


async def picture_files(board: Board) -> list[discord.File]:
    """The board's picture as the files of a message: none without a picture."""
    return [await board.picture.file()] if board.picture is not None else []


class _AnswerDeadline:
    """A loop timer at the instant a press's answer must leave (``overload.answer_by_ms``): if it
    fires before the press's picture is drawn, the press is acknowledged then (``acknowledging``,
    the task doing it), and the picture is still awaited where it was."""

    __slots__ = ("handle", "acknowledging", "_interaction", "_acknowledge")

    def __init__(
        self, interaction: discord.Interaction, acknowledge: Callable[[discord.Interaction], Awaitable[None]]
    ) -> None:
        self._interaction, self._acknowledge = interaction, acknowledge
        self.acknowledging: asyncio.Task[None] | None = None
        delay = max(0.0, answer_by_ms(interaction)) / 1000
        self.handle: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self.handle = None
        self.acknowledging = asyncio.get_running_loop().create_task(self._acknowledge(self._interaction))

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class Publisher:
    """One game's board message. Every method runs under the session's lock except the flusher,
    which takes the lock only to post a board anew."""

    def __init__(
        self,
        publishers: Publishers,
        session: Session,
        save: Callable[[Session], Awaitable[None]],
        recent: collections.deque[float],
    ) -> None:
        self._publishers = publishers
        self.session = session
        self._save = save  # after the board moved to a new message
        # (message id, board): the newest board given to the message, sent or waiting.
        self.shown: tuple[int | None, Board] | None = None
        # (message id, picture key) as of the last request sent: what an edit may leave out.
        self._sent: tuple[int | None, Any] | None = None
        self.waiting: Board | None = None  # the board the next REST edit sends
        self.recent = recent  # when this channel's latest REST edits were answered (seconds)
        self._task: asyncio.Task[None] | None = None
        self._in_flight = False
        self._answered_in_flight = False
        self._lost_permissions = False  # told the players already; until an edit goes through

    # ------------------------------------------------------------------ showing a board

    async def publish(self, board: Board, interaction: discord.Interaction | None = None) -> None:
        """Show ``board``: in the press's own answer when the press came from the board message,
        else by a REST edit that may wait its turn (see the module). A board identical to the
        one shown is not sent again: a press that changes nothing public (joining a race) is then
        answered privately, which costs Discord one request less."""
        bind(board.items, self.session.tag)  # before comparing: the board on show is bound
        if self._unchanged(board):
            return
        self.shown = (self.session.board_message_id, board)
        self._publishers.tables.board(self.session, board)  # the Activity's pages (bot.session.tables)
        if interaction is not None and self._from_board(interaction):
            board.attach_picture()
            files = await self._picture_in_time(board, interaction)
            if files is LATE:
                # The picture came too late for the answer: the press was acknowledged without
                # it, and its board, picture and all, goes by a REST edit.
                return self._queue(board)
            self._sending(board)
            try:
                await edit_board(interaction, view=board.layout(), attachments=files)
            except discord.HTTPException as error:
                self._sent = None  # not applied: the next edit names its picture, whatever it is
                if not faults.discords_fault(error):
                    self.shown = None
                    raise
                # Answered after Discord's 3 s, or Discord failed: the move stands, so edit the
                # board message itself.
            else:
                self.waiting = None  # this answer showed the latest board
                # A REST edit in flight might land after this answer: it is then sent again.
                self._answered_in_flight = self._in_flight
                self._drop_if_done()
                return
        self._queue(board)

    def _queue(self, board: Board) -> None:
        """``board`` for the next REST edit (it replaces one waiting)."""
        self.waiting = board
        if self._task is None:
            self._task = asyncio.create_task(self._flush(), name=f"board:{self.session.channel_id}")

    async def _picture_in_time(self, board: Board, interaction: discord.Interaction) -> Any:
        """The files the press's answer names (as ``_changed_picture``), or ``LATE`` when its
        picture was not drawn by the time the answer had to leave (``overload.answer_by_ms``):
        the press was acknowledged then, while its picture went on drawing. Watched only while
        pictures are slow (the last took over ``SLOW_PICTURE_MS``), by a loop timer: the picture
        is awaited as always, with no task of its own (a task's first step would wait a trip of
        the loop's queue before even asking for the picture)."""
        if self._picture_shown(board):
            return None
        if PICTURE_WAIT.ms() <= SLOW_PICTURE_MS:
            return await picture_files(board)
        deadline = _AnswerDeadline(interaction, self._acknowledge)
        try:
            files = await picture_files(board)
        finally:
            deadline.cancel()
        if deadline.acknowledging is None:
            return files
        await deadline.acknowledging
        return LATE

    async def _acknowledge(self, interaction: discord.Interaction) -> None:
        """The press answered without its board (a deferred update): refused, it is Discord's
        (too late after all), and the board goes by REST all the same."""
        try:
            await interaction.response.defer()
        except discord.HTTPException as error:
            faults.not_acknowledged(error, self.session.channel_id)

    def redraw(self, state: Any, render: Callable[[], Board]) -> Board:
        """The board for the game's public ``state``: the one the message shows (or will, once
        its edit goes out) when that was drawn from an equal state, else ``render()``. A press
        that changes nothing public (a Monster Masks slap joining a race) then costs no drawing
        and no comparing. ``state`` None: always drawn."""
        if state is not None and self.shown is not None:
            message_id, board = self.shown
            if message_id == self.session.board_message_id and board.state == state:
                return board
        board = render()
        board.state = state
        return board

    def posted(self, message_id: int, board: Board) -> None:
        """``board`` was posted as the new message ``message_id`` (a lobby's first message)."""
        self.shown = (message_id, board)
        self._sent = (message_id, picture_key(board))
        self._publishers.tables.board(self.session, board)

    def _from_board(self, interaction: discord.Interaction) -> bool:
        pressed = message_id(interaction)
        return (
            not interaction.response.is_done()
            and pressed is not None
            and pressed == self.session.board_message_id
        )

    def _unchanged(self, board: Board) -> bool:
        """Whether the board message shows exactly ``board`` already (or will, once the waiting
        edit goes out). Buttons carry the game's turn or version, so a changed game usually
        differs already in its custom ids: the cheap test comes first (this runs on every
        press)."""
        if self.shown is None or self.session.status != PLAYING:
            return False  # lobbies, and the boards of a game closed, are always drawn
        message_id, old = self.shown
        before, now = old.items, board.items
        if message_id != self.session.board_message_id or len(before) != len(now):
            return False
        if old is board:
            return True  # given again by ``redraw``
        if any(
            getattr(a, "custom_id", None) != getattr(b, "custom_id", None)
            for a, b in zip(before, now, strict=True)
        ):
            return False
        board.attach_picture()
        return (
            picture_key(old) == picture_key(board)
            and old.content == board.content
            and not _texts_differ(old.embed, board.embed)
            and old.embed.to_dict() == board.embed.to_dict()
            and [a.to_component_dict() for a in before] == [b.to_component_dict() for b in now]
        )

    async def message_kwargs(self, board: Board) -> dict[str, Any]:
        """What discord.py's send takes to post ``board`` as a new message."""
        board.attach_picture()
        bind(board.items, self.session.tag)
        return {"view": board.layout(), "files": await picture_files(board)}

    async def _changed_picture(self, board: Board) -> list[discord.File] | None:
        """The files an edit of the board message names: None (the message keeps its files)
        when it shows this picture already."""
        if self._picture_shown(board):
            return None
        return await picture_files(board)

    def _picture_shown(self, board: Board) -> bool:
        return picture_key(board) == self._picture_on_message()

    def _sending(self, board: Board) -> None:
        """Just before a request that shows ``board`` on the board message."""
        self._sent = (self.session.board_message_id, picture_key(board))

    def _picture_on_message(self) -> Any:
        if self._sent is None or self._sent[0] != self.session.board_message_id:
            return UNKNOWN_PICTURE
        return self._sent[1]

    # ------------------------------------------------------------------ REST edits, one at a time

    def _wait(self) -> float:
        """Seconds until the channel may take another REST edit."""
        if len(self.recent) < EDITS:
            return 0.0
        return max(0.0, self.recent[0] + WINDOW_S - discord_now())

    def spare_in(self, keep: int = 1) -> float:
        """Seconds until the channel may take another REST request (a turn ping) while ``keep``
        of its slots stay free for the board's own edits: a ping never holds the board back, and
        waits while a board edit is waiting."""
        now = discord_now()
        inside = sorted(t for t in self.recent if t > now - WINDOW_S)
        over = len(inside) - (EDITS - 1 - keep)
        wait = inside[over - 1] + WINDOW_S - now if over > 0 else 0.0
        if self.waiting is not None or self._task is not None:
            wait = max(wait, 1.0)
        return max(0.0, wait)

    async def _flush(self) -> None:
        failed = 0  # transient faults in a row
        try:
            while self.waiting is not None:
                wait = self._wait()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue  # a press may have shown the board meanwhile
                board, self.waiting = self.waiting, None
                try:
                    await self._edit(board)
                except discord.HTTPException as error:
                    failed += 1
                    if faults.transient(error) and failed <= RETRIES:
                        if self.waiting is None:
                            self.waiting = board
                        await asyncio.sleep(BACKOFF_S * 2 ** (failed - 1))
                        continue
                    await self._refused(error)
                else:
                    failed = 0
        except Exception:
            # The state is saved; the board heals at the next redraw.
            log.exception("board of channel %s not redrawn", self.session.channel_id)
        finally:
            self._task = None
            self._drop_if_done()

    async def _edit(self, board: Board) -> None:
        session = self.session
        message_id = session.board_message_id
        if message_id is None:  # deleted, and not posted again yet
            return await self._post_again(message_id)
        board.attach_picture()
        bind(board.items, session.tag)
        files = await self._changed_picture(board)
        if self.shown is None or self.shown[1] is not board:
            return  # a press's answer showed a newer board while the picture was drawn
        self._sending(board)
        self._in_flight, self._answered_in_flight = True, False
        try:
            # Not discord.py's edit: it would build a view of discord.py buttons only to lay them
            # out, and parse the edited message back (bot.glue.answer.edit_message).
            await edit_message(
                self._publishers.state,
                session.channel_id,
                message_id,
                view=board.layout(),
                attachments=files,
            )
        except discord.HTTPException as error:
            refused: discord.HTTPException | None = error
        else:
            refused = None
        finally:
            self._in_flight = False
            # Counted from its answer: the edit reached Discord before that, however long the
            # way there took, so the sixth is never inside the first's 5 s.
            self.recent.append(discord_now())
        if refused is not None:
            if isinstance(refused, discord.NotFound) or refused.code == EDIT_TOO_OLD:
                return await self._post_again(message_id)
            raise refused
        self._lost_permissions = False
        if self._answered_in_flight and self.waiting is None and self.shown is not None:
            self.waiting = self.shown[1]

    async def _refused(self, error: discord.HTTPException) -> None:
        """Discord refused the board for good (a permission taken away, or a fault that outlived
        the retries): the next board is drawn in full, at the next change. Nothing is retried
        meanwhile, and a lost permission is told to the players once."""
        self._sent = None
        if self.waiting is None:
            self.shown = None
        if self._publishers.gone(self.session, error):
            return
        if faults.forbidden(error):
            if self._lost_permissions:
                return
            self._lost_permissions = True
            await self._publishers.tell_players(self.session, error.code)
        log.warning("board of channel %s not shown: %s/%s", self.session.channel_id, error.status, error.code)

    async def _post_again(self, message_id: int | None) -> None:
        """The board message is gone or too old to edit: post the latest board anew."""
        async with self.session.lock:
            if self.session.board_message_id != message_id or self.shown is None:
                return  # posted anew meanwhile (deleted, /board), or a refused edit: nothing to show
            await self.repost(self.shown[1])

    async def repost(self, board: Board) -> discord.Message:
        """Post ``board`` as a fresh message (the old one is emptied so no trail is left). Runs
        under the session's lock."""
        session = self.session
        channel = self._publishers.channel(session)
        old = session.board_message_id
        kwargs = await self.message_kwargs(board)
        try:
            message = await channel.send(**kwargs)  # refused: a waiting edit still goes out
        finally:
            release(kwargs)  # sent or not: see ``release``
        self.waiting = None
        session.board_message_id = message.id
        self.posted(message.id, board)
        if self._publishers.alive(session):
            await self._save(session)
        if old is not None:
            moved = discord.Embed(
                description=t(session.locale, "The board moved: {link}", link=message.jump_url)
            )
            # Deleted or too old to edit: either way it no longer shows the game.
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(attachments=[], **shown(moved))
            self.recent.append(discord_now())
        return message

    def _drop_if_done(self) -> None:
        if self._task is None and self.waiting is None and not self._publishers.alive(self.session):
            self._publishers.discard(self)


class Publishers:
    """Every channel's publisher, keyed by channel id, for all games alike."""

    def __init__(self, bot: Host) -> None:
        self._bot = bot
        self._by_channel: dict[int, Publisher] = {}
        self.tables = Tables()  # the other front-ends shown every board (bot.session.tables)
        self._dropping: set[asyncio.Task[None]] = set()  # games being dropped: held till done

    def of(self, session: Session, save: Callable[[Session], Awaitable[None]]) -> Publisher:
        current = self._by_channel.get(session.channel_id)
        if current is not None and current.session is session:
            return current
        # A new game in the channel: the channel's rate limit carries over.
        recent = current.recent if current is not None else collections.deque(maxlen=EDITS)
        publisher = Publisher(self, session, save, recent)
        if self.alive(session):  # an ended game's board is sent by a publisher of its own
            self._by_channel[session.channel_id] = publisher
        return publisher

    def get(self, channel_id: int) -> Publisher | None:
        return self._by_channel.get(channel_id)

    def discard(self, publisher: Publisher) -> None:
        if self._by_channel.get(publisher.session.channel_id) is publisher:
            del self._by_channel[publisher.session.channel_id]

    def alive(self, session: Session) -> bool:
        return self._bot.sessions.get(session.channel_id) is session

    async def tell_players(self, session: Session, code: int) -> None:
        """The bot lost a permission it needs for the board: the game's players are told which
        one, privately, and the host by a direct message if no followup could reach them."""
        channel = self._bot.get_channel(session.channel_id)
        names = faults.missing_permissions(channel, code)
        mention = f"<#{session.channel_id}>"
        guild = self._bot.get_guild(session.guild_id)
        server = guild.name if guild is not None else str(session.guild_id)
        cog = self._bot.game_cogs.get(session.kind)
        if cog is not None:
            await cog.tell_players(
                session,
                lambda locale: faults.permission_notice(locale, mention, names),
                lambda locale: faults.permission_letter(locale, mention, server, names),
            )

    @property
    def state(self) -> Any:
        """discord.py's connection state, for an edit made without ``PartialMessage.edit``."""
        return self._bot._connection

    def channel(self, session: Session) -> discord.PartialMessageable:
        return self._bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)

    def gone(self, session: Session, error: discord.HTTPException) -> bool:
        """Whether Discord refused the board because its channel is gone for the bot: the game
        is then dropped (``bot.session.gone``), in a task of its own, since it takes the lock."""
        why = gone.refused_for_good(self._bot, session, error)
        if why is None:
            return False
        task = asyncio.get_running_loop().create_task(gone.drop(self._bot, session, why))
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)
        return True

    def drop(self, channel_id: int) -> None:
        """The channel is gone: its board's edits still waiting are dropped, nothing is sent."""
        publisher = self._by_channel.pop(channel_id, None)
        if publisher is not None:
            publisher.waiting = None
            if publisher._task is not None:
                publisher._task.cancel()

    def close(self) -> None:
        """The process stops: edits still waiting are dropped (a restored game draws its board
        again)."""
        for publisher in list(self._by_channel.values()):
            if publisher._task is not None:
                publisher._task.cancel()

    def __len__(self) -> int:
        return len(self._by_channel)
