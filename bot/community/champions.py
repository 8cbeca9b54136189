"""A season's champions: each game's top three when a season ends (the rating board of the
archived season), and the champions' role (/settings champion-role) moved to each game's #1.

cogs/standings.py posts them after /season new's confirmation; see docs/standings.md,
"Ratings and seasons". Discord refuses a role change when the bot lacks Manage Roles or the role
sits at or above the bot's highest role: that is checked first and said once, in plain words, and
a refusal Discord still gives stops the moves at once (never a retry).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.i18n import DEFAULT, t, translated
from bot.storage import Standing, Storage


class GameBot(Protocol):
    """The bot as a season's end needs it: its standings, its games and Discord's role calls
    (``bot.app.client.GameBot`` is one; community sits below the application)."""

    storage: Storage
    game_cogs: Mapping[str, Any]  # each game's cog: its ``title`` and ``engine_cls``
    http: Any


log = logging.getLogger(__name__)

PODIUM_SIZE = 3
REASON = "A season ended: the champions' role goes to each game's #1"


@dataclass(frozen=True)
class Podium:
    """One game's best of a season, best first: members with enough rated games only."""

    kind: str
    title: str
    rows: list[Standing]


async def podiums(bot: GameBot, guild_id: int, season_id: int) -> list[Podium]:
    """Each game played in the season, with its top three by the leaderboard's own rating order
    (a game nobody played that season is left out; one nobody is ranked in has no rows)."""
    found = []
    for kind, cog in bot.game_cogs.items():
        if await bot.storage.game_count(guild_id, kind, season=season_id) == 0:
            continue
        rows, _ = await bot.storage.leaderboard(
            guild_id, kind, sort="rating", season=season_id, limit=PODIUM_SIZE
        )
        found.append(Podium(kind, cog.title, rows))
    return found


def winners(found: Iterable[Podium]) -> list[int]:
    """Each game's #1, once each (a member first in two games holds the role once)."""
    return list(dict.fromkeys(p.rows[0].user_id for p in found if p.rows))


async def previous_winners(bot: GameBot, guild_id: int, season_id: int) -> list[int]:
    """The #1s of the season archived just before ``season_id``: who the role went to last time."""
    seasons = [s.id for s in await bot.storage.seasons(guild_id)]  # newest first
    if season_id not in seasons or seasons.index(season_id) + 1 >= len(seasons):
        return []
    return winners(await podiums(bot, guild_id, seasons[seasons.index(season_id) + 1]))


def _setting(locale: str) -> str:
    """``/settings champion-role:`` as members of ``locale`` type it."""
    names = [translated(locale, word, "command name") or word for word in ("settings", "champion-role")]
    return f"/{names[0]} {names[1]}:"


def role_problem(guild: discord.Guild, role: discord.Role | None, locale: str = DEFAULT) -> str | None:
    """Why the bot cannot give ``role`` to members, in words a server's admin can act on (in
    their ``locale``), or None."""
    if role is None:
        return t(
            locale,
            "The champions' role chosen in `{settings}` no longer exists, so nobody got it. Choose "
            "another with `{option}`.",
            settings=_setting(locale).split()[0],
            option=_setting(locale),
        )
    name = f"**{discord.utils.escape_markdown(role.name)}**"
    if role.is_default() or role.managed:
        return t(
            locale,
            "{role} cannot be given to members (it is @everyone or belongs to an integration), so "
            "nobody got it. Choose another with `{option}`.",
            role=name,
            option=_setting(locale),
        )
    me = guild.me
    if me is None or me.id == guild.owner_id:
        return None
    mine = f"**{discord.utils.escape_markdown(me.top_role.name)}**"
    if not me.guild_permissions.manage_roles:
        if me.top_role.is_default():
            return t(
                locale,
                "I could not give the champions' role {role}: I need the **Manage Roles** permission. "
                "Give me a role with it in Server Settings → Roles, then give {role} to the champions "
                "by hand (the next season's end will do it by itself).",
                role=name,
            )
        return t(
            locale,
            "I could not give the champions' role {role}: I need the **Manage Roles** permission. "
            "Give it to my role {mine} in Server Settings → Roles, then give {role} to the champions "
            "by hand (the next season's end will do it by itself).",
            role=name,
            mine=mine,
        )
    if role >= me.top_role:
        return t(
            locale,
            "I could not give the champions' role {role}: it sits above my highest role, {mine}, and "
            "Discord lets me give only roles below it. In Server Settings → Roles, drag {mine} above "
            "{role}, then give {role} to the champions by hand (the next season's end will do it by "
            "itself).",
            role=name,
            mine=mine,
        )
    return None


@dataclass
class Crowning:
    """What moving the role did: who got it, who lost it, and the one problem to tell the admin."""

    role: discord.Role | None
    given: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    problem: str | None = None


async def crown(
    bot: GameBot,
    guild: discord.Guild,
    role_id: int,
    new: list[int],
    old: Iterable[int],
    *,
    locale: str = DEFAULT,
) -> Crowning:
    """Give the role to ``new`` and take it from ``old``, the champions it went to last time (the
    role marks the current champions), stopping at the first refusal. Without the privileged
    members intent the bot has no list of who else holds it: a holder given it by hand keeps it.
    ``locale``: the language of the problem, said privately to the member who ended the season."""
    role = guild.get_role(role_id)
    done = Crowning(role, problem=role_problem(guild, role, locale))
    if done.problem is not None or role is None:
        return done
    moves = [(user, False) for user in dict.fromkeys(old) if user not in new]
    moves += [(user, True) for user in new]
    for user, give in moves:
        try:
            if give:
                await bot.http.add_role(guild.id, user, role.id, reason=REASON)
            else:
                await bot.http.remove_role(guild.id, user, role.id, reason=REASON)
        except discord.NotFound:
            continue  # the member left the server: nothing to give or take
        except discord.HTTPException as error:
            log.warning("guild %s: champions' role %s not moved: %s", guild.id, role.id, error)
            name = f"**{discord.utils.escape_markdown(role.name)}**"
            if isinstance(error, discord.Forbidden):
                done.problem = t(
                    locale,
                    "Discord refused to let me give the champions' role {role} (Missing Permissions), "
                    "so I stopped. Check that my role has **Manage Roles** and sits above {role}, "
                    "then give it to the champions by hand.",
                    role=name,
                )
            else:
                done.problem = t(
                    locale,
                    "Discord did not accept a change of the champions' role {role} (error {status}), "
                    "so I stopped. Give it to the champions by hand.",
                    role=name,
                    status=error.status,
                )
            return done
        (done.given if give else done.taken).append(user)
    return done
