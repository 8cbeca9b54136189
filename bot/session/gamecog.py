"""The session layer every game cog inherits: presses, private news, endings and saving.

A game cog only says how to draw its board, how a press becomes an engine action and how a
private event reads; everything around it lives here and in the modules it is made of, so all
games behave alike: one board message edited in place (``bot.session.publisher``), every press checked
under the session's lock, state saved after every accepted action, the lobby (``bot.session.lobby``),
timers rebuilt after a restart (``bot.session.timers``), and a finished game recorded exactly
once (``bot.session.recording``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

import discord
import orjson
from discord.ext import commands

from bot.engine import Action, Event, GameEngine, IllegalAction, Result
from bot.glue import faults
from bot.glue.answer import delete_original, send_private
from bot.glue.board import GAME_COLOUR, Board, closed_board, final_title, game_title, winners_line
from bot.glue.clock import now_ms, snowflake_ms
from bot.glue.components import Press, bind
from bot.glue.interactions import message_id, message_origin, on_ephemeral
from bot.glue.layout import private, spent
from bot.glue.replies import is_moderator as is_moderator  # imported from here by cogs
from bot.glue.replies import message_link as message_link
from bot.glue.replies import reply_private
from bot.i18n import DEFAULT, N_, t
from bot.session import computers
from bot.session.guarded import SAVE, describe
from bot.session.launcher import offer_table
from bot.session.lobby import ENDING_WAITS as ENDING_WAITS  # said by cogs/general.py
from bot.session.lobby import LOBBY_PRESSES, Lobby
from bot.session.press import Answer, Move
from bot.session.publisher import Publisher, release
from bot.session.recording import record
from bot.session.rematch import with_play_again
from bot.session.sessions import LOBBY, PLAYING, Panel, SeatToken, Session
from bot.session.sessions import save as save_session
from bot.session.timers import SessionTimers
from bot.session.turn_pings import TurnPings

if TYPE_CHECKING:
    from bot.session.host import Host

log = logging.getLogger(__name__)

# Interaction tokens live 15 minutes; leave a margin before using one for a followup.
FOLLOWUP_TTL_MS = 14 * 60 * 1000


def takes_followup(token: Any, now: int) -> bool:
    """Whether an interaction (or a seat's kept token of one) still takes a followup at ``now``."""
    return token is not None and now - snowflake_ms(token.id) <= FOLLOWUP_TTL_MS


def unreachable(session: Session, seat: int, now: int) -> bool:
    """Whether no private message can reach ``seat`` now: no press of theirs recent enough for a
    followup."""
    return not takes_followup(session.last_interaction.get(seat), now)


TOKEN_REFUSED = frozenset({401, 403, 404})  # an interaction token revoked, expired or unknown
# A press whose move stands but whose save waits on the database (docs/operations.md).
UNSAVED_MOVE = N_(
    "Your move counts: the board shows it. I could not save the game just now (the database is "
    "unavailable); I keep trying by myself. If I restart before then, the game goes back to its "
    "last saved move."
)
# The final board while a finished game's record waits on the database.
RECORD_WAITS = N_(
    "Game over. Saving its result waits for the database (unavailable just now); it is done by "
    "itself, and **Play again** comes with it."
)


# What a score may count without the game naming its own words: cogs/general.py translates
# these (SCORE_NAMES, score_count); a test holds the two to the same words.
SCORE_WORDS = ("VP", "cards", "tokens", "points")


def score_problem(cog: type[GameCog] | GameCog) -> str | None:
    """Why a game cog's score would show untranslated or without its number; None if it is fine.
    The bot's start is stopped with it (``GameBot.load_cogs``)."""
    if cog.score_counts is None:
        if cog.score_label in SCORE_WORDS:
            return None
        return (
            f"its cog's score_label {cog.score_label!r} is none of the bot's words for a score"
            f" ({', '.join(SCORE_WORDS)}), and the cog gives no score_counts: name the game's own"
            ' in its package, score_label = N_("taps") and score_counts = NN_("{n} tap", "{n} taps"),'
            " so its catalogue area translates them"
        )
    if len(cog.score_counts) != 2 or not all("{n}" in form for form in cog.score_counts):
        return f'its cog\'s score_counts {cog.score_counts!r} is no pair of "{{n}} …" messages: NN_("{{n}} tap", "{{n}} taps")'
    return None


class GameCog(Lobby, commands.GroupCog):
    """Base of the game cogs. Subclasses set ``engine_cls``, ``group_name`` (via the class
    keyword) and ``rules_summary``, define a ``new`` slash command that calls ``open_lobby``,
    and implement ``render_board``."""

    engine_cls: ClassVar[type[GameEngine]]
    rules_summary: ClassVar[str] = ""
    # What a score counts, named alone (a leaderboard's footer, /stats' "Total …"): one of the
    # bot's SCORE_WORDS, or the game's own N_-marked message with its own ``score_counts``.
    score_label: ClassVar[str] = "points"
    # A score with what it counts, for a game whose ``score_label`` is its own: NN_("{n} tap",
    # "{n} taps") in its package, so its catalogue area translates it. None: the bot's words.
    score_counts: ClassVar[tuple[str, str] | None] = None
    # Presses a player may make on a private panel (an ephemeral message the game sent them)
    # rather than on the board; the game's own checks (a version in the custom id) keep an old
    # panel from acting on a newer state, and the game mark (``bind``) one from an earlier game.
    panel_presses: ClassVar[frozenset[str]] = frozenset()
    # The game's computer players (its descriptor's ``computers`` module), handed over by the bot
    # as it loads the game (``GameBot.load_cogs``); None: the lobby offers no Add computer.
    computer_policy: ModuleType | None = None
    # The game's colour: its cards' frame (lobby, board) and its slash commands' answers.
    colour: ClassVar[discord.Colour] = GAME_COLOUR

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.timers = SessionTimers(self)
        self.pings = TurnPings(self)
        super().__init__()

    @property
    def kind(self) -> str:
        return self.engine_cls.kind

    @property
    def title(self) -> str:
        return self.engine_cls.title

    # ------------------------------------------------------------------ game hooks

    def options_text(self, options: Mapping[str, Any], locale: str = DEFAULT) -> str:
        """The lobby's options, in ``locale`` (the game's public language)."""
        return "\n".join(f"{key}: {value}" for key, value in options.items())

    def render_board(self, session: Session) -> Board:
        raise NotImplementedError

    def default_options(self) -> dict[str, Any]:
        """The options of a lobby opened without the ``new`` command (an Activity page's New
        game): the command's own defaults (a test holds each game's to them)."""
        return {}

    def turn_ms(self, options: Mapping[str, Any]) -> int:
        """The game's per-turn timer in these options (0: none), which a lobby's idle time
        follows (``Lobby.lobby_idle_ms``)."""
        return int(options.get("turn_ms", 0))

    def board_state(self, session: Session) -> Any:
        """Everything ``render_board`` draws from, comparable (the session's language included),
        for a game whose presses often change nothing public: the board for an equal state is
        not drawn again. None: always drawn."""
        return None

    def current_board(self, session: Session) -> Board:
        """The board of the game as it stands after a change: the board on show, or waiting to
        be, when it was drawn from an equal ``board_state``, else drawn (``Publisher.redraw``). A
        game whose state and board come from the same view overrides this to look at it once."""
        return self.publisher(session).redraw(self.board_state(session), lambda: self.render_board(session))

    @staticmethod
    def drawn_from(session: Session, view: Mapping[str, Any], *parts: Hashable) -> tuple[Hashable, ...]:
        """The state of a board drawn from ``view``, ``parts`` (its names, …) and the session's
        language and commitment, for a ``current_board`` that looks at the view once. The view is
        kept as its JSON: an immutable copy, cheaper than the drawing it may save."""
        return (
            orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS),
            *parts,
            session.locale,
            session.commitment,
        )

    def board_again(self, session: Session) -> Board:
        """The board after a press that changed nothing in the game (refused, or a seat's token
        refused): the current board, which draws nothing when its state is the one on show, and
        is sent only if it differs from it (an earlier edit Discord refused: the publisher then
        forgets the board on show, and it is drawn afresh)."""
        return self._waiting_final(session) or self.current_board(session)

    def board_now(self, session: Session) -> Board:
        """The board of a game in play drawn afresh, to be shown again (``/board``, a board
        deleted, a board an edit failed to change)."""
        return self._waiting_final(session) or self.render_board(session)

    def _waiting_final(self, session: Session) -> Board | None:
        """Once a game is over and its record waits on the database (``_finish``), its final
        board saying so wherever it is shown again, never its last turn with the buttons of a
        game that is over. None while it is in play."""
        engine = session.engine
        if engine is None or not engine.is_over:
            return None
        return self._record_waits(session, self.render_final(session, engine.result()))

    @staticmethod
    def _record_waits(session: Session, final: Board) -> Board:
        final.content = t(session.locale, RECORD_WAITS)
        return final

    def render_final(self, session: Session, result: Result) -> Board:
        """The board once the game is over, in the session's language; by default the last board
        without its buttons, titled and topped as every game's final board is ("… — game over",
        then the winners line in place of the last turn's words)."""
        locale = session.locale
        board = self.render_board(session)
        board.items = []
        board.embed.title = final_title(locale, self.title)
        board.embed.description = winners_line(locale, [session.name_of(seat) for seat in result.winners])
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

    def refusal_text(self, session: Session, refusal: IllegalAction, locale: str) -> str:
        """What a press the engine refused tells its presser, in ``locale``: the engine's message
        with its fields. A text field is a message id too (a monster's name), so it speaks the
        language. A game whose refusals carry more than their words (a seat to name: Monster
        Masks' "who took that tile first") says it here."""
        fields = {k: t(locale, v) if isinstance(v, str) else v for k, v in refusal.fields.items()}
        return t(locale, refusal.message, **fields)

    async def handle_query(self, move: Move, session: Session, seat: int) -> bool:
        """Answer a player's presses that only look (e.g. "My card"), from either front-end
        (``send_panel``, ``move.answer.private``); return True if handled. Non-players are refused
        before this is asked."""
        return False

    def look_may_change_board(self, session: Session, seat: int) -> bool:
        """Whether a look by ``seat`` may change what the board says, asked before the look: the
        board is then offered again after it (sent only if it differs). By default a look changes
        nothing public."""
        return False

    def ping_turn(self, session: Session) -> str | None:
        """A public name of the turn the running game waits on, for turn pings (``bot.session.turn_pings``):
        a new name is a new turn, whose wait starts again; None: it waits for nobody (a reveal, a
        pause). Asked after every change, so it must be cheap. By default a game pings nobody."""
        return None

    def awaited(self, session: Session) -> dict[int, str]:
        """The seats that turn still waits for, each with what a ping asks of it ("it is your
        turn: …"); asked only when a ping is due. Computer seats are left out by the caller."""
        return {}

    def unreached(self, session: Session, seat: int, now: int) -> bool:
        """Whether nothing private can reach ``seat`` now: no press of theirs recent enough for a
        Discord followup (``unreachable``), and no page of theirs open on the Activity."""
        return unreachable(session, seat, now) and not self.bot.publishers.tables.reaches(session, seat)

    async def on_game_start(self, session: Session) -> None:
        """Called once a game has started (after its first board is shown)."""

    # ------------------------------------------------------------------ presses

    async def on_press(self, interaction: discord.Interaction, session: Session, press: Press) -> None:
        """A press on a Discord message (routed by ``GameBot.route_press``)."""
        await self.take(session, Move.of(interaction, press))

    async def take(self, session: Session, move: Move) -> None:
        """A member's press, from a Discord message or an Activity page: the lobby's, a look,
        or a move applied to the engine under the session's lock, then saved, published and
        answered (``_after_change``). Refused privately, and changing nothing, when it cannot be."""
        seat = session.seat_of(move.member_id)
        mine = move.locale
        answer = move.answer
        if session.status == LOBBY:
            if move.press.name not in LOBBY_PRESSES:
                return await self._refuse(answer, "not_started", t(mine, "The game has not started yet."))
            async with session.lock:
                if not await answer.taken(self.bot.metrics, self.kind):
                    return  # too late, or its answer refused: not taken (bot.session.overload)
                if not self._alive(session, LOBBY):
                    return await self._refuse(answer, "closed", t(mine, "This lobby is closed."))
                return await self._lobby_press(move, session)
        if seat is None:
            return await self._refuse(answer, "not_player", t(mine, "You are not playing in this game."))
        interaction = move.interaction
        behind = self.look_may_change_board(session, seat)
        if await self.handle_query(move, session, seat):
            await self._heal(session, behind)
            await answer.acknowledge()
            return
        async with session.lock:
            if not await answer.taken(self.bot.metrics, self.kind):
                return  # too late, or its answer refused: not taken (bot.session.overload)
            if not self._alive(session, PLAYING):
                return await self._refuse(answer, "closed", t(mine, "This game is over."))
            assert session.engine is not None
            # Deadlines due by now fire first (a race closed while its timer was still waking),
            # so the press meets the state the players see.
            events = session.engine.advance(now_ms())
            try:
                action = self.action_for(session, seat, move.press)
                events += session.engine.apply(seat, action, move.at_ms)
            except IllegalAction as refusal:
                await self._refuse(answer, "illegal", self.refusal_text(session, refusal, mine))
                if events:
                    await self._after_change(session, events)
                else:
                    # A board an earlier edit failed to change is still on show and refuses every
                    # press as out of date: draw it again (nothing is sent if it is current).
                    await self._publish(session, self.board_again(session))
                return
            if interaction is not None:
                session.last_interaction[seat] = SeatToken.of(interaction)
            await self._after_change(session, events, interaction, presser=seat, answer=answer)

    async def _heal(self, session: Session, behind: bool) -> None:
        """After a press that only looked (*My card*): the board as the game is now, sent only if
        it differs from the one on show, else it would stay behind until the game's next change,
        which may be a long turn away. Asked for when the look may have changed what the board
        says (``behind``: Kingdom asks a player no private message reaches to press My card,
        until they have), or when the last edit was refused (a permission lost meanwhile, given
        back since: nothing known on show)."""
        if not behind and self.publisher(session).shown is not None:
            return  # the board shows the game, or its edit is on the way
        async with session.lock:
            if self._alive(session, PLAYING):
                await self._publish(session, self.board_again(session))

    async def _refuse(self, to: Answer | discord.Interaction, reason: str, text: str) -> None:
        """Tell only the presser why their press changed nothing; counted by reason in the metrics."""
        self.bot.metrics.refused(self.kind, reason)
        if isinstance(to, Answer):
            await to.private(text)
        else:
            await reply_private(to, text)

    @staticmethod
    def bound(session: Session, message: dict[str, Any]) -> dict[str, Any]:
        """A private message's controls bound to this game (see ``bot.glue.components.bind``)."""
        view = message.get("view")
        if view is not None:
            bind(view.children, session.tag)
        return message

    async def send_panel(
        self, move: Move, session: Session, message: dict[str, Any], *, single: bool = False
    ) -> None:
        """A private panel as the answer to ``move``, its controls bound to this game: a game
        that sends a panel itself sends it here. On Discord it is the interaction's answer, and
        the seat's token is kept, so what reaches the seat later can follow it; on a page, a
        private frame on the member's socket. Its view is emptied once sent, refused or not
        (``release``): its items point back at it, a cycle a full collection may freeze while
        the request is awaited, and then never free (``bot.ops.gc_tuning``).

        ``single``: the panel shows what the seat holds now (Kingdom's My card), so the seat keeps
        one of it, never a pile of them. A press made on a private panel is answered by editing
        that panel in place; one made anywhere else by a new panel, and the seat's earlier one is
        deleted (``retire_panel``). The game deletes it too when what it shows changes. An
        ephemeral message can be edited or deleted only through an interaction's token, for its
        15 minutes: an older panel stays as it is."""
        interaction = move.interaction
        if interaction is None:
            await move.answer.news(self.bound(session, message))
            return
        in_place = single and self._from_panel(session, interaction)
        try:
            if in_place:
                await self._replace_pressed(interaction, self.bound(session, message))
            else:
                await send_private(interaction, **private(self.bound(session, message)))
        finally:
            release(message)
        seat = session.seat_of(move.member_id)
        if seat is None:
            return
        token = SeatToken.of(interaction)
        session.last_interaction[seat] = token
        if not single:
            return
        earlier = session.panels.get(seat)
        if in_place:
            origin, pressed = message_origin(interaction), message_id(interaction)
            session.panels[seat] = Panel(token, origin or interaction.id, pressed)
            if earlier is not None and not earlier.may_be(origin, pressed):
                await self._delete_panel(session, seat, earlier)
            return
        session.panels[seat] = Panel(token, interaction.id)
        if earlier is not None:
            await self._delete_panel(session, seat, earlier)

    async def retire_panel(self, session: Session, seat: int) -> None:
        """Delete ``seat``'s kept panel (``send_panel(..., single=True)``): what it shows is not
        so any more (a card the seat no longer holds)."""
        panel = session.panels.pop(seat, None)
        if panel is not None:
            await self._delete_panel(session, seat, panel)

    def pressed_panel(self, session: Session, seat: int, interaction: discord.Interaction) -> bool:
        """Whether ``interaction`` was pressed on ``seat``'s kept panel, as far as can be told (a
        panel only just sent has no known id: a press on a private panel may be on it)."""
        panel = session.panels.get(seat)
        return (
            panel is not None
            and self._from_panel(session, interaction)
            and panel.may_be(message_origin(interaction), message_id(interaction))
        )

    async def _delete_panel(self, session: Session, seat: int, panel: Panel) -> None:
        """Delete a kept panel through its token while the token lives. Discord may refuse (the
        token revoked or expired, the message gone): the panel is forgotten all the same, and
        the press that got here goes on."""
        if not takes_followup(panel.token, now_ms()):
            return  # too old to touch: Discord keeps it as it is
        try:
            await delete_original(self._followup(panel.token))
        except discord.HTTPException as error:
            if not faults.transient(error) and error.status not in TOKEN_REFUSED:
                raise  # a malformed request is a bug, not a refusal
            log.warning(
                "private panel of seat %s in channel %s not deleted: %s/%s",
                seat,
                session.channel_id,
                error.status,
                error.code,
            )

    @staticmethod
    async def _replace_pressed(interaction: discord.Interaction, message: dict[str, Any]) -> None:
        """Answer a press made on a private panel by editing that panel into ``message``, whole:
        what the message does not have, the panel loses (its text, embed, picture, controls)."""
        edit: dict[str, Any] = {"content": None, "embed": None, "attachments": [], "view": None}
        pressed = interaction.message
        message = private(message, onto_card=pressed is not None and pressed.flags.components_v2)
        edit.update((key, value) for key, value in message.items() if key != "file")
        if "file" in message:
            edit["attachments"] = [message["file"]]
        await interaction.response.edit_message(**edit)

    def on_panel(self, interaction: discord.Interaction, press: Press) -> bool:
        """Whether ``press`` was made on one of this game's private panels."""
        return on_ephemeral(interaction) and press.name in self.panel_presses

    @staticmethod
    def _from_panel(session: Session, interaction: discord.Interaction) -> bool:
        """Whether an accepted press came from a panel: presses on any other message than the
        board are refused before they get here (``bot.app.client.GameBot.route_press``)."""
        pressed = message_id(interaction)
        return pressed is not None and pressed != session.board_message_id

    def _alive(self, session: Session, status: str) -> bool:
        return self.bot.sessions.get(session.channel_id) is session and session.status == status

    async def _after_change(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None = None,
        presser: int | None = None,
        answer: Answer | None = None,
    ) -> None:
        """After the engine changed: the record or the save, the timer, the board published,
        private news delivered, and the presser's ``answer`` (None for a timer's change)."""
        assert session.engine is not None
        computers.observe(session, events, self.computer_policy)  # before the computers plan their next moves
        saved = True
        if session.engine.is_over:
            await self._finish(session, interaction)
        else:
            self.pings.note(session, now_ms())  # saved with the state it follows from
            saved = await self._save(session)
            # Before the board: a board Discord refuses must not stop the game's clock.
            self.timers.arm(session)
            await self._publish(session, self.current_board(session), interaction)
        await self._deliver(session, events, interaction, presser, answer)
        if not saved and answer is not None and presser is not None:
            # The move stands (the board shows it) and its save waits on the database: the
            # presser is told just that, never "try again", which would meet their own move.
            note = t(session.seat_locale(presser), UNSAVED_MOVE)
            if interaction is not None:
                await self._push(session, presser, interaction, {"content": note})
            else:
                await answer.private(note)
        if self._alive(session, PLAYING):
            await self._ping(session)

    async def _ping(self, session: Session) -> None:
        """Turn pings due now, after the press's answer (so a ping, or deleting the last turn's,
        never delays it). A ping is a courtesy: whatever goes wrong with it is logged, and the
        press or timer that got here goes on."""
        try:
            changed = await self.pings.send_due(session, now_ms())
        except Exception:
            log.exception("turn ping in channel %s failed", session.channel_id)
            self.pings.give_up(session)  # else the timer would wake for it again at once
            changed = True
        if changed:
            self.timers.arm(session)

    async def _deliver(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None,
        presser: int | None,
        answer: Answer | None = None,
    ) -> None:
        """Private events to their seats. The presser's first one is the press's own answer when the
        board did not change (see ``_publish``); a press that changed nothing anyone sees is still
        acknowledged. A press from a page (``answer`` without an interaction) has its news on
        the page's socket."""
        now = now_ms()
        refused = False
        for event in events:
            for seat in event.to or ():
                message = self.render_private(session, seat, event)
                if message is None:
                    continue
                if seat == presser and answer is not None and interaction is None:
                    await answer.news(self.bound(session, message))
                    continue
                # The seat's open pages, if any: only theirs (bot.session.tables).
                self.bot.publishers.tables.private(session, seat, self.bound(session, message))
                if seat == presser and interaction is not None and not interaction.response.is_done():
                    refused |= not await self._push(session, seat, interaction, message, answer=True)
                    continue
                target = interaction if seat == presser else session.last_interaction.get(seat)
                if not takes_followup(target, now):
                    continue  # the seat can still read it from its own view (e.g. "My card")
                refused |= not await self._push(session, seat, target, message)
        if interaction is not None and not interaction.response.is_done():
            try:
                if self._from_panel(session, interaction):
                    await interaction.response.edit_message(
                        view=spent(interaction.message)
                    )  # its controls are spent
                    if presser is not None and self.pressed_panel(session, presser, interaction):
                        kept = session.panels[presser]
                        session.panels[presser] = Panel(
                            SeatToken.of(interaction), kept.origin, message_id(interaction)
                        )
                else:
                    await interaction.response.defer()
            except discord.HTTPException as error:
                faults.not_acknowledged(error, session.channel_id)
        if answer is not None and interaction is None:
            await answer.acknowledge()
        if refused and self._alive(session, PLAYING):
            # Without its token the seat counts as unreachable, and the board can say so.
            await self._publish(session, self.board_again(session))

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
        message = private(self.bound(session, message))
        try:
            if isinstance(target, SeatToken):
                await self._followup(target).send(ephemeral=True, **message)
            elif answer and self._from_panel(session, target):
                # The panel's controls are spent: the news replaces them, and a panel kept as the
                # seat's current one (``send_panel``) is news now, no longer that.
                if self.pressed_panel(session, seat, target):
                    del session.panels[seat]
                await self._replace_pressed(target, message)
            elif answer:
                await send_private(target, **message)
            else:
                await target.followup.send(ephemeral=True, **message)
        except discord.HTTPException as error:
            if faults.transient(error):
                # Discord failed once discord.py gave up retrying: the seat keeps its token and
                # can read the news from its own view (e.g. "My card").
                log.warning(
                    "private message to seat %s in channel %s not sent: %s/%s",
                    seat,
                    session.channel_id,
                    error.status,
                    error.code,
                )
                return True
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
        finally:
            release(message)  # sent or not (see ``send_panel``)
        return True

    async def tell_players(
        self, session: Session, text: Callable[[str], str], letter: Callable[[str], str]
    ) -> None:
        """``text(locale)`` to every seat whose last press's token still takes a followup,
        privately, in the seat's language: the one way to reach players when the bot may not post
        in their channel. A host no followup reached gets ``letter(locale)`` as a direct message
        instead (one message, not retried: closed DMs or a fault drop it)."""
        now = now_ms()
        reached: set[int] = set()
        for seat, token in list(session.last_interaction.items()):
            if takes_followup(token, now) and await self._push(
                session, seat, token, {"content": text(session.seat_locale(seat))}
            ):
                reached.add(session.players[seat])
        if session.host_id in reached:
            return
        seat = session.seat_of(session.host_id)
        locale = session.seat_locale(seat) if seat is not None else session.locale
        try:
            host = self.bot.get_user(session.host_id) or await self.bot.fetch_user(session.host_id)
            await host.send(letter(locale))
        except discord.HTTPException as error:
            log.warning(
                "direct message to the host of channel %s refused: %s/%s",
                session.channel_id,
                error.status,
                error.code,
            )

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
        await self.publisher(session).publish(self._offering_table(session, board), interaction)

    def _offering_table(self, session: Session, board: Board) -> Board:
        """A game in play's board with the Activity's launch button, where it is on (the lobby
        draws its own; a game over's board offers Play again)."""
        engine = session.engine
        if self.bot.table_server is None or session.status != PLAYING or engine is None or engine.is_over:
            return board
        return offer_table(board, session.channel_id, session.locale)

    async def repost(self, session: Session, board: Board | None = None) -> discord.Message:
        """Post the board as a fresh message (the old one is emptied so no trail is left)."""
        if board is None:
            board = self.board_now(session) if session.status == PLAYING else self._lobby(session)
        return await self.publisher(session).repost(self._offering_table(session, board))

    async def board_deleted(self, session: Session, message_id: int) -> None:
        """Someone deleted the board message: the game goes on, on a new one that says why. The
        bot never deletes a board itself (it empties an old one by an edit), so this cannot loop."""
        async with session.lock:
            if not self._alive(session, session.status) or session.board_message_id != message_id:
                return  # ended meanwhile, or already posted anew by an edit that found it gone
            session.board_message_id = None  # nothing left to empty
            board = self.board_now(session) if session.status == PLAYING else self._lobby(session)
            deleted = t(session.locale, "The board message was deleted, so here it is again.")
            # A game over says besides that its record waits (``board_now``).
            board.content = f"{deleted}\n{board.content}" if board.content else deleted
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
        # Over: no instant is left to wait for. Its timer, spent or not, would otherwise stay the
        # game's while its record waits on the database, and count it as stuck (``stuck_games``).
        self.timers.cancel(session)

        async def write() -> None:
            # The finished state first, waiting for the disk: a restart records it, even after
            # a crash of the database (whose saves otherwise do not wait: docs/operations.md).
            await self._store(session, durable=True)
            await record(self, session, "finished", result)
            await self._forget(session)

        final = self.render_final(session, result)
        if not await self.bot.guard.write(session, "finish", write, again=lambda: self._finish(session)):
            # Over, and recorded as soon as the database takes it (bot.session.guarded): the
            # final board says so meanwhile (once, not at every retry, unless Discord refused it:
            # the publisher then knows no board on show); Play again comes with the record.
            shown = self.publisher(session).shown is not None
            if interaction is not None or not session.result_waits or not shown:
                session.result_waits = True
                await self._publish(session, self._record_waits(session, final), interaction)
            return
        await self._publish(session, with_play_again(final, session.game_key, session.locale), interaction)

    async def end(self, session: Session, by: str, interaction: discord.Interaction | None = None) -> bool:
        """End a lobby or a running game early; a game is recorded as abandoned. False: the
        database did not take it yet, and it ends by itself once it does."""
        if session.status == PLAYING and session.engine is not None and session.engine.is_over:
            await self._finish(session, interaction)  # over already: its result stands
            return not self.bot.guard.pending(session)
        status = session.status

        async def write() -> None:
            if status == PLAYING:
                await record(self, session, "abandoned", None)
            await self._forget(session)

        if not await self.bot.guard.write(session, "end", write, again=lambda: self.end(session, by)):
            return False
        locale = session.locale  # public: the session's language
        text = t(
            locale, "Game ended by {name}. It is recorded as abandoned: standings do not change.", name=by
        )
        if status == LOBBY:
            text = t(locale, "Lobby cancelled by {name}.", name=by)
        title = t(locale, "{game} — ended", game=game_title(locale, self.title))
        await self._publish(session, closed_board(title, text), interaction)
        return True

    async def drop(self, session: Session, why: str) -> None:
        """The game's channel is gone, or the bot left its server: the game ends as abandoned
        (a lobby just closes), with nothing to show and nobody to tell but the log, once."""
        async with session.lock:
            if self.bot.sessions.get(session.channel_id) is session:
                await self._drop(session, why)

    async def _drop(self, session: Session, why: str) -> None:
        self.timers.cancel(session)  # at once: no idle turn is played in a channel nobody sees
        self.bot.publishers.drop(session.channel_id)  # and no board is sent there
        status = session.status
        # A game over before its channel went (its record waiting on the database) keeps its
        # result; one still in play has none: abandoned, rating nobody.
        result = session.engine.result() if session.engine is not None and session.engine.is_over else None

        async def write() -> None:
            if status == PLAYING:
                await record(self, session, "finished" if result else "abandoned", result)
            await self.bot.storage.delete_session(session.guild_id, session.channel_id)
            self.bot.sessions.remove(session)

        if await self.bot.guard.write(session, "drop", write, again=lambda: self._drop(session, why)):
            what = "lobby closed" if status == LOBBY else "game ended as abandoned"
            log.info("%s: %s, %s", describe(session), why, "finished game recorded" if result else what)

    async def _forget(self, session: Session) -> None:
        await self.bot.storage.delete_session(session.guild_id, session.channel_id)
        self.bot.sessions.remove(session)
        self.timers.cancel(session)
        await self.pings.clear(session)

    # ------------------------------------------------------------------ saving and timers

    async def _save(self, session: Session, *, durable: bool = False) -> bool:
        """Save the session, through the guard: False when the database did not take it, and
        the save waits for a retry (``bot.session.guarded``). ``durable``: its commit waits for
        the disk where saves do not (``bot.storage.interface``)."""
        return await self.bot.guard.write(session, SAVE, lambda: self._store(session, durable=durable))

    async def _store(self, session: Session, *, durable: bool = False) -> None:
        self._plan_computers(session)  # saved with the state they follow from
        started = time.perf_counter()
        await save_session(self.bot.storage, session, now_ms(), durable=durable)
        self.bot.metrics.saved(time.perf_counter() - started)

    def restore(self, data: Mapping[str, Any]) -> Session:
        """Bring back a session saved before a restart and re-arm its timer."""
        session = Session.from_json(data, self.engine_cls)
        self.bot.sessions.add(session)
        self.timers.restore(session)
        return session

    def _plan_computers(self, session: Session) -> None:
        if session.status == PLAYING and session.engine is not None and not session.engine.is_over:
            computers.replan(session, now_ms(), self.computer_policy)
