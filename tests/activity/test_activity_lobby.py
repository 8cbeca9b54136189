"""A lobby from an Activity page: a channel with no game offers one on the page, opened there
with the game's usual options and posted in the channel; a moderator's rights on a page are
Discord's own (Manage Messages in the channel), as on a button; and a game over's final board
reads in each page's language, with Play again."""

from __future__ import annotations

import pytest
from page_client import seat_at_table
from shown import card

GAME_OF = {"test_each_game_s_usual_options_are_its_new_command_s_defaults": ["kabuki", "masks", "kingdom"]}


@pytest.fixture
def games(request):
    return request.module.GAME_OF.get(request.node.originalname)


def labels(board) -> list[list[str]]:
    """A page's board's controls, by row."""
    return [[c["label"] for c in row] for row in board["controls"]]


async def test_a_page_in_a_channel_without_a_game_opens_one_there(world, discord_api, pages):
    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    bob_page = await pages(bob, "de")
    alice_page = await pages(alice)
    offer = alice_page.board()
    assert offer["title"] == "No game in this channel yet" and labels(offer) == [["Tap"]]
    assert "`/tap new`" in offer["description"]
    assert bob_page.board()["title"] == "In diesem Kanal läuft noch kein Spiel"
    opened = await alice_page.press("Tap")
    assert opened["ok"] is True
    session = world.env.bot.sessions.get(world.channel.id)
    assert (session.host_id, session.players, session.options) == (alice.id, [alice.id], {"target": 3})
    # Posted in the channel as the command's lobby is, and saved.
    lobby = world.board()
    assert lobby.id == session.board_message_id and card(lobby).title == "Tap — lobby"
    saved = await world.env.bot.storage.load_sessions()
    assert [(s.state["channel_id"], s.state["host_id"]) for s in saved] == [(world.channel.id, alice.id)]
    # Every page follows; Bob joins from his, in German.
    await bob_page.wait_for(lambda f: f["type"] == "board" and f["game"] and f["game"]["status"] == "lobby")
    assert (await bob_page.press("Beitreten"))["ok"] and session.players == [alice.id, bob.id]
    # A second lobby while this one is open: refused with the command's words, nothing changed.
    second = await bob_page.press(press={"name": "new", "arg": "tap", "game": ""})
    assert second["ok"] is False and "Tap" in second["text"] and str(lobby.id) in second["text"]
    unknown = await alice_page.press(press={"name": "new", "arg": "chess", "game": ""})
    assert unknown["ok"] is False and unknown["text"].startswith("I do not run that game here")
    assert world.env.bot.sessions.get(world.channel.id) is session


async def test_each_game_s_usual_options_are_its_new_command_s_defaults(world):
    alice = world.members[0]
    cogs = world.env.bot.game_cogs
    for kind in ("kabuki", "masks", "kingdom"):
        await alice.slash(world.channel, f"{kind} new")
        session = world.env.bot.sessions.get(world.channel.id)
        assert session.options == cogs[kind].default_options(), kind
        await alice.click(world.board(), label="Cancel")


async def test_a_page_s_member_moderates_as_discord_says(world, discord_api, pages):
    alice, bob, carol = world.members[:3]
    mod = world.mod
    seat_at_table(world, discord_api, alice, bob, carol, mod)
    discord_api.members.add((world.guild.id, mod.id))
    await alice.slash(world.channel, "tap new")
    await bob.click(world.board(), label="Join")
    carol_page, mod_page = await pages(carol), await pages(mod)
    refused = await carol_page.press("Start")
    assert (refused["ok"], refused["text"]) == (False, "Only the host or a moderator can start this game.")
    session = world.env.bot.sessions.get(world.channel.id)
    assert session.status == "lobby"
    # Manage Messages in the channel: the moderator starts Alice's game from the page.
    started = await mod_page.press("Start")
    assert started["ok"] is True and session.status == "playing"
    assert card(world.board()).title == "Tap"


async def test_a_game_over_reads_in_each_page_s_language(world, discord_api, pages):
    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    await alice.slash(world.channel, "tap new", target=1)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    bob_page, alice_page = await pages(bob, "fr"), await pages(alice)
    await alice.click(world.board(), label="Tap")
    french = await bob_page.wait_for(lambda f: f["type"] == "board" and f["game"] is None)
    english = await alice_page.wait_for(lambda f: f["type"] == "board" and f["game"] is None)
    assert (english["board"]["title"], english["board"]["description"]) == (
        "Tap — game over",
        "🏆 Winner: **alice**",
    )
    assert (french["board"]["title"], french["board"]["description"]) == (
        "Tap — partie terminée",
        "🏆 Victoire : **alice**",
    )
    assert labels(english["board"]) == [["Play again"], ["Tap"]]
    assert labels(french["board"]) == [["Rejouer"], ["Tap"]]
    # The same press either way: the channel's final board is the server's (English).
    assert french["board"]["controls"][0][0]["press"] == english["board"]["controls"][0][0]["press"]
    assert card(world.board()).title == "Tap — game over"
