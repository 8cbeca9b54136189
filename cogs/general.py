"""Commands shared by every game: /leaderboard, /stats, /rules, /help, /end and /board.
Seasons and members' data are in cogs/standings.py."""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.community import rating_chart, table
from bot.community.ratings import DISPLAY_BASE, MIN_RATED_GAMES, NEWCOMER, described, tier, tiers_text
from bot.glue.board import GAME_COLOUR, Picture
from bot.glue.layout import shown
from bot.i18n import DEFAULT, N_, NN_, Name, private_locale, t, tn, translated
from bot.session.gamecog import ENDING_WAITS, GameCog, is_moderator, reply_private
from bot.storage import ALL_TIME, RUNNING_SEASON, MemberRating, Standing

if TYPE_CHECKING:
    from bot.app.client import GameBot

log = logging.getLogger(__name__)

PAGE_SIZE = 10
# How long /stats waits for its chart (reading and replaying the server's games, then drawing)
# before it answers without one: Discord wants an answer within 3 s. A server's 10,000 four-player
# games take about 0.8 s (docs/standings.md, *The rating chart*).
CHART_WAIT_S = 2.0


def standing_name(row: Standing) -> str:
    """The name saved with the member's games, which reads well even where the client cannot
    resolve the mention (a member who left, the playground); the mention still links the member."""
    if row.name is None:
        return f"<@{row.user_id}>"  # recorded before names were saved
    return f"{discord.utils.escape_markdown(row.name)} (<@{row.user_id}>)"


def game_title(locale: str, title: str) -> str:
    """A game's name in ``locale``: the name its slash command's ``game:`` choice shows there
    (Insel der Monstermasken), so every screen calls a game what the member picked."""
    return translated(locale, title, "command") or title


def option_name(locale: str, word: str) -> str:
    """A command's or option's name as members of ``locale`` see it: "computer-gewertet"."""
    return translated(locale, word, "command name") or word


def command_name(locale: str, *words: str) -> str:
    """A slash command as members of ``locale`` type it: ``/kabuki neu``."""
    return "/" + " ".join(option_name(locale, word) for word in words)


# A score with what it counts, by the bot's words for a score (gamecog.SCORE_WORDS); a game
# whose score counts something else brings its own (its cog's ``score_counts``).
SCORE_COUNTS = {
    "VP": NN_("{n} VP", "{n} VP"),
    "cards": NN_("{n} card", "{n} cards"),
    "tokens": NN_("{n} token", "{n} tokens"),
    "points": NN_("{n} point", "{n} points"),
}


def score_count(locale: str, cog: GameCog | None, n: int) -> str:
    """A score with what it counts ("3 VP", "1 card"): the game's own ``score_counts``, else the
    bot's words for its ``score_label`` (a game no longer loaded: points). A cog whose label is
    neither stopped the start (``gamecog.score_problem``)."""
    if cog is None:
        return tn(locale, *SCORE_COUNTS["points"], n)
    return tn(locale, *(cog.score_counts or SCORE_COUNTS[cog.score_label]), n)


# What a game's score counts, as a leaderboard's footer and /stats name it; a game's own label
# is its own message (``score_label``), translated from its catalogue area.
SCORE_NAMES = {"VP": N_("VP"), "cards": N_("cards"), "tokens": N_("tokens"), "points": N_("points")}


def score_name(locale: str, label: str) -> str:
    return t(locale, SCORE_NAMES.get(label, label))


SORTS = {"rating": "r", "wins": "w", "score": "s"}  # sort: choice → its letter in a button's custom_id
ALL_TIME_NAMES = ("all time", "all-time", "alltime", "all")


def scope_of(season: int | None, seasons: dict[int, str], locale: str = DEFAULT) -> str:
    if season is None:
        return t(locale, "all time")
    if season == RUNNING_SEASON:
        # Before any season, this season is all there is.
        return t(locale, "this season") if seasons else ""
    name = seasons.get(season)
    if not name:
        return t(locale, "a season no longer kept")
    return t(locale, "season {name}", name=discord.utils.escape_markdown(name))


# A leaderboard page's line, in monospace columns: short enough that a desktop's embed shows it
# whole (about 56 columns); a phone's narrower one wraps only the name, which ends the line.
LINE_COLUMNS = 52
NAME_COLUMNS = (12, 32)  # a name gets what the line leaves it, within these


def table_name(row: Standing) -> str:
    """A ranked member's name in the table: the one saved with their games (it reads the same for
    a member who left); for rows recorded before names were saved, their user id after an "@" (a
    code block shows no mention, and the bot keeps no member list to look the name up in)."""
    return row.name if row.name is not None else f"@{row.user_id}"


def leaderboard_table(header: list[str], rows: list[list[str]], right: list[bool]) -> str:
    """A page's rows as an aligned table (``bot.community.table``), numbers to the right: the name
    last, cut to what ``LINE_COLUMNS`` leaves it."""
    low, high = NAME_COLUMNS
    room = LINE_COLUMNS - table.width_before_name(header, rows)
    return table.table(header, rows, right, min(high, max(low, room)))


async def leaderboard_page(
    bot: GameBot,
    guild_id: int,
    kind: str,
    page: int,
    sort: str = "wins",
    season: int | None = None,
    locale: str = DEFAULT,
) -> tuple[discord.Embed, list]:
    """``season``: None for all time, ``RUNNING_SEASON`` or an archived season's id. ``locale``:
    the server's language (the leaderboard is public). The page is a table in a code block
    (``leaderboard_table``): rank, the ranking's numbers, games, then the name."""
    cog = bot.game_cogs[kind]
    lower = cog.engine_cls.lower_score_wins
    board = {"lower_score_wins": lower, "sort": sort, "season": season}
    total = (await bot.storage.leaderboard(guild_id, kind, limit=0, **board))[1]
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows, _ = await bot.storage.leaderboard(guild_id, kind, offset=page * PAGE_SIZE, limit=PAGE_SIZE, **board)
    seasons = {s.id: s.name for s in await bot.storage.seasons(guild_id)}
    scope = scope_of(season, seasons, locale)
    title = t(locale, "{game} — leaderboard", game=game_title(locale, cog.title))
    embed = discord.Embed(title=title + (f" · {scope}" if scope else ""), colour=cog.colour)
    label = score_name(locale, cog.score_label)
    wins, games, name = t(locale, "Wins"), t(locale, "Games"), t(locale, "Name")
    score = label[:1].upper() + label[1:]  # a column's heading, as its neighbours': "Cards"
    ranked = [(page * PAGE_SIZE + i + 1, row) for i, row in enumerate(rows)]
    if sort == "rating":
        header, right = ["#", t(locale, "Rating"), wins, games, name], [True, False, True, True]
        cells = [
            [
                str(place),
                f"{row.rating.shown:>4} {tier(row.rating.shown, row.games, locale)}",
                str(row.wins),
                str(row.games),
                table_name(row),
            ]
            for place, row in ranked
            if row.rating is not None
        ]
        empty = tn(
            locale,
            "Nobody has played {n} rated game here yet.",
            "Nobody has played {n} rated games here yet.",
            MIN_RATED_GAMES,
        )
        footer = tn(
            locale,
            "ranked by rating (everyone starts at {base}; /help says more); members are ranked "
            "after {n} rated game",
            "ranked by rating (everyone starts at {base}; /help says more); members are ranked "
            "after {n} rated games",
            MIN_RATED_GAMES,
            base=DISPLAY_BASE,
        )
    else:
        ranking = [wins, score] if sort == "wins" else [score, wins]
        header, right = ["#", *ranking, games, name], [True, True, True, True]
        cells = [
            [
                str(place),
                *([str(row.wins), str(row.score)] if sort == "wins" else [str(row.score), str(row.wins)]),
                str(row.games),
                table_name(row),
            ]
            for place, row in ranked
        ]
        empty = t(locale, "No finished games in this server yet.")
        if sort == "score":
            footer = (
                t(locale, "ranked by {score} (fewer is better), then wins", score=label)
                if lower
                else t(locale, "ranked by {score} (more is better), then wins", score=label)
            )
        else:
            footer = (
                t(locale, "ranked by wins, then {score} (fewer is better)", score=label)
                if lower
                else t(locale, "ranked by wins, then {score} (more is better)", score=label)
            )
    embed.description = leaderboard_table(header, cells, right) if cells else empty
    if cells:
        footer = t(locale, "Page {page} · {footer}", page=f"{page + 1}/{pages}", footer=footer)
    embed.set_footer(text=footer)
    where = (sort, season)
    items = [
        LeaderboardButton(kind, page - 1, "prev", *where, disabled=page == 0, locale=locale),
        LeaderboardButton(kind, page + 1, "next", *where, disabled=page >= pages - 1, locale=locale),
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
        locale: str = DEFAULT,
    ) -> None:
        label = t(locale, "◀ Previous") if direction == "prev" else t(locale, "Next ▶")
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
            return await reply_private(
                interaction, t(private_locale(interaction), "That leaderboard is no longer available.")
            )
        # The leaderboard is public: it turns its pages in the server's language.
        locale = await bot.languages.public(bot.storage, interaction.guild_id, interaction.guild_locale)
        embed, items = await leaderboard_page(
            bot, interaction.guild_id, self.kind, self.page, self.sort, self.season, locale
        )
        await interaction.response.edit_message(**shown(embed, items))


async def season_named(
    bot: GameBot, guild_id: int, name: str | None, locale: str = DEFAULT
) -> int | None | str:
    """What a ``season:`` option names: ``RUNNING_SEASON`` when left out, None for all time (in
    English or in ``locale``), an archived season's id, or the refusal to show."""
    if name is None or not name.strip():
        return RUNNING_SEASON
    wanted = " ".join(name.split()).casefold()
    if wanted in ALL_TIME_NAMES or wanted == t(locale, "all time").casefold():
        return None
    seasons = await bot.storage.seasons(guild_id)
    for season in seasons:
        if season.name.casefold() == wanted:
            return season.id
    all_time = t(locale, "all time")
    if not seasons:
        return t(locale, "There is no season called that here. Try **{all_time}**.", all_time=all_time)
    known = ", ".join(f"**{discord.utils.escape_markdown(s.name)}**" for s in seasons)
    return t(
        locale,
        "There is no season called that here. Try {seasons} or **{all_time}**.",
        seasons=known,
        all_time=all_time,
    )


def rating_lines(ratings: list[MemberRating], locale: str = DEFAULT) -> list[str]:
    """A member's rating this season with its change in their last game (±0 when that game rated
    nobody), and all time."""
    lines = []
    for r in ratings:
        change = f"{r.change:+d}" if r.change else "±0"
        rating = described(r.rating, r.games, locale)
        if r.season_id == RUNNING_SEASON:
            games = tn(locale, "{n} rated game", "{n} rated games", r.games)
            if r.games < MIN_RATED_GAMES:
                games = t(locale, "{games}, ranked after {n}", games=games, n=MIN_RATED_GAMES)
            lines.append(
                t(
                    locale,
                    "Rating: {rating} ({change} in the last game; {games})",
                    rating=rating,
                    change=change,
                    games=games,
                )
            )
        elif r.season_id == ALL_TIME:
            lines.append(t(locale, "All-time rating: {rating}", rating=rating))
    return lines


async def stats_chart(
    bot: GameBot, guild_id: int, user_id: int, lower_score_wins: dict[str, bool], locale: str
) -> tuple[Picture, bytes] | None:
    """/stats' chart of a member's all-time rating after each rated game, one line per game, its
    words in ``locale`` (the asker's), and its PNG, drawn in the pictures' thread; None when they
    have no rated game."""
    history = await bot.storage.rating_history(guild_id, user_id, lower_score_wins)
    titles = {kind: game_title(locale, cog.title) for kind, cog in bot.game_cogs.items()}
    chart = rating_chart.chart_of(history, titles, list(bot.game_cogs), locale)
    if chart is None:
        return None
    picture = rating_chart.picture(chart)
    return picture, await picture.png()


# One message, so a translator sees the whole text (and names the commands as members of their
# language see them); its {fields} are filled in when it is shown.
HELP_TEXT = N_("""\
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
`/stats [member]` — games, wins, scores and rating per game, yours or a member's; only you see \
the answer
`/season new name:` — archive this season's standings, name each game's top three and give the \
champions' role; everyone starts fresh (Manage Server)
`/season list` — the archived seasons
`/settings [computers-rated:] [champion-role:] [clear-champion-role:] [turn-pings:] [language:]` — \
whether games with computer players change ratings; the role each game's season champion gets; \
whether a turn that waits a while pings its players; the language of boards and announcements \
(private answers speak each member's own Discord language) (Manage Server)
`/rules game:` — how a game is played here
`/replay [game:]` — a finished game step by step, face up, only for you (the last one in this \
channel, or one of your recent games); its players can post it here or download its record

**Your rating** starts at {base} and moves after every rated game (two or more people, no \
computer unless `/settings` allows it): finishing ahead of strong players lifts it most. It \
counts your skill cautiously, so it also climbs as the bot grows sure of you; it is never \
below 0. Tiers: {newcomer} (fewer than {min_rated} rated games: not ranked yet) · {tiers}.

**Your data**
`/privacy` — what the bot keeps · `/forget-me` — remove your results everywhere
`/standings reset` — delete this server's standings (Manage Server)
""")


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
            which = await season_named(bot, interaction.guild_id, season, private_locale(interaction))
            if isinstance(which, str):
                return await reply_private(interaction, which)
            order = sort.value if sort else "rating"
            # Public: the server's language.
            locale = await bot.languages.public(bot.storage, interaction.guild_id, interaction.guild_locale)
            embed, items = await leaderboard_page(
                bot, interaction.guild_id, game.value, 0, order, which, locale
            )
            await interaction.response.send_message(**shown(embed, items))

        @leaderboard.autocomplete("season")
        async def season_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = [t(private_locale(interaction), "all time")] + [
                s.name for s in await bot.storage.seasons(interaction.guild_id or 0)
            ]
            return [
                app_commands.Choice(name=n, value=n) for n in names if current.casefold() in n.casefold()
            ][:25]

        @app_commands.command(
            name="stats", description="Games, wins, scores and rating per game; only you see the answer."
        )
        @app_commands.describe(member="Whose stats (default: yours)")
        @app_commands.guild_only()
        async def stats(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
            assert interaction.guild_id is not None
            who = member or interaction.user
            locale = private_locale(interaction)
            lower = {kind: cog.engine_cls.lower_score_wins for kind, cog in bot.game_cogs.items()}
            rows = await bot.storage.stats(interaction.guild_id, who.id, lower)
            ratings = await bot.storage.ratings_of(interaction.guild_id, who.id)
            embed = discord.Embed(
                title=t(locale, "Stats for {name}", name=Name(who.display_name)), colour=GAME_COLOUR
            )
            if not rows:
                embed.description = t(locale, "No games played in this server yet.")
            for row in rows:
                cog = bot.game_cogs.get(row.kind)
                title = game_title(locale, cog.title) if cog else row.kind
                label = cog.score_label if cog else "points"
                lines = [
                    t(locale, "Games: **{games}** · Wins: **{wins}**", games=row.games, wins=row.wins),
                    t(
                        locale,
                        "Total {score}: **{total}**",
                        score=score_name(locale, label),
                        total=row.total_score,
                    ),
                ]
                if row.best_score is not None:
                    best = score_count(locale, cog, row.best_score)
                    lines.append(t(locale, "Best game: **{score}**", score=best))
                if row.abandoned:
                    lines.append(t(locale, "Abandoned: {n}", n=row.abandoned))
                lines.extend(rating_lines([r for r in ratings if r.kind == row.kind], locale))
                embed.add_field(name=title, value="\n".join(lines), inline=True)
            # The all-time rating game by game, as a chart under the fields, in the asker's words;
            # drawn in the pictures' thread. No rated game: no chart.
            extra = {}
            try:
                chart = await asyncio.wait_for(
                    stats_chart(bot, interaction.guild_id, who.id, lower, locale), CHART_WAIT_S
                )
            except TimeoutError:
                log.warning(
                    "/stats in guild %s answered without its chart: not ready in time", interaction.guild_id
                )
                chart = None
            if chart is not None:
                extra["file"] = discord.File(io.BytesIO(chart[1]), filename=chart[0].filename)
                embed.set_image(url=f"attachment://{chart[0].filename}")
            # One rule whoever is asked about: only the asker sees it. Looking someone up should not
            # post their record in the channel; /leaderboard is the public board.
            await interaction.response.send_message(ephemeral=True, **shown(embed), **extra)

        @app_commands.command(name="rules", description="How a game is played on Discord.")
        @app_commands.describe(game="Which game")
        @app_commands.choices(game=choices)
        async def rules(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
            cog = bot.game_cogs[game.value]
            locale = private_locale(interaction)
            embed = discord.Embed(
                title=t(locale, "{game} — rules", game=game_title(locale, cog.title)),
                # A game's rules are a catalogue message once its game is converted (Kabuki's).
                description=t(locale, cog.rules_summary),
                colour=cog.colour,
            )
            await interaction.response.send_message(ephemeral=True, **shown(embed))

        @app_commands.command(name="help", description="What this bot can do.")
        async def help_(interaction: discord.Interaction) -> None:
            locale = private_locale(interaction)
            new_commands = "\n".join(
                t(
                    locale,
                    "`{command}` — {game} ({low}–{high} players)",
                    command=command_name(locale, kind, "new"),
                    game=game_title(locale, cog.title),
                    low=cog.engine_cls.min_players,
                    high=cog.engine_cls.max_players,
                )
                for kind, cog in bot.game_cogs.items()
            )
            embed = discord.Embed(
                title=t(locale, "Party card games"),
                colour=GAME_COLOUR,
                description=t(
                    locale,
                    HELP_TEXT,
                    new_commands=new_commands or t(locale, "(no games loaded)"),
                    min_rated=MIN_RATED_GAMES,
                    base=DISPLAY_BASE,
                    newcomer=t(locale, NEWCOMER),
                    tiers=tiers_text(locale),
                ),
            )
            await interaction.response.send_message(ephemeral=True, **shown(embed))

        @app_commands.command(name="end", description="End the lobby or game in this channel.")
        @app_commands.guild_only()
        async def end(interaction: discord.Interaction) -> None:
            locale = private_locale(interaction)
            session = bot.sessions.get(interaction.channel_id or 0)
            if session is None:
                return await reply_private(interaction, t(locale, "There is no game in this channel."))
            if interaction.user.id != session.host_id and not is_moderator(interaction):
                return await reply_private(
                    interaction,
                    t(locale, "Only the host or a member with Manage Messages can end this game."),
                )
            async with session.lock:
                if bot.sessions.get(session.channel_id) is not session:
                    return await reply_private(interaction, t(locale, "That game has already ended."))
                ended = await bot.game_cogs[session.kind].end(session, interaction.user.display_name)
            await reply_private(interaction, t(locale, "Ended.") if ended else t(locale, ENDING_WAITS))

        @app_commands.command(
            name="board", description="Post the game board again at the bottom of the channel."
        )
        @app_commands.guild_only()
        async def board(interaction: discord.Interaction) -> None:
            locale = private_locale(interaction)
            session = bot.sessions.get(interaction.channel_id or 0)
            if session is None:
                return await reply_private(interaction, t(locale, "There is no game in this channel."))
            try:
                async with session.lock:
                    if bot.sessions.get(session.channel_id) is not session:
                        return await reply_private(interaction, t(locale, "That game has already ended."))
                    message = await bot.game_cogs[session.kind].repost(session)
                await reply_private(interaction, t(locale, "Here it is: {link}", link=message.jump_url))
            except discord.HTTPException as error:
                # Not posted (a permission, a fault of Discord's): the old board stays as it was.
                if not await bot.answer_fault(interaction, error):
                    raise

        return [leaderboard, stats, rules, help_, end, board]


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (``bot.app.client.SHARED_COGS``), after the games' cogs:
    its ``game:`` choices list the games loaded."""
    bot.add_dynamic_items(LeaderboardButton)
    await bot.add_cog(GeneralCog(bot))
