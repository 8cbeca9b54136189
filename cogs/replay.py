"""/replay: a finished game step by step, privately, with buttons that work after a restart;
a player of the game may post it in the channel (where anyone may open it for themselves) and
download its record.

The buttons' custom ids carry only the game's key and a step (``rp:<key>:<step>:<which>``,
``rpost:<key>:<step>``, ``rwatch:<key>:<step>``, ``rfile:<key>``): the game is over, so nothing
in it is secret any more, and each press is checked against this server's stored games (a key
from another server finds nothing).
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

from bot.community.replay_board import ReplayPage, replay_page, title_of
from bot.community.replay_share import (
    NOT_A_PLAYER_DOWNLOAD,
    NOT_A_PLAYER_POST,
    NOTHING_TO_POST,
    WATCH_LABEL,
    PostGate,
    download_text,
    post_header,
    posted_recently,
    record_file,
    record_filename,
)
from bot.glue.clock import now_ms
from bot.glue.components import PressedOnce
from bot.glue.layout import MAX_TEXT, Layout, card, fit, rows, shown, text, text_size
from bot.i18n import DEFAULT, N_, private_locale, t
from bot.session.gamecog import reply_private
from bot.storage import StoredGame
from cogs.general import option_name

if TYPE_CHECKING:
    from bot.app.client import GameBot

log = logging.getLogger(__name__)

NAV = {"first": "⏮", "back10": "−10", "prev": "◀", "next": "▶", "fwd10": "+10", "last": "⏭"}
NOT_HERE = N_(
    "I keep no finished game like that in this server. Pick one from the list under `{option}`, "
    "or leave it out for the last game finished in this channel."
)
SORRY = N_("Sorry, something went wrong on my side showing that replay; try again.")
KEY = r"(?P<key>[A-Za-z0-9_.\-]{1,64})"  # the longest id, ``rpost:<64>:<6 digits>``, is 78 characters


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


def page_items(
    key: str, page: ReplayPage, locale: str = DEFAULT, *, player: bool = True
) -> list[discord.ui.Item]:
    """A private page's buttons: the steps, then, for a player of the game, Post (this step)
    and Download record. Anyone else would only be refused by them, so they see neither."""
    items: list[discord.ui.Item] = nav_buttons(key, page) if page.count else []
    if not player:
        return items
    if page.count:
        items.append(PostButton(key, page.step, locale=locale))
    items.append(DownloadButton(key, locale=locale))
    return items


def page_cards(page: ReplayPage, items: list[discord.ui.Item]) -> list[dict]:
    """A private page as Discord shows it: the step's words, the board as the channel saw it
    then (its buttons under it), and what the board hid, a card of its own, all inside
    Discord's 4,000 characters (the board and the hidden part cut as ``fit`` says, if need be)."""
    if not page.embeds:
        return [text(page.content), *rows(items)]
    board, hidden = page.embeds
    room = MAX_TEXT - len(page.content) - 50
    board = fit(board, room - min(text_size(hidden), room // 3))
    hidden = fit(hidden, room - text_size(board))
    return [text(page.content), *card(board, items), *card(hidden)]


def _sorry(interaction: discord.Interaction) -> str:
    return t(private_locale(interaction), SORRY)


async def stored_game(interaction: discord.Interaction, key: str) -> StoredGame | None:
    """This server's finished game ``key`` with its record, or None (said to the presser)."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    stored = await bot.storage.game_log(interaction.guild_id or 0, key) if interaction.guild_id else None
    if stored is None or stored.log is None:
        locale = private_locale(interaction)
        option = option_name(locale, "game") + ":"
        await reply_private(interaction, t(locale, NOT_HERE, option=option))
        return None
    return stored


async def played_it(interaction: discord.Interaction, key: str) -> bool:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    past = await bot.storage.past_game(interaction.guild_id or 0, key)
    return past is not None and interaction.user.id in past.user_ids


async def show(interaction: discord.Interaction, key: str, step: int, *, edit: bool) -> None:
    """Answer with the page: a new private message for /replay, the same one edited for a button."""
    stored = await stored_game(interaction, key)
    if stored is None:
        return
    locale = private_locale(interaction)  # a private page: the viewer's language
    page = await asyncio.to_thread(replay_page, stored, step, locale)
    items = page_items(key, page, locale, player=await played_it(interaction, key))
    view = Layout(page_cards(page, items))
    if edit:
        await interaction.response.edit_message(content=None, embed=None, view=view)
    else:
        await interaction.response.send_message(view=view, ephemeral=True)


async def post(interaction: discord.Interaction, key: str, step: int) -> None:
    """A player posts the step they are looking at in this channel, for everyone (its public
    board, not the face-up part), with a button that opens the replay privately for whoever
    presses it; once per game per channel in ``SHARE_GAP_MS``."""
    stored = await stored_game(interaction, key)
    if stored is None:
        return
    mine = private_locale(interaction)
    if not await played_it(interaction, key):
        return await reply_private(interaction, t(mine, NOT_A_PLAYER_POST))
    bot: GameBot = interaction.client  # type: ignore[assignment]
    cog: ReplayCog = bot.get_cog(ReplayCog.__cog_name__)  # type: ignore[assignment]
    channel = interaction.channel_id or 0
    last = cog.posts.claim(channel, key, now_ms())
    if last is not None:
        return await reply_private(interaction, posted_recently(last, mine))
    try:
        # The post is public: the server's language, whatever the poster's.
        public = await bot.languages.public(bot.storage, interaction.guild_id, interaction.guild_locale)
        page = await asyncio.to_thread(replay_page, stored, step, public)
        if not page.count:
            cog.posts.release(channel, key)
            return await reply_private(interaction, t(mine, NOTHING_TO_POST))
        content = f"{post_header(interaction.user.display_name, public)}\n{page.public}"
        await interaction.response.send_message(
            # The board as the channel saw it then, without the face-up part or the step's
            # face-up words: a public message never shows a secret of play (Kabuki's final
            # board keeps the last round's buried masks hidden too).
            **shown(
                fit(page.embeds[0], MAX_TEXT - len(content) - 100),
                [WatchButton(key, page.step, locale=public)],
                content=content,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except BaseException:
        cog.posts.release(channel, key)
        raise


async def download(interaction: discord.Interaction, key: str) -> None:
    """A player gets the game's record as stored, privately, as the file ``verify`` reads."""
    stored = await stored_game(interaction, key)
    if stored is None:
        return
    locale = private_locale(interaction)
    if not await played_it(interaction, key):
        return await reply_private(interaction, t(locale, NOT_A_PLAYER_DOWNLOAD))
    file = await asyncio.to_thread(record_file, stored)
    await reply_private(interaction, download_text(record_filename(stored), locale), file=file)


class ReplayButton(
    PressedOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"rp:{KEY}:(?P<step>\d{{1,6}}):(?P<which>[a-z0-9]+)",
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
            await reply_private(interaction, _sorry(interaction))


class PostButton(
    PressedOnce, discord.ui.DynamicItem[discord.ui.Button], template=rf"rpost:{KEY}:(?P<step>\d{{1,6}})"
):
    """On a private page: post this step in the channel (a player of the game only)."""

    def __init__(self, key: str, step: int, *, locale: str = DEFAULT) -> None:
        label = t(locale, "Post in channel")
        super().__init__(discord.ui.Button(label=label, emoji="📣", row=2, custom_id=f"rpost:{key}:{step}"))
        self.key, self.step = key, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PostButton:
        return cls(match["key"], int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await post(interaction, self.key, self.step)
        except Exception:
            log.exception("posting a replay failed")
            await reply_private(interaction, _sorry(interaction))


class DownloadButton(PressedOnce, discord.ui.DynamicItem[discord.ui.Button], template=rf"rfile:{KEY}"):
    """On a private page: the game's record as a file (a player of the game only)."""

    def __init__(self, key: str, *, locale: str = DEFAULT) -> None:
        label = t(locale, "Download record")
        super().__init__(discord.ui.Button(label=label, emoji="📥", row=2, custom_id=f"rfile:{key}"))
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> DownloadButton:
        return cls(match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await download(interaction, self.key)
        except Exception:
            log.exception("downloading a record failed")
            await reply_private(interaction, _sorry(interaction))


class WatchButton(
    PressedOnce, discord.ui.DynamicItem[discord.ui.Button], template=rf"rwatch:{KEY}:(?P<step>\d{{1,6}})"
):
    """On a posted replay: opens it privately, at the posted step, for whoever presses."""

    def __init__(self, key: str, step: int, *, locale: str = DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, WATCH_LABEL),
                emoji="▶️",
                style=discord.ButtonStyle.primary,
                custom_id=f"rwatch:{key}:{step}",
            )
        )
        self.key, self.step = key, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> WatchButton:
        return cls(match["key"], int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await show(interaction, self.key, self.step, edit=False)
        except Exception:
            log.exception("opening a posted replay failed")
            await reply_private(interaction, _sorry(interaction))


def game_choice(game: StoredGame, channel: str, locale: str = DEFAULT) -> app_commands.Choice[str]:
    """How a game is named in the ``game:`` list: which game, when it finished, where."""
    ended = datetime.fromtimestamp(game.ended_at / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
    name = f"{title_of(game.kind, locale)} · {ended} · #{channel}"
    return app_commands.Choice(name=name[:100], value=game.game_key)


class ReplayCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.posts = PostGate()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PostButton, DownloadButton, WatchButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PostButton, DownloadButton, WatchButton)

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
                locale = private_locale(interaction)
                option = option_name(locale, "game") + ":"
                return await reply_private(
                    interaction,
                    t(
                        locale,
                        "No finished game has been kept in this channel yet. Pick one of your games "
                        "with `{option}`.",
                        option=option,
                    ),
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
        locale = private_locale(interaction)
        choices = []
        for game in games:
            channel = guild.get_channel_or_thread(game.channel_id) if guild else None
            where = channel.name if channel else t(locale, "a deleted channel")
            choice = game_choice(game, where, locale)
            if current.casefold() in choice.name.casefold():
                choices.append(choice)
        return choices[:25]


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (``bot.app.client.SHARED_COGS``)."""
    bot.add_dynamic_items(ReplayButton)
    await bot.add_cog(ReplayCog(bot))
