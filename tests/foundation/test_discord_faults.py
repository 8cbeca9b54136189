"""Discord's faults, one at a time: a 5xx or 429 that discord.py gave up on, a permission taken
away in the game's channel. SimCord replaces discord.py's transports, so an injected fault reaches
the bot as discord.py raises it once its own retries are spent. Every test also ends with no
error captured by SimCord (an exception reaching discord.py fails the test at teardown)."""

from __future__ import annotations

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
    assert scores(world) == "alice: 1\nbob: 0" and "**bob**" in world.board().embeds[0].description
    assert tapped.ephemeral and "Your secret number is" in tapped.response.content
    assert not simcord_env.errors


async def test_a_game_s_last_press_whose_answer_fails_is_recorded_once_and_its_final_board_shown(
    world, simcord_env
):
    alice = world.members[0]
    await start_tap(world, target=1)
    simcord_env.inject_error("POST", CALLBACK, status=500, times=2)
    await alice.click(world.board(), label="Tap")
    assert "Winner" in world.board().embeds[0].fields[-1].value
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
    assert "lobby" in world.board().embeds[0].title
    assert not simcord_env.errors
