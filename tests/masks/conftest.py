"""SimCord fixtures for Island of Monster Masks: the bot with the masks cog, and a quick table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.games.masks.faces import MONSTERS
from bot.glue.components import bound_id

# The Discord tests' SimCord settle timeout, and the race window their tables use unless a test
# asks for another. Every timer stays longer than SETTLE_S: SimCord lets a sleep shorter than its
# settle timeout run out by the wall clock inside a click, so a race would close by itself.
SETTLE_S = 1.0
RACE_MS = 1500


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["masks"])


@pytest.fixture
def restart(restart_bot) -> Callable[[], Awaitable[None]]:
    async def go() -> None:
        await restart_bot(["masks"])

    return go


class Table:
    """A running game in #games: the members by seat and shortcuts to press its buttons."""

    def __init__(self, world: Any, players: list[Any]) -> None:
        self.world = world
        self.env = world.env
        self.channel = world.channel
        self.players = players
        self.board_id = world.board().id

    @property
    def session(self):
        return self.env.bot.sessions.get(self.channel.id)

    @property
    def view(self) -> dict[str, Any]:
        return self.session.engine.view(None)

    @property
    def mime(self) -> Any:
        return self.players[self.view["mime"]]

    def guessers(self) -> list[Any]:
        return [m for seat, m in enumerate(self.players) if seat != self.view["mime"]]

    def card(self) -> int:
        """The secret card, read from the engine (the test is the narrator, not a player)."""
        return self.session.engine.view(self.view["mime"])["card"]

    def board(self):
        """The current board message (other messages may have been posted after it)."""
        if self.session is not None:
            self.board_id = self.session.board_message_id
        return next(m for m in reversed(self.channel.history()) if m.id == self.board_id)

    async def slap(self, member: Any, tile: int):
        return await member.click(
            self.board(), custom_id=self.bound(f"pc:{self.channel.id}:slap:{self.view['turn']}.{tile}")
        )

    def bound(self, custom_id: str) -> str:
        """A component id as the session layer sends it: bound to this game."""
        return bound_id(custom_id, self.session.tag)

    async def my_card(self, member: Any):
        return await member.click(self.board(), label="My card")

    async def end_guessing(self, member: Any):
        return await member.click(self.board(), label="End guessing")


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


__all__ = ["MONSTERS", "RACE_MS", "SETTLE_S", "Table"]
