"""The Activity's tests: Discord's API stood in on this machine, and a bot serving the Activity
inside SimCord."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from discord_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, DiscordStandIn
from needs import CHROMIUM, CHROMIUM_ARGS, browser_missing, need
from page_client import PageClient
from pg_cluster import free_port
from simcord_activities import enable_activities  # noqa: F401  (a fixture)

from bot.activity.server import ActivityServer

# How long a browser test's page may take to show a change: a ceiling only a hang reaches, since
# every wait returns as soon as the page shows it (a shared CI machine is slow).
CEILING_S = 60


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
def activity_settings(discord_api) -> dict:
    """A bot's settings for the Activity: the stand-in's app, on a port of its own that a restarted
    bot listens on again (as a real one does, behind the same proxy)."""
    return {
        "token": BOT_TOKEN,
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "discord_api": discord_api.base,
        "activity_port": free_port(),
    }


@pytest.fixture
def activity_bot(make_bot, activity_settings, enable_activities, games, monkeypatch):  # noqa: F811
    """A bot serving the Activity, its sign-in asking the stand-in. Its server (and a restarted
    bot's) is started by ``serve``, not by the bot."""
    monkeypatch.setattr(ActivityServer, "autostart", False)
    return make_bot(games, **activity_settings)


@pytest.fixture
def simcord_bot(activity_bot):
    return activity_bot


@pytest.fixture
async def serve(world):
    """``await serve(bot)``: the bot's Activity server started outside the bot's own work, as a
    browser is outside Discord: SimCord waits for the bot's work to settle after every action, and
    an open page's socket never does. A page's press is run as the bot's work, and settled, as
    SimCord runs an interaction (``Env._bot_scope`` is SimCord's own, the one way in)."""
    env = world.env
    running: set[asyncio.Task] = set()
    started: list[ActivityServer] = []

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

    async def start(bot) -> ActivityServer:
        server = bot.table_server
        server.dispatch = as_bot_work
        server.quiet = quiet
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.stop()


@pytest.fixture
async def table(serve, activity_bot):
    """The test's bot's Activity server, started (``serve``)."""
    return await serve(activity_bot)


@pytest.fixture
async def pages(world, discord_api, table):
    """``await pages(member, locale)``: that member's page signed in and open on the test's table
    (a ``PageClient``), closed after the test."""
    host, port = table.address
    opened: list[PageClient] = []
    async with aiohttp.ClientSession() as http:

        async def page(member, locale="en-US") -> PageClient:
            client = await PageClient(http, f"http://{host}:{port}", table.quiet).open(
                discord_api, member, locale
            )
            opened.append(client)
            return client

        yield page
        for client in opened:
            await client.close()


@pytest.fixture
async def browser():
    """The system's Chromium through Playwright (skipped without it, failed in CI)."""
    need(browser_missing())
    from playwright.async_api import async_playwright, expect

    # Every expect() waits up to the ceiling, not Playwright's 5 s: a busy machine is slow, and the
    # page's own 5 s cap on an unanswered press must not race a 5 s wait.
    expect.set_options(timeout=CEILING_S * 1000)
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()
