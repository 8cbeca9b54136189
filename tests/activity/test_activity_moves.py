"""Moves from an Activity page go the way a button's go: the lobby and the game through the
same lock, engine, save and record, refused for the same reasons in the same words, while the
channel's board stays in step and members there keep playing with buttons. Private news reaches
the presser's page alone."""

from __future__ import annotations

from page_client import seat_at_table
from shown import above, card


def players_field(message) -> str:
    return next(f.value for f in card(message).fields if f.name.startswith("Players"))


async def test_a_lobby_is_joined_and_started_from_pages_and_the_channel_board_follows(
    world, discord_api, pages
):
    alice, bob, carol = world.members[:3]
    seat_at_table(world, discord_api, alice, bob, carol)
    await alice.slash(world.channel, "tap new")
    alice_page, bob_page = await pages(alice), await pages(bob)
    joined = await bob_page.press("Join")
    assert joined["ok"] is True
    # Both pages and the channel's board show Bob seated.
    await alice_page.wait_for(lambda f: f["type"] == "board" and "bob" in f["board"]["fields"][0]["value"])
    assert players_field(world.board()) == "1. alice\n2. bob"
    session = world.env.bot.sessions.get(world.channel.id)
    assert session.players == [alice.id, bob.id]
    # Carol joins with the channel's button, beside the pages.
    await carol.click(world.board(), label="Join")
    await bob_page.wait_for(lambda f: f["type"] == "board" and "carol" in f["board"]["fields"][0]["value"])
    # Bob is no host: Start from his page is refused with the button's words, and nothing starts.
    refused = await bob_page.press("Start")
    assert refused == {
        "type": "answer",
        "id": refused["id"],
        "ok": False,
        "text": "Only the host or a moderator can start this game.",
    }
    assert session.status == "lobby"
    started = await alice_page.press("Start")
    assert started["ok"] is True and session.status == "playing"
    board = await bob_page.wait_for(lambda f: f["type"] == "board" and f["board"]["title"] == "Tap")
    assert "Turn 0: **alice**" in board["board"]["description"]
    assert card(world.board()).title == "Tap"


async def test_a_game_played_from_a_page_and_a_button_is_recorded_once(world, discord_api, pages):
    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    await alice.slash(world.channel, "tap new", target=3)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    alice_page = await pages(alice)
    bob_page = await pages(bob)
    # Bob presses Tap out of turn on his page: the engine's refusal, as the button gives it.
    early = await bob_page.press("Tap")
    assert (early["ok"], early["text"]) == (False, "It is not your turn.")
    counted = world.env.bot.metrics.press_count
    tapped = await alice_page.press("Tap")  # a page's move...
    assert tapped["ok"] is True
    assert world.env.bot.metrics.press_count == counted + 1  # counted as a button's press is
    # ...whose private news (the secret number) reaches Alice's page, and nobody else's.
    secret = world.env.bot.sessions.get(world.channel.id).engine.view(0)["secret"]
    await alice_page.wait_for(lambda f: f["type"] == "private")
    assert [m["content"] for m in alice_page.privates()] == [f"Your secret number is {secret}."]
    assert not bob_page.privates()
    await bob.click(world.board(), label="Tap")  # ...then a button's, in the same game
    assert "Turn 2: **alice**" in card(world.board()).description
    await alice_page.press("Tap")
    # Over: recorded exactly once, with both kinds of move in it.
    storage = world.env.bot.storage
    assert await storage.game_count(world.guild.id, "tap") == 1
    (alice_stats,) = await storage.stats(world.guild.id, alice.id)
    assert (alice_stats.games, alice_stats.wins) == (1, 1)  # her taps, from her page, count
    final = await bob_page.wait_for(
        lambda f: f["type"] == "board" and f["board"]["title"] == "Tap — game over"
    )
    assert final["board"]["description"] == "🏆 Winner: **alice**"
    # The page offers Play again, as the channel's final board does, and a new game of each kind.
    assert [[c["label"] for c in row] for row in final["board"]["controls"]] == [["Play again"], ["Tap"]]
    assert world.env.bot.sessions.get(world.channel.id) is None
    assert world.channel.id not in world.env.bot.table_server.board_at  # nothing kept of an ended game
    # Play again from Bob's page: a rematch lobby posted in the channel, Bob hosting, Alice asked.
    again = await bob_page.press("Play again")
    assert again["ok"] is True
    rematch = world.env.bot.sessions.get(world.channel.id)
    assert (rematch.host_id, rematch.players, rematch.invited) == (bob.id, [bob.id], [alice.id])
    assert rematch.options == {"target": 3}  # the finished game's options
    lobby = world.board()
    assert lobby.id == rematch.board_message_id and f"<@{alice.id}>" in (above(lobby) or "")
    # Alice takes her seat with Play again on her page too: seated, told so on her page alone.
    seated = await alice_page.press(press=final["board"]["controls"][0][0]["press"])
    assert seated["ok"] is True and rematch.players == [bob.id, alice.id]
    assert alice_page.privates()[-1]["content"].startswith("You took a seat in the rematch")


async def test_a_look_answers_the_page_privately(world, discord_api, pages):
    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    await alice.slash(world.channel, "tap new")
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    bob_page = await pages(bob)
    alice_page = await pages(alice)
    peek = await bob_page.press("Peek")
    assert peek["ok"] is True
    secret = world.env.bot.sessions.get(world.channel.id).engine.view(1)["secret"]
    assert [m["content"] for m in bob_page.privates()] == [f"Your secret number is {secret}."]
    assert not alice_page.privates()
    assert str(secret) not in str(alice_page.frames)  # nothing of Bob's on Alice's socket


async def test_presses_no_control_of_this_game_could_make_are_refused(world, discord_api, pages):
    alice, bob, dave = world.members[0], world.members[1], world.members[3]
    seat_at_table(world, discord_api, alice, bob, dave)
    await alice.slash(world.channel, "tap new")
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    dave_page = await pages(dave)
    tap = dave_page.control("Tap")["press"]
    watcher = await dave_page.press(press=tap)
    assert (watcher["ok"], watcher["text"]) == (False, "You are not playing in this game.")
    alice_page = await pages(alice)
    earlier = await alice_page.press(press={**tap, "game": "00c0ffee"})
    assert earlier["ok"] is False and earlier["text"].startswith("That message is from an earlier game")
    for bad in ({"name": "Tap!", "arg": ""}, {"name": "tap", "arg": "../x"}, {"name": "tap", "values": [1]}):
        assert await alice_page.socket.send_json({"type": "press", "id": 99, **bad}) is None
        error = await alice_page.wait_for(lambda f: f["type"] == "error", after=len(alice_page.frames) - 1)
        assert error["code"] == "malformed"
        alice_page.frames.clear()
    session = world.env.bot.sessions.get(world.channel.id)
    assert session.engine.view(None)["taps"] == 0  # nothing of it changed the game
