"""Kabuki through SimCord: the bot runs the Kabuki cog; helpers open, start and script games."""

from __future__ import annotations

from typing import Any

import pytest
from kabuki_tables import FAST, SETTLE_S, Table


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith("test_kabuki_discord"):
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_S))


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["kabuki"])


@pytest.fixture
def restart(restart_bot):
    async def go() -> None:
        await restart_bot(["kabuki"])

    return go


@pytest.fixture
def open_game(simcord_env, world):
    """``await open_game(n, **options)``: alice opens a lobby, the next n-1 members join, start."""

    async def go(n: int = 3, **options: Any) -> Table:
        members = world.members[:n]
        await members[0].slash(world.channel, "kabuki new", **{**FAST, **options})
        for member in members[1:]:
            await member.click(world.board(), label="Join")
        await members[0].click(world.board(), label="Start")
        return Table(simcord_env, world, members)

    return go
