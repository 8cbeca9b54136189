"""The lobby every game cog inherits (``Lobby``, a mixin of ``GameCog``): opening one, joining,
leaving, computer seats, Start and Cancel, and closing.

A mixin rather than an object of its own so a game cog's hooks stay where they were: Masks
overrides ``_start`` (to send the first Mime their card), and the lobby calls the cog's
``render_board``, ``on_game_start``, ``_save`` and ``_publish``.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

import discord

from bot.glue.board import CANCEL, Board, closed_board, game_title, lobby_board
from bot.glue.clock import now_ms
from bot.glue.components import Press
from bot.glue.replies import message_link, reply_private
from bot.i18n import N_, private_locale, t, tn
from bot.session import computers
from bot.session.launcher import table_button
from bot.session.press import Answer, Move
from bot.session.publisher import release
from bot.session.rematch import invitation
from bot.session.sessions import LOBBY, PLAYING, ChannelBusy, Session

# An ending the database did not take yet (said by bot.session.gamecog too).
ENDING_WAITS = N_(
    "I could not save that just now (the database is unavailable): it happens by itself as soon "
    "as the database is back."
)
# A lobby press whose save waits on the database: it stands (the board shows it), and its presser
# is told just that, as a game move's is (``UNSAVED_MOVE``, bot.session.gamecog).
UNSAVED_LOBBY = N_(
    "Your press counts: the lobby shows it. I could not save the lobby just now (the database is "
    "unavailable); I keep trying by myself. If I restart before then, the lobby goes back to how it "
    "was last saved."
)
UNSAVED_START = N_(
    "The game has started: the board shows it. I could not save it just now (the database is "
    "unavailable); I keep trying by myself. If I restart before then, the game goes back to its "
    "lobby as it was last saved."
)
LOBBY_PRESSES = frozenset({"join", "leave", "start", "cancel", "add_computer", "remove_computer"})
LOBBY_IDLE_MS = 10 * 60 * 1000
# A lobby of a game with long turns (a slow server's) waits as long as one turn, up to a day:
# its players come and go at that pace.
LONGEST_LOBBY_IDLE_MS = 24 * 60 * 60 * 1000


class Lobby:
    """Lobby presses of a ``GameCog`` (which supplies ``bot``, ``engine_cls``, the hooks, the
    publisher, ``_save``, ``_refuse``, ``_forget``, ``timers`` and ``computer_policy``)."""

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        *,
        invited: list[int] | None = None,
        rematch_of: str = "",
    ) -> None:
        """A slash command's lobby, hosted by its member and posted as its answer."""
        if interaction.guild_id is None or interaction.channel_id is None:
            mine = private_locale(interaction)
            await reply_private(interaction, t(mine, "Games are played in a server channel, not in DMs."))
            return
        move = Move.of(interaction, Press(interaction.channel_id, "new", self.kind))
        await self.open_lobby_for(
            move,
            interaction.guild_id,
            interaction.guild_locale,
            options,
            invited=invited,
            rematch_of=rematch_of,
        )

    async def open_lobby_for(
        self,
        move: Move,
        guild_id: int,
        guild_locale: object,
        options: dict[str, Any],
        *,
        invited: list[int] | None = None,
        rematch_of: str = "",
    ) -> None:
        """Open a lobby in the move's channel hosted by its member, from either front-end;
        ``invited`` members are asked to join (a rematch of the game ``rematch_of``). From a
        Discord press the lobby is its answer; from a page, a message the bot posts in the
        channel. Refused privately while the channel has a game."""
        mine, answer = move.locale, move.answer
        now = now_ms()
        host = move.member_id
        session = Session(
            kind=self.kind,
            guild_id=guild_id,
            channel_id=move.press.channel_id,
            host_id=host,
            options=dict(options),
            seed=secrets.randbits(48),
            salt=secrets.token_hex(16),
            game_key=uuid.uuid4().hex,
            created_at=now,
            players=[host],
            names={host: move.member_name},
            lobby_deadline=now + self.lobby_idle_ms(options),
            invited=list(invited or ()),
            locale=await self.bot.languages.public(self.bot.storage, guild_id, guild_locale),
            rematch_of=rematch_of,
        )
        try:
            self.bot.sessions.add(session)
        except ChannelBusy as busy:
            return await answer.private(self._busy_text(busy.session, mine))
        interaction = move.interaction
        async with session.lock:
            lobby = self._lobby(session)
            publisher = self.publisher(session)
            if interaction is None:
                try:
                    await publisher.repost(lobby)  # posted in the channel, and saved
                except BaseException:
                    self.bot.sessions.remove(session)  # no lobby message, no lobby
                    raise
            else:
                kwargs = await publisher.message_kwargs(lobby)
                try:
                    await interaction.response.send_message(**kwargs)
                    message = await interaction.original_response()
                except discord.HTTPException as error:
                    # No lobby message, no lobby: the channel must not stay taken by one nobody sees.
                    self.bot.sessions.remove(session)
                    if await self.bot.answer_fault(interaction, error):
                        return
                    raise
                finally:
                    release(kwargs)
                session.board_message_id = message.id
                publisher.posted(message.id, lobby)
                await self._save(session)
            self.timers.arm(session)
        await answer.acknowledge()

    def _busy_text(self, other: Session, mine: str) -> str:
        fields = {"game": game_title(mine, self.bot.title_of(other.kind)), "link": message_link(other, mine)}
        if other.status == LOBBY:
            return t(
                mine,
                "This channel already has a {game} lobby: {link}. Finish it, or `/end` it, "
                "before starting another.",
                **fields,
            )
        return t(
            mine,
            "This channel already has a {game} game: {link}. Finish it, or `/end` it, "
            "before starting another.",
            **fields,
        )

    def lobby_notes(self, session: Session) -> list[str]:
        """Lines the lobby shows before Start about how these seats will play (a game's own)."""
        return []

    async def take_rematch_seat(self, move: Move, session: Session) -> None:
        """A player of the finished game pressed its Play again while its rematch's lobby is open:
        seat them there (the press is on the old board, so the lobby is edited and the presser
        answered privately)."""
        mine, answer, member = move.locale, move.answer, move.member_id
        link = message_link(session, mine)
        async with session.lock:
            if not self._alive(session, LOBBY):
                return await self._refuse(answer, "closed", t(mine, "That rematch's lobby is closed."))
            if session.seat_of(member) is not None:
                return await self._refuse(
                    answer, "lobby", t(mine, "You already have a seat in the rematch: {link}", link=link)
                )
            if len(session.players) >= self.engine_cls.players_range(session.options)[1]:
                return await self._refuse(answer, "lobby", t(mine, "The rematch is full: {link}", link=link))
            session.players.append(member)
            session.names[member] = move.member_name
            session.lobby_deadline = now_ms() + self.lobby_idle_ms(session.options)
            saved = await self._save(session)
            await self._publish(session, self._lobby(session))
            self.timers.arm(session)
            await answer.tell(t(mine, "You took a seat in the rematch: {link}", link=link))
            if not saved:
                await answer.tell(t(mine, UNSAVED_LOBBY))

    def lobby_idle_ms(self, options: dict[str, Any]) -> int:
        """How long a lobby waits without a join or leave before it closes itself: 10 minutes,
        or one turn of the game's timer if that is longer (at most a day)."""
        return max(LOBBY_IDLE_MS, min(self.turn_ms(options), LONGEST_LOBBY_IDLE_MS))

    def _lobby(self, session: Session) -> Board:
        low, high = self.engine_cls.players_range(session.options)
        board = lobby_board(
            title=self.title,
            channel_id=session.channel_id,
            host_name=session.names.get(session.host_id) or t(session.locale, "the host"),
            names=session.seat_names(),
            min_players=low,
            max_players=high,
            options_text=self.options_text(session.options, session.locale),
            closes_at_s=(session.lobby_deadline // 1000) if session.lobby_deadline else None,
            computers=self.computer_policy is not None,
            notes=self.lobby_notes(session),
            locale=session.locale,
            colour=self.colour,
        )
        board.content = invitation(session)
        if self.bot.table_server is not None:
            # The Activity: the same lobby and game as a live table in Discord (docs/activity.md).
            board.items.append(table_button(session.channel_id, session.locale, row=2))
        return board

    async def _lobby_press(self, move: Move, session: Session) -> None:
        member, press, answer = move.member_id, move.press, move.answer
        mine = move.locale
        if press.name == "join":
            if session.seat_of(member) is not None:
                return await self._refuse(answer, "lobby", t(mine, "You already have a seat in this lobby."))
            if len(session.players) >= self.engine_cls.players_range(session.options)[1]:
                return await self._refuse(answer, "lobby", t(mine, "This lobby is full."))
            session.players.append(member)
            session.names[member] = move.member_name
        elif press.name == "leave":
            if session.seat_of(member) is None:
                return await self._refuse(answer, "lobby", t(mine, "You are not in this lobby."))
            if member == session.host_id:
                return await self._refuse(
                    answer,
                    "lobby",
                    t(
                        mine,
                        "You are the host: press **{cancel}** to close the lobby.",
                        cancel=t(mine, CANCEL),
                    ),
                )
            session.players.remove(member)
        elif press.name in ("add_computer", "remove_computer"):
            refusal = self._seat_computer(move, session, add=press.name == "add_computer")
            if refusal is not None:
                return await self._refuse(
                    answer, "lobby", t(mine, refusal, game=game_title(mine, self.title))
                )
        elif press.name in ("start", "cancel"):
            if member != session.host_id and not move.moderator:
                if press.name == "start":
                    text = t(mine, "Only the host or a moderator can start this game.")
                else:
                    text = t(mine, "Only the host or a moderator can cancel this game.")
                return await self._refuse(answer, "lobby", text)
            if press.name == "cancel":
                cancelled = t(session.locale, "Lobby cancelled by {name}.", name=move.member_name)
                return await self._close(session, cancelled, answer)
            return await self._start(move, session)
        session.lobby_deadline = now_ms() + self.lobby_idle_ms(session.options)
        saved = await self._save(session)
        await self._publish(session, self._lobby(session), move.interaction)
        self.timers.arm(session)
        if not saved:
            # The press stands (the lobby shows it) and its save waits: the presser is told so,
            # privately, never "try again", which would meet their own press.
            await answer.tell(t(mine, UNSAVED_LOBBY))
        await answer.acknowledge()

    def _seat_computer(self, move: Move, session: Session, *, add: bool) -> str | None:
        """Seat a computer player, or unseat the last one; the refusal to show, if any (a message
        id with a ``{game}`` field at most)."""
        if self.computer_policy is None:
            return N_("{game} has no computer players.")
        if move.member_id != session.host_id and not move.moderator:
            return N_("Only the host or a moderator can add or remove computer players.")
        seated = [user for user in session.players if computers.is_computer(user)]
        if add:
            if len(session.players) >= self.engine_cls.players_range(session.options)[1]:
                return N_("This lobby is full.")
            user_id = computers.next_computer_id(session.players)
            session.players.append(user_id)
            session.names[user_id] = computers.computer_name(user_id)
        elif not seated:
            return N_("There is no computer player to remove.")
        else:
            session.players.remove(seated[-1])
        return None

    async def _start(self, move: Move, session: Session) -> None:
        count = len(session.players)
        engine = self.engine_cls
        low, high = engine.players_range(session.options)
        mine = move.locale
        if not low <= count <= high:
            text = tn(
                mine,
                "{game} needs {low}–{high} players; {n} seated.",
                "{game} needs {low}–{high} players; {n} seated.",
                count,
                game=game_title(mine, self.title),
                low=low,
                high=high,
            )
            return await self._refuse(move.answer, "lobby", text)
        now = move.at_ms
        try:
            session.engine = engine.new(count, session.seed, session.options, now)
        except ValueError as error:
            return await self._refuse(move.answer, "lobby", str(error))
        session.status = PLAYING
        session.started_at = now
        session.lobby_deadline = None
        self.pings.note(session, now)  # the first turn's wait starts
        # Waiting for the disk: a server crash taking this save back would bring the game back
        # after a restart as its lobby, where a close records nothing (docs/operations.md).
        saved = await self._save(session, durable=True)
        await self._publish(session, self.render_board(session), move.interaction)
        await self.on_game_start(session)
        self.timers.arm(session)
        if not saved:  # the game runs (the board shows it) and its save waits, as a lobby press's
            await move.answer.tell(t(mine, UNSAVED_START))
        await move.answer.acknowledge()

    async def _close(self, session: Session, text: str, answer: Answer | None = None) -> None:
        closing = self.bot.guard.write(
            session, "close", lambda: self._forget(session), again=lambda: self._close(session, text)
        )
        if not await closing:
            if answer is not None:  # the Cancel press: told it waits, never left unanswered
                await answer.private(t(answer.locale, ENDING_WAITS))
            return
        title = t(session.locale, "{game} — lobby closed", game=game_title(session.locale, self.title))
        await self._publish(session, closed_board(title, text), answer.interaction if answer else None)
        if answer is not None:
            await answer.acknowledge()
