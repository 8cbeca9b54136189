"""A season's end names its champions in the channel and moves the champions' role (/settings
champion-role) to each game's #1, taking it from the last champions; without Manage Roles, or
with the role above the bot's own, the season still ends and the admin is told once, in words."""

from __future__ import annotations

import discord
from shown import above, card, text
from test_ratings_discord import play

from bot.community.ratings import MIN_RATED_GAMES

ROLE_CALLS = "/roles/"


def admin(world):
    """A member who may end seasons (Manage Server) and give roles (Manage Roles); roles created
    after this one sit below it."""
    role = world.guild.create_role(
        "Admins", permissions=discord.Permissions(manage_guild=True, manage_roles=True)
    )
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


def roles_of(world, member) -> list[int]:
    return list(world.env.backend.get_member(world.guild.id, member.id).role_ids)


def bot_role(world):
    return next(r for r in world.env.backend.get_guild(world.guild.id).roles.values() if r.managed)


def role_requests(world) -> int:
    return sum(1 for r in world.env.backend.http_requests if "/members/" in r.path and ROLE_CALLS in r.path)


async def end_season(world, boss, name):
    asked = await boss.slash(world.channel, "season new", name=name)
    return await boss.click(asked.response, label="Archive the season")


async def test_a_season_end_names_the_top_three_and_moves_the_champions_role(world):
    alice, bob, carol, dave = world.members[:4]
    boss = admin(world)
    champions = world.guild.create_role("Champions")
    saved = await boss.slash(world.channel, "settings", **{"champion-role": champions})
    assert saved.ephemeral
    assert (
        f"champion-role: <@&{champions.id}>: when a season ends, each game's #1 gets it and the last "
        "champions lose it." in card(saved.response).description
    )
    assert "⚠️" not in card(saved.response).description
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    await play(world, carol, dave)  # one game each: played, not ranked
    await play(world, carol, bob)
    world.env.backend.add_member_role(world.guild.id, dave.id, champions.id)  # given by hand
    done = await end_season(world, boss, "Spring")
    assert done.response.content == "Season **Spring** archived."
    post = world.board()
    assert above(post).startswith("Season **Spring** is over")
    embed = card(post)
    assert embed.title == "Season Spring — champions"
    [tap] = embed.fields
    assert tap.name == "Tap"
    lines = tap.value.splitlines()
    assert len(lines) == 2  # only alice and bob have 3 rated games
    assert lines[0].startswith(f"🥇 alice (<@{alice.id}>) — **") and lines[0].endswith("** · Silver")
    assert lines[1].startswith(f"🥈 bob (<@{bob.id}>) — **") and lines[1].endswith("** · Bronze")
    assert embed.description == f"<@&{champions.id}> now goes to each game's #1: <@{alice.id}>."
    assert champions.id in roles_of(world, alice)
    assert not any(champions.id in roles_of(world, m) for m in (bob, carol))
    assert champions.id in roles_of(world, dave)  # the bot takes it only from its own champions
    # The next season's champion takes the role over.
    for _ in range(MIN_RATED_GAMES):
        await play(world, bob, carol)
    await end_season(world, boss, "Summer")
    assert champions.id in roles_of(world, bob) and champions.id not in roles_of(world, alice)
    lines = card(world.board()).fields[0].value.splitlines()
    assert lines[0].startswith(f"🥇 bob (<@{bob.id}>)") and lines[1].startswith(f"🥈 carol (<@{carol.id}>)")
    assert not any("champions' role" in text(m) for m in world.channel.history(viewer=boss))


async def test_a_game_with_nobody_ranked_says_so_and_no_role_means_no_role_changes(world):
    alice, bob = world.members[:2]
    boss = admin(world)
    await play(world, alice, bob)
    await end_season(world, boss, "Short")
    embed = card(world.board())
    assert [(f.name, f.value) for f in embed.fields] == [("Tap", "Nobody played 3 rated games this season.")]
    assert embed.description is None
    assert role_requests(world) == 0


async def test_without_manage_roles_the_season_ends_and_the_admin_is_told_once(world):
    alice, bob = world.members[:2]
    boss = admin(world)
    champions = world.guild.create_role("Champions")
    mine = bot_role(world)
    allowed = discord.Permissions(mine.permissions)
    allowed.manage_roles = False
    world.env.backend.edit_role(world.guild.id, mine.id, {"permissions": allowed.value})
    saved = await boss.slash(world.channel, "settings", **{"champion-role": champions})
    # Saved all the same, with a warning: the admin may fix the permission before the season ends.
    assert "⚠️ I could not give the champions' role **Champions**: I need the **Manage Roles**" in (
        card(saved.response).description
    )
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    told_before = len(world.channel.history(viewer=boss))
    await end_season(world, boss, "Spring")
    assert [s.name for s in await world.env.bot.storage.seasons(world.guild.id)] == ["Spring"]
    new = world.channel.history(viewer=boss)[told_before:]
    public = [m for m in new if not m.flags.ephemeral]
    assert len(public) == 1 and card(public[0]).fields[0].value.startswith(f"🥇 alice (<@{alice.id}>)")
    assert card(public[0]).description is None  # no claim that anyone got the role
    problems = [text(m) for m in new if m.flags.ephemeral and "Manage Roles" in text(m)]
    assert problems == [
        "I could not give the champions' role **Champions**: I need the **Manage Roles** permission. Give "
        f"it to my role **{mine.name}** in Server Settings → Roles, then give **Champions** to the champions "
        "by hand (the next season's end will do it by itself)."
    ]
    assert not any("Manage Roles" in text(m) for m in world.channel.history(viewer=alice))
    assert role_requests(world) == 0 and champions.id not in roles_of(world, alice)


async def test_a_role_above_the_bots_own_is_explained_and_not_tried(world):
    alice, bob = world.members[:2]
    boss = admin(world)
    champions = world.guild.create_role("Champions")
    await boss.slash(world.channel, "settings", **{"champion-role": champions})
    # Later someone moves the role above the bot's own.
    world.env.backend.edit_role(world.guild.id, champions.id, {"position": bot_role(world).position + 1})
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    await end_season(world, boss, "Spring")
    told = [text(m) for m in world.channel.history(viewer=boss) if m.flags.ephemeral and text(m)]
    assert told[-1].startswith(
        "I could not give the champions' role **Champions**: it sits above my highest role, "
        f"**{bot_role(world).name}**, and Discord lets me give only roles below it. In Server Settings → "
        f"Roles, drag **{bot_role(world).name}** above **Champions**"
    )
    assert role_requests(world) == 0 and champions.id not in roles_of(world, alice)


async def test_a_refusal_from_discord_stops_the_role_moves_at_once(world):
    alice, bob, carol = world.members[:3]
    boss = admin(world)
    champions = world.guild.create_role("Champions")
    await boss.slash(world.channel, "settings", **{"champion-role": champions})
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    world.env.inject_error(
        "PUT",
        "/guilds/*/members/*/roles/*",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    await end_season(world, boss, "Spring")
    assert role_requests(world) == 1  # tried once, never again
    told = [text(m) for m in world.channel.history(viewer=boss) if m.flags.ephemeral and text(m)]
    assert told[-1].startswith(
        "Discord refused to let me give the champions' role **Champions** (Missing Permissions), so I stopped."
    )
    assert "Season **Spring** is over" in above(world.board())
    assert [s.name for s in await world.env.bot.storage.seasons(world.guild.id)] == ["Spring"]


async def test_the_champion_role_setting_can_be_cleared_and_refuses_roles_nobody_can_give(world):
    boss = admin(world)
    champions = world.guild.create_role("Champions")
    storage = world.env.bot.storage
    await boss.slash(world.channel, "settings", **{"champion-role": champions})
    assert (await storage.settings(world.guild.id)).champion_role_id == champions.id
    both = await boss.slash(
        world.channel, "settings", **{"champion-role": champions, "clear-champion-role": True}
    )
    assert both.ephemeral and both.response.content == (
        "Choose a champion role or clear it, not both: nothing changed."
    )
    everyone = await boss.slash(world.channel, "settings", **{"champion-role": world.guild.default_role})
    assert everyone.ephemeral and "cannot be given to members" in everyone.response.content
    assert (await storage.settings(world.guild.id)).champion_role_id == champions.id
    # Manage Server alone cannot have the bot hand out a role: the member must be able to give it.
    servers = world.guild.create_role("Server managers", permissions=discord.Permissions(manage_guild=True))
    manager = world.guild.add_member(world.env.create_user("manager"), roles=[servers])
    mods = world.guild.roles["Mods"]
    refused = await manager.slash(world.channel, "settings", **{"champion-role": mods})
    assert refused.ephemeral and refused.response.content == (
        "Only a member who could give **Mods** themselves (Manage Roles, and a role above it) can make it "
        "the champions' role: nothing changed."
    )
    assert (await storage.settings(world.guild.id)).champion_role_id == champions.id
    cleared = await boss.slash(world.channel, "settings", **{"clear-champion-role": True})
    assert "champion-role: **none**: a season's end gives no role." in card(cleared.response).description
    assert (await storage.settings(world.guild.id)).champion_role_id is None


async def test_a_season_with_nobody_ranked_takes_the_role_from_the_last_champion(world):
    alice, bob = world.members[:2]
    boss = admin(world)
    champions = world.guild.create_role("Champions")
    await boss.slash(world.channel, "settings", **{"champion-role": champions})
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    await end_season(world, boss, "Spring")
    assert champions.id in roles_of(world, alice)
    await play(world, bob, alice)  # one game: nobody ranked
    await end_season(world, boss, "Summer")
    embed = card(world.board())
    assert embed.description == f"Nobody was ranked, so nobody gets <@&{champions.id}> this time."
    assert champions.id not in roles_of(world, alice) and champions.id not in roles_of(world, bob)
