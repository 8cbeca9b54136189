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
a quarter of a bare acknowledge per press (see bench/README.md).
"""

from __future__ import annotations

import functools
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
# Compiled once: every board drawn makes and binds all its ids (a Monster Masks board has 18),
# and ``re``'s own cache lookup cost as much as the match.
_ARG_RE = re.compile(_ARG)
_TAG_RE = re.compile(r"[0-9a-f]+")


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
    if len(custom_id) > MAX_ID or not (type(arg) is int or arg in _good_args or _good_arg(arg)):
        raise ValueError(f"bad custom_id {custom_id!r}")
    return custom_id


# Arguments already found good: a board's buttons carry the same few from press to press (a Monster
# Masks board has 16 tile arguments, each matched again on every redraw). Bounded: emptied when full.
_good_args: set[object] = set()


def _good_arg(arg: object) -> bool:
    if not _ARG_RE.fullmatch(str(arg)):
        return False
    if len(_good_args) >= 4096:
        _good_args.clear()
    _good_args.add(arg)
    return True


def select_id(channel_id: int, name: str) -> str:
    return f"ps:{channel_id}:{name}"


def bound_id(custom_id: str, game: str) -> str:
    """An unbound game ``custom_id`` (as ``button_id`` and ``select_id`` make it) bound to the
    game tagged ``game``."""
    return _bound(custom_id, game, _TAG_RE.fullmatch(game) is not None)


def _bound(custom_id: str, game: str, good_tag: bool) -> str:
    prefix, channel, rest = custom_id.split(":", 2)
    bound = f"{prefix}:{channel}:{game}:{rest}"
    if len(bound) > MAX_ID or not good_tag:
        raise ValueError(f"bad custom_id {bound!r}")
    return bound


def bind(items: Iterable[Any], game: str) -> None:
    """Bind every game component among ``items`` (a board's ``GameButton`` s, or the discord.py
    items a private panel's view was made of) to the game tagged ``game`` (again, if it was bound
    before: a component keeps the id its game drew). The tag is checked once, not per item: a
    board is bound on every press (a Masks board has 18 items)."""
    good_tag = _TAG_RE.fullmatch(game) is not None
    for item in items:
        unbound = getattr(item, "unbound_id", None)
        if unbound is not None:
            item.custom_id = _bound(unbound, game, good_tag)


def press_of(interaction: discord.Interaction) -> Press | None:
    """The game press an interaction is, or None for anything else (commands, other buttons)."""
    if interaction.type is not discord.InteractionType.component:
        return None
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    return press_of_id(str(data.get("custom_id", "")), tuple(data.get("values", ())))


def press_of_id(custom_id: str, values: tuple[str, ...] = ()) -> Press | None:
    """The game press a component's ``custom_id`` names (with a select's chosen ``values``), or
    None for any other id."""
    if match := _BUTTON.fullmatch(custom_id):
        return Press(int(match["ch"]), match["name"], match["arg"], game=match["game"] or "")
    if match := _SELECT.fullmatch(custom_id):
        return Press(int(match["ch"]), match["name"], "", values, game=match["game"] or "")
    return None


@functools.lru_cache(maxsize=64)
def _emoji(emoji: str) -> tuple[tuple[str, Any], ...]:
    return tuple(discord.PartialEmoji.from_str(emoji).to_dict().items())


class GameButton:
    """A game's button, as plain data. A board is drawn on every press, Monster Masks' with 18
    buttons, and a ``discord.ui.Button`` costs about four times as much to build: so the board's
    own answer sends these as component dicts (``to_component_dict``, laid out by
    ``bot.glue.layout.rows``), and ``make_view`` turns them into discord.py buttons only where a view
    is needed (a REST edit, a new message, a private panel)."""

    __slots__ = ("unbound_id", "custom_id", "label", "style", "emoji", "disabled", "row")
    width = 1  # of the 5 in an action row, as discord.py's items say

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
        if row is not None and not 0 <= row < 5:
            raise ValueError("row cannot be negative or greater than or equal to 5")
        self.unbound_id = self.custom_id = button_id(channel_id, name, arg)
        self.label = label
        self.style = style
        self.emoji = emoji
        self.disabled = disabled
        self.row = row

    def to_component_dict(self) -> dict[str, Any]:
        """As ``discord.ui.Button.to_component_dict`` gives it, key for key."""
        payload: dict[str, Any] = {"type": 2, "style": self.style.value, "disabled": self.disabled}
        if self.label:
            payload["label"] = self.label
        payload["custom_id"] = self.custom_id
        if self.emoji:
            payload["emoji"] = dict(_emoji(self.emoji))
        return payload

    def to_item(self) -> discord.ui.Button[Any]:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=self.label,
            style=self.style,
            emoji=self.emoji,
            disabled=self.disabled,
            row=self.row,
            custom_id=self.custom_id,
        )
        button.unbound_id = self.unbound_id  # type: ignore[attr-defined]  # so ``bind`` knows it
        return button


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


def emptied(view: discord.ui.View | discord.ui.LayoutView) -> None:
    """``view`` and every item in it let go of each other: a V2 message's view (a
    ``LayoutView``) nests its items, a container's and a row's children and a section's
    accessory each pointing back at their parent, cycles a view's own ``clear_items`` leaves."""
    for item in list(view.walk_children()):
        item._parent = None
        if isinstance(item, discord.ui.Container | discord.ui.ActionRow | discord.ui.Section):
            item._children = []
    view.clear_items()


class PressedOnce:
    """Mixed into a ``DynamicItem``: for each press discord.py builds a view of the whole message
    around it, every item pointing back at that view (and, in a V2 message, at the container or
    row it sits in), cycles that outlive the press until the collector's full pass (which may
    have frozen them: ``bot.ops.gc_tuning``). Emptied once the press is answered (``emptied``),
    the view goes with its last reference."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        press = cls.__dict__.get("callback")
        if press is None:
            return

        @functools.wraps(press)
        async def callback(self: Any, interaction: discord.Interaction) -> None:
            try:
                await press(self, interaction)
            finally:
                if self.view is not None:
                    emptied(self.view)

        cls.callback = callback  # type: ignore[attr-defined]


# What a board's or a panel's components are made of.
Component = discord.ui.Item[Any] | GameButton


def make_view(items: Sequence[Component]) -> discord.ui.View:
    """The components of a message, in a view that is stopped before it is sent: discord.py keeps
    no record of a stopped view (a kept view's custom ids would pile up, one set per board edit).
    Game presses are read by ``press_of``; other buttons are registered ``DynamicItem`` s."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item.to_item() if isinstance(item, GameButton) else item)
    view.stop()
    return view
