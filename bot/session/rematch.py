"""Play again: the final board's button that opens a new lobby for the same game and options.

By the time anyone presses it the finished game's session is gone (the channel is free), so the
button carries only the game's key (public: it is in no way a secret) and the press reads the
recorded game back from storage. That also makes it work after a restart: the button is a
registered ``DynamicItem``, rebuilt from its custom id.

Only that game's players (or a moderator) may start the rematch: a bystander would otherwise
host it and ping the whole table. The first to press hosts the new lobby and the others are asked
by mention; each of them then takes a seat with one press, of **Join** on the lobby or of **Play
again** on the old board. Anyone may join the lobby as usual. Computer seats are not carried
over: the host seats computers again in the lobby, as in any other.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.glue.board import JOIN, Board
from bot.glue.components import Press, PressedOnce
from bot.glue.replies import reply_private
from bot.i18n import DEFAULT, N_, private_locale, t
from bot.session.press import Move
from bot.session.sessions import LOBBY

if TYPE_CHECKING:
    from bot.session.host import Host
    from bot.session.sessions import Session

log = logging.getLogger(__name__)


PLAY_AGAIN = N_("Play again")


AGAIN = "again"  # a page's press of it: {"name": "again", "arg": the game's key}
_AGAIN_ID = r"again:(?P<key>[0-9a-f]{1,64})"
_AGAIN = re.compile(_AGAIN_ID)


class PlayAgainButton(PressedOnce, discord.ui.DynamicItem[discord.ui.Button], template=_AGAIN_ID):
    """In the final board's language; rebuilt from its custom id for a press, where the label
    plays no part."""

    def __init__(self, game_key: str, locale: str = DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, PLAY_AGAIN),
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
        bot: Host = interaction.client  # type: ignore[assignment]
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                mine = private_locale(interaction)
                text = t(mine, "Games are played in a server channel, not in DMs.")
                return await reply_private(interaction, text)
            move = Move.of(interaction, Press(interaction.channel_id, AGAIN, self.game_key))
            await play_again(bot, move, interaction.guild_id, interaction.guild_locale)
        except Exception:
            log.exception("play again in channel %s failed", interaction.channel_id)
            await bot.apologize(interaction)


async def play_again(bot: Host, move: Move, guild_id: int, guild_locale: object) -> None:
    """A Play again press (``move.press.arg`` the finished game's key), from the channel's final
    board or a page's: a new lobby of that game and its options, its players invited; or the
    presser's seat in that rematch's lobby where it is open already."""
    mine, answer, game_key = move.locale, move.answer, move.press.arg
    past = await bot.storage.past_game(guild_id, game_key)
    cog = bot.game_cogs.get(past.kind) if past is not None else None
    if past is None or cog is None:
        # Its record was removed (/standings reset), or the game is no longer offered.
        return await answer.private(t(mine, "That game can no longer be played again: start a new one."))
    presser = move.member_id
    # Neither a forgotten member (id 0) nor a computer seat.
    players = list(dict.fromkeys(user for user in past.user_ids if user > 0))
    if presser not in players and not move.moderator:
        return await answer.private(
            t(mine, "Only the players of that game (or a moderator) can start a rematch.")
        )
    current = bot.sessions.get(move.press.channel_id)
    if (
        current is not None
        and current.rematch_of == game_key
        and current.status == LOBBY
        and presser in players
    ):
        return await cog.take_rematch_seat(move, current)
    invited = [user for user in players if user != presser]
    await cog.open_lobby_for(
        move, guild_id, guild_locale, dict(past.options), invited=invited, rematch_of=game_key
    )


def again_key(custom_id: str) -> str | None:
    """The game key a Play again button's ``custom_id`` names, or None for any other id."""
    match = _AGAIN.fullmatch(custom_id)
    return match["key"] if match else None


def with_play_again(board: Board, game_key: str, locale: str = DEFAULT) -> Board:
    """The final board with its Play again button, in ``locale`` (the board's)."""
    board.items = [*board.items, PlayAgainButton(game_key, locale)]
    return board


def invitation(session: Session) -> str | None:
    """The line above a rematch lobby that asks the finished game's players (a mention each) who
    have not taken a seat yet, and says how to; it is only edited afterwards, so it pings once."""
    if not session.invited:
        return None
    locale = session.locale  # public: the session's language
    waiting = [user for user in session.invited if session.seat_of(user) is None]
    host = session.names.get(session.host_id) or t(locale, "the host")
    if not waiting:
        return t(locale, "Everyone from the last game is seated again with **{host}**.", host=host)
    return t(
        locale,
        "{members}: **{host}** asks you to play again. Press **{join}** here, or **{again}** on the "
        "last game's board, to take a seat.",
        members=" ".join(f"<@{user}>" for user in waiting),
        host=host,
        join=t(locale, JOIN),
        again=t(locale, PLAY_AGAIN),
    )
