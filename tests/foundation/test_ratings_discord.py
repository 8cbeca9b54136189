"""Ratings, seasons and members' data end to end through SimCord: games finished on the board
rate their players, /leaderboard and /stats show it, a season is archived with a confirmation,
and /forget-me and /standings reset remove what they say."""

from __future__ import annotations

import discord
from lobby_buttons import lobby_id
from shown import above, card, rows
from shown import text as shown_text
from worlds import build_world

from bot.community.ratings import MIN_RATED_GAMES, NEW, update
from bot.storage import FORMER_MEMBER, RUNNING_SEASON


async def play(world, winner, loser):
    """One finished Tap game (target 1): ``winner`` hosts and taps first, so wins alone."""
    await winner.slash(world.channel, "tap new", target=1)
    # By their ids: the lobby speaks the server's language, which may be any.
    await loser.click(world.board(), custom_id=lobby_id(world.env, world.channel, "join"))
    await winner.click(world.board(), custom_id=lobby_id(world.env, world.channel, "start"))
    await winner.click(world.board(), label="Tap")


def admin(world):
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def test_finished_games_rank_members_by_rating_after_enough_games(world):
    alice, bob, carol = world.members[:3]
    early = await alice.slash(world.channel, "leaderboard", game="tap")
    assert card(early.response).description == f"Nobody has played {MIN_RATED_GAMES} rated games here yet."
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    await play(world, carol, bob)  # carol has one game: not ranked yet
    shown = await carol.slash(world.channel, "leaderboard", game="tap")
    embed = card(shown.response)
    lines = embed.description.splitlines()
    ratings = {
        r.user_id: r
        for r in (await world.env.bot.storage.leaderboard(world.guild.id, "tap", sort="rating"))[0]
    }
    assert ratings[bob.id].rating.ordinal < 0  # bob's μ − 3σ, which members never see
    # A table in a code block: rank, rating and tier, wins, games, then the name.
    assert lines == [
        "```",
        "#  Rating       Wins  Games  Name",
        f"1  {ratings[alice.id].rating.shown} Silver     3      3  alice",
        f"2   {ratings[bob.id].rating.shown} Bronze     0      4  bob",
        "```",
    ]
    assert 1100 <= ratings[alice.id].rating.shown < 1300 and 0 < ratings[bob.id].rating.shown < 1000
    assert f"ranked after {MIN_RATED_GAMES} rated games" in embed.footer.text


async def test_stats_show_the_rating_and_its_change_in_the_last_game(world):
    alice, bob = world.members[:2]
    await play(world, alice, bob)
    winner, loser = update([NEW, NEW], [1, 2])
    assert loser.ordinal < 0 and (winner.shown, loser.shown) == (1069, 963)
    mine = card((await alice.slash(world.channel, "stats")).response).fields[0].value
    assert "Rating: **1069** · Newcomer (+69 in the last game; 1 rated game, ranked after 3)" in mine
    assert "All-time rating: **1069** · Newcomer" in mine
    theirs = card((await alice.slash(world.channel, "stats", member=bob)).response).fields[0].value
    assert "Rating: **963** · Newcomer (-37 in the last game; 1 rated game, ranked after 3)" in theirs


async def test_stats_are_private_whoever_they_are_about(world):
    alice, bob = world.members[:2]
    await play(world, alice, bob)
    before = len(world.channel.history())
    own = await alice.slash(world.channel, "stats")
    other = await alice.slash(world.channel, "stats", member=bob)
    assert own.ephemeral and other.ephemeral
    assert card(other.response).title == "Stats for bob"
    assert len(world.channel.history(viewer=bob)) == before  # bob's channel shows nothing new
    help_text = card((await alice.slash(world.channel, "help")).response).description
    assert (
        "`/stats [member]` — games, wins, scores and rating per game, yours or a member's; only you see"
        in (help_text)
    )


class TapComputer:
    """A Tap computer policy that never presses: the humans end the game."""

    @staticmethod
    def plan(view, legal, rng, memory):
        return None


async def test_a_game_that_rated_nobody_shows_no_change_in_stats(world, monkeypatch):
    alice, bob = world.members[:2]
    await play(world, alice, bob)
    lost = card((await bob.slash(world.channel, "stats")).response).fields[0].value
    assert "in the last game" in lost and "±0" not in lost
    # Then a game with a computer player, which changes no rating (computers-rated is off).
    monkeypatch.setattr(world.env.bot.game_cogs["tap"], "computer_policy", TapComputer)
    await alice.slash(world.channel, "tap new", target=1)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Add computer")
    await alice.click(world.board(), label="Start")
    await alice.click(world.board(), label="Tap")
    assert await world.env.bot.storage.game_count(world.guild.id) == 2
    after = card((await bob.slash(world.channel, "stats")).response).fields[0].value
    assert "Games: **2** · Wins: **0**" in after
    assert "(±0 in the last game; 1 rated game, ranked after 3)" in after
    assert "Rating: **963** · Newcomer (±0" in after
    # An abandoned game changes nothing either, and says so after a rated one.
    await play(world, bob, alice)
    await alice.slash(world.channel, "tap new", target=3)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    await alice.slash(world.channel, "end")
    mine = card((await alice.slash(world.channel, "stats")).response).fields[0].value
    assert "(±0 in the last game; 2 rated games, ranked after 3)" in mine


async def test_help_says_what_the_rating_and_its_tiers_mean(world):
    text = card((await world.members[0].slash(world.channel, "help")).response).description
    assert "**Your rating** starts at 1000" in text and "never below 0" in text
    assert (
        "Tiers: Newcomer (fewer than 3 rated games: not ranked yet) · Bronze · Silver 1100+ · Gold 1300+ · "
        "Platinum 1500+ · Diamond 1700+." in text
    )


async def test_an_abandoned_game_changes_no_rating(world):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new", target=3)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    await alice.click(world.board(), label="Tap")
    await alice.slash(world.channel, "end")
    assert await world.env.bot.storage.ratings_of(world.guild.id, alice.id) == []


async def test_sort_by_score_and_wins(world, simcord_env):
    from bot.storage import GameRecord, PlayerRecord

    seats = [PlayerRecord(1, 0, 9, False, "many"), PlayerRecord(2, 1, 1, True, "won")]
    await simcord_env.bot.storage.record_game(
        GameRecord("s", world.guild.id, 5, "tap", {}, 1, 0, 1, "finished", seats)
    )
    by_score = await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="score")
    assert card(by_score.response).description.splitlines()[1:4] == [
        "#  Taps  Wins  Games  Name",
        "1     9     0      1  many",
        "2     1     1      1  won",
    ]
    assert "ranked by taps (more is better), then wins" in card(by_score.response).footer.text
    by_wins = await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="wins")
    assert card(by_wins.response).description.splitlines()[1:4] == [
        "#  Wins  Taps  Games  Name",
        "1     1     1      1  won",
        "2     0     9      1  many",
    ]


async def test_a_new_season_needs_manage_server_and_a_confirmation_then_archives_the_standings(
    world, restart_bot
):
    alice, bob = world.members[:2]
    boss = admin(world)
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    refused = await world.mod.slash(world.channel, "season new", name="Spring")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    asked = await boss.slash(world.channel, "season new", name="Spring")
    assert asked.ephemeral and "Archive this season's standings as **Spring**" in asked.response.content
    assert await world.env.bot.storage.seasons(world.guild.id) == []  # nothing until confirmed
    # The confirmation still works after a restart.
    await restart_bot()
    done = await boss.click(asked.response, label="Archive the season")
    assert "Season **Spring** archived." in done.response.content
    assert "Season **Spring** is over" in above(world.board())  # said in the channel
    fresh = await bob.slash(world.channel, "leaderboard", game="tap")
    assert card(fresh.response).title == "Tap — leaderboard · this season"
    assert card(fresh.response).description.startswith("Nobody has played")
    archived = await bob.slash(world.channel, "leaderboard", game="tap", season="spring")
    assert card(archived.response).title == "Tap — leaderboard · season Spring"
    assert card(archived.response).description.splitlines()[2].startswith("1  1168 Silver")
    assert card(archived.response).description.splitlines()[2].endswith("  alice")
    all_time = await bob.slash(world.channel, "leaderboard", game="tap", sort="wins", season="all time")
    assert card(all_time.response).description.splitlines()[2] == "1     3     3      3  alice"
    unknown = await bob.slash(world.channel, "leaderboard", game="tap", season="Winter")
    assert unknown.ephemeral and "**Spring** or **all time**" in unknown.response.content
    again = await boss.slash(world.channel, "season new", name="SPRING")
    assert again.ephemeral and "already a season" in again.response.content
    listed = await bob.slash(world.channel, "season list")
    assert listed.response.content.startswith("**Spring** — ended <t:")


async def test_a_season_with_no_games_is_refused_and_cancel_changes_nothing(world):
    boss = admin(world)
    empty = await boss.slash(world.channel, "season new", name="Spring")
    assert empty.ephemeral and "nothing to archive" in empty.response.content
    await play(world, *world.members[:2])
    asked = await boss.slash(world.channel, "season new", name="Spring")
    cancelled = await boss.click(asked.response, label="Cancel")
    assert cancelled.response.content == "Cancelled: nothing changed."
    assert await world.env.bot.storage.seasons(world.guild.id) == []


async def test_forget_me_removes_exactly_one_member_from_every_server_after_confirming(world, simcord_env):
    alice, bob, carol = world.members[:3]
    other = build_world(simcord_env, names=("x", "y"), guild_name="Rivals")
    bob_there = other.guild.add_member(bob)
    await play(world, alice, bob)
    await play(world, carol, alice)
    await play(other, bob_there, other.members[0])
    storage = simcord_env.bot.storage
    before = {m.id: await storage.ratings_of(world.guild.id, m.id) for m in (alice, carol)}
    asked = await bob.slash(world.channel, "forget-me")
    assert asked.ephemeral and "every" in asked.response.content
    done = await bob.click(asked.response, label="Forget me")
    assert done.response.content.startswith("Done: your results, ratings and stats are gone")
    for guild in (world.guild, other.guild):
        assert await storage.ratings_of(guild.id, bob.id) == []
        assert await storage.stats(guild.id, bob.id) == []
    assert {m.id: await storage.ratings_of(world.guild.id, m.id) for m in (alice, carol)} == before
    board = await alice.slash(world.channel, "leaderboard", game="tap", sort="wins")
    text = card(board.response).description
    assert "bob" not in text and str(bob.id) not in text and "alice" in text and "carol" in text
    stats = await alice.slash(world.channel, "stats", member=bob)
    assert card(stats.response).description == "No games played in this server yet."
    # bob's seat in alice's game is still there, as a former member.
    rows, _ = await storage.leaderboard(world.guild.id, "tap", sort="wins")
    assert FORMER_MEMBER not in [r.user_id for r in rows]
    assert await storage.game_count(world.guild.id) == 2


async def test_a_standings_reset_needs_manage_server_and_clears_this_server_only(world, simcord_env):
    alice, bob = world.members[:2]
    boss = admin(world)
    other = build_world(simcord_env, names=("x", "y"), guild_name="Rivals")
    await play(world, alice, bob)
    await play(other, *other.members[:2])
    # Discord hides the command from members without Manage Server, but a server can allow it to
    # anyone: the bot checks the permission itself.
    command = simcord_env.backend.find_command("standings", None)
    world.guild.set_command_permissions(int(command["id"]), {alice: True})
    refused = await alice.slash(world.channel, "standings reset")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    asked = await boss.slash(world.channel, "standings reset")
    done = await boss.click(asked.response, label="Delete this server's standings")
    assert done.response.content.startswith("Done: 1 finished game")
    storage = simcord_env.bot.storage
    assert await storage.game_count(world.guild.id) == 0
    assert await storage.ratings_of(world.guild.id, alice.id) == []
    assert await storage.game_count(other.guild.id, season=RUNNING_SEASON) == 1


async def test_privacy_says_what_is_kept_and_how_to_remove_it(world):
    shown = await world.members[0].slash(world.channel, "privacy")
    text = card(shown.response).description
    assert shown.ephemeral
    for words in (
        "user id",
        "display name",
        "Ratings",
        "/forget-me",
        "a former member",
        "/standings reset",
        "in progress",
        "Game records",
    ):
        assert words in text


async def test_only_manage_server_switches_whether_games_with_computers_are_rated(world, simcord_env):
    # A server may allow the command to anyone: the bot checks the permission itself.
    command = simcord_env.backend.find_command("settings", None)
    world.guild.set_command_permissions(int(command["id"]), {world.members[0]: True})
    refused = await world.members[0].slash(world.channel, "settings", **{"computers-rated": True})
    assert refused.ephemeral and "Manage Server" in refused.response.content
    storage = simcord_env.bot.storage
    assert not (await storage.settings(world.guild.id)).computers_rated
    boss = admin(world)
    shown = await boss.slash(world.channel, "settings")
    assert shown.ephemeral and "computers-rated: **off**" in card(shown.response).description
    saved = await boss.slash(world.channel, "settings", **{"computers-rated": True})
    assert saved.ephemeral and "computers-rated: **on**" in card(saved.response).description
    assert (await storage.settings(world.guild.id)).computers_rated
    assert not any("computers-rated" in shown_text(m) for m in world.channel.history())


async def test_a_leaderboard_button_from_before_sorts_still_pages_by_wins(world, simcord_env):
    from bot.storage import GameRecord, PlayerRecord

    players = [PlayerRecord(user_id=1000 + i, seat=i, score=i, won=i == 12) for i in range(13)]
    await simcord_env.bot.storage.record_game(
        GameRecord("k", world.guild.id, 5, "tap", {}, 1, 0, 1, "finished", players)
    )
    await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="wins")
    assert rows(world.board())[0][1].custom_id == "lb:tap:w:0:1:next"
    # A board as the previous version posted it: lb:<kind>:<page>:<dir>.
    channel = simcord_env.bot.get_channel(world.channel.id)
    old = discord.ui.View()
    old.add_item(discord.ui.Button(label="Next ▶", custom_id="lb:tap:1:next"))
    await channel.send("old board", view=old)
    await world.members[1].click(world.board(), label="Next ▶")
    page = card(world.board())
    assert "Page 2/2" in page.footer.text and "ranked by wins" in page.footer.text
    assert page.title == "Tap — leaderboard · all time"
