"""Commands shared by every game: /leaderboard, /stats, /rules, /help, /end and /board."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.board import GAME_COLOUR
from bot.components import make_view
from bot.gamecog import is_moderator, reply_private
from bot.storage import Standing
from bot.words import plural

if TYPE_CHECKING:
    from bot.client import GameBot

PAGE_SIZE = 10


def standing_name(row: Standing) -> str:
    """The name saved with the member's games, which reads well even where the client cannot
    resolve the mention (a member who left, the playground); the mention still links the member."""
    if row.name is None:
        return f"<@{row.user_id}>"  # recorded before names were saved
    return f"{discord.utils.escape_markdown(row.name)} (<@{row.user_id}>)"


async def leaderboard_page(bot: GameBot, guild_id: int, kind: str, page: int) -> tuple[discord.Embed, list]:
    cog = bot.game_cogs[kind]
    lower = cog.engine_cls.lower_score_wins
    total = (await bot.storage.leaderboard(guild_id, kind, lower_score_wins=lower, limit=0))[1]
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows, _ = await bot.storage.leaderboard(
        guild_id, kind, lower_score_wins=lower, offset=page * PAGE_SIZE, limit=PAGE_SIZE
    )
    embed = discord.Embed(title=f"{cog.title} — leaderboard", colour=GAME_COLOUR)
    if not rows:
        embed.description = "No finished games in this server yet."
    else:
        better = "fewer is better" if lower else "more is better"
        lines = [
            f"**{page * PAGE_SIZE + i + 1}.** {standing_name(row)} — {plural(row.wins, 'win')}, "
            f"{plural(row.score, cog.score_label_one, cog.score_label)} in {plural(row.games, 'game')}"
            for i, row in enumerate(rows)
        ]
        embed.description = "\n".join(lines)
        embed.set_footer(text=f"Page {page + 1}/{pages} · ranked by wins, then {cog.score_label} ({better})")
    items = [
        LeaderboardButton(kind, page - 1, "prev", disabled=page == 0),
        LeaderboardButton(kind, page + 1, "next", disabled=page >= pages - 1),
    ]
    return embed, items


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lb:(?P<kind>[a-z]+):(?P<page>-?\d+):(?P<dir>prev|next)",
):
    def __init__(self, kind: str, page: int, direction: str, *, disabled: bool = False) -> None:
        label = "◀ Previous" if direction == "prev" else "Next ▶"
        super().__init__(
            discord.ui.Button(label=label, disabled=disabled, custom_id=f"lb:{kind}:{page}:{direction}")
        )
        self.kind = kind
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaderboardButton:
        return cls(match["kind"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameBot = interaction.client  # type: ignore[assignment]
        if self.kind not in bot.game_cogs or interaction.guild_id is None:
            return await reply_private(interaction, "That leaderboard is no longer available.")
        embed, items = await leaderboard_page(bot, interaction.guild_id, self.kind, self.page)
        await interaction.response.edit_message(embed=embed, view=make_view(items))


HELP_TEXT = """\
**Start a game** in any channel or thread (one game per channel):
{new_commands}
A lobby appears: players press **Join**, the host presses **Start**.

**During a game**
`/board` — post the board again at the bottom of the channel
`/end` — end the game here (host or a member with Manage Messages); it is recorded as abandoned
**A fair shuffle**: the board's footer shows a SHA-256 commitment to the game's secret seed; the \
final board shows the seed and salt. `printf '%s' 'SALT:SEED' | sha256sum` must give the \
commitment, and `python -m bot verify` re-deals a game's record from its seed.

**Standings**
`/leaderboard game:` — this server's ranking for a game
`/stats [member]` — games, wins and scores per game
`/rules game:` — how a game is played here
"""


class GeneralCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        choices = [app_commands.Choice(name=cog.title, value=kind) for kind, cog in bot.game_cogs.items()]
        self._commands = self._build_commands(choices)

    async def cog_load(self) -> None:
        for command in self._commands:
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        for command in self._commands:
            self.bot.tree.remove_command(command.name)

    def _build_commands(self, choices: list[app_commands.Choice[str]]) -> list[app_commands.Command]:
        """The game list is only known once the game cogs are loaded, so ``game:`` choices are
        built here rather than in decorators at import time."""
        bot = self.bot

        @app_commands.command(name="leaderboard", description="This server's ranking for a game.")
        @app_commands.describe(game="Which game")
        @app_commands.choices(game=choices)
        @app_commands.guild_only()
        async def leaderboard(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
            assert interaction.guild_id is not None
            embed, items = await leaderboard_page(bot, interaction.guild_id, game.value, 0)
            await interaction.response.send_message(embed=embed, view=make_view(items))

        @app_commands.command(name="stats", description="Games, wins and scores per game for a member.")
        @app_commands.describe(member="Whose stats (default: yours)")
        @app_commands.guild_only()
        async def stats(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
            assert interaction.guild_id is not None
            who = member or interaction.user
            lower = {kind: cog.engine_cls.lower_score_wins for kind, cog in bot.game_cogs.items()}
            rows = await bot.storage.stats(interaction.guild_id, who.id, lower)
            embed = discord.Embed(title=f"Stats for {who.display_name}", colour=GAME_COLOUR)
            if not rows:
                embed.description = "No games played in this server yet."
            for row in rows:
                cog = bot.game_cogs.get(row.kind)
                title = cog.title if cog else row.kind
                label = cog.score_label if cog else "points"
                one = cog.score_label_one if cog else "point"
                lines = [
                    f"Games: **{row.games}** · Wins: **{row.wins}**",
                    f"Total {label}: **{row.total_score}**",
                ]
                if row.best_score is not None:
                    lines.append(f"Best game: **{plural(row.best_score, one, label)}**")
                if row.abandoned:
                    lines.append(f"Abandoned: {row.abandoned}")
                embed.add_field(name=title, value="\n".join(lines), inline=True)
            await interaction.response.send_message(embed=embed, ephemeral=member is None)

        @app_commands.command(name="rules", description="How a game is played on Discord.")
        @app_commands.describe(game="Which game")
        @app_commands.choices(game=choices)
        async def rules(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
            cog = bot.game_cogs[game.value]
            embed = discord.Embed(
                title=f"{cog.title} — rules", description=cog.rules_summary, colour=GAME_COLOUR
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        @app_commands.command(name="help", description="What this bot can do.")
        async def help_(interaction: discord.Interaction) -> None:
            new_commands = "\n".join(
                f"`/{kind} new` — {cog.title} ({cog.engine_cls.min_players}–"
                f"{cog.engine_cls.max_players} players)"
                for kind, cog in bot.game_cogs.items()
            )
            embed = discord.Embed(
                title="Party card games",
                colour=GAME_COLOUR,
                description=HELP_TEXT.format(new_commands=new_commands or "(no games loaded)"),
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        @app_commands.command(name="end", description="End the lobby or game in this channel.")
        @app_commands.guild_only()
        async def end(interaction: discord.Interaction) -> None:
            session = bot.sessions.get(interaction.channel_id or 0)
            if session is None:
                return await reply_private(interaction, "There is no game in this channel.")
            if interaction.user.id != session.host_id and not is_moderator(interaction):
                return await reply_private(
                    interaction, "Only the host or a member with Manage Messages can end this game."
                )
            async with session.lock:
                if bot.sessions.get(session.channel_id) is not session:
                    return await reply_private(interaction, "That game has already ended.")
                await bot.game_cogs[session.kind].end(session, interaction.user.display_name)
            await reply_private(interaction, "Ended.")

        @app_commands.command(
            name="board", description="Post the game board again at the bottom of the channel."
        )
        @app_commands.guild_only()
        async def board(interaction: discord.Interaction) -> None:
            session = bot.sessions.get(interaction.channel_id or 0)
            if session is None:
                return await reply_private(interaction, "There is no game in this channel.")
            async with session.lock:
                if bot.sessions.get(session.channel_id) is not session:
                    return await reply_private(interaction, "That game has already ended.")
                message = await bot.game_cogs[session.kind].repost(session)
            await reply_private(interaction, f"Here it is: {message.jump_url}")

        return [leaderboard, stats, rules, help_, end, board]
