"""The session layer every game cog inherits: lobby, presses, timers, saving and recording.

A game cog only says how to draw its board, how a press becomes an engine action and how a
private event reads; everything around it lives here, so all games behave alike: one board
message edited in place, every press checked under the session's lock, state saved after every
accepted action, timers rebuilt after a restart, and a finished game recorded exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord.ext import commands

from bot import computers
from bot.answer import send_private
from bot.board import Board, closed_board, lobby_board
from bot.clock import now_ms, snowflake_ms
from bot.components import Press, bind
from bot.engine import Action, Event, GameEngine, IllegalAction, Result
from bot.publisher import Publisher, release
from bot.ratings import places
from bot.rematch import invitation, with_play_again
from bot.replays import HISTORIES, log_record
from bot.sessions import LOBBY, PLAYING, ChannelBusy, SeatToken, Session
from bot.storage import FORMER_MEMBER, GameRecord, PlayerRecord

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

LOBBY_PRESSES = frozenset({"join", "leave", "start", "cancel", "add_computer", "remove_computer"})
LOBBY_IDLE_MS = 10 * 60 * 1000
# Interaction tokens live 15 minutes; leave a margin before using one for a followup.
FOLLOWUP_TTL_MS = 14 * 60 * 1000
TOKEN_REFUSED = frozenset({401, 403, 404})  # an interaction token revoked, expired or unknown


async def reply_private(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer only the presser, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await send_private(interaction, content=text, **kwargs)


def is_moderator(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_messages)


def message_link(session: Session) -> str:
    if session.board_message_id is None:
        return "this channel"
    return f"https://discord.com/channels/{session.guild_id}/{session.channel_id}/{session.board_message_id}"


class GameCog(commands.GroupCog):
    """Base of the game cogs. Subclasses set ``engine_cls``, ``group_name`` (via the class
    keyword) and ``rules_summary``, define a ``new`` slash command that calls ``open_lobby``,
    and implement ``render_board``."""

    engine_cls: ClassVar[type[GameEngine]]
    rules_summary: ClassVar[str] = ""
    score_label: ClassVar[str] = "points"  # what a score counts, for leaderboards: "VP", "cards"…
    score_label_one: ClassVar[str] = "point"  # the same for a score of 1: "VP", "card"…
    # Presses a player may make on a private panel (an ephemeral message the game sent them)
    # rather than on the board; the game's own checks (a version in the custom id) keep an old
    # panel from acting on a newer state, and the game mark (``bind``) one from an earlier game.
    panel_presses: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def kind(self) -> str:
        return self.engine_cls.kind

    @property
    def title(self) -> str:
        return self.engine_cls.title

    # ------------------------------------------------------------------ game hooks

    def options_text(self, options: Mapping[str, Any]) -> str:
        return "\n".join(f"{key}: {value}" for key, value in options.items())

    def render_board(self, session: Session) -> Board:
        raise NotImplementedError

    def board_state(self, session: Session) -> Any:
        """Everything ``render_board`` draws from, comparable, for a game whose presses often
        change nothing public: the board for an equal state is not drawn again. None: always
        drawn."""
        return None

    def render_final(self, session: Session, result: Result) -> Board:
        """The board once the game is over; by default the last board, without its buttons."""
        board = self.render_board(session)
        board.items = []
        winners = ", ".join(session.name_of(seat) for seat in result.winners) or "nobody"
        board.embed.add_field(
            name="Game over",
            value=f"Winner{'s' if len(result.winners) > 1 else ''}: **{winners}**",
            inline=False,
        )
        return board

    def action_for(self, session: Session, seat: int, press: Press) -> Action:
        """Turn a press into an engine action. Default: the press name is the action type."""
        action: dict[str, Any] = {"type": press.name}
        if press.arg:
            action["arg"] = press.arg
        if press.values:
            action["values"] = list(press.values)
        return action

    def recorded_scores(self, session: Session, result: Result) -> list[int]:
        """The score each seat gets in the standings; by default the engine's scores."""
        return list(result.scores)

    def render_private(self, session: Session, seat: int, event: Event) -> dict[str, Any] | None:
        """Keyword arguments for an ephemeral message telling ``seat`` a private event, or None."""
        return None

    async def handle_query(
        self, interaction: discord.Interaction, session: Session, seat: int, press: Press
    ) -> bool:
        """Answer a player's presses that only look (e.g. "My card"); return True if handled.
        Non-players are refused before this is asked."""
        return False

    async def on_game_start(self, session: Session) -> None:
        """Called once a game has started (after its first board is shown)."""

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], *, invited: list[int] | None = None
    ) -> None:
        """Open a lobby hosted by the presser; ``invited`` members are asked to join (a rematch)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await reply_private(interaction, "Games are played in a server channel, not in DMs.")
            return
        now = now_ms()
        session = Session(
            kind=self.kind,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            options=dict(options),
            seed=secrets.randbits(48),
            salt=secrets.token_hex(16),
            game_key=uuid.uuid4().hex,
            created_at=now,
            players=[interaction.user.id],
            names={interaction.user.id: interaction.user.display_name},
            lobby_deadline=now + LOBBY_IDLE_MS,
            invited=list(invited or ()),
        )
        try:
            self.bot.sessions.add(session)
        except ChannelBusy as busy:
            other = busy.session
            what = "lobby" if other.status == LOBBY else "game"
            await reply_private(
                interaction,
                f"This channel already has a {self.bot.title_of(other.kind)} {what}: "
                f"{message_link(other)}. Finish it, or `/end` it, before starting another.",
            )
            return
        async with session.lock:
            lobby = self._lobby(session)
            publisher = self.publisher(session)
            kwargs = await publisher.message_kwargs(lobby)
            await interaction.response.send_message(**kwargs)
            release(kwargs)
            message = await interaction.original_response()
            session.board_message_id = message.id
            publisher.posted(message.id, lobby)
            await self._save(session)
            self._schedule(session)

    def _lobby(self, session: Session) -> Board:
        low, high = self.engine_cls.players_range(session.options)
        board = lobby_board(
            title=self.title,
            channel_id=session.channel_id,
            host_name=session.names.get(session.host_id, "the host"),
            names=session.seat_names(),
            min_players=low,
            max_players=high,
            options_text=self.options_text(session.options),
            closes_at_s=(session.lobby_deadline // 1000) if session.lobby_deadline else None,
            computers=self.kind in computers.POLICIES,
        )
        board.content = invitation(session)
        return board

    async def _lobby_press(self, interaction: discord.Interaction, session: Session, press: Press) -> None:
        user = interaction.user
        if press.name == "join":
            if session.seat_of(user.id) is not None:
                return await self._refuse(interaction, "lobby", "You already have a seat in this lobby.")
            if len(session.players) >= self.engine_cls.players_range(session.options)[1]:
                return await self._refuse(interaction, "lobby", "This lobby is full.")
            session.players.append(user.id)
            session.names[user.id] = user.display_name
        elif press.name == "leave":
            if session.seat_of(user.id) is None:
                return await self._refuse(interaction, "lobby", "You are not in this lobby.")
            if user.id == session.host_id:
                return await self._refuse(
                    interaction, "lobby", "You are the host: press **Cancel** to close the lobby."
                )
            session.players.remove(user.id)
        elif press.name in ("add_computer", "remove_computer"):
            refusal = self._seat_computer(interaction, session, add=press.name == "add_computer")
            if refusal is not None:
                return await self._refuse(interaction, "lobby", refusal)
        elif press.name in ("start", "cancel"):
            if user.id != session.host_id and not is_moderator(interaction):
                return await self._refuse(
                    interaction, "lobby", f"Only the host or a moderator can {press.name} this game."
                )
            if press.name == "cancel":
                return await self._close(session, f"Lobby cancelled by {user.display_name}.", interaction)
            return await self._start(interaction, session)
        session.lobby_deadline = now_ms() + LOBBY_IDLE_MS
        await self._save(session)
        await self._publish(session, self._lobby(session), interaction)
        self._schedule(session)

    def _seat_computer(self, interaction: discord.Interaction, session: Session, *, add: bool) -> str | None:
        """Seat a computer player, or unseat the last one; the refusal to show, if any."""
        if self.kind not in computers.POLICIES:
            return f"{self.title} has no computer players."
        if interaction.user.id != session.host_id and not is_moderator(interaction):
            return "Only the host or a moderator can add or remove computer players."
        seated = [user for user in session.players if computers.is_computer(user)]
        if add:
            if len(session.players) >= self.engine_cls.players_range(session.options)[1]:
                return "This lobby is full."
            user_id = computers.next_computer_id(session.players)
            session.players.append(user_id)
            session.names[user_id] = computers.computer_name(user_id)
        elif not seated:
            return "There is no computer player to remove."
        else:
            session.players.remove(seated[-1])
        return None

    async def _start(self, interaction: discord.Interaction, session: Session) -> None:
        count = len(session.players)
        engine = self.engine_cls
        low, high = engine.players_range(session.options)
        if not low <= count <= high:
            return await self._refuse(
                interaction, "lobby", f"{self.title} needs {low}–{high} players; {count} seated."
            )
        now = snowflake_ms(interaction.id)
        try:
            session.engine = engine.new(count, session.seed, session.options, now)
        except ValueError as error:
            return await self._refuse(interaction, "lobby", str(error))
        session.status = PLAYING
        session.started_at = now
        session.lobby_deadline = None
        await self._save(session)
        await self._publish(session, self.render_board(session), interaction)
        await self.on_game_start(session)
        self._schedule(session)

    async def _close(
        self, session: Session, text: str, interaction: discord.Interaction | None = None
    ) -> None:
        await self._forget(session)
        await self._publish(session, closed_board(f"{self.title} — lobby closed", text), interaction)

    # ------------------------------------------------------------------ presses

    async def on_press(self, interaction: discord.Interaction, session: Session, press: Press) -> None:
        seat = session.seat_of(interaction.user.id)
        if session.status == LOBBY:
            if press.name not in LOBBY_PRESSES:
                return await self._refuse(interaction, "not_started", "The game has not started yet.")
            async with session.lock:
                if not self._alive(session, LOBBY):
                    return await self._refuse(interaction, "closed", "This lobby is closed.")
                return await self._lobby_press(interaction, session, press)
        if seat is None:
            return await self._refuse(interaction, "not_player", "You are not playing in this game.")
        if await self.handle_query(interaction, session, seat, press):
            return
        async with session.lock:
            if not self._alive(session, PLAYING):
                return await self._refuse(interaction, "closed", "This game is over.")
            assert session.engine is not None
            # Deadlines due by now fire first (a race closed while its timer was still waking),
            # so the press meets the state the players see.
            events = session.engine.advance(now_ms())
            try:
                action = self.action_for(session, seat, press)
                events += session.engine.apply(seat, action, snowflake_ms(interaction.id))
            except IllegalAction as refusal:
                await self._refuse(interaction, "illegal", refusal.reason)
                if events:
                    await self._after_change(session, events)
                else:
                    # A board an earlier edit failed to change is still on show and refuses every
                    # press as out of date: draw it again (nothing is sent if it is current).
                    await self._publish(session, self.render_board(session))
                return
            session.last_interaction[seat] = SeatToken.of(interaction)
            await self._after_change(session, events, interaction, presser=seat)

    async def _refuse(self, interaction: discord.Interaction, reason: str, text: str) -> None:
        """Tell only the presser why their press changed nothing; counted by reason in the metrics."""
        self.bot.metrics.refused(self.kind, reason)
        await reply_private(interaction, text)

    @staticmethod
    def bound(session: Session, message: dict[str, Any]) -> dict[str, Any]:
        """A private message's controls bound to this game (see ``bot.components.bind``): a game
        sending a panel itself passes it through here."""
        view = message.get("view")
        if view is not None:
            bind(view.children, session.tag)
        return message

    def on_panel(self, interaction: discord.Interaction, press: Press) -> bool:
        """Whether ``press`` was made on one of this game's private panels."""
        message = interaction.message
        return message is not None and message.flags.ephemeral and press.name in self.panel_presses

    @staticmethod
    def _from_panel(session: Session, interaction: discord.Interaction) -> bool:
        """Whether an accepted press came from a panel: presses on any other message than the
        board are refused before they get here (``GameBot.route_press``)."""
        message = interaction.message
        return message is not None and message.id != session.board_message_id

    def _alive(self, session: Session, status: str) -> bool:
        return self.bot.sessions.get(session.channel_id) is session and session.status == status

    async def _after_change(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None = None,
        presser: int | None = None,
    ) -> None:
        assert session.engine is not None
        computers.observe(session, events)  # before the computers plan their next moves
        if session.engine.is_over:
            await self._finish(session, interaction)
        else:
            await self._save(session)
            # Before the board: a board Discord refuses must not stop the game's clock.
            self._schedule(session)
            board = self.publisher(session).redraw(
                self.board_state(session), lambda: self.render_board(session)
            )
            await self._publish(session, board, interaction)
        await self._deliver(session, events, interaction, presser)

    async def _deliver(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None,
        presser: int | None,
    ) -> None:
        """Private events to their seats. The presser's first one is the press's own answer when the
        board did not change (see ``_publish``); a press that changed nothing anyone sees is still
        acknowledged."""
        now = now_ms()
        refused = False
        for event in events:
            for seat in event.to or ():
                message = self.render_private(session, seat, event)
                if message is None:
                    continue
                if seat == presser and interaction is not None and not interaction.response.is_done():
                    refused |= not await self._push(session, seat, interaction, message, answer=True)
                    continue
                target = interaction if seat == presser else session.last_interaction.get(seat)
                if target is None or now - snowflake_ms(target.id) > FOLLOWUP_TTL_MS:
                    continue  # the seat can still read it from its own view (e.g. "My card")
                refused |= not await self._push(session, seat, target, message)
        if interaction is not None and not interaction.response.is_done():
            with contextlib.suppress(discord.NotFound):  # answered too late: nothing left to say
                if self._from_panel(session, interaction):
                    await interaction.response.edit_message(view=None)  # its controls are spent
                else:
                    await interaction.response.defer()
        if refused and self._alive(session, PLAYING):
            # Without its token the seat counts as unreachable, and the board can say so.
            await self._publish(session, self.render_board(session))

    async def _push(
        self,
        session: Session,
        seat: int,
        target: discord.Interaction | SeatToken,
        message: dict[str, Any],
        *,
        answer: bool = False,
    ) -> bool:
        """A private message through ``target`` (the press, or a seat's token): the press's
        answer, or else a followup. Discord may refuse it (a token revoked or expired, a press
        answered too late): the move already happened, so the refusal must not fail the press
        nor stop the other seats' messages."""
        message = self.bound(session, message)
        try:
            if isinstance(target, SeatToken):
                await self._followup(target).send(ephemeral=True, **message)
            elif answer and self._from_panel(session, target):
                # The panel's controls are spent: the news replaces them.
                edit = {key: value for key, value in message.items() if key != "file"}
                if "file" in message:
                    edit["attachments"] = [message["file"]]
                await target.response.edit_message(**{"view": None, **edit})
            elif answer:
                await send_private(target, **message)
            else:
                await target.followup.send(ephemeral=True, **message)
            release(message)
        except discord.HTTPException as error:
            if error.status not in TOKEN_REFUSED:
                raise  # a malformed message is a bug, not a refusal
            # Status and code only: the payload is a secret.
            log.warning(
                "private message to seat %s in channel %s refused: %s/%s",
                seat,
                session.channel_id,
                error.status,
                error.code,
            )
            kept = session.last_interaction.get(seat)
            if kept is not None and kept.id == target.id:
                del session.last_interaction[seat]
            return False
        return True

    def _followup(self, seat: SeatToken) -> discord.Webhook:
        """The followup webhook of a seat's interaction, as ``Interaction.followup`` builds it:
        ``Webhook.partial`` makes an incoming webhook, which cannot send ephemeral messages."""
        payload = {"id": seat.application_id, "type": 3, "token": seat.token}
        return discord.Webhook.from_state(data=payload, state=self.bot._connection)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ the board message

    def publisher(self, session: Session) -> Publisher:
        return self.bot.publishers.of(session, self._save)

    async def _publish(
        self, session: Session, board: Board, interaction: discord.Interaction | None = None
    ) -> None:
        await self.publisher(session).publish(board, interaction)

    async def repost(self, session: Session, board: Board | None = None) -> discord.Message:
        """Post the board as a fresh message (the old one is emptied so no trail is left)."""
        if board is None:
            board = self.render_board(session) if session.status == PLAYING else self._lobby(session)
        return await self.publisher(session).repost(board)

    async def board_deleted(self, session: Session, message_id: int) -> None:
        """Someone deleted the board message: the game goes on, on a new one that says why. The
        bot never deletes a board itself (it empties an old one by an edit), so this cannot loop."""
        async with session.lock:
            if not self._alive(session, session.status) or session.board_message_id != message_id:
                return  # ended meanwhile, or already posted anew by an edit that found it gone
            session.board_message_id = None  # nothing left to empty
            board = self.render_board(session) if session.status == PLAYING else self._lobby(session)
            board.content = "The board message was deleted, so here it is again."
            try:
                await self.repost(session, board)
            except discord.HTTPException as error:
                # No right to post here any more, say: the next redraw or /board tries again.
                log.warning(
                    "board of channel %s deleted and not posted again: %s/%s",
                    session.channel_id,
                    error.status,
                    error.code,
                )

    # ------------------------------------------------------------------ endings

    async def _finish(self, session: Session, interaction: discord.Interaction | None = None) -> None:
        assert session.engine is not None
        result = session.engine.result()
        await self._record(session, "finished", result)
        await self._forget(session)
        final = with_play_again(self.render_final(session, result), session.game_key)
        await self._publish(session, final, interaction)

    async def end(self, session: Session, by: str, interaction: discord.Interaction | None = None) -> None:
        """End a lobby or a running game early; a game is recorded as abandoned."""
        if session.status == PLAYING:
            await self._record(session, "abandoned", None)
        await self._forget(session)
        text = f"Game ended by {by}. It is recorded as abandoned: standings do not change."
        if session.status == LOBBY:
            text = f"Lobby cancelled by {by}."
        await self._publish(session, closed_board(f"{self.title} — ended", text), interaction)

    async def _record(self, session: Session, outcome: str, result: Result | None) -> None:
        scores = self.recorded_scores(session, result) if result else [0] * len(session.players)
        record = None
        if result is not None and session.engine is not None and self.kind in HISTORIES:
            # A finished engine changes no more, so its record is built off the event loop.
            record = await asyncio.to_thread(log_record, session.engine, session.seed, session.salt)
        # Finishing places rate the game (bot/ratings.py); an abandoned game has none.
        finish = places(scores, result.winners, self.engine_cls.lower_score_wins) if result else None
        players = [
            PlayerRecord(
                # A computer seat is kept under the id no standing ranks, with its name.
                user_id=FORMER_MEMBER if computers.is_computer(user_id) else user_id,
                seat=seat,
                score=scores[seat],
                won=bool(result and seat in result.winners),
                name=session.names.get(user_id),
                place=finish[seat] if finish else None,
                computer=computers.is_computer(user_id),
            )
            for seat, user_id in enumerate(session.players)
        ]
        recorded = await self.bot.storage.record_game(
            GameRecord(
                game_key=session.game_key,
                guild_id=session.guild_id,
                channel_id=session.channel_id,
                kind=self.kind,
                options=session.options,
                seed=session.seed,
                started_at=session.started_at or session.created_at,
                ended_at=now_ms(),
                outcome=outcome,
                players=players,
                log=record,
            )
        )
        log.info(
            "game %s in guild %s %s (%s)",
            session.game_key,
            session.guild_id,
            outcome,
            "recorded" if recorded else "already recorded",
        )

    async def _forget(self, session: Session) -> None:
        await self.bot.storage.delete_session(session.guild_id, session.channel_id)
        self.bot.sessions.remove(session)
        self._cancel_timer(session)

    # ------------------------------------------------------------------ saving and timers

    async def _save(self, session: Session) -> None:
        self._plan_computers(session)  # saved with the state they follow from
        started = time.perf_counter()
        await self.bot.storage.save_session(
            session.guild_id, session.channel_id, session.kind, session.to_json(), now_ms()
        )
        self.bot.metrics.saved(time.perf_counter() - started)

    def restore(self, data: Mapping[str, Any]) -> Session:
        """Bring back a session saved before a restart and re-arm its timer."""
        session = Session.from_json(data, self.engine_cls)
        self.bot.sessions.add(session)
        if session.status == PLAYING:
            session.timer = asyncio.create_task(self._resume(session))
        else:
            self._schedule(session)
        return session

    async def _resume(self, session: Session) -> None:
        """A restored game goes on: computer moves and deadlines due meanwhile happen, the board
        is drawn again (an edit may have been waiting when the process stopped) and the timer is
        set; a game stopped between its last action and its recording is finished."""
        await self.bot.wait_until_ready()
        async with session.lock:
            if self._alive(session, PLAYING):
                assert session.engine is not None
                now = now_ms()
                events = [] if session.engine.is_over else self._computers_act(session, now)
                await self._after_change(session, events + session.engine.advance(now))

    def _cancel_timer(self, session: Session) -> None:
        timer, session.timer = session.timer, None
        if timer is not None and timer is not asyncio.current_task() and not timer.done():
            timer.cancel()

    def _plan_computers(self, session: Session) -> None:
        if session.status == PLAYING and session.engine is not None and not session.engine.is_over:
            computers.replan(session, now_ms())

    def _computers_act(self, session: Session, now: int) -> list[Event]:
        """The computer moves due by ``now``, each made at its own instant as if pressed then."""
        assert session.engine is not None
        events: list[Event] = []
        for at, seat, action in computers.due(session, now):
            if session.engine.is_over:
                break
            events += session.engine.advance(at)
            # Overtaken by the time it came due: the next plan starts from the new state.
            with contextlib.suppress(IllegalAction):
                events += session.engine.apply(seat, action, at)
        return events

    def _schedule(self, session: Session) -> None:
        self._cancel_timer(session)
        if session.status == LOBBY:
            deadline = session.lobby_deadline
        else:
            assert session.engine is not None
            self._plan_computers(session)
            moves = [computers.next_move_at(session), session.engine.next_deadline()]
            deadline = min((d for d in moves if d is not None), default=None)
        if deadline is not None:
            session.timer = asyncio.create_task(self._run_timer(session, deadline))

    async def _run_timer(self, session: Session, deadline: int) -> None:
        await self.bot.wait_until_ready()
        delay = (deadline - now_ms()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)
        async with session.lock:
            if not self._alive(session, session.status):
                return
            # The sleep may wake a hair early on a coarse clock; the deadline is what was due.
            now = max(now_ms(), deadline)
            if session.status == LOBBY:
                if session.lobby_deadline is not None and now >= session.lobby_deadline:
                    await self._close(session, "This lobby closed itself after 10 minutes without activity.")
                else:
                    self._schedule(session)
                return
            assert session.engine is not None
            events = self._computers_act(session, now)
            events += session.engine.advance(now)
            if not events and session.engine.next_deadline() == deadline:
                # An engine that does not consume its own deadline would wake us forever.
                log.error("%s engine in channel %s kept deadline %s", self.kind, session.channel_id, deadline)
                return
            # Redraw even without events: a passing deadline (a grace period ending) can change
            # what the board offers.
            try:
                await self._after_change(session, events)
            except discord.HTTPException:
                # The state is saved and the next timer set; the board heals at the next redraw.
                log.exception("board of channel %s not redrawn after a timer", session.channel_id)
