"""Buttons and selects that survive a restart, and how a press on one is read.

A game component's ``custom_id`` names the channel, the game, the press and an optional public
argument (``pc:<channel>:<game>:<name>:<arg>``, or ``ps:<channel>:<game>:<name>`` for a select),
and ``press_of`` reads the press back from it alone, so a board posted before a restart keeps
working. ``<game>`` is the session's ``tag``: games draw their components without it
(``pc:<channel>:<name>:<arg>``) and the session layer ``bind`` s them to their game as they are
sent, so a panel kept from an earlier game in the channel cannot act in this one. A ``custom_id``
is public and untrusted: it never carries hidden information, and every press is checked
against the current game state.

Presses are routed by ``GameBot.on_interaction``, not by discord.py's views: a ``DynamicItem``
makes discord.py rebuild a whole view from the board message on every press, which cost about
a quarter of a bare acknowledge per press (see docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

_ARG = r"[A-Za-z0-9_.\-]*"
# The game mark is optional: boards posted before game marks existed have none (see route_press).
_GAME = r"(?:(?P<game>[0-9a-f]+):)?"
_BUTTON = re.compile(rf"pc:(?P<ch>\d+):{_GAME}(?P<name>[a-z_]+):(?P<arg>{_ARG})")
_SELECT = re.compile(rf"ps:(?P<ch>\d+):{_GAME}(?P<name>[a-z_]+)")
MAX_ID = 100  # Discord's limit on a custom_id


@dataclass(frozen=True)
class Press:
    """A member's press on a game component, as the session layer sees it."""

    channel_id: int
    name: str
    arg: str = ""
    values: tuple[str, ...] = ()  # the chosen options of a select
    game: str = ""  # the tag of the game whose message it was pressed on; "" on an unbound id


def button_id(channel_id: int, name: str, arg: str | int = "") -> str:
    custom_id = f"pc:{channel_id}:{name}:{arg}"
    if len(custom_id) > MAX_ID or not re.fullmatch(_ARG, str(arg)):
        raise ValueError(f"bad custom_id {custom_id!r}")
    return custom_id


def select_id(channel_id: int, name: str) -> str:
    return f"ps:{channel_id}:{name}"


def bound_id(custom_id: str, game: str) -> str:
    """An unbound game ``custom_id`` (as ``button_id`` and ``select_id`` make it) bound to the
    game tagged ``game``."""
    prefix, channel, rest = custom_id.split(":", 2)
    bound = f"{prefix}:{channel}:{game}:{rest}"
    if len(bound) > MAX_ID or not re.fullmatch(r"[0-9a-f]+", game):
        raise ValueError(f"bad custom_id {bound!r}")
    return bound


def bind(items: Iterable[Any], game: str) -> None:
    """Bind every game component among ``items`` to the game tagged ``game`` (again, if it was
    bound before: a component keeps the id its game drew)."""
    for item in items:
        if isinstance(item, (GameButton, GameSelect)):
            item.custom_id = bound_id(item.unbound_id, game)


def press_of(interaction: discord.Interaction) -> Press | None:
    """The game press an interaction is, or None for anything else (commands, other buttons)."""
    if interaction.type is not discord.InteractionType.component:
        return None
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    if match := _BUTTON.fullmatch(custom_id):
        return Press(int(match["ch"]), match["name"], match["arg"], game=match["game"] or "")
    if match := _SELECT.fullmatch(custom_id):
        values = tuple(data.get("values", ()))
        return Press(int(match["ch"]), match["name"], "", values, game=match["game"] or "")
    return None


class GameButton(discord.ui.Button):
    def __init__(
        self,
        channel_id: int,
        name: str,
        arg: str | int = "",
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            row=row,
            custom_id=button_id(channel_id, name, arg),
        )
        self.unbound_id = self.custom_id


class GameSelect(discord.ui.Select):
    def __init__(
        self,
        channel_id: int,
        name: str,
        options: Sequence[discord.SelectOption] = (),
        *,
        placeholder: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            custom_id=select_id(channel_id, name),
            options=list(options),
            placeholder=placeholder,
            disabled=disabled,
            row=row,
        )
        self.unbound_id = self.custom_id


def make_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """The components of a message, in a view that is stopped before it is sent: discord.py keeps
    no record of a stopped view (a kept view's custom ids would pile up, one set per board edit).
    Game presses are read by ``press_of``; other buttons are registered ``DynamicItem`` s."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
