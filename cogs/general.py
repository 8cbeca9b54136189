"""Commands shared by every game: /leaderboard, /stats, /rules, /help, /end and /board.
Seasons and members' data are in cogs/standings.py."""

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
from bot.ratings import MIN_RATED_GAMES
from bot.storage import ALL_TIME, RUNNING_SEASON, MemberRating, Standing
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


SORTS = {"rating": "r", "wins": "w", "score": "s"}  # sort: choice → its letter in a button's custom_id
ALL_TIME_NAMES = ("all time", "all-time", "alltime", "all")


def scope_of(season: int | None, seasons: dict[int, str]) -> str:
    if season is None:
        return "all time"
    if season == RUNNING_SEASON:
        return "this season" if seasons else ""  # before any season, this season is all there is
    name = seasons.get(season)
    return f"season {discord.utils.escape_markdown(name)}" if name else "a season no longer kept"


async def leaderboard_page(
    bot: GameBot, guild_id: int, kind: str, page: int, sort: str = "wins", season: int | None = None
) -> tuple[discord.Embed, list]:
    """``season``: None for all time, ``RUNNING_SEASON`` or an archived season's id."""
    cog = bot.game_cogs[kind]
    lower = cog.engine_cls.lower_score_wins
    board = {"lower_score_wins": lower, "sort": sort, "season": season}
    total = (await bot.storage.leaderboard(guild_id, kind, limit=0, **board))[1]
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows, _ = await bot.storage.leaderboard(guild_id, kind, offset=page * PAGE_SIZE, limit=PAGE_SIZE, **board)
    seasons = {s.id: s.name for s in await bot.storage.seasons(guild_id)}
    scope = scope_of(season, seasons)
    embed = discord.Embed(
        title=f"{cog.title} — leaderboard" + (f" · {scope}" if scope else ""), colour=GAME_COLOUR
    )
    better = "fewer is better" if lower else "more is better"
    if sort == "rating":
        lines = [
            f"**{page * PAGE_SIZE + i + 1}.** {standing_name(row)} — rating **{row.rating.shown}** · "
            f"{plural(row.wins, 'win')} in {plural(row.games, 'game')}"
            for i, row in enumerate(rows)
            if row.rating is not None
        ]
        empty = f"Nobody has played {MIN_RATED_GAMES} rated games here yet."
        footer = (
            f"ranked by rating (skill, counted cautiously: μ − 3σ); members are ranked after "
            f"{MIN_RATED_GAMES} rated games"
        )
    else:
        lines = [
            f"**{page * PAGE_SIZE + i + 1}.** {standing_name(row)} — {plural(row.wins, 'win')}, "
            f"{plural(row.score, cog.score_label_one, cog.score_label)} in {plural(row.games, 'game')}"
            for i, row in enumerate(rows)
        ]
        empty = "No finished games in this server yet."
        footer = f"ranked by wins, then {cog.score_label} ({better})"
        if sort == "score":
            footer = f"ranked by {cog.score_label} ({better}), then wins"
    embed.description = "\n".join(lines) or empty
    if lines:
        embed.set_footer(text=f"Page {page + 1}/{pages} · {footer}")
    else:
        embed.set_footer(text=footer)
    where = (sort, season)
    items = [
        LeaderboardButton(kind, page - 1, "prev", *where, disabled=page == 0),
        LeaderboardButton(kind, page + 1, "next", *where, disabled=page >= pages - 1),
    ]
    return embed, items


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button],
    # Buttons posted before sorts and seasons existed have neither: wins, all time, as they showed.
    template=r"lb:(?P<kind>[a-z]+)(?::(?P<sort>[rws]):(?P<season>a|\d+))?:(?P<page>-?\d+):(?P<dir>prev|next)",
):
    def __init__(
        self,
        kind: str,
        page: int,
        direction: str,
        sort: str = "wins",
        season: int | None = None,
        *,
        disabled: bool = False,
    ) -> None:
        label = "◀ Previous" if direction == "prev" else "Next ▶"
        where = f"{SORTS[sort]}:{'a' if season is None else season}"
        super().__init__(
            discord.ui.Button(
                label=label, disabled=disabled, custom_id=f"lb:{kind}:{where}:{page}:{direction}"
            )
        )
        self.kind, self.page, self.sort, self.season = kind, page, sort, season

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaderboardButton:
        sort = {letter: name for name, letter in SORTS.items()}[match["sort"] or "w"]
        season = None if match["season"] in (None, "a") else int(match["season"])
        return cls(match["kind"], int(match["page"]), match["dir"], sort, season)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameBot = interaction.client  # type: ignore[assignment]
        if self.kind not in bot.game_cogs or interaction.guild_id is None:
            return await reply_private(interaction, "That leaderboard is no longer available.")
        embed, items = await leaderboard_page(
            bot, interaction.guild_id, self.kind, self.page, self.sort, self.season
        )
        await interaction.response.edit_message(embed=embed, view=make_view(items))


async def season_named(bot: GameBot, guild_id: int, name: str | None) -> int | None | str:
    """What a ``season:`` option names: ``RUNNING_SEASON`` when left out, None for all time, an
    archived season's id, or the refusal to show."""
    if name is None or not name.strip():
        return RUNNING_SEASON
    wanted = " ".join(name.split()).casefold()
    if wanted in ALL_TIME_NAMES:
        return None
    seasons = await bot.storage.seasons(guild_id)
    for season in seasons:
        if season.name.casefold() == wanted:
            return season.id
    known = ", ".join(f"**{discord.utils.escape_markdown(s.name)}**" for s in seasons)
    return f"There is no season called that here. Try {known + ' or ' if known else ''}**all time**."


def rating_lines(ratings: list[MemberRating]) -> list[str]:
    """A member's rating this season with its change in their last game, and all time."""
    lines = []
    for r in ratings:
        change = f"{r.change:+d}" if r.change else "±0"
        rated = "" if r.games >= MIN_RATED_GAMES else f", ranked after {MIN_RATED_GAMES}"
        if r.season_id == RUNNING_SEASON:
            lines.append(
                f"Rating: **{r.rating.shown}** ({change} in the last game; {plural(r.games, 'rated game')}{rated})"
            )
        elif r.season_id == ALL_TIME:
            lines.append(f"All-time rating: **{r.rating.shown}**")
    return lines


HELP_TEXT = """\
**Start a game** in any channel or thread (one game per channel):
{new_commands}
A lobby appears: players press **Join**, the host presses **Start**. The final board's \
**Play again** opens a new lobby with the same game and options, hosted by whoever pressed it, \
and asks the last game's players to join. In a lobby the host can **Add computer** (🤖, \
never ranked; their games change no rating) to fill empty seats, even all but their own.

**During a game**
`/board` — post the board again at the bottom of the channel
`/end` — end the game here (host or a member with Manage Messages); it is recorded as abandoned
**A fair shuffle**: the board's footer shows a SHA-256 commitment to the game's secret seed; the \
final board shows the seed and salt. `printf '%s' 'SALT:SEED' | sha256sum` must give the \
commitment, and `python -m bot verify` re-deals a game's record from its seed.

**Standings**
`/leaderboard game: [sort:] [season:]` — this server's ranking for a game: by skill rating \
(members are ranked after {min_rated} rated games), wins or score; this season, an archived one \
or all time
`/stats [member]` — games, wins, scores and rating per game
`/season new name:` — archive this season's standings, everyone starts fresh (Manage Server)
`/season list` — the archived seasons
`/settings [computers-rated:]` — whether games with computer players change ratings (Manage Server)
`/rules game:` — how a game is played here
`/replay [game:]` — a finished game step by step, face up, only for you (the last one in this \
channel, or one of your recent games)

**Your data**
`/privacy` — what the bot keeps · `/forget-me` — remove your results everywhere
`/standings reset` — delete this server's standings (Manage Server)
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
        @app_commands.describe(
            game="Which game",
            sort="Rank by skill rating (default), wins or score",
            season="An archived season, or all time (default: this season)",
        )
        @app_commands.choices(game=choices, sort=[app_commands.Choice(name=n, value=n) for n in SORTS])
        @app_commands.guild_only()
        async def leaderboard(
            interaction: discord.Interaction,
            game: app_commands.Choice[str],
            sort: app_commands.Choice[str] | None = None,
            season: str | None = None,
        ) -> None:
            assert interaction.guild_id is not None
            which = await season_named(bot, interaction.guild_id, season)
            if isinstance(which, str):
                return await reply_private(interaction, which)
            order = sort.value if sort else "rating"
            embed, items = await leaderboard_page(bot, interaction.guild_id, game.value, 0, order, which)
            await interaction.response.send_message(embed=embed, view=make_view(items))

        @leaderboard.autocomplete("season")
        async def season_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["all time"] + [s.name for s in await bot.storage.seasons(interaction.guild_id or 0)]
            return [
                app_commands.Choice(name=n, value=n) for n in names if current.casefold() in n.casefold()
            ][:25]

        @app_commands.command(name="stats", description="Games, wins and scores per game for a member.")
        @app_commands.describe(member="Whose stats (default: yours)")
        @app_commands.guild_only()
        async def stats(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
            assert interaction.guild_id is not None
            who = member or interaction.user
            lower = {kind: cog.engine_cls.lower_score_wins for kind, cog in bot.game_cogs.items()}
            rows = await bot.storage.stats(interaction.guild_id, who.id, lower)
            ratings = await bot.storage.ratings_of(interaction.guild_id, who.id)
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
                lines.extend(rating_lines([r for r in ratings if r.kind == row.kind]))
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
                description=HELP_TEXT.format(
                    new_commands=new_commands or "(no games loaded)", min_rated=MIN_RATED_GAMES
                ),
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
            try:
                async with session.lock:
                    if bot.sessions.get(session.channel_id) is not session:
                        return await reply_private(interaction, "That game has already ended.")
                    message = await bot.game_cogs[session.kind].repost(session)
                await reply_private(interaction, f"Here it is: {message.jump_url}")
            except discord.HTTPException as error:
                # Not posted (a permission, a fault of Discord's): the old board stays as it was.
                if not await bot.answer_fault(interaction, error):
                    raise

        return [leaderboard, stats, rules, help_, end, board]
