"""/replay: a finished game step by step, privately, with buttons that work after a restart.

The buttons' custom ids carry only the game's key and a step (``rp:<key>:<step>:<which>``): the
game is over, so nothing in it is secret any more, and the press is checked against this server's
stored games (a key from another server finds nothing).
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import make_view
from bot.gamecog import reply_private
from bot.replay_board import ReplayPage, replay_page
from bot.replays import TITLES
from bot.storage import StoredGame

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

NAV = {"first": "⏮", "back10": "−10", "prev": "◀", "next": "▶", "fwd10": "+10", "last": "⏭"}
NOT_HERE = (
    "I keep no finished game like that in this server. Pick one from the list under `game:`, or "
    "leave it out for the last game finished in this channel."
)
SORRY = "Sorry, something went wrong on my side showing that replay; try again."


def nav_buttons(key: str, page: ReplayPage) -> list[discord.ui.Item]:
    """⏮ ◀ ▶ ⏭ on the first row, −10 and +10 under them; each names the step it goes to."""
    step, count = page.step, page.count
    targets = {
        "first": 1,
        "prev": step - 1,
        "next": step + 1,
        "last": count,
        "back10": max(step - 10, 1),
        "fwd10": min(step + 10, count),
    }
    return [
        ReplayButton(
            key, targets[which], which, disabled=not 1 <= targets[which] <= count or targets[which] == step
        )
        for which in ("first", "prev", "next", "last", "back10", "fwd10")
    ]


async def show(interaction: discord.Interaction, key: str, step: int, *, edit: bool) -> None:
    """Answer with the page: a new private message for /replay, the same one edited for a button."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    stored = await bot.storage.game_log(interaction.guild_id or 0, key) if interaction.guild_id else None
    if stored is None or stored.log is None:
        return await reply_private(interaction, NOT_HERE)
    page = await asyncio.to_thread(replay_page, stored, step)
    view = make_view(nav_buttons(key, page)) if page.count else None
    if edit:
        await interaction.response.edit_message(content=page.content, embeds=page.embeds, view=view)
    else:
        await interaction.response.send_message(
            page.content, embeds=page.embeds, view=view or discord.utils.MISSING, ephemeral=True
        )


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rp:(?P<key>[A-Za-z0-9_.\-]{1,64}):(?P<step>\d{1,6}):(?P<which>[a-z0-9]+)",
):
    def __init__(self, key: str, step: int, which: str, *, disabled: bool = False) -> None:
        row = 1 if which in ("back10", "fwd10") else 0
        super().__init__(
            discord.ui.Button(
                label=NAV.get(which, which), disabled=disabled, row=row, custom_id=f"rp:{key}:{step}:{which}"
            )
        )
        self.key, self.step = key, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ReplayButton:
        return cls(match["key"], int(match["step"]), match["which"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await show(interaction, self.key, self.step, edit=True)
        except Exception:
            log.exception("a replay button failed")
            await reply_private(interaction, SORRY)


def game_choice(game: StoredGame, channel: str) -> app_commands.Choice[str]:
    """How a game is named in the ``game:`` list: which game, when it finished, where."""
    ended = datetime.fromtimestamp(game.ended_at / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
    name = f"{TITLES.get(game.kind, game.kind)} · {ended} · #{channel}"
    return app_commands.Choice(name=name[:100], value=game.game_key)


class ReplayCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="replay", description="A finished game step by step, face up (only you see it)."
    )
    @app_commands.describe(
        game="One of your recent games here (default: the last game finished in this channel)"
    )
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        key = game
        if not key:
            last = await self.bot.storage.recent_games(
                interaction.guild_id, channel_id=interaction.channel_id, limit=1
            )
            if not last:
                return await reply_private(
                    interaction,
                    "No finished game has been kept in this channel yet. Pick one of your games "
                    "with `game:`.",
                )
            key = last[0].game_key
        await show(interaction, key, 1, edit=False)

    @replay.autocomplete("game")
    async def game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        games = await self.bot.storage.recent_games(interaction.guild_id, user_id=interaction.user.id)
        guild = interaction.guild
        choices = []
        for game in games:
            channel = guild.get_channel_or_thread(game.channel_id) if guild else None
            choice = game_choice(game, channel.name if channel else "a deleted channel")
            if current.casefold() in choice.name.casefold():
                choices.append(choice)
        return choices[:25]
