"""The Activity's tests: Discord's API stood in on this machine."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestServer
from discord_standin import DiscordStandIn


@pytest.fixture
async def discord_api():
    """The stand-in, served on a free loopback port; ``.base`` is its API address."""
    standin = DiscordStandIn()
    server = TestServer(standin.app(), host="127.0.0.1")
    await server.start_server()
    standin.base = str(server.make_url("/api/v10"))
    yield standin
    await server.close()
