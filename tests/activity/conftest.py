"""The Activity's tests: Discord's API stood in on this machine, and a bot serving the Activity
inside SimCord."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp.test_utils import TestServer
from discord_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, DiscordStandIn
from simcord_activities import enable_activities  # noqa: F401  (a fixture)


@pytest.fixture
async def discord_api():
    """The stand-in, served on a free loopback port; ``.base`` is its API address."""
    standin = DiscordStandIn()
    server = TestServer(standin.app(), host="127.0.0.1")
    await server.start_server()
    standin.base = str(server.make_url("/api/v10"))
    yield standin
    await server.close()


@pytest.fixture
def games():
    """The games the test's bot runs: the test-only Tap unless a module says otherwise."""
    return None


@pytest.fixture
def activity_bot(make_bot, discord_api, enable_activities, games):  # noqa: F811
    """A bot serving the Activity (on a free port), its sign-in asking the stand-in. Its server is
    started by the ``table`` fixture, not by the bot."""
    bot = make_bot(
        games,
        token=BOT_TOKEN,
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        discord_api=discord_api.base,
        activity_port=0,
    )
    bot.table_server.autostart = False
    return bot


@pytest.fixture
def simcord_bot(activity_bot):
    return activity_bot


@pytest.fixture
async def table(world, activity_bot):
    """The bot's Activity server, started outside the bot's own work, as a browser is outside
    Discord: SimCord waits for the bot's work to settle after every action, and an open page's
    socket never does. A page's press is run as the bot's work, and settled, as SimCord runs an
    interaction (``Env._bot_scope`` is SimCord's own, the one way in)."""
    server = activity_bot.table_server
    env = world.env
    running: set[asyncio.Task] = set()

    async def as_bot_work(run) -> None:
        with env._bot_scope():
            task = asyncio.ensure_future(run())
        settled = asyncio.ensure_future(settle(task))
        running.add(settled)
        settled.add_done_callback(running.discard)
        await task

    async def settle(task) -> None:
        await asyncio.wait([task])
        await env.settle()

    async def quiet() -> None:
        """Until every page press has been run and settled: a test's next SimCord action may
        not overlap SimCord's settling of the last one."""
        while running:
            await asyncio.gather(*running, return_exceptions=True)

    server.dispatch = as_bot_work
    server.quiet = quiet
    await server.start()
    yield server
    await server.stop()
