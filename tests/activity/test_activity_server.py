"""The Activity's server in the running bot: a page signs in over HTTP against the stand-in for
Discord's API, opens its socket with the ticket, and is told who it is and the channel's game;
bad tickets and bad frames are refused with words and change nothing."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
import pytest
from discord_standin import CLIENT_SECRET

from bot.activity import server as activity
from bot.activity.tickets import Member, Tickets

INSTANCE = "i-77-gc-1-2"


@pytest.fixture
async def http(table):
    async with aiohttp.ClientSession() as session:
        yield session


def address(world) -> str:
    host, port = world.env.bot.table_server.address
    return f"http://{host}:{port}"


def seat_at_table(world, discord_api, *members) -> None:
    discord_api.add_instance(INSTANCE, world.guild.id, world.channel.id, [m.id for m in members])
    discord_api.members |= {(world.guild.id, m.id) for m in world.members}


async def opened(socket) -> tuple[dict, dict]:
    """The first frames of every page: who it is and the channel's game, its board, and the bot's
    first probe of its round trip (answered at once)."""
    hello = await socket.receive_json(timeout=30)
    board = await socket.receive_json(timeout=30)
    probe = await socket.receive_json(timeout=30)
    assert (hello["type"], board["type"], probe["type"]) == ("hello", "board", "probe")
    await socket.send_json({"type": "probe", "id": probe["id"]})
    return hello, board["board"]


@contextlib.asynccontextmanager
async def alices_page(world, discord_api, http):
    """Alice alone in the Activity: her page signed in, its socket open and its first frames read."""
    alice = world.members[0]
    seat_at_table(world, discord_api, alice)
    signin = await signed_in(world, discord_api, http, alice)
    async with http.ws_connect(f"{address(world)}/ws?ticket={signin['ticket']}") as socket:
        await opened(socket)
        yield socket


async def signed_in(world, discord_api, http, member, locale="en-US") -> dict:
    code = discord_api.add_user(member.id, member.name, locale)
    async with http.post(
        f"{address(world)}/api/token", json={"code": code, "instance_id": INSTANCE}
    ) as answer:
        assert answer.status == 200, await answer.text()
        return await answer.json()


async def test_a_page_signs_in_and_hears_who_it_is_and_the_channel_s_lobby(world, discord_api, http):
    alice, bob, carol = world.members[:3]
    await alice.slash(world.channel, "tap new")
    await bob.click(world.board(), label="Join")
    seat_at_table(world, discord_api, alice, bob, carol)
    signin = await signed_in(world, discord_api, http, bob, "fr")
    assert signin["you"] == {"id": str(bob.id), "name": bob.name, "locale": "fr"}
    assert (signin["guild_id"], signin["channel_id"]) == (str(world.guild.id), str(world.channel.id))
    assert signin["socket"] == "/ws"  # one process runs every shard
    async with http.ws_connect(f"{address(world)}{signin['socket']}?ticket={signin['ticket']}") as socket:
        hello, board = await opened(socket)
        # Bob speaks French: his page's lobby does, whatever the channel's language.
        assert board["title"] == "Tap — salon d'attente" and "alice" in board["fields"][0]["value"]
        assert [c["label"] for row in board["controls"] for c in row] == [
            "Rejoindre",
            "Quitter",
            "Lancer",
            "Annuler",
        ]
        assert hello["you"] == {"id": str(bob.id), "name": bob.name}
        game = hello["game"]
        assert (game["kind"], game["status"], game["seat"]) == ("tap", "lobby", 1)
        assert [p["name"] for p in game["players"]] == ["alice", "bob"]
        await socket.send_json({"type": "ping", "t": 123})
        pong = await socket.receive_json(timeout=30)
        assert pong["type"] == "pong" and pong["t"] == 123 and "ticket" not in pong  # still fresh
    # Carol is at the table but has no seat: she watches.
    carol_in = await signed_in(world, discord_api, http, carol)
    async with http.ws_connect(f"{address(world)}/ws?ticket={carol_in['ticket']}") as socket:
        assert (await opened(socket))[0]["game"]["seat"] is None


async def test_a_channel_without_a_game_says_so(world, discord_api, http):
    alice = world.members[0]
    seat_at_table(world, discord_api, alice)
    signin = await signed_in(world, discord_api, http, alice)
    async with http.ws_connect(f"{address(world)}/ws?ticket={signin['ticket']}") as socket:
        hello, board = await opened(socket)
        # No game: a card saying so, offering each game the bot runs (tests/activity/test_activity_lobby.py).
        assert hello["game"] is None and board["title"] == "No game in this channel yet"
        assert [[c["label"] for c in row] for row in board["controls"]] == [["Tap"]]


async def test_sign_in_refusals_reach_the_page_in_its_language(world, discord_api, http):
    alice, mallory = world.members[0], world.members[5]
    seat_at_table(world, discord_api, alice)
    code = discord_api.add_user(mallory.id, mallory.name)
    url = f"{address(world)}/api/token?locale=de"
    async with http.post(url, json={"code": code, "instance_id": INSTANCE}) as answer:
        assert answer.status == 403
        assert (await answer.json())[
            "error"
        ] == "Du bist nicht in dieser Aktivität. Tritt ihr zuerst im Kanal bei."
    async with http.post(url, data=b"not json") as answer:
        assert answer.status == 400
        assert "nichts hat sich geändert" in (await answer.json())["error"]


async def test_a_socket_with_an_expired_or_forged_ticket_is_told_and_closed(world, discord_api, http):
    alice = world.members[0]
    member = Member(alice.id, "alice", "en-US", world.guild.id, world.channel.id, INSTANCE)
    expired = Tickets(CLIENT_SECRET, 600).issue(member, now=1_000)
    forged = Tickets("a secret the page made up", 600).issue(member)
    for ticket, code in [(expired, "expired"), (forged, "forged"), ("", "forged")]:
        async with http.ws_connect(f"{address(world)}/ws?ticket={ticket}") as socket:
            error = await socket.receive_json(timeout=30)
            assert (error["type"], error["code"]) == ("error", code)
            assert "open it again" in error["message"]
            closing = await socket.receive(timeout=30)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == activity.CLOSE_TICKET


async def test_bad_frames_get_an_error_frame_and_the_socket_goes_on(world, discord_api, http):
    alice = world.members[0]
    await alice.slash(world.channel, "tap new")
    async with alices_page(world, discord_api, http) as socket:
        for frame, code in [
            ("{not json", "malformed"),
            ("[1, 2]", "malformed"),
            ('{"no": "type"}', "malformed"),
            ('{"type": "teleport"}', "unknown"),
            ('{"type": "ping", "pad": "' + "x" * activity.MAX_FRAME + '"}', "too_big"),
        ]:
            await socket.send_str(frame)
            error = await socket.receive_json(timeout=30)
            assert (error["type"], error["code"]) == ("error", code), frame
        await socket.send_bytes(b"\x00\x01")
        assert (await socket.receive_json(timeout=30))["code"] == "malformed"
        await socket.send_json({"type": "ping", "t": 1})
        assert (await socket.receive_json(timeout=30))["type"] == "pong"  # still open, still answering
    assert world.env.bot.sessions.get(world.channel.id).players == [alice.id]  # nothing changed


async def test_a_flooding_page_is_slowed_then_closed(world, discord_api, http):
    async with alices_page(world, discord_api, http) as socket:
        sent = activity.BURST + activity.FLOOD_CLOSE + 50
        for n in range(int(sent)):
            await socket.send_json({"type": "ping", "t": n})
        frames, closed = [], None
        while closed is None:
            message = await socket.receive(timeout=30)
            if message.type is aiohttp.WSMsgType.TEXT:
                frames.append(message.json())
            else:
                closed = message
    pongs = [f for f in frames if f["type"] == "pong"]
    slow = [f for f in frames if f.get("code") == "slow_down"]
    # The burst is answered (less the first probe's answer, a frame of the page's too); past it
    # frames are dropped with one warning, then the page is closed.
    assert activity.BURST - 1 <= len(pongs) < activity.BURST + 20
    assert 1 <= len(slow) <= 3
    assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == activity.CLOSE_FLOOD


async def test_a_half_spent_ticket_is_renewed_on_the_next_ping(world, discord_api, http):
    alice = world.members[0]
    server = world.env.bot.table_server
    async with alices_page(world, discord_api, http) as socket:
        (page,) = server.pages[world.channel.id]
        page.ticket_exp -= server.tickets.ttl_s * 0.6  # as if the page had been open six minutes
        await socket.send_json({"type": "ping", "t": 1})
        pong = await socket.receive_json(timeout=30)
    assert server.tickets.read(pong["ticket"]).user_id == alice.id
    assert world.channel.id not in server.pages  # a closed page is forgotten


async def test_the_bot_s_sync_keeps_the_entry_point_discord_holds(world):
    held = world.env.backend.commands[None]
    entry_points = [c for c in held.values() if c["type"] == 4]
    assert [c["handler"] for c in entry_points] == [2]
    names = {c["name"] for c in held.values() if c["type"] == 1}
    assert {"tap", "help", "leaderboard"} <= names  # and every slash command beside it


async def test_a_bot_stopping_tells_its_pages_to_come_back(world, discord_api, http):
    async with alices_page(world, discord_api, http) as socket:
        stopping = asyncio.ensure_future(world.env.bot.table_server.stop())
        closing = await socket.receive(timeout=30)
        await stopping
    assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == aiohttp.WSCloseCode.SERVICE_RESTART
