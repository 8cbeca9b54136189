"""Kabuki tables for the SimCord tests: the fast options and a started game's shortcuts.

Not in conftest.py: test modules import these by this file's name, which no other folder's
conftest.py shadows when several folders run in one command."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shown import above, card, is_card

from bot.games.kabuki.engine import KabukiEngine
from bot.games.kabuki.scripting import script_round
from bot.glue.components import bound_id

# Fast by default: no grace, so placements can follow each other without advancing the clock.
# Every timer is longer than SETTLE_S: SimCord lets a bot's sleep shorter than its settle timeout
# run out in real time inside a click, so shorter timers would fire by themselves mid-test.
FAST = {"grace": 0, "race_window": 2000, "reveal": 2, "turn_timer": 60}
SETTLE_S = 1.0


class Table:
    """A started Kabuki game in #games with ``players`` members seated in order."""

    def __init__(self, env: Any, world: Any, players: Sequence[Any]) -> None:
        self.env, self.world, self.players = env, world, list(players)
        self.channel = world.channel
        self._engine: Any = None

    @property
    def session(self) -> Any:
        return self.env.bot.sessions.get(self.channel.id)

    @property
    def engine(self) -> KabukiEngine:
        """The live engine (a restart replaces it); once the game is over, the last one seen."""
        session = self.session
        if session is not None:
            self._engine = session.engine
        return self._engine

    def view(self) -> dict[str, Any]:
        return self.engine.view(None)

    def message(self) -> Any:
        """The board message as members see it now."""
        board_id = self.session.board_message_id
        return next(m for m in self.channel.history() if m.id == board_id)

    def member(self, seat: int) -> Any:
        return self.players[seat]

    def script(self, prefix: Sequence[int], first: int | None = None) -> None:
        script_round(self.engine, prefix, first)
        # Scripting rewrites the round's log entry in place, which a game never does: the log is
        # saved append-only, so the entry is marked unsaved and goes again with the next save.
        self.session.logged = min(self.session.logged, len(self.engine.log) - 1)

    async def place(self, stack: int, seat: int | None = None) -> Any:
        """The active player (or ``seat``) presses the button of ``stack`` (0-3)."""
        view = self.view()
        if seat is None:
            seat = view["current"]["seat"]
        return await self.member(seat).click(
            self.message(), custom_id=self.bound(f"pc:{self.channel.id}:place:{stack}-{view['turn']}")
        )

    def bound(self, custom_id: str) -> str:
        """A component id as the session layer sends it: bound to this game."""
        return bound_id(custom_id, self.session.tag)

    async def stop(self, seat: int) -> Any:
        return await self.member(seat).click(self.message(), label="Stop!")

    def embed_text(self) -> str:
        return embed_text(self.message())


def embed_text(message: Any) -> str:
    """The words of ``message``: those above its card, then the card's title, description,
    footer and fields (``shown.card``)."""
    parts = [above(message) or ""]
    for embed in [card(message)] if is_card(message) or message.embeds else []:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)
