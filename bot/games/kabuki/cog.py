"""Kabuki in a Discord channel: the slash command, presses turned into engine actions, private news.

The rules live in bot/games/kabuki/engine.py and the board in bot/games/kabuki/board.py; the
session layer (bot/session/gamecog.py) runs the lobby, the lock, saving, timers and recording.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Action, Event, IllegalAction, Result
from bot.games.kabuki import board as kabuki_board
from bot.games.kabuki.engine import DECK_SIZE, DEFAULT_OPTIONS, PLAY, KabukiEngine
from bot.games.limits import LONGEST_TURN_S
from bot.glue.board import Board, sign
from bot.glue.components import Press
from bot.i18n import DEFAULT, N_, duration, t
from bot.session.gamecog import GameCog
from bot.session.sessions import Session

# One message, so a translator sees the whole text; /rules shows it in the member's language.
RULES = N_("""\
**Kabuki** (2–6 players, 3 rounds). Mask cards are dealt one by one onto four actors (stacks). \
On your turn the card on show goes on top of a stack of your choice. Putting a mask on an actor \
that already wears it below is a mistake: anyone else may press **Stop!**

**Stop!** reveals that stack. If *k* masks below the top match it, the challenger takes *k* \
tokens from the placer; if none does, the challenger returns 1 token to the box. A round ends \
when someone has 0 tokens or the deck runs out; tokens left become VP. Most VP after 3 rounds wins.

**How it plays here**
• **Memory stays memory**: one board message is edited in place. It shows only each stack's top \
mask and height, the card on show, tokens, totals and the last event — no log to scroll back.
• **Grace**: after a placement the next player must wait a moment (default 3 s) so the others can \
press Stop!. Stop! stays live until the next card is placed (for the last card: for the grace).
• **Fair race**: presses arriving within the race window (default 250 ms) of the first Stop! all \
compete, and the earliest by Discord's own timestamp wins, not the order the bot read them. The \
first Stop! shows on the board at once; a later press in the window is confirmed to you \
privately, and if you lose the race you are told privately who beat you and by how many ms.
• **Reveal**: the challenged stack is shown on the board to everyone for a few seconds \
(default 8 s), matches marked, then hidden again. Play pauses meanwhile.
• **Turn timer**: an idle player's card goes on a random stack after the timer (default 60 s; \
up to a day for a slow server), and the board says so. A placer who has not placed after 30 s \
is pinged once, in a short message deleted when the card is placed.
• Only the active player's stack buttons work; the placer cannot Stop! their own card.
• **Computer players** (🤖, seated by the host in the lobby) remember what they saw placed, \
forget a buried mask now and then as people do, and press Stop! on a match they remember after \
a human reaction (0.4–1.2 s); they think 1.5–4 s before placing.
""")


# What a turn ping asks the placer (after the mention), in the game's language.
PING_PLACER = N_("it is your turn: place the card on show on an actor.")


class KabukiCog(
    GameCog, group_name="kabuki", group_description="Kabuki: remember the masks, catch the mistakes"
):
    engine_cls = KabukiEngine
    colour = kabuki_board.COLOUR
    rules_summary = RULES
    score_label = "VP"

    @app_commands.command(name="new", description="Open a Kabuki lobby in this channel")
    @app_commands.describe(
        grace="Seconds the next player waits after a placement, so others can press Stop! (default 3)",
        race_window="Milliseconds a Stop! race collects presses after the first one (default 250)",
        reveal="Seconds a challenged stack stays shown (default 8)",
        turn_timer="Seconds before an idle player's card goes on a random stack: 10–86400, i.e. up "
        "to a day (default 60)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        grace: app_commands.Range[int, 0, 30] = DEFAULT_OPTIONS["grace_ms"] // 1000,
        race_window: app_commands.Range[int, 0, 2000] = DEFAULT_OPTIONS["race_window_ms"],
        reveal: app_commands.Range[int, 1, 30] = DEFAULT_OPTIONS["reveal_ms"] // 1000,
        turn_timer: app_commands.Range[int, 10, LONGEST_TURN_S] = DEFAULT_OPTIONS["turn_ms"] // 1000,
    ) -> None:
        await self.open_lobby(
            interaction,
            {
                "grace_ms": grace * 1000,
                "race_window_ms": race_window,
                "reveal_ms": reveal * 1000,
                "turn_ms": turn_timer * 1000,
            },
        )

    def default_options(self) -> dict[str, Any]:
        return {key: DEFAULT_OPTIONS[key] for key in ("grace_ms", "race_window_ms", "reveal_ms", "turn_ms")}

    def options_text(self, options: Mapping[str, Any], locale: str = DEFAULT) -> str:
        o = {**DEFAULT_OPTIONS, **options}
        return t(
            locale,
            "Grace: {grace}\nStop! race: the earliest press within {race} of the first wins\n"
            "Reveal: {reveal}\nTurn timer: {turn}",
            grace=duration(locale, o["grace_ms"]),
            race=duration(locale, o["race_window_ms"]),
            reveal=duration(locale, o["reveal_ms"]),
            turn=duration(locale, o["turn_ms"]),
        )

    # ------------------------------------------------------------------ boards

    # Public: in the game's language (``session.locale``, the server's).

    def render_board(self, session: Session) -> Board:
        assert session.engine is not None
        return self._render(session, session.engine.view(None), session.seat_names())

    def _render(self, session: Session, view: Mapping[str, Any], names: list[str]) -> Board:
        board = kabuki_board.render(view, names, session.channel_id, locale=session.locale)
        return sign(board, session.commitment, locale=session.locale)

    def current_board(self, session: Session) -> Board:
        """The board is drawn from the public view, its names and language alone, so a press that
        changed none of them (refused, or joining a Stop! race) is shown the board on show."""
        assert session.engine is not None
        view = session.engine.view(None)
        names = session.seat_names()
        state = self.drawn_from(session, view, tuple(names))
        return self.publisher(session).redraw(state, lambda: self._render(session, view, names))

    def render_final(self, session: Session, result: Result) -> Board:
        assert session.engine is not None
        view = session.engine.view(None)
        board = kabuki_board.render(
            view, session.seat_names(), session.channel_id, final=True, locale=session.locale
        )
        return sign(board, session.commitment, seed=session.seed, salt=session.salt, locale=session.locale)

    def ping_turn(self, session: Session) -> str | None:
        """One turn per card on show (a reveal pausing it does not start it again)."""
        engine = session.engine
        assert isinstance(engine, KabukiEngine)
        if engine.phase != PLAY or engine.pos >= DECK_SIZE or engine.active is None:
            return None
        return f"{engine.round}.{engine.turn}"

    def awaited(self, session: Session) -> dict[int, str]:
        """The placer."""
        engine = session.engine
        assert isinstance(engine, KabukiEngine)
        return {} if engine.active is None else {engine.active: t(session.locale, PING_PLACER)}

    # ------------------------------------------------------------------ presses

    def action_for(self, session: Session, seat: int, press: Press) -> Action:
        try:
            if press.name == "place":
                stack, turn = press.arg.split("-")
                return {"type": "place", "stack": int(stack), "turn": int(turn)}
            if press.name == "stop":
                return {"type": "stop", "turn": int(press.arg)}
        except ValueError:
            pass
        if press.name in ("join", "leave", "start", "cancel"):
            raise IllegalAction(N_("The game has already started: that lobby button is out of date."))
        raise IllegalAction(N_("That button is out of date."))

    def render_private(self, session: Session, seat: int, event: Event) -> dict[str, Any] | None:
        # Private: in the seat's own language (as their latest press showed it).
        locale = session.seat_locale(seat)
        if event.kind == "stop_received":
            if event.data.get("opened"):
                return None  # the board, redrawn in this press's own answer, shows the race
            return {
                "content": t(
                    locale,
                    "✋ **Stop!** registered. Presses within the race window all count; "
                    "the earliest wins. The result shows on the board in a moment.",
                )
            }
        if event.kind == "race_lost":
            winner = session.name_of(event.data["winner"])
            text = t(
                locale,
                "🐢 **{winner}** pressed Stop! first, {ms} ms before you.",
                winner=winner,
                ms=event.data["by_ms"],
            )
            return {"content": text}
        return None


async def setup(bot: commands.Bot) -> None:
    """Loaded as a discord.py extension by the bot, from the game's descriptor (``GAME.cog``)."""
    await bot.add_cog(KabukiCog(bot))
