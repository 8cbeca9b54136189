"""Interactions that die by reference counting: no reference cycle between an interaction and its
``response``.

discord.py caches ``Interaction.response`` on the interaction, and the response points back to
its interaction: every interaction the bot answers is a reference cycle, which only the garbage
collector's full pass can free once the interaction has lived long enough to be promoted. The bot
freezes what survives each full collection (``bot.ops.gc_tuning``), so a press in flight at that
moment would stay frozen, cycle and all, after it was done: a leak of ~40 objects (the
interaction, its member, message, embeds and components) per press caught in flight.

Here the answered state lives on the interaction itself, and ``response`` is a small object made
on each use that points to the interaction but is not kept by it: ``is_done()``, a second answer
refused (``InteractionResponded``) and every other use behave as discord.py's own, with no cycle.
``original_response()`` is not kept either (its message's state points back at the interaction).
``tests/foundation/test_frozen_leaks.py`` plays games with everything frozen mid-press and finds
none of the bot's or discord.py's objects left in cycles.

The class is swapped in where discord.py makes interactions (``discord.state``); it adds one slot
and overrides one property, so discord.py's own code runs unchanged.
"""

from __future__ import annotations

from typing import Any

import discord
import discord.state
from discord.interactions import InteractionResponse


class _Response(InteractionResponse):
    """discord.py's response, whose answered state is kept on the interaction."""

    __slots__ = ()

    def __init__(self, parent: Any) -> None:
        self._parent = parent

    @property  # type: ignore[override]
    def _response_type(self) -> Any:
        return self._parent._answered_as

    @_response_type.setter
    def _response_type(self, value: Any) -> None:
        self._parent._answered_as = value


class AcyclicInteraction(discord.Interaction):
    __slots__ = ("_answered_as",)

    def __init__(self, *, data: Any, state: Any) -> None:
        self._answered_as = None
        super().__init__(data=data, state=state)

    @property  # type: ignore[override]
    def response(self) -> InteractionResponse:
        return _Response(self)

    async def original_response(self) -> discord.InteractionMessage:
        """discord.py keeps the message on the interaction, and the message's state points back
        at the interaction: not kept, a second call asks Discord again (the bot asks once)."""
        message = await super().original_response()
        self._original_response = None
        return message


def install() -> None:
    """Every interaction discord.py makes from now on is an ``AcyclicInteraction``."""
    discord.state.Interaction = AcyclicInteraction  # type: ignore[attr-defined, misc]
