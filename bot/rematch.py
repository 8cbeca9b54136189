"""Play again: the final board's button that opens a new lobby for the same game and options.

By the time anyone presses it the finished game's session is gone (the channel is free), so the
button carries only the game's key (public: it is in no way a secret) and the press reads the
recorded game back from storage. That also makes it work after a restart: the button is a
registered ``DynamicItem``, rebuilt from its custom id. The presser hosts the new lobby and the
finished game's other members are asked to join it by mention; anyone may join as usual.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.board import Board

if TYPE_CHECKING:
    from bot.client import GameBot
    from bot.sessions import Session

log = logging.getLogger(__name__)


class PlayAgainButton(discord.ui.DynamicItem[discord.ui.Button], template=r"again:(?P<key>[0-9a-f]{1,64})"):
    def __init__(self, game_key: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play again",
                emoji="🔁",
                style=discord.ButtonStyle.success,
                custom_id=f"again:{game_key}",
            )
        )
        self.game_key = game_key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PlayAgainButton:
        return cls(match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameBot = interaction.client  # type: ignore[assignment]
        try:
            await play_again(bot, interaction, self.game_key)
        except Exception:
            log.exception("play again in channel %s failed", interaction.channel_id)
            await bot._apologize(interaction)


async def play_again(bot: GameBot, interaction: discord.Interaction, game_key: str) -> None:
    from bot.gamecog import reply_private  # the session layer imports this module

    if interaction.guild_id is None:
        return await reply_private(interaction, "Games are played in a server channel, not in DMs.")
    past = await bot.storage.past_game(interaction.guild_id, game_key)
    cog = bot.game_cogs.get(past.kind) if past is not None else None
    if past is None or cog is None:
        # Its record was removed (/standings reset), or the game is no longer offered.
        return await reply_private(interaction, "That game can no longer be played again: start a new one.")
    presser = interaction.user.id
    # Not the presser (the host), a forgotten member (id 0) nor a computer seat.
    invited = [user for user in past.user_ids if user > 0 and user != presser]
    await cog.open_lobby(interaction, dict(past.options), invited=list(dict.fromkeys(invited)))


def with_play_again(board: Board, game_key: str) -> Board:
    """The final board with its Play again button."""
    board.items = [*board.items, PlayAgainButton(game_key)]
    return board


def invitation(session: Session) -> str | None:
    """The line above a rematch lobby that asks the finished game's players (a mention each)."""
    if not session.invited:
        return None
    asked = " ".join(f"<@{user}>" for user in session.invited)
    host = session.names.get(session.host_id, "The host")
    return f"{asked}: **{host}** asks you to play again. Press **Join** to take a seat."
