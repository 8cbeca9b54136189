"""Kabuki from an Activity page beside the channel's buttons: a placement from the page, and a
Stop! race between a page and a button, each placed on Discord's timeline, the loser told on
their own front-end by how many milliseconds."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from page_client import PageClient, seat_at_table
from shown import card, labels

from bot.activity import server as activity
from bot.games.kabuki.scripting import script_round
from bot.glue.components import bound_id

FOX, MOON = 2, 1
# No grace, a long race window: placements follow each other and a race is closed by the test.
FAST = {"grace": 0, "race_window": 2000, "reveal": 2, "turn_timer": 60}

pytestmark = pytest.mark.simcord(settle_timeout=1.0)  # every timer here is longer


@pytest.fixture
def games():
    return ["kabuki"]


async def started(world, discord_api) -> list:
    """alice, bob and carol seated in a started Kabuki game, all three in the Activity."""
    alice, bob, carol = world.members[:3]
    seat_at_table(world, discord_api, alice, bob, carol)
    await alice.slash(world.channel, "kabuki new", **FAST)
    for member in (bob, carol):
        await member.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    return [alice, bob, carol]


@pytest.fixture
async def kabuki_table(world, discord_api, table):
    """The game ``started``, each player with a page open."""
    alice, bob, carol = await started(world, discord_api)
    host, port = table.address
    async with aiohttp.ClientSession() as http:
        pages = [
            await PageClient(http, f"http://{host}:{port}", table.quiet).open(discord_api, member)
            for member in (alice, bob, carol)
        ]
        yield pages
        for page in pages:
            await page.close()


def session_of(world):
    return world.env.bot.sessions.get(world.channel.id)


async def place_from_page(page: PageClient, world, stack: int) -> dict:
    """The page presses the Place button of ``stack`` (0-3) once its board shows this turn's."""
    wanted = f"{stack}-{session_of(world).engine.view(None)['turn']}"
    frame = await page.wait_for(
        lambda f: (
            f["type"] == "board"
            and any(c["press"]["arg"] == wanted for row in f["board"]["controls"] for c in row)
        )
    )
    button = next(c for row in frame["board"]["controls"] for c in row if c["press"]["arg"] == wanted)
    assert button["press"]["name"] == "place"
    return await page.press(press=button["press"])


async def test_a_page_places_and_wins_a_stop_race_against_a_button(world, kabuki_table):
    alice_page, bob_page, carol_page = kabuki_table
    alice, bob, carol = world.members[:3]
    session = session_of(world)
    script_round(session.engine, [FOX, MOON, FOX], 0)
    session.logged = min(session.logged, len(session.engine.log) - 1)
    assert (await place_from_page(alice_page, world, 0))["ok"]  # alice's Fox, from her page
    assert session.engine.view(None)["current"]["seat"] == 1  # bob's turn now
    turn = session.engine.view(None)["turn"]
    placed = await bob.click(
        world.board(), custom_id=bound_id(f"pc:{world.channel.id}:place:1-{turn}", session.tag)
    )
    assert not placed.response.ephemeral, placed.response.content
    placed = await place_from_page(carol_page, world, 0)
    assert placed["ok"], placed  # carol's Fox on the Fox: a mistake
    # Bob presses Stop! on his page; 40 ms later Alice presses the channel's button.
    turn = session.engine.view(None)["turn"]
    frame = await bob_page.wait_for(
        lambda f: (
            f["type"] == "board"
            and any(
                c["press"] == {"name": "stop", "arg": str(turn), "game": session.tag}
                for row in f["board"]["controls"]
                for c in row
            )
        )
    )
    stop = next(c for row in frame["board"]["controls"] for c in row if c["label"] == "Stop!")
    assert (await bob_page.press(press=stop["press"]))["ok"]
    await world.env.advance_time(0.04)
    late = await alice.click(world.board(), label="Stop!")
    assert late.response.ephemeral and late.response.content.startswith("✋ **Stop!** registered")
    await world.env.advance_time(FAST["race_window"] / 1000)
    # Bob's page press was 40 ms earlier on Discord's timeline (its trip takes it no earlier than
    # the board he pressed on, sent at the same instant): he caught carol.
    assert "**bob** pressed Stop! first, 40 ms before you" in late.followups[-1].content
    view = session.engine.view(None)
    assert view["tokens"][1] == 6 and view["tokens"][2] == 4
    assert "bob** caught **carol" in str(card(world.board()).to_dict())
    board = await carol_page.wait_for(lambda f: f["type"] == "board" and "revealed" in str(f["board"]))
    assert "bob** caught **carol" in str(board["board"])
    # Alice's news reached her page too (she has it open), and nobody else's page.
    lost = await alice_page.wait_for(
        lambda f: f["type"] == "private" and "first" in (f["message"]["content"] or "")
    )
    assert lost["message"]["content"] == "🐢 **bob** pressed Stop! first, 40 ms before you."
    assert not bob_page.privates() and not carol_page.privates()


async def test_a_page_that_loses_the_race_to_a_button_is_told_on_its_page(world, kabuki_table):
    alice_page, bob_page, carol_page = kabuki_table
    alice, bob = world.members[:2]
    session = session_of(world)
    script_round(session.engine, [FOX, MOON, FOX], 0)
    session.logged = min(session.logged, len(session.engine.log) - 1)
    for page, stack in ((alice_page, 0), (bob_page, 1), (carol_page, 0)):
        assert (await place_from_page(page, world, stack))["ok"]
    first = await alice.click(world.board(), label="Stop!")  # the button, first
    assert not first.response.ephemeral
    # Bob's page presses 200 ms later by the bot's reading: more than any trip the bot takes off
    # (150 ms at most), so the button wins whatever this machine's load makes of Bob's trip.
    (page,) = [p for p in world.env.bot.table_server.pages[world.channel.id] if p.member.user_id == bob.id]
    await world.env.advance_time(0.2)
    turn = session.engine.view(None)["turn"]
    stop = {"name": "stop", "arg": str(turn), "game": session.tag}
    joined = await bob_page.press(press=stop)
    assert joined["ok"] is True
    registered = await bob_page.wait_for(lambda f: f["type"] == "private")
    assert registered["message"]["content"].startswith("✋ **Stop!** registered")
    await world.env.advance_time(FAST["race_window"] / 1000)
    lost = await bob_page.wait_for(
        lambda f: f["type"] == "private" and "first" in (f["message"]["content"] or "")
    )
    gap = 200 - page.trip_ms()
    assert lost["message"]["content"] == f"🐢 **alice** pressed Stop! first, {gap} ms before you."
    assert not carol_page.privates()
    assert session.engine.view(None)["tokens"][0] == 6  # alice caught carol


async def test_a_far_page_s_trip_is_taken_off_its_press_up_to_the_bound(world, discord_api, table):
    """Bob's page answers the bot's probes 400 ms late (a far connection: 200 ms each way), Alice's
    at once. Alice presses Stop! first by the bot's reading, Bob 40 ms later; but Bob's press left
    his page up to the bound (150 ms) before the bot read it, so his counts about 110 ms earlier
    than Alice's (less her own short trip) and he wins."""
    alice, bob, carol = await started(world, discord_api)
    host, port = table.address
    async with aiohttp.ClientSession() as http:
        base = f"http://{host}:{port}"
        alice_page = await PageClient(http, base, table.quiet).open(discord_api, alice)
        bob_page = await PageClient(http, base, table.quiet, delay_s=0.4).open(discord_api, bob)
        carol_page = await PageClient(http, base, table.quiet).open(discord_api, carol)
        session = session_of(world)
        script_round(session.engine, [FOX, MOON, FOX], 0)
        session.logged = min(session.logged, len(session.engine.log) - 1)
        for page, stack in ((alice_page, 0), (bob_page, 1), (carol_page, 0)):
            assert (await place_from_page(page, world, stack))["ok"]
        (far,) = [p for p in table.pages[world.channel.id] if p.member.user_id == bob.id]
        (near,) = [p for p in table.pages[world.channel.id] if p.member.user_id == alice.id]
        async with asyncio.timeout(30):
            while not (far.round_trips and near.round_trips):  # noqa: ASYNC110  (the bot's own reading)
                await asyncio.sleep(0.05)
        assert far.trip_ms() == activity.LATENCY_BOUND_MS  # 200 ms each way: bounded
        gap = far.trip_ms() - 40 - near.trip_ms()
        await world.env.advance_time(0.5)  # the board has been on show a while
        turn = session.engine.view(None)["turn"]
        stop = {"name": "stop", "arg": str(turn), "game": session.tag}
        shown = bob_page.rev()  # the board Bob sees and presses on, far away
        assert (await alice_page.press(press=stop))["ok"]
        await world.env.advance_time(0.04)
        # Alice's Stop! redrew the board meanwhile; it had not reached Bob when he pressed.
        assert bob_page.rev() > shown
        assert (await bob_page.press(press=stop, rev=shown))["ok"]
        await world.env.advance_time(FAST["race_window"] / 1000)
        lost = await alice_page.wait_for(
            lambda f: f["type"] == "private" and "first" in (f["message"]["content"] or "")
        )
        assert (
            gap > 0 and lost["message"]["content"] == f"🐢 **bob** pressed Stop! first, {gap} ms before you."
        )
        assert session.engine.view(None)["tokens"][1] == 6  # bob caught carol
        for page in (alice_page, bob_page, carol_page):
            await page.close()


def test_a_page_s_trip_is_bounded():
    page = activity.Page(socket=None, member=None, ticket_exp=0)
    assert page.trip_ms() == 0  # nothing measured: nothing taken off
    page.round_trips.append(100.0)
    assert page.placed_at(5_000, None) == 5_000  # no board's time known: nothing taken off either
    page.round_trips.clear()
    page.round_trips.extend([900.0, 2000.0])
    assert page.trip_ms() == activity.LATENCY_BOUND_MS  # a page cannot buy more than the bound
    page.round_trips.append(40.0)
    assert page.trip_ms() == 20  # the best of its recent round trips
    # Never placed before the board it was pressed on was sent: boards 1 and 2 went at 1,000 and
    # 1,010 ms.
    page.shown(1, 1_000)
    page.shown(2, 1_010)
    assert page.placed_at(1_100, 2) == 1_080  # pressed on board 2, its trip taken off
    assert page.placed_at(1_025, 2) == 1_010  # not before board 2 reached the page
    assert page.placed_at(1_015, 1) == 1_000  # pressed on board 1: not before board 1 did
    assert page.placed_at(1_025, None) == 1_010  # on a board it does not name: the latest
    assert page.placed_at(1_025, 99) == 1_010


async def test_each_page_reads_the_table_in_its_member_s_language(world, discord_api, table):
    """The channel's board speaks the server's language; a German member's page shows the same
    lobby and game in German, and an English member's page in English."""
    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    await alice.slash(world.channel, "kabuki new", **FAST)
    host, port = table.address
    async with aiohttp.ClientSession() as http:
        base = f"http://{host}:{port}"
        bob_page = await PageClient(http, base, table.quiet).open(discord_api, bob, "de")
        alice_page = await PageClient(http, base, table.quiet).open(discord_api, alice)
        assert bob_page.control("Beitreten") and alice_page.control("Join")
        assert (await bob_page.press("Beitreten"))["ok"]
        assert labels(world.board())[0] == "Join"
        await alice.click(world.board(), label="Start")
        german = await bob_page.wait_for(
            lambda f: f["type"] == "board" and "Runde 1" in str(f["board"]["title"])
        )
        english = await alice_page.wait_for(
            lambda f: f["type"] == "board" and "round 1" in str(f["board"]["title"])
        )
        assert german["game"]["seat"] == 1 and english["game"]["seat"] == 0
        assert "round 1" in card(world.board()).title  # the channel's own, in English
        # The German board's controls are the same presses: each places from their own page, in
        # turn (the dealer's draw says who starts).
        session = session_of(world)
        for stack in (0, 1):
            seat = session.engine.view(None)["current"]["seat"]
            placed = await place_from_page((alice_page, bob_page)[seat], world, stack)
            assert placed["ok"], placed
        assert session.engine.view(None)["turn"] == 2
        await bob_page.close()
        await alice_page.close()
