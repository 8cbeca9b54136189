"""Discord's faults, one at a time: a 5xx or 429 that discord.py gave up on, a permission taken
away in the game's channel. SimCord replaces discord.py's transports, so an injected fault reaches
the bot as discord.py raises it once its own retries are spent. Every test also ends with no
error captured by SimCord (an exception reaching discord.py fails the test at teardown)."""

from __future__ import annotations

import sqlite3

import discord
from shown import above, card, controls, labels
from test_sessions import scores, start_tap

CALLBACK = "/interactions/*/callback"


def board_edits(env, channel_id: int, since: int) -> int:
    return sum(
        1
        for request in env.backend.http_requests[since:]
        if request.method == "PATCH" and request.path.startswith(f"/channels/{channel_id}/messages/")
    )


async def test_a_press_whose_answer_discord_fails_still_moves_the_board(world, simcord_env):
    alice = world.members[0]
    await start_tap(world, target=5)
    simcord_env.inject_error("POST", CALLBACK, status=503, message="Service Unavailable")
    tapped = await alice.click(world.board(), label="Tap")
    # The move stands: the board goes by REST, and her secret number is the press's answer.
    assert scores(world) == "alice: 1\nbob: 0" and "**bob**" in card(world.board()).description
    assert tapped.ephemeral and "Your secret number is" in tapped.response.content
    assert not simcord_env.errors


async def test_a_game_s_last_press_whose_answer_fails_is_recorded_once_and_its_final_board_shown(
    world, simcord_env
):
    alice = world.members[0]
    await start_tap(world, target=1)
    simcord_env.inject_error("POST", CALLBACK, status=500, times=2)
    await alice.click(world.board(), label="Tap")
    assert card(world.board()).description.startswith("🏆 Winner")
    assert await simcord_env.bot.storage.game_count(world.guild.id, "tap") == 1
    assert not simcord_env.errors


async def test_a_refusal_discord_fails_is_dropped_and_the_game_goes_on(world, simcord_env):
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    simcord_env.inject_error("POST", CALLBACK, status=429, message="You are being rate limited.")
    refused = await bob.click(world.board(), label="Tap")  # not his turn: the refusal fails
    assert not refused.acknowledged
    assert scores(world) == "alice: 0\nbob: 0"
    await alice.click(world.board(), label="Tap")
    assert scores(world) == "alice: 1\nbob: 0"
    assert not simcord_env.errors


async def test_a_private_followup_discord_fails_does_not_fail_the_press(world, simcord_env):
    alice = world.members[0]
    await start_tap(world, target=5)
    simcord_env.inject_error("POST", "/webhooks/*/*", status=500)
    tapped = await alice.click(world.board(), label="Tap")  # the board answers; the followup fails
    assert tapped.acknowledged and not tapped.ephemeral
    assert scores(world) == "alice: 1\nbob: 0"
    peek = await alice.click(world.board(), label="Peek")  # she can still read it
    assert "Your secret number is" in peek.response.content
    assert not simcord_env.errors


async def test_a_board_edit_discord_fails_is_tried_again_after_a_pause(world, simcord_env):
    old = await start_tap(world, target=5)
    since = len(simcord_env.backend.http_requests)
    simcord_env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{old.id}", status=502, times=2)
    await simcord_env.advance_time(31)  # alice idles: the timer's edit fails twice...
    await simcord_env.advance_time(7)  # ...and goes through 2 s and 4 s later
    assert "Turn 1: **bob**" in card(world.board()).description
    assert board_edits(simcord_env, world.channel.id, since) == 3


async def test_a_board_edit_failing_for_long_is_given_up_and_healed_by_the_next_change(world, simcord_env):
    alice, bob = world.members[:2]
    old = await start_tap(world, target=5)
    since = len(simcord_env.backend.http_requests)
    simcord_env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{old.id}", status=503, times=None
    )
    await simcord_env.advance_time(31)
    await simcord_env.advance_time(20)
    assert board_edits(simcord_env, world.channel.id, since) == 4  # once, then 3 retries: no loop
    simcord_env.backend.faults.clear()
    await bob.click(world.board(), label="Tap")
    assert "Turn 2: **alice**" in card(world.board()).description
    assert scores(world) == "alice: 0\nbob: 1"


async def test_a_lost_permission_is_told_to_the_players_once_naming_it_and_never_retried(simcord_env):
    guild = simcord_env.create_guild("Perms")
    me = guild.me
    channel = guild.create_text_channel(
        "nolinks", overwrites={me: discord.PermissionOverwrite(embed_links=False)}
    )
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob"))
    await alice.slash(channel, "tap new", target=9)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.last_message, label="Start")
    await alice.click(channel.last_message, label="Tap")
    await bob.click(channel.last_message, label="Tap")
    since = len(simcord_env.backend.http_requests)
    # SimCord does not check Embed Links itself: Discord's refusal is injected.
    simcord_env.inject_error(
        "*", f"/channels/{channel.id}/*", status=403, code=50013, message="Missing Permissions", times=None
    )
    await simcord_env.advance_time(31)  # alice idles: the timer's edit is refused
    await simcord_env.advance_time(31)  # and bob: refused again, nobody told twice
    assert board_edits(simcord_env, channel.id, since) == 2  # one per change, no retries
    for member in (alice, bob):
        told = [
            m.content
            for m in channel.history(viewer=member)
            if m.flags.ephemeral and "I can't edit the board" in m.content
        ]
        assert told == [
            f"I can't edit the board here: I need **Embed Links** in <#{channel.id}>. The game goes on "
            "(your presses still work); a moderator can give it back, and `/board` posts the board again."
        ]
    # Presses still work: their answers carry the board, which needs no channel permission.
    simcord_env.backend.faults.clear()
    await alice.click(channel.last_message, label="Tap")
    assert card(channel.last_message).fields[0].value == "alice: 2\nbob: 1"


async def host_idle_for_15_minutes(simcord_env):
    """A game whose host (alice) last pressed 15 minutes ago, past the 14 minutes a followup on
    her press is still taken, while bob kept playing; then the channel's Embed Links is refused."""
    guild = simcord_env.create_guild("Perms")
    channel = guild.create_text_channel(
        "nolinks", overwrites={guild.me: discord.PermissionOverwrite(embed_links=False)}
    )
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob"))
    await alice.slash(channel, "tap new", target=50)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.last_message, label="Start")
    for _ in range(30):  # alice's turns time out, bob taps
        await simcord_env.advance_time(31)
        await bob.click(channel.last_message, label="Tap")
    simcord_env.inject_error(
        "*", f"/channels/{channel.id}/*", status=403, code=50013, message="Missing Permissions", times=None
    )
    return channel, alice, bob


def lost_permission_notices(channel, member) -> list[str]:
    return [m.content for m in channel.history(viewer=member) if m.flags.ephemeral and "board" in m.content]


async def test_a_host_no_followup_can_reach_is_told_of_a_lost_permission_by_direct_message_once(simcord_env):
    channel, alice, bob = await host_idle_for_15_minutes(simcord_env)
    await simcord_env.advance_time(31)  # alice idles again: the timer's edit is refused
    await simcord_env.advance_time(31)  # bob idles: refused again, nobody told twice
    assert lost_permission_notices(channel, bob) == [
        f"I can't edit the board here: I need **Embed Links** in <#{channel.id}>. The game goes on "
        "(your presses still work); a moderator can give it back, and `/board` posts the board again."
    ]
    assert lost_permission_notices(channel, alice) == []  # her press's token is too old
    assert [m.content for m in alice.user.dm_channel.history()] == [
        f"On **Perms**, I can't edit the board of your game in <#{channel.id}>: I need **Embed Links** "
        "there. The game goes on (presses still work); a moderator can give it back, and `/board` "
        "posts the board again."
    ]
    assert bob.user.dm_channel.history() == []  # a player, reached in the channel


async def test_a_host_whose_direct_messages_are_closed_is_left_untold_and_the_game_goes_on(
    simcord_env, caplog
):
    channel, alice, bob = await host_idle_for_15_minutes(simcord_env)
    dm = alice.user.dm_channel
    simcord_env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    await simcord_env.advance_time(31)
    assert dm.history() == []
    assert len(lost_permission_notices(channel, bob)) == 1
    assert "direct message to the host of channel %s refused: %s/%s" in [r.msg for r in caplog.records]
    simcord_env.backend.faults.clear()
    await bob.click(channel.last_message, label="Tap")  # the game goes on
    assert card(channel.last_message).fields[0].value == "alice: 0\nbob: 31"


async def test_board_without_the_right_to_post_says_which_permission_and_keeps_the_board(world, simcord_env):
    alice = world.members[0]
    old = await start_tap(world, target=5)
    simcord_env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages", status=403, code=50001, message="Missing Access"
    )
    answer = await alice.slash(world.channel, "board")
    assert answer.ephemeral and "I need **View Channel**" in answer.response.content
    assert world.board().id == old.id
    assert simcord_env.bot.sessions.get(world.channel.id).board_message_id == old.id
    assert not simcord_env.errors


async def test_a_lobby_discord_fails_to_post_leaves_the_channel_free(world, simcord_env):
    alice = world.members[0]
    simcord_env.inject_error("POST", CALLBACK, status=503, message="Service Unavailable")
    failed = await alice.slash(world.channel, "tap new")
    assert failed.ephemeral and "Discord did not take my answer" in failed.response.content
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    await alice.slash(world.channel, "tap new")
    assert "lobby" in card(world.board()).title
    assert not simcord_env.errors


async def test_a_finished_game_whose_record_fails_is_recorded_once_when_the_database_is_back(
    world, simcord_env, monkeypatch, caplog
):
    alice = world.members[0]
    await start_tap(world, target=1)
    storage = simcord_env.bot.storage
    real_record = storage.record_game
    failures = iter([sqlite3.OperationalError("database is locked")] * 2)

    async def flaky(record):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return await real_record(record)

    monkeypatch.setattr(storage, "record_game", flaky)
    tapped = await alice.click(world.board(), label="Tap")  # the game is over; its record fails
    assert tapped.acknowledged
    assert "the database failed on its finish (OperationalError: database is locked)" in caplog.text
    assert simcord_env.bot.sessions.get(world.channel.id) is not None  # kept until recorded
    # The channel is told the game is over and its result waits; Play again comes with it.
    assert "Saving its result waits for the database" in above(world.board())
    assert not controls(world.board())
    assert await storage.game_count(world.guild.id, "tap") == 0
    await simcord_env.advance_time(6)  # fails again: the next try waits 10 s
    assert await storage.game_count(world.guild.id, "tap") == 0
    await simcord_env.advance_time(11)
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert card(world.board()).description.startswith("🏆 Winner")
    assert labels(world.board()) == ["Play again"]
    assert not simcord_env.errors


async def masks_with_a_computer_mime(world, restart_bot):
    """alice, Robo 1 and bob in emoji mode; alice's turn as the Mime runs out, Robo 1 mimes next."""

    env = world.env
    await restart_bot(["masks"])
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "masks new", guess_seconds=20, mime_mode="emoji")
    await alice.click(world.board(), label="Add computer")
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    await env.advance_time(21)  # alice's guess timer...
    await env.advance_time(5)  # ...and the reveal's pause
    assert env.bot.sessions.get(world.channel.id).engine.view(None)["mime"] == 1


def mime_posts(env, channel_id: int, since: int) -> int:
    return sum(
        1
        for request in env.backend.http_requests[since:]
        if request.method == "POST" and request.path == f"/channels/{channel_id}/messages"
    )


async def test_a_computer_mime_s_emoji_discord_refuses_is_posted_once_more(world, simcord_env, restart_bot):
    await masks_with_a_computer_mime(world, restart_bot)
    since = len(simcord_env.backend.http_requests)
    simcord_env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=1)
    for _ in range(15):
        await simcord_env.advance_time(1)
    posted = [m for m in world.channel.history() if m.content.startswith("🎭 **🤖 Robo 1** mimes: ")]
    assert len(posted) == 1  # the refused post was nobody's to read; the Mime thought again
    assert mime_posts(simcord_env, world.channel.id, since) == 2
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.extra["mimed"]["texts"] == [posted[0].content.split(" mimes: ", 1)[1]]
    assert not simcord_env.errors


async def test_a_computer_mime_refused_twice_stays_silent_and_the_turn_runs_on(
    world, simcord_env, restart_bot
):
    await masks_with_a_computer_mime(world, restart_bot)
    since = len(simcord_env.backend.http_requests)
    simcord_env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=None)
    for _ in range(19):
        await simcord_env.advance_time(1)
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert mime_posts(simcord_env, world.channel.id, since) == 2  # tried once more, not in a loop
    assert session.extra["mimed"]["texts"] == []  # no computer reads what nobody saw
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(8)  # the guess timer ends Robo 1's turn: bob mimes next
    assert session.engine.view(None)["mime"] == 2
    assert not simcord_env.errors


async def kabuki_with_a_ping(world, restart_bot):
    """A Kabuki game whose first placer waited long enough to be pinged."""
    from bot.session.turn_pings import PING_AFTER_MS

    await restart_bot(["kabuki"])
    members = world.members[:3]
    await members[0].slash(world.channel, "kabuki new", turn_timer=300)
    for member in members[1:]:
        await member.click(world.board(), label="Join")
    await members[0].click(world.board(), label="Start")
    await world.env.advance_time(PING_AFTER_MS / 1000 + 1)
    assert len(turn_pings(world)) == 1


def turn_pings(world) -> list:
    return [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]


async def test_a_turn_ping_discord_fails_to_delete_is_deleted_at_the_next_try(
    world, simcord_env, restart_bot
):
    from bot.glue.components import bound_id

    await kabuki_with_a_ping(world, restart_bot)
    session = simcord_env.bot.sessions.get(world.channel.id)
    view = session.engine.view(None)
    placer = next(m for m in world.members if m.id == session.players[view["current"]["seat"]])
    since = len(simcord_env.backend.http_requests)
    simcord_env.inject_error("DELETE", f"/channels/{world.channel.id}/messages/*", status=503, times=1)
    custom_id = bound_id(f"pc:{world.channel.id}:place:0-{view['turn']}", session.tag)
    board = next(m for m in world.channel.history() if m.id == session.board_message_id)
    await placer.click(board, custom_id=custom_id)  # the turn is over: its ping goes
    await simcord_env.advance_time(2)
    assert turn_pings(world) == []
    deletes = [r for r in simcord_env.backend.http_requests[since:] if r.method == "DELETE"]
    assert len(deletes) == 2  # refused once, deleted at the next try, and no more
    assert not simcord_env.errors


async def test_the_last_turn_ping_discord_fails_to_delete_at_the_end_is_tried_once_more(
    world, simcord_env, restart_bot
):
    await kabuki_with_a_ping(world, restart_bot)
    simcord_env.inject_error("DELETE", f"/channels/{world.channel.id}/messages/*", status=500, times=1)
    await world.members[0].slash(world.channel, "end")
    assert turn_pings(world) == []
    assert not simcord_env.errors


async def test_a_turn_ping_discord_keeps_failing_to_delete_is_left_after_one_more_try(
    world, simcord_env, restart_bot
):
    await kabuki_with_a_ping(world, restart_bot)
    since = len(simcord_env.backend.http_requests)
    simcord_env.inject_error("DELETE", f"/channels/{world.channel.id}/messages/*", status=503, times=None)
    await world.members[0].slash(world.channel, "end")
    await simcord_env.advance_time(30)
    deletes = [r for r in simcord_env.backend.http_requests[since:] if r.method == "DELETE"]
    assert len(deletes) == 2 and len(turn_pings(world)) == 1  # a stale ping, not a loop
    assert not simcord_env.errors


async def test_a_board_left_behind_by_a_lost_permission_heals_when_a_player_looks_at_their_card(
    world, simcord_env, restart_bot
):

    await restart_bot(["masks"])
    alice, bob, carol = world.members[:3]
    await alice.slash(world.channel, "masks new", guess_seconds=20)
    for member in (bob, carol):
        await member.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    channel = world.channel.id
    simcord_env.inject_error(
        "PATCH",
        f"/channels/{channel}/messages/*",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    await simcord_env.advance_time(21)  # alice's guess timer ends her turn...
    await simcord_env.advance_time(5)  # ...and bob mimes next: neither edit went through
    session = simcord_env.bot.sessions.get(channel)
    assert session.engine.view(None)["mime"] == 1
    assert card(world.board()).description.startswith("🎭 **alice** is the Mime")
    simcord_env.backend.faults.clear()  # a moderator gives the permission back
    mine = await bob.click(world.board(), label="My card")
    assert mine.ephemeral
    await simcord_env.advance_time(1)
    assert card(world.board()).description.startswith("🎭 **bob** is the Mime")
    assert not simcord_env.errors
