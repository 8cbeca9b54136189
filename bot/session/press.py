"""A press as the session layer takes it, whichever front-end carried it.

A ``Move`` is "this member pressed this control at this time; answer here": a Discord
interaction on a board's button and a frame from an Activity page's socket both become one, and
take the same way through the session layer (``GameCog.take``: the session's lock, the engine,
the save, the board published, the record). Its ``Answer`` is where its words go: the
interaction's own response and followups, or the page's socket. What only a Discord press has
(its token, kept so private news found later can still reach the seat; the board redrawn inside
its answer) stays on ``DiscordAnswer.interaction``, None for a page.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.glue.clock import snowflake_ms
from bot.glue.components import Press
from bot.glue.replies import is_moderator, reply_private
from bot.i18n import private_locale
from bot.session.overload import answered_first, shed, tell_too_late

if TYPE_CHECKING:
    from bot.ops.metrics import Metrics


class Answer(ABC):
    """Where a press's answers go, in ``locale`` (the presser's language). ``interaction``: the
    Discord interaction, when it is one."""

    interaction: discord.Interaction | None = None
    locale: str

    @abstractmethod
    def done(self) -> bool:
        """Whether the press has had its answer (a Discord interaction takes one first answer)."""

    @abstractmethod
    async def private(self, text: str) -> None:
        """Words for the presser alone: a refusal, a note."""

    async def tell(self, text: str) -> None:
        """Words for the presser alone that refuse nothing: the press was taken, and this is
        what came of it."""
        await self.private(text)

    async def news(self, message: dict[str, Any]) -> bool:
        """A private event drawn for the presser (``GameCog.render_private``'s keyword arguments);
        False when it could not reach them. Only a page's answer is asked: a Discord press's
        private news goes its own way (``GameCog._deliver``)."""
        raise NotImplementedError

    @abstractmethod
    async def acknowledge(self) -> None:
        """The press was taken and has nothing more to say (the board shows the move)."""

    def shed(self, metrics: Metrics, kind: str) -> bool:
        """Whether the press is too late to take at all (``bot.session.overload``)."""
        return False

    async def taken(self, metrics: Metrics, kind: str) -> bool:
        """Under the game's lock, before the move: whether the press may be applied now
        (``bot.session.overload``: not when too late, nor when an answer it needed first was
        refused). A page's press always may: its answer has no deadline."""
        return True

    @abstractmethod
    def member_name(self) -> str:
        """The presser's name as the table shows it."""

    @abstractmethod
    def moderator(self) -> bool:
        """Whether the presser may moderate the channel's games."""


class DiscordAnswer(Answer):
    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.locale = private_locale(interaction)

    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def private(self, text: str) -> None:
        await reply_private(self.interaction, text)

    async def acknowledge(self) -> None:
        """Nothing: a Discord press is answered by the board edited in its answer, or deferred
        where nothing else answers it (``GameCog._deliver``)."""

    def shed(self, metrics: Metrics, kind: str) -> bool:
        return shed(self.interaction, metrics, kind)

    async def taken(self, metrics: Metrics, kind: str) -> bool:
        if self.shed(metrics, kind):
            await tell_too_late(self.interaction)
            return False
        return await answered_first(self.interaction, metrics, kind)

    def member_name(self) -> str:
        return self.interaction.user.display_name

    def moderator(self) -> bool:
        return is_moderator(self.interaction)


@dataclass(frozen=True)
class Move:
    """A member's press: who (as Discord says), in which language their private words speak, when
    (on Discord's timeline, the races' clock), what, and where its answer goes. What only the
    lobby asks of the member (their name, whether they may moderate) is read from the answer when
    asked: a game press never pays for it."""

    member_id: int
    locale: str
    at_ms: int
    press: Press
    answer: Answer

    @classmethod
    def of(cls, interaction: discord.Interaction, press: Press) -> Move:
        answer = DiscordAnswer(interaction)
        return cls(interaction.user.id, answer.locale, snowflake_ms(interaction.id), press, answer)

    @property
    def interaction(self) -> discord.Interaction | None:
        return self.answer.interaction

    @property
    def member_name(self) -> str:
        return self.answer.member_name()

    @property
    def moderator(self) -> bool:
        """Whether the member may start or cancel another member's lobby (Manage Messages here)."""
        return self.answer.moderator()
