"""SimCord fixtures for Island of Monster Masks: the bot with the masks cog, and a quick table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from masks_tables import RACE_MS, Table


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["masks"])


@pytest.fixture
def restart(restart_bot) -> Callable[[], Awaitable[None]]:
    async def go() -> None:
        await restart_bot(["masks"])

    return go


@pytest.fixture
def open_table(world) -> Callable[..., Awaitable[Table]]:
    """``await open_table(n=4, race_window_ms=RACE_MS, reveal_ms=None, **slash_options)``: alice's
    game, n seated.

    SimCord fires a pending timer on its own once that much *wall* time has passed, so a test
    that needs a race to stay open across two clicks widens the window (the narrator sets an
    engine option `/masks new` does not offer) far beyond the wall time of a few clicks. A restart
    keeps the clock still (``restart_bot``): the restored game's timers fire when the test moves
    time, whatever the length of a pause it restarts in.
    """

    async def make(
        n: int = 4, race_window_ms: int | None = RACE_MS, reveal_ms: int | None = None, **options: Any
    ) -> Table:
        host, *others = world.members[:n]
        await host.slash(world.channel, "masks new", **options)
        for member in others:
            await member.click(world.board(), label="Join")
        engine_options = world.env.bot.sessions.get(world.channel.id).options
        if race_window_ms is not None:
            engine_options["race_window_ms"] = race_window_ms
        if reveal_ms is not None:
            engine_options["reveal_ms"] = reveal_ms
        await host.click(world.board(), label="Start")
        return Table(world, world.members[:n])

    return make
