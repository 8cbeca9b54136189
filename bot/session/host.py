"""What the session layer's parts need of the bot, and of the game cog they serve.

``Host`` is the bot as the session layer sees it: its own parts and the few Discord client calls
the layer makes (``bot.app.client.GameBot`` satisfies it). ``Table`` is a game cog as the parts
it is made of see it (timers, turn pings, recording; ``bot.session.gamecog.GameCog`` satisfies
it). Typed against these, the session layer imports neither the application nor, from its
parts, the cog: the application imports the session layer and nothing imports back, so the
project has no import circle (tests/foundation/test_imports.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.engine import Event, GameEngine, Result
from bot.i18n import ServerLanguages
from bot.ops.metrics import Metrics
from bot.session.sessions import Session, SessionRegistry
from bot.storage import Storage


class Host(Protocol):
    sessions: SessionRegistry  # every open lobby and game, by channel
    publishers: Any  # each channel's board message (bot.session.publisher.Publishers)
    storage: Storage
    metrics: Metrics
    languages: ServerLanguages  # each server's /settings language
    game_cogs: Mapping[str, Any]  # the games this bot runs, by id (each a Table)
    guard: Any  # every write a game makes, kept and retried when the database fails (bot.session.guarded)
    http: Any  # discord.py's HTTP client: role changes, a followup built by hand
    _connection: Any  # discord.py's connection state, for that followup
    user: discord.ClientUser | None  # the bot's own account: its turn pings found after a restart
    table_server: Any  # the Activity's server (bot.activity.server), None when it is off

    def title_of(self, kind: str) -> str: ...

    async def answer_fault(self, interaction: discord.Interaction, error: BaseException) -> bool: ...

    async def apologize(self, interaction: discord.Interaction, text: str | None = None) -> None: ...

    def get_channel(self, id: int, /) -> Any: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None) -> Any: ...

    async def wait_until_ready(self) -> None: ...


class Table(Protocol):
    """A game's cog, as its timers, turn pings and recording call it."""

    bot: Host
    engine_cls: type[GameEngine]
    pings: Any  # its turn pings (bot.session.turn_pings.TurnPings)
    timers: Any  # its sessions' timers (bot.session.timers.SessionTimers)

    @property
    def kind(self) -> str: ...

    @property
    def title(self) -> str: ...

    def recorded_scores(self, session: Session, result: Result) -> list[int]: ...

    def ping_turn(self, session: Session) -> str | None: ...

    def awaited(self, session: Session) -> dict[int, str]: ...

    def lobby_idle_ms(self, options: dict[str, Any]) -> int: ...

    def publisher(self, session: Session) -> Any: ...

    def _alive(self, session: Session, status: str) -> bool: ...

    def _plan_computers(self, session: Session) -> None: ...

    async def _save(self, session: Session, *, durable: bool = False) -> bool: ...

    async def drop(self, session: Session, why: str) -> None: ...

    async def _after_change(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None = None,
        presser: int | None = None,
    ) -> None: ...

    async def _finish(self, session: Session, interaction: discord.Interaction | None = None) -> None: ...

    async def _close(
        self, session: Session, text: str, interaction: discord.Interaction | None = None
    ) -> None: ...
