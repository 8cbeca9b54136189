"""Death Over the Kingdom on Discord: `/kingdom new`, the board, My card and private news.

The rules live in ``bot/games/kingdom``; the drawing in ``bot/games/kingdom/board.py``. This cog
only turns presses into engine actions and engine events into private messages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Action, Event, IllegalAction, Result
from bot.games.kingdom import board as render
from bot.games.kingdom.cards import POWER_OF
from bot.games.kingdom.engine import MODES, KingdomEngine, start_tokens
from bot.games.kingdom.pictures import draw_all_cards
from bot.games.limits import LONGEST_TURN_S
from bot.glue.board import Board, drawn, sign
from bot.glue.clock import now_ms
from bot.glue.components import Press
from bot.i18n import DEFAULT, N_, duration, t
from bot.session.gamecog import GameCog
from bot.session.press import Answer, Move
from bot.session.sessions import Session

# The table gets a moment to read a reveal; any player may skip it with "Next round".
REVEAL_MS = 20_000
# What a turn ping asks: the card is private, so the player is sent to their own view of it.
PING_ACTIVE = N_("it is your turn: press 🃏 **My card** to see your card and what you can do.")
# Actions whose target receives a card from somebody else's move.
GIVES_TARGET_A_CARD = frozenset({"exchange", "swap", "bard", "dragon"})

RULES = N_("""\
**Goal.** Each round everyone holds one secret character card (0 Death … 12 King). After one \
action each, the **lowest** card takes a token (Death always loses). Fewest tokens wins.
**Deal.** The first dealer is chosen randomly; then the deal passes to the right: each round's \
first player deals the next one.
**Your turn** (starting right of the dealer, the dealer last): **Stand**; **Exchange** with the \
player to your right (the dealer instead discards face up and **cuts** the deck); or use the power \
of the card you hold, revealing it: **Trader** swaps with the deck's top card, **Thief** looks at \
a later player's card and may take it, **Bard** swaps unseen with a later player, **Dragon** makes \
the player to your right discard and draw.
**End of round:** some cards *turn* (value becomes 12 − printed): Innkeeper if a King is in play, \
Clown if a Queen, Magician if a Monk, Dragon if a Knight, Knight and Queen if a Princess. A Monk \
takes the value of the card to its right (not the dealer's Monk). A King is shown at once; \
nobody can take it and its holder only stands.
**Modes:** *Classic* (3–16, rounds = players × length): losers take 1 token. *Death over all* \
(3–16): the three lowest values take 3/2/1, King holders give one back. *There can be only one* \
(2–20): tokens are lives (5, 4 or 3), losers lose one, last standing wins.

**On Discord.** `/kingdom new mode length timer`, players **Join**, the host **Starts**. Press \
🃏 **My card** to see your card privately, with what you can do. The board shows only public \
facts: seats in play order, dealer, whose turn, face-up cards (Kings, used powers, discards, a \
Trader on the deck), tokens, and after each round every card with its final value and a picture. \
The board's buttons (Stand, Exchange or Cut, the Thief's Take or Keep) are the same whatever the \
active player holds, so they give nothing away; only the active player can use them. To use a \
power, press 🃏 **My card** on your turn: your card's power is offered there, privately, with its \
legal targets (King holders never). Cards you receive and the Thief's look reach you privately; \
a power you receive after your own turn cannot be used that round. \
An idle player stands when the turn timer runs out (default 60 s; up to a day for a slow \
server); a player who has not acted after 30 s is pinged once, in a short message deleted when \
their turn is over. \
Standings are recorded as tokens taken (in *only one*: tokens lost), fewer is better.
**Computer players** (🤖, seated by the host in the lobby) see only their own card, their Thief \
peek and the cards shown face up, and think 2–5 s before acting.
""")


class KingdomCog(GameCog, group_name="kingdom", group_description="Death Over the Kingdom"):
    engine_cls = KingdomEngine
    colour = render.COLOUR
    rules_summary = RULES
    score_label = "tokens"
    panel_presses = render.PANEL_PRESSES

    async def cog_load(self) -> None:
        await super().cog_load()
        await drawn(draw_all_cards)

    async def on_game_start(self, session: Session) -> None:
        # The first round's events (``engine.opening``) serve replays of a freshly made engine;
        # delivered already, an open game need not keep them (a restored one has none either),
        # and they were a fifth of what the collector walks per open game.
        if session.engine is not None:
            session.engine.opening = []

    @app_commands.command(name="new", description="Open a Death Over the Kingdom lobby")
    @app_commands.describe(
        mode="Classic, Death over all players, or There can be only one",
        length="Classic / Death over all: rounds = players × length (2–6)",
        timer="Seconds a player has to act before standing automatically: 10–86400, i.e. up to a day",
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name=name, value=value) for value, name in render.MODE_NAMES.items()]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        mode: str = "classic",
        length: app_commands.Range[int, 2, 6] = 3,
        timer: app_commands.Range[int, 10, LONGEST_TURN_S] = 60,
    ) -> None:
        await self.open_lobby(
            interaction, {"mode": mode, "length": length, "turn_ms": timer * 1000, "reveal_ms": REVEAL_MS}
        )

    def default_options(self) -> dict[str, Any]:
        return {"mode": "classic", "length": 3, "turn_ms": 60_000, "reveal_ms": REVEAL_MS}

    def options_text(self, options: Mapping[str, Any], locale: str = DEFAULT) -> str:
        mode = options.get("mode", "classic")
        low, high = MODES.get(mode, (3, 16))
        name = t(locale, render.MODE_NAMES[mode]) if mode in render.MODE_NAMES else mode
        lines = [t(locale, "Mode: **{mode}** ({low}–{high} players)", mode=name, low=low, high=high)]
        if mode == "only-one":
            lines.append(t(locale, "Tokens are lives: 5 (2–6 players), 4 (7–12), 3 (13–20)"))
        else:
            lines.append(t(locale, "Length: players × {length} rounds", length=options.get("length", 3)))
        lines.append(t(locale, "Turn timer: {timer}", timer=duration(locale, options.get("turn_ms", 60_000))))
        return "\n".join(lines)

    # ------------------------------------------------------------------ the board
    def _names(self, session: Session) -> list[str]:
        return session.seat_names()

    def render_board(self, session: Session) -> Board:
        assert session.engine is not None
        view = session.engine.view(None)
        names = self._names(session)
        return self._render(session, view, names, self._unreached_notes(session, view, names))

    def _render(self, session: Session, view: Mapping[str, Any], names: list[str], notes: list[str]) -> Board:
        board = render.kingdom_board(
            view, names, session.channel_id, session.game_key, notes, locale=session.locale
        )
        return sign(board, session.commitment, locale=session.locale)

    def current_board(self, session: Session) -> Board:
        """The board is drawn from the public view, the names, the notes for players no private
        message reaches, and the language alone, so a press that changed none of them (refused,
        a look at My card) is shown the board on show (the view, which shares the engine's reveal,
        is kept as its JSON: ``drawn_from``)."""
        assert session.engine is not None
        view = session.engine.view(None)
        names = self._names(session)
        notes = self._unreached_notes(session, view, names)
        state = self.drawn_from(session, view, tuple(names), tuple(notes))
        return self.publisher(session).redraw(state, lambda: self._render(session, view, names, notes))

    def _unreached_notes(self, session: Session, view: Mapping[str, Any], names: list[str]) -> list[str]:
        """A player handed a card by someone else's move, whom no private message can reach (no
        recent interaction of theirs, no page of theirs open), is told on the board to look."""
        if view["phase"] != "play":
            return []
        now = now_ms()
        notes = []
        for action in view["actions"]:
            target = action.get("target")
            if action["type"] not in GIVES_TARGET_A_CARD or target is None or view["seats"][target]["acted"]:
                continue
            if session.players[target] < 0:
                continue  # a computer reads its card from its view: nobody to tell
            if self.unreached(session, target, now):
                notes.append(
                    "📬 "
                    + t(
                        session.locale,
                        "**{name}**, your card changed: press 🃏 **My card**.",
                        name=names[target],
                    )
                )
        return list(dict.fromkeys(notes))

    def ping_turn(self, session: Session) -> str | None:
        """One turn per player's move in a round (a Thief choosing Take or Keep is still in it); a
        round's reveal waits for nobody."""
        engine = session.engine
        assert isinstance(engine, KingdomEngine)
        return None if engine.active is None else f"{engine.round}.{engine.pos}"

    def awaited(self, session: Session) -> dict[int, str]:
        """The player whose move it is."""
        engine = session.engine
        assert isinstance(engine, KingdomEngine)
        return {} if engine.active is None else {engine.active: t(session.locale, PING_ACTIVE)}

    def render_final(self, session: Session, result: Result) -> Board:
        assert session.engine is not None
        board = render.final_board(
            session.engine.view(None),
            self._names(session),
            result.winners,
            session.game_key,
            locale=session.locale,
        )
        return sign(board, session.commitment, seed=session.seed, salt=session.salt, locale=session.locale)

    def recorded_scores(self, session: Session, result: Result) -> list[int]:
        """Fewer is better on the leaderboard in every mode: in only-one the engine's score is
        tokens remaining, so record tokens lost instead."""
        if result.details.get("mode") == "only-one":
            start = start_tokens(len(result.scores))
            return [start - left for left in result.scores]
        return list(result.scores)

    # ------------------------------------------------------------------ presses
    def action_for(self, session: Session, seat: int, press: Press) -> Action:
        engine = session.engine
        assert isinstance(engine, KingdomEngine)
        parsed = render.parse_press(press.name, press.arg, press.values)
        if parsed is None:
            raise IllegalAction(N_("That button is not part of this game."))
        if parsed.pop("version") != engine.version:
            raise IllegalAction(
                N_("That was an out-of-date board: the game has moved on. Look again and retry.")
            )
        if parsed["type"] == render.POWER:
            # A card panel's ids do not name the card: the power is the one the presser holds.
            kind = POWER_OF.get(engine.char(seat))  # type: ignore[arg-type]
            if kind is None:
                raise IllegalAction(N_("Your card has no power to use on your turn."))
            parsed["type"] = kind
        return parsed

    def render_private(self, session: Session, seat: int, event: Event) -> dict[str, Any] | None:
        """Private news in the seat's own language (its member's latest press showed it)."""
        locale = session.seat_locale(seat)
        if event.kind == "card" and event.data.get("how") != "deal":
            engine = session.engine
            assert isinstance(engine, KingdomEngine)
            # Rendered after the move: the round may be over already (the dealer's cut).
            spent = engine.phase != "play" or seat in engine.acted
            return render.received_message(event.data, self._names(session), spent=spent, locale=locale)
        if event.kind == "peek":
            return render.peek_message(event.data, self._names(session), locale)
        return None

    def look_may_change_board(self, session: Session, seat: int) -> bool:
        """A player no private message reaches may be asked on the board to press My card
        (``_unreached_notes``); their look gives them a fresh token, and the note goes."""
        return self.unreached(session, seat, now_ms())

    async def handle_query(self, move: Move, session: Session, seat: int) -> bool:
        """My card: the card the seat holds now, with what it can do. On Discord a member keeps
        one card panel, never a pile of large cards some of which they no longer hold: pressed on
        the panel, My card shows the card in that same panel; pressed on the board, it sends a new
        panel and deletes the earlier one (``send_panel(single=True)``), and a change of card
        deletes the panel too (``_deliver``). Only a panel older than its token's 15 minutes can't
        be touched. On an Activity page each look is one more private card, as ever: the page
        keeps its own list, and the member dismisses them there."""
        if move.press.name != render.CARD:
            return False
        assert session.engine is not None
        view = session.engine.view(seat)
        message = render.my_card_message(view, self._names(session), session.channel_id, move.locale)
        # On Discord its token is kept too: cards handed to this player later reach them through it.
        await self.send_panel(move, session, message, single=True)
        return True

    async def _deliver(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None,
        presser: int | None,
        answer: Answer | None = None,
    ) -> None:
        """Before the news: a card panel showing a card its seat no longer holds (it gave or
        received a card, or a new round was dealt) is deleted, so no panel shows a card as held
        that is not. The panel a move was pressed on is left to the session layer, which
        replaces it with the move's news."""
        changed = {seat for event in events if event.kind == "card" for seat in event.to or ()}
        if (
            interaction is not None
            and presser is not None
            and self.pressed_panel(session, presser, interaction)
        ):
            changed.discard(presser)
        panels = [seat for seat in sorted(changed) if seat in session.panels]
        if panels:
            await asyncio.gather(*(self.retire_panel(session, seat) for seat in panels))
        await super()._deliver(session, events, interaction, presser, answer)


async def setup(bot: commands.Bot) -> None:
    """Loaded as a discord.py extension by the bot, from the game's descriptor (``GAME.cog``)."""
    await bot.add_cog(KingdomCog(bot))
