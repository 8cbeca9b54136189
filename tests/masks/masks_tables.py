"""Island of Monster Masks tables for the SimCord tests: timings and a running game's shortcuts.

Not in conftest.py: test modules import these by this file's name, which no other folder's
conftest.py shadows when several folders run in one command."""

from __future__ import annotations

from typing import Any

from bot.glue.components import bound_id

# The Discord tests' SimCord settle timeout, and the race window their tables use unless a test
# asks for another. Every timer stays longer than SETTLE_S: SimCord lets a sleep shorter than its
# settle timeout run out by the wall clock inside a click, so a race would close by itself.
SETTLE_S = 1.0
RACE_MS = 1500


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
