"""Seasons, members' data and server settings: /season new, /season list, /standings reset,
/privacy, /forget-me, /settings.

Each command that removes or archives something asks first, privately, with a Confirm button.
The buttons are ``DynamicItem`` s, so a confirmation still works after a restart; the
``custom_id`` names only the action, the member who asked and (for a season) the name they typed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.community import champions
from bot.community.ratings import MIN_RATED_GAMES, described
from bot.glue.board import GAME_COLOUR
from bot.glue.clock import now_ms
from bot.glue.components import PressedOnce, make_view
from bot.glue.layout import shown
from bot.glue.replies import reply_card
from bot.i18n import (
    DEFAULT,
    N_,
    duration,
    fixed,
    language_name,
    private_locale,
    public_locale,
    shipped,
    t,
    tn,
)
from bot.session.gamecog import reply_private
from bot.session.turn_pings import PING_AFTER_MS
from cogs.general import command_name, game_title, option_name, standing_name

if TYPE_CHECKING:
    from bot.app.client import GameBot

SEASON_NAME_MAX = 40  # with the prefix and a 20-digit user id, well inside a custom_id's 100

# One message, so a translator sees the whole text; {min_games} is filled in when it is shown.
PRIVACY_TEXT = N_("""\
**What this bot keeps**, in its database, per server:
• **Finished games**: the server, channel, game, options, random seed, start and end times, and \
whether it was finished or abandoned; for each seat your Discord user id, your display name at \
the time, your score and whether you won.
• **Ratings**: per server, game and season (and all time), your skill rating (two numbers, μ \
and σ), the same before your last game, and your rated games and wins.
• **Seasons**: their names and when they were archived.
• **Server settings**: the switches of `/settings` (whether games with computer players are \
rated, the champions' role, whether turns ping players), per server; nothing about members. The \
champions' role itself is kept by Discord, on the members who hold it.
• **Game records** (for `/replay` and `verify`): each finished game's moves, cards and seed, by \
seat number only: no user id or name. They go with their game when this server's standings are \
reset.
• **Games in progress**: the lobby or game as it stands (players' ids and names, cards, options), \
so it survives a restart. It is deleted when the game ends, and the finished game is kept as above.
It keeps no message you write. (Monster Masks' emoji mode reads a Mime's messages to remove \
text ones; nothing of them is stored.)

**Your choices**
`/forget-me` removes your results, ratings and stats from **every** server: your ratings are \
deleted and your seat in finished games becomes "a former member", with no id or name, so \
others' games stay whole. It applies to finished games: a game you are playing when you ask is \
recorded when it ends, so ask again after it.
A member with **Manage Server** can `/standings reset` this server: every finished game, rating \
and season here is deleted.
Ratings rank members after {min_games} rated games; games with computer players do not \
change them unless the server turned `/settings computers-rated` on.
""")

SERVER_LANGUAGE = "default"  # /settings language: back to the server's own locale
LANGUAGE_CHOICES = [
    app_commands.Choice(name=fixed(language_name(code)), value=code) for code in shipped()
] + [app_commands.Choice(name="Server default", value=SERVER_LANGUAGE)]


def _language_line(language: str | None, guild_locale: object, locale: str) -> str:
    spoken = language_name(public_locale(language, guild_locale))
    if language:
        return t(
            locale,
            "language: **{language}** (chosen here): boards and announcements speak it; private "
            "answers speak each member's own Discord language.",
            language=spoken,
        )
    return t(
        locale,
        "language: **{language}** (the server's own language): boards and announcements speak it; "
        "private answers speak each member's own Discord language.",
        language=spoken,
    )


def _can_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


class ConfirmButton(
    PressedOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cf:(?P<what>season|reset|forget|cancel):(?P<user>\d+)(?::(?P<arg>.+))?",
):
    LABELS = {
        "season": N_("Archive the season"),
        "reset": N_("Delete this server's standings"),
        "forget": N_("Forget me"),
        "cancel": N_("Cancel"),
    }

    def __init__(self, what: str, user_id: int, arg: str = "", *, locale: str = DEFAULT) -> None:
        style = discord.ButtonStyle.secondary if what == "cancel" else discord.ButtonStyle.danger
        custom_id = f"cf:{what}:{user_id}" + (f":{arg}" if arg else "")
        label = t(locale, self.LABELS.get(what, self.LABELS["cancel"]))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.what, self.user_id, self.arg = what, user_id, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ConfirmButton:
        return cls(match["what"], int(match["user"]), match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameBot = interaction.client  # type: ignore[assignment]
        locale = private_locale(interaction)
        if interaction.user.id != self.user_id:
            return await reply_private(interaction, t(locale, "This question was not asked of you."))
        if self.what == "cancel":
            return await interaction.response.edit_message(
                content=t(locale, "Cancelled: nothing changed."), view=None
            )
        if self.what == "forget":
            changed = await bot.storage.forget_member(self.user_id)
            text = tn(
                locale,
                "Done: your results, ratings and stats are gone from every server ({n} record removed "
                "or made anonymous).",
                "Done: your results, ratings and stats are gone from every server ({n} records removed "
                "or made anonymous).",
                changed,
            )
            return await interaction.response.edit_message(content=text, view=None)
        guild_id = interaction.guild_id
        if guild_id is None:
            return await reply_private(interaction, t(locale, "This works in a server only."))
        if not _can_manage(interaction):
            return await reply_private(
                interaction, t(locale, "Only a member with Manage Server can do this.")
            )
        # What the channel is told speaks the server's language.
        public = await bot.languages.public(bot.storage, guild_id, interaction.guild_locale)
        if self.what == "reset":
            games = await bot.storage.reset_standings(guild_id)
            await interaction.response.edit_message(
                content=tn(
                    locale,
                    "Done: {n} finished game and every rating and season deleted.",
                    "Done: {n} finished games and every rating and season deleted.",
                    games,
                ),
                view=None,
            )
            await interaction.followup.send(
                t(
                    public,
                    "{member} reset this server's standings: every leaderboard starts empty.",
                    member=interaction.user.mention,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        season = await bot.storage.new_season(guild_id, self.arg, now_ms())
        if season is None:
            return await interaction.response.edit_message(
                content=t(
                    locale,
                    "There is already a season called **{name}**: nothing changed.",
                    name=discord.utils.escape_markdown(self.arg),
                ),
                view=None,
            )
        name = discord.utils.escape_markdown(season.name)
        await interaction.response.edit_message(
            content=t(locale, "Season **{name}** archived.", name=name), view=None
        )
        found = await champions.podiums(bot, guild_id, season.id)
        role_id = (await bot.storage.settings(guild_id)).champion_role_id
        crowned = None
        if role_id is not None and interaction.guild is not None:
            old = await champions.previous_winners(bot, guild_id, season.id)
            crowned = await champions.crown(
                bot, interaction.guild, role_id, champions.winners(found), old, locale=locale
            )
        archived = t(
            public,
            "Season **{name}** is over and archived (`{command}:{season}`): everyone starts fresh.",
            name=name,
            command=command_name(public, "leaderboard", "season"),
            season=season.name,
        )
        await interaction.followup.send(
            **shown(champions_embed(season.name, found, crowned, public), content=archived),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if crowned is not None and crowned.problem is not None:
            # Said once, to the member who ended the season: they can fix it; the channel need not.
            await interaction.followup.send(crowned.problem, ephemeral=True)


MEDALS = ("🥇", "🥈", "🥉")


def champions_embed(
    season: str,
    found: list[champions.Podium],
    crowned: champions.Crowning | None,
    locale: str = DEFAULT,
) -> discord.Embed:
    """The ended season's top three of each game played in it, posted in the channel (in the
    server's language, ``locale``)."""
    embed = discord.Embed(
        title=t(locale, "Season {name} — champions", name=discord.utils.escape_markdown(season)),
        colour=GAME_COLOUR,
    )
    for podium in found:
        lines = [
            f"{medal} {standing_name(row)} — {described(row.rating, row.games, locale)}"
            for medal, row in zip(MEDALS, podium.rows, strict=False)  # up to three rows
            if row.rating is not None
        ]
        nobody = tn(
            locale,
            "Nobody played {n} rated game this season.",
            "Nobody played {n} rated games this season.",
            MIN_RATED_GAMES,
        )
        embed.add_field(name=game_title(locale, podium.title), value="\n".join(lines) or nobody, inline=False)
    if crowned is not None and crowned.role is not None and crowned.problem is None:
        holders = ", ".join(f"<@{user}>" for user in crowned.given)
        embed.description = (
            t(
                locale,
                "{role} now goes to each game's #1: {holders}.",
                role=crowned.role.mention,
                holders=holders,
            )
            if crowned.given
            else t(locale, "Nobody was ranked, so nobody gets {role} this time.", role=crowned.role.mention)
        )
    footer = tn(
        locale,
        "Ranked by rating, members with {n} rated game or more.",
        "Ranked by rating, members with {n} rated games or more.",
        MIN_RATED_GAMES,
    )
    embed.set_footer(text=footer)
    return embed


def _could_give(interaction: discord.Interaction, role: discord.Role) -> bool:
    """Whether the member asking could give ``role`` by hand, as Discord judges it."""
    member, guild = interaction.user, interaction.guild
    if not isinstance(member, discord.Member) or guild is None:
        return False
    if member.id == guild.owner_id:
        return True
    return member.guild_permissions.manage_roles and role < member.top_role


def champion_line(guild: discord.Guild, role_id: int | None, locale: str = DEFAULT) -> str:
    """The champions' role as /settings shows it, with what would stop the bot giving it."""
    option = option_name(locale, "champion-role")
    if role_id is None:
        return t(locale, "{option}: **none**: a season's end gives no role.", option=option)
    role = guild.get_role(role_id)
    line = t(
        locale,
        "{option}: {role}: when a season ends, each game's #1 gets it and the last champions lose it.",
        option=option,
        role=role.mention if role else t(locale, "**a deleted role**"),
    )
    problem = champions.role_problem(guild, role, locale)
    return f"{line}\n⚠️ {problem}" if problem else line


def _ask(what: str, user_id: int, locale: str, arg: str = "") -> discord.ui.View:
    return make_view(
        [ConfirmButton(what, user_id, arg, locale=locale), ConfirmButton("cancel", user_id, locale=locale)]
    )


class StandingsCog(commands.Cog):
    season = app_commands.Group(
        name="season", description="Seasons of this server's standings.", guild_only=True
    )
    standings = app_commands.Group(
        name="standings",
        description="This server's standings.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @season.command(
        name="new", description="Archive the running standings under a name; everyone starts fresh."
    )
    @app_commands.describe(name="The finished season's name, e.g. Spring 2026")
    async def season_new(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, SEASON_NAME_MAX]
    ) -> None:
        assert interaction.guild_id is not None
        locale = private_locale(interaction)
        if not _can_manage(interaction):
            return await reply_private(
                interaction, t(locale, "Only a member with Manage Server can start a new season.")
            )
        name = " ".join(name.split())
        if not name:
            return await reply_private(interaction, t(locale, "A season needs a name."))
        taken = {s.name.casefold() for s in await self.bot.storage.seasons(interaction.guild_id)}
        if name.casefold() in taken:
            return await reply_private(interaction, t(locale, "There is already a season of that name here."))
        if await self.bot.storage.game_count(interaction.guild_id, season=0) == 0:
            return await reply_private(
                interaction, t(locale, "No game has been recorded this season: nothing to archive.")
            )
        await reply_private(
            interaction,
            t(
                locale,
                "Archive this season's standings as **{name}** and start every leaderboard afresh? "
                "All-time standings stay. The channel will be told each game's top three.",
                name=discord.utils.escape_markdown(name),
            ),
            view=_ask("season", interaction.user.id, locale, name),
        )

    @season.command(name="list", description="This server's archived seasons.")
    async def season_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        locale = private_locale(interaction)
        seasons = await self.bot.storage.seasons(interaction.guild_id)
        if not seasons:
            return await reply_private(interaction, t(locale, "No season has been archived here yet."))
        lines = [
            t(
                locale,
                "**{name}** — ended {date}",
                name=discord.utils.escape_markdown(s.name),
                date=f"<t:{s.ended_at // 1000}:D>",
            )
            for s in seasons
        ]
        await reply_private(interaction, "\n".join(lines))

    @standings.command(
        name="reset", description="Delete every finished game, rating and season of this server."
    )
    async def standings_reset(self, interaction: discord.Interaction) -> None:
        locale = private_locale(interaction)
        if not _can_manage(interaction):
            return await reply_private(
                interaction, t(locale, "Only a member with Manage Server can reset the standings.")
            )
        await reply_private(
            interaction,
            t(
                locale,
                "Delete **every** finished game, rating and season of this server? This cannot be "
                "undone. Games in progress are not affected.",
            ),
            view=_ask("reset", interaction.user.id, locale),
        )

    @app_commands.command(name="settings", description="This server's settings (Manage Server).")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        computers_rated="computers-rated",
        champion_role="champion-role",
        clear_champion_role="clear-champion-role",
        turn_pings="turn-pings",
    )
    @app_commands.describe(
        computers_rated="Whether games with computer players change the human players' ratings",
        champion_role="A role for each game's #1 when a season ends (taken from the last champions)",
        clear_champion_role="True: give no role when a season ends",
        turn_pings="Whether a turn that waits a while pings the players it waits for",
        language="The language of boards and announcements (private answers use each member's own)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        computers_rated: bool | None = None,
        champion_role: discord.Role | None = None,
        clear_champion_role: bool | None = None,
        turn_pings: bool | None = None,
        language: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.guild is not None
        locale = private_locale(interaction)
        if not _can_manage(interaction):
            return await reply_private(
                interaction, t(locale, "Only a member with Manage Server can change settings.")
            )
        if champion_role is not None and clear_champion_role:
            return await reply_private(
                interaction, t(locale, "Choose a champion role or clear it, not both: nothing changed.")
            )
        if champion_role is not None and (champion_role.is_default() or champion_role.managed):
            return await reply_private(
                interaction,
                t(
                    locale,
                    "**{role}** cannot be given to members (it is @everyone or belongs to an "
                    "integration): nothing changed. Choose a role you made.",
                    role=discord.utils.escape_markdown(champion_role.name),
                ),
            )
        if champion_role is not None and not _could_give(interaction, champion_role):
            # Else Manage Server alone would let a member have the bot hand out a role they may not.
            return await reply_private(
                interaction,
                t(
                    locale,
                    "Only a member who could give **{role}** themselves (Manage Roles, and a role "
                    "above it) can make it the champions' role: nothing changed.",
                    role=discord.utils.escape_markdown(champion_role.name),
                ),
            )
        storage = self.bot.storage
        changes: dict[str, object] = {}
        if computers_rated is not None:
            changes["computers_rated"] = computers_rated
        if champion_role is not None:
            changes["champion_role_id"] = champion_role.id
        elif clear_champion_role:
            changes["champion_role_id"] = None
        if turn_pings is not None:
            changes["turn_pings"] = turn_pings
        chosen = None if language == SERVER_LANGUAGE else language
        if language is not None:
            changes["language"] = chosen
        if changes:
            await storage.update_settings(interaction.guild_id, **changes)
        if language is not None:
            self.bot.languages.remember(interaction.guild_id, chosen)
            self.bot.sessions.speak(interaction.guild_id, public_locale(chosen, interaction.guild_locale))
        current = await storage.settings(interaction.guild_id)
        # The answer is private: the member's language, options named as their client shows them.
        rated = (
            t(
                locale,
                "{option}: **on**: games with computer players **change** the human players' ratings "
                "(from the next game recorded). Computer players are never rated nor ranked themselves.",
                option=option_name(locale, "computers-rated"),
            )
            if current.computers_rated
            else t(
                locale,
                "{option}: **off**: games with computer players **do not change** anyone's rating "
                "(from the next game recorded). Computer players are never rated nor ranked themselves.",
                option=option_name(locale, "computers-rated"),
            )
        )
        pings = (
            t(
                locale,
                "{option}: **on**: a turn that has waited {wait} mentions the players it waits for, in "
                "one short message deleted when the turn is over.",
                option=option_name(locale, "turn-pings"),
                wait=duration(locale, PING_AFTER_MS),
            )
            if current.turn_pings
            else t(
                locale,
                "{option}: **off**: nobody is mentioned when it is their turn.",
                option=option_name(locale, "turn-pings"),
            )
        )
        lines = [
            (t(locale, "Saved.") + " " if changes else "") + rated,
            champion_line(interaction.guild, current.champion_role_id, locale),
            pings,
            _language_line(current.language, interaction.guild_locale, locale),
        ]
        card = discord.Embed(
            title=t(locale, "This server's settings"), description="\n\n".join(lines), colour=GAME_COLOUR
        )
        await reply_card(interaction, card)

    @app_commands.command(name="privacy", description="What this bot stores about you, and how to remove it.")
    async def privacy(self, interaction: discord.Interaction) -> None:
        locale = private_locale(interaction)
        text = t(locale, PRIVACY_TEXT, min_games=MIN_RATED_GAMES)
        embed = discord.Embed(title=t(locale, "Your data"), description=text, colour=GAME_COLOUR)
        await interaction.response.send_message(ephemeral=True, **shown(embed))

    @app_commands.command(
        name="forget-me", description="Remove your results, ratings and stats from every server."
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        locale = private_locale(interaction)
        await reply_private(
            interaction,
            t(
                locale,
                "Remove your results, ratings and stats from **every** server? Your seats in others' "
                'finished games will show "a former member". This cannot be undone. A game you are '
                "playing now is recorded when it ends.",
            ),
            view=_ask("forget", interaction.user.id, locale),
        )


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (``bot.app.client.SHARED_COGS``)."""
    bot.add_dynamic_items(ConfirmButton)
    await bot.add_cog(StandingsCog(bot))
