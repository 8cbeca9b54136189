"""Running games: refusals, private events, timers, restarts, endings and standings."""

from __future__ import annotations

from lobby_buttons import lobby_id
from shown import card, controls, labels, text
from worlds import build_world


async def start_tap(world, players=2, **options):
    host = world.members[0]
    await host.slash(world.channel, "tap new", **options)
    # By their ids: the lobby speaks the server's language, which may be any.
    for member in world.members[1:players]:
        await member.click(world.board(), custom_id=lobby_id(world.env, world.channel, "join"))
    await host.click(world.board(), custom_id=lobby_id(world.env, world.channel, "start"))
    return world.board()


def scores(world) -> str:
    return card(world.board()).fields[0].value


async def finish_tap(world, target=2):
    """alice and bob each tap once: alice 1, bob 1 with target 2 → shared victory."""
    alice, bob = world.members[:2]
    await start_tap(world, target=target)
    await alice.click(world.board(), label="Tap")
    await bob.click(world.board(), label="Tap")


async def test_a_press_by_a_non_player_is_refused_and_changes_nothing(world):
    await start_tap(world)
    before = scores(world)
    result = await world.members[3].click(world.board(), label="Tap")
    assert result.ephemeral and "not playing" in result.response.content
    assert scores(world) == before


async def test_an_out_of_turn_press_is_refused_by_the_engine(world):
    await start_tap(world)
    result = await world.members[1].click(world.board(), label="Tap")
    assert result.ephemeral and result.response.content == "It is not your turn."
    assert scores(world) == "alice: 0\nbob: 0"


async def test_a_private_event_reaches_only_the_presser(world):
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    result = await alice.click(world.board(), label="Tap")
    secret = result.followups[0]
    assert secret.ephemeral and secret.content.startswith("Your secret number is")
    number = secret.content.split()[-1].rstrip(".")
    for member in (alice, bob):
        for message in world.channel.history(viewer=member):
            assert number not in text(message) or message.flags.ephemeral


async def test_a_press_on_an_old_board_is_refused_with_a_pointer(world, simcord_env):
    alice = world.members[0]
    old = await start_tap(world)
    # The old board cannot be emptied (too old to edit), so it keeps its buttons.
    simcord_env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{old.id}", status=400, code=30046
    )
    await alice.slash(world.channel, "board")
    new = world.board()
    assert new.id != old.id
    stale = await alice.click(old, label="Tap")
    assert stale.ephemeral and "old board" in stale.response.content and str(new.id) in stale.response.content
    assert scores(world) == "alice: 0\nbob: 0"
    fresh = await alice.click(new, label="Tap")
    assert not fresh.ephemeral
    assert scores(world) == "alice: 1\nbob: 0"


async def test_a_board_too_old_to_edit_is_posted_again(world, simcord_env):
    old = await start_tap(world)
    simcord_env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{old.id}", status=400, code=30046
    )
    await simcord_env.advance_time(31)  # the timer's edit is refused: the board is reposted
    assert world.board().id != old.id
    assert "**bob**" in card(world.board()).description
    assert simcord_env.bot.sessions.get(world.channel.id).board_message_id == world.board().id


async def test_a_press_answered_after_discords_3_s_still_moves_the_board(world, simcord_env, monkeypatch):
    """Discord refuses an answer that comes too late; the move stands, so the board message is
    edited directly and the next player plays on it."""
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    cog = simcord_env.bot.game_cogs["tap"]
    real_render = type(cog).render_board

    def slow_render(self, session):
        simcord_env.backend.advance_clock(3.5)
        return real_render(self, session)

    monkeypatch.setattr(type(cog), "render_board", slow_render)
    late = await alice.click(world.board(), label="Tap")
    monkeypatch.undo()
    assert late.response is None and late.followups == []
    assert scores(world) == "alice: 1\nbob: 0" and "**bob**" in card(world.board()).description
    played = await bob.click(world.board(), label="Tap")
    assert not played.ephemeral
    assert scores(world) == "alice: 1\nbob: 1"


async def test_a_board_refused_after_a_timer_keeps_the_clock_running_and_heals_at_the_next_press(
    world, simcord_env
):
    alice, bob = world.members[:2]
    old = await start_tap(world, target=5)
    simcord_env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{old.id}", status=403, code=50013, times=None
    )
    await simcord_env.advance_time(31)  # alice idles: her turn passes, the board's edit is refused
    await simcord_env.advance_time(30)  # the clock still runs: so does bob's
    engine = simcord_env.bot.sessions.get(world.channel.id).engine
    assert engine.s["turn"] == 2 and engine.s["active"] == 0
    assert "Turn 0: **alice**" in card(world.board()).description  # the board is behind
    simcord_env.backend.faults.clear()
    refused = await bob.click(world.board(), label="Tap")
    assert refused.ephemeral and refused.response.content == "It is not your turn."
    assert "Turn 2: **alice**" in card(world.board()).description


async def test_reposting_the_board_empties_the_old_message(world):
    alice = world.members[0]
    old = await start_tap(world)
    await alice.slash(world.channel, "board")
    old_now = next(m for m in world.channel.history() if m.id == old.id)
    assert controls(old_now) == [] and "moved" in card(old_now).description


async def test_the_turn_timer_passes_for_an_idle_player(world, simcord_env):
    await start_tap(world)
    assert "**alice**" in card(world.board()).description
    await simcord_env.advance_time(29)
    assert "**alice**" in card(world.board()).description
    await simcord_env.advance_time(2)
    assert "**bob**" in card(world.board()).description


async def test_boards_leave_no_view_behind_in_discord_py(world, simcord_env):
    """Presses are read from their custom ids; a view kept per board edit would pile up."""
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    for member in (alice, bob, alice):
        await member.click(world.board(), label="Tap")
    assert scores(world) == "alice: 2\nbob: 1"
    assert list(simcord_env.bot.persistent_views) == []


async def test_a_game_in_progress_survives_a_restart(world, simcord_env, restart_bot):
    alice, bob = world.members[:2]
    await start_tap(world, target=3)
    await alice.click(world.board(), label="Tap")
    await restart_bot()
    assert simcord_env.bot.sessions.get(world.channel.id) is not None
    await bob.click(world.board(), label="Tap")
    assert scores(world) == "alice: 1\nbob: 1"
    await simcord_env.advance_time(31)  # the restored timer still runs
    assert "**bob**" in card(world.board()).description


async def test_a_lobby_survives_a_restart(world, simcord_env, restart_bot):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new")
    await restart_bot()
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    assert card(world.board()).title == "Tap"


async def test_a_finished_game_is_recorded_once_with_scores_and_winners(world, simcord_env):
    await finish_tap(world)
    assert labels(world.board()) == ["Play again"]
    assert card(world.board()).description == "🏆 Winners: **alice**, **bob**"
    storage = simcord_env.bot.storage
    assert await storage.game_count(world.guild.id, "tap") == 1
    rows, _ = await storage.leaderboard(world.guild.id, "tap")
    assert sorted((r.user_id, r.wins, r.score) for r in rows) == sorted(
        [(world.members[0].id, 1, 1), (world.members[1].id, 1, 1)]
    )
    assert await storage.load_sessions() == []
    assert simcord_env.bot.sessions.get(world.channel.id) is None


async def test_a_game_whose_recording_was_interrupted_is_recorded_once_after_restart(
    world, simcord_env, restart_bot
):
    alice, bob = world.members[:2]
    await start_tap(world, target=2)
    await alice.click(world.board(), label="Tap")
    session = simcord_env.bot.sessions.get(world.channel.id)
    saved = session.to_json()
    await bob.click(world.board(), label="Tap")  # finishes and records the game
    # As if the bot had died after recording but before forgetting the session:
    saved["engine"]["scores"], saved["engine"]["taps"] = [1, 1], 2
    await simcord_env.bot.storage.save_session(world.guild.id, world.channel.id, "tap", saved, now=0)
    await restart_bot()
    await simcord_env.settle()
    storage = simcord_env.bot.storage
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert await storage.load_sessions() == []


async def test_end_by_a_non_host_is_refused(world, simcord_env):
    await start_tap(world)
    result = await world.members[2].slash(world.channel, "end")
    assert result.ephemeral and "Only the host" in result.response.content
    assert simcord_env.bot.sessions.get(world.channel.id) is not None


async def test_end_by_the_host_records_an_abandoned_game_that_changes_no_standings(world, simcord_env):
    alice = world.members[0]
    await start_tap(world)
    await alice.click(world.board(), label="Tap")
    result = await alice.slash(world.channel, "end")
    assert result.ephemeral
    assert "abandoned" in card(world.board()).description
    assert controls(world.board()) == []
    storage = simcord_env.bot.storage
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert (await storage.leaderboard(world.guild.id, "tap"))[1] == 0
    stats = await storage.stats(world.guild.id, alice.id)
    assert [(s.games, s.abandoned) for s in stats] == [(0, 1)]


async def test_end_by_a_moderator_is_accepted(world, simcord_env):
    await start_tap(world)
    await world.mod.slash(world.channel, "end")
    assert simcord_env.bot.sessions.get(world.channel.id) is None


async def test_end_with_no_game_says_so(world):
    result = await world.members[0].slash(world.channel, "end")
    assert result.ephemeral and "no game" in result.response.content


async def test_leaderboard_pages_with_buttons(world, simcord_env):
    from bot.storage import GameRecord, PlayerRecord

    players = [PlayerRecord(user_id=1000 + i, seat=i, score=i, won=i == 22) for i in range(23)]
    await simcord_env.bot.storage.record_game(
        GameRecord("seeded", world.guild.id, world.channel.id, "tap", {}, 1, 0, 1, "finished", players)
    )
    await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="wins")
    board = world.board()
    # Rows recorded without a name, of members the bot does not know: their ids.
    assert card(board).description.splitlines()[2] == " 1     1    22      1  @1022"
    assert "Page 1/3" in card(board).footer.text
    await world.members[1].click(board, label="Next ▶")
    page2 = card(world.board())
    assert (
        "Page 2/3" in page2.footer.text
        and page2.description.splitlines()[2] == "11     0    12      1  @1012"
    )
    await world.members[1].click(world.board(), label="Next ▶")
    assert len(card(world.board()).description.splitlines()) == 2 + 3 + 1  # 21st–23rd
    await world.members[1].click(world.board(), label="◀ Previous")
    assert "Page 2/3" in card(world.board()).footer.text


async def test_two_servers_never_see_each_others_standings(world, simcord_env):
    await finish_tap(world)
    other = build_world(simcord_env, guild_name="Rivals")
    result = await other.members[0].slash(other.channel, "leaderboard", game="tap", sort="wins")
    assert card(result.response).description == "No finished games in this server yet."
    mine = await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="wins")
    # The name saved with the game.
    assert "1     1     1      1  alice\n" in card(mine.response).description
    stats = await other.members[0].slash(other.channel, "stats")
    assert card(stats.response).description == "No games played in this server yet."


async def test_stats_show_games_wins_and_scores(world):
    await finish_tap(world)
    result = await world.members[2].slash(world.channel, "stats", member=world.members[0])
    embed = card(result.response)
    assert embed.title == "Stats for alice"
    assert embed.fields[0].name == "Tap"
    assert "Games: **1** · Wins: **1**" in embed.fields[0].value
    assert "Total taps: **1**" in embed.fields[0].value


async def test_rules_and_help_answer_privately(world):
    rules = await world.members[0].slash(world.channel, "rules", game="tap")
    assert rules.ephemeral and card(rules.response).description == "Tap when it is your turn."
    helped = await world.members[0].slash(world.channel, "help")
    assert helped.ephemeral and "`/tap new`" in card(helped.response).description
