"""Interactions as the bot needs them: no reference cycle, and no message parsed that nobody reads.

**No cycle.**
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

**The pressed message, parsed only if read.** A button press carries the whole message it was on
(a board: its embed, fields and every button), and discord.py parses it into a ``Message`` for
every press; the bot reads only its id and whether it is ephemeral (``message_id``,
``on_ephemeral``). The payload is kept and parsed on first use of ``interaction.message``. For the
same reason discord.py's view store is not asked about a game press: game buttons are routed by
custom id (``GameBot.on_interaction``) and no view or ``DynamicItem`` of discord.py's answers to a
game id (``GAME_IDS``), yet the store's lookup reads the message.

The classes are swapped in where discord.py makes interactions and view stores (``discord.state``);
discord.py's own code runs unchanged.
"""

from __future__ import annotations

from typing import Any

import discord
import discord.state
from discord.interactions import InteractionResponse
from discord.message import Message
from discord.ui.view import ViewStore

GAME_IDS = ("pc:", "ps:")  # the custom ids of game buttons and selects (bot.glue.components)
EPHEMERAL = 1 << 6  # a message's flags


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
    __slots__ = ("_answered_as", "_message", "_raw_message")

    def __init__(self, *, data: Any, state: Any) -> None:
        self._answered_as = None
        self._message: Message | None = None
        self._raw_message: dict[str, Any] | None = None
        super().__init__(data=data, state=state)

    def _from_data(self, data: Any) -> None:
        raw = data.get("message")
        super()._from_data({key: value for key, value in data.items() if key != "message"} if raw else data)
        self._raw_message = raw

    @property  # type: ignore[override]
    def message(self) -> Message | None:
        if self._message is None and self._raw_message is not None:
            self._message = Message(state=self._state, channel=self.channel, data=self._raw_message)  # type: ignore[arg-type]
        return self._message

    @message.setter
    def message(self, value: Message | None) -> None:
        self._message = value
        if value is not None:
            self._raw_message = None

    @property  # type: ignore[override]
    def response(self) -> InteractionResponse:
        return _Response(self)

    async def original_response(self) -> discord.InteractionMessage:
        """discord.py keeps the message on the interaction, and the message's state points back
        at the interaction: not kept, a second call asks Discord again (the bot asks once)."""
        message = await super().original_response()
        self._original_response = None
        return message


class GameBlindViewStore(ViewStore):
    """discord.py's view store, which leaves game presses to the bot."""

    def dispatch_view(self, component_type: int, custom_id: str, interaction: Any) -> None:
        if not custom_id.startswith(GAME_IDS):
            super().dispatch_view(component_type, custom_id, interaction)


def message_id(interaction: discord.Interaction) -> int | None:
    """The id of the message a component was on, without parsing the message."""
    raw = getattr(interaction, "_raw_message", None)
    if raw is not None:
        return int(raw["id"])
    return interaction.message.id if interaction.message is not None else None


def message_origin(interaction: discord.Interaction) -> int | None:
    """The id of the interaction whose response the pressed message is (Discord's
    ``interaction_metadata``), without parsing the message; None for any other message."""
    raw = getattr(interaction, "_raw_message", None)
    if raw is not None:
        metadata = raw.get("interaction_metadata")
        return int(metadata["id"]) if metadata else None
    message = interaction.message
    metadata = getattr(message, "interaction_metadata", None) if message is not None else None
    return metadata.id if metadata is not None else None


def on_ephemeral(interaction: discord.Interaction) -> bool:
    """Whether the pressed message is ephemeral (a private panel), without parsing the message."""
    raw = getattr(interaction, "_raw_message", None)
    if raw is not None:
        return bool(int(raw.get("flags", 0)) & EPHEMERAL)
    return interaction.message is not None and interaction.message.flags.ephemeral


def install() -> None:
    """From now on, every interaction and view store discord.py makes is one of these (a client
    made before keeps its view store)."""
    discord.state.Interaction = AcyclicInteraction  # type: ignore[attr-defined, misc]
    discord.state.ViewStore = GameBlindViewStore  # type: ignore[attr-defined, misc]
