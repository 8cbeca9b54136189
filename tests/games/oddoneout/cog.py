"""Odd One Out in a Discord channel: the slash command, a press turned into a pick, and the
private word that says what you picked (nobody else sees it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Action, Event, IllegalAction, Result
from bot.glue.board import Board, sign
from bot.glue.components import Press
from bot.session.gamecog import GameCog
from bot.session.sessions import Session

from . import board
from .engine import ROUND_MS, OddOneOutEngine

RULES = (
    "**Odd One Out** (2–6 players, 3 rounds). Each round everyone secretly picks 1, 2 or 3 with "
    "the board's buttons. A pick nobody else made scores its value. Most points after 3 rounds win."
)


class OddOneOutCog(GameCog, group_name="oddoneout", group_description="The test-only Odd One Out game"):
    engine_cls = OddOneOutEngine
    rules_summary = RULES

    @app_commands.command(name="new", description="Open an Odd One Out lobby")
    async def new(
        self,
        interaction: discord.Interaction,
        round_timer: app_commands.Range[int, 10, 600] = ROUND_MS // 1000,
    ) -> None:
        await self.open_lobby(interaction, {"round_ms": round_timer * 1000, "turn_ms": round_timer * 1000})

    def render_board(self, session: Session) -> Board:
        assert session.engine is not None
        drawn = board.render(session.engine.view(None), session.seat_names(), session.channel_id)
        return sign(drawn, session.commitment, locale=session.locale)

    def render_final(self, session: Session, result: Result) -> Board:
        assert session.engine is not None
        drawn = board.render(session.engine.view(None), session.seat_names(), session.channel_id)
        return sign(drawn, session.commitment, seed=session.seed, salt=session.salt, locale=session.locale)

    def action_for(self, session: Session, seat: int, press: Press) -> Action:
        if press.name == "pick" and press.arg in ("1", "2", "3"):
            return {"type": "pick", "value": int(press.arg)}
        raise IllegalAction("That button is out of date.")

    def render_private(self, session: Session, seat: int, event: Event) -> dict[str, Any] | None:
        if event.kind == "you_picked":
            return {"content": f"You picked **{event.data['value']}**. Nobody else sees it."}
        return None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OddOneOutCog(bot))
