"""Two shard processes behind one address: a page signed in at either is sent to the socket path
of its server's shard, the process running that shard takes it, and the other says it reached the
wrong process (a proxy routing wrong shows at once)."""

from __future__ import annotations

import aiohttp
import pytest
from discord_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET
from shard_process import Process

from bot.activity import server as activity
from bot.activity.server import ActivityServer
from bot.app.config import Config
from bot.session.sessions import Session

# Two servers whose ids put them on shard 0 and shard 1 of 2: (id >> 22) % 2.
GUILD_ON_0, GUILD_ON_1 = 2 << 22, 3 << 22
CHANNEL_ON_0, CHANNEL_ON_1 = 7_000_000_000_000_000_000, 7_000_000_000_000_000_001
ALICE = 8_000_000_000_000_000_001


@pytest.fixture
async def processes(discord_api):
    made = []
    for shard in (0, 1):
        config = Config(
            token=BOT_TOKEN,
            database_path=":memory:",
            dev_guild_id=None,
            log_level="INFO",
            shard_count=2,
            shard_ids=(shard,),
            client_id=CLIENT_ID,
            client_secret=CLIENT_SECRET,
            discord_api=discord_api.base,
            activity_port=0,
        )
        bot = Process()
        server = ActivityServer(bot, config)
        await server.start()
        made.append(server)
    yield made
    for server in made:
        await server.stop()


def url(server: ActivityServer, path: str) -> str:
    host, port = server.address
    return f"http://{host}:{port}{path}"


async def test_each_page_reaches_the_process_of_its_server_s_shard(discord_api, processes):
    zero, one = processes
    for process, guild, channel, seed in (
        (zero, GUILD_ON_0, CHANNEL_ON_0, 0),
        (one, GUILD_ON_1, CHANNEL_ON_1, 1),
    ):
        discord_api.add_instance(f"i-on-{seed}", guild, channel, [ALICE])
        discord_api.members.add((guild, ALICE))
        process.bot.sessions.add(
            Session(
                kind="tap",
                guild_id=guild,
                channel_id=channel,
                host_id=ALICE,
                options={},
                seed=seed,
                game_key=f"k{seed}",
                created_at=0,
                players=[ALICE],
                names={ALICE: "alice"},
            )
        )
    async with aiohttp.ClientSession() as http:
        for instance, shard, process, other in [("i-on-0", 0, zero, one), ("i-on-1", 1, one, zero)]:
            # Signed in at the process that does not run the shard: the sign-in needs no session.
            code = discord_api.add_user(ALICE, "alice")
            async with http.post(
                url(other, "/api/token"), json={"code": code, "instance_id": instance}
            ) as answer:
                signin = await answer.json()
            assert signin["socket"] == f"/s/{shard}/ws"
            path = f"{signin['socket']}?ticket={signin['ticket']}"
            async with http.ws_connect(url(process, path)) as socket:
                hello = await socket.receive_json(timeout=30)
                assert hello["game"]["seat"] == 0 and hello["channel_id"] == signin["channel_id"]
            async with http.ws_connect(url(other, path)) as socket:
                error = await socket.receive_json(timeout=30)
                assert error["code"] == "elsewhere" and "operator" in error["message"]
                closing = await socket.receive(timeout=30)
                assert closing.data == activity.CLOSE_ELSEWHERE
            # A proxy that sent a shard's path to the right process, but the page asked for the
            # other shard's path: refused too, so a rule written wrong cannot pass unnoticed.
            wrong = f"/s/{1 - shard}/ws?ticket={signin['ticket']}"
            async with http.ws_connect(url(process, wrong)) as socket:
                assert (await socket.receive_json(timeout=30))["code"] == "elsewhere"
