"""Buttons and selects that survive a restart.

Every game component is a ``DynamicItem``: its ``custom_id`` names the channel, the press and an
optional public argument (``pc:<channel>:<name>:<arg>``), and the handler is rebuilt from it, so
a board posted before a restart keeps working. A ``custom_id`` is public and untrusted: it never
carries hidden information, and every press is checked against the current game state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.client import GameBot

_ARG = r"[A-Za-z0-9_.\-]*"


@dataclass(frozen=True)
class Press:
    """A member's press on a game component, as the session layer sees it."""

    channel_id: int
    name: str
    arg: str = ""
    values: tuple[str, ...] = ()  # the chosen options of a select


def button_id(channel_id: int, name: str, arg: str | int = "") -> str:
    custom_id = f"pc:{channel_id}:{name}:{arg}"
    if len(custom_id) > 100 or not re.fullmatch(_ARG, str(arg)):
        raise ValueError(f"bad custom_id {custom_id!r}")
    return custom_id


def select_id(channel_id: int, name: str) -> str:
    return f"ps:{channel_id}:{name}"


async def _route(interaction: discord.Interaction, press: Press) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await bot.route_press(interaction, press)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"pc:(?P<ch>\d+):(?P<name>[a-z_]+):(?P<arg>{_ARG})"
):
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
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=button_id(channel_id, name, arg),
            )
        )
        self.press = Press(channel_id, name, str(arg))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GameButton:
        return cls(int(match["ch"]), match["name"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.press)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"ps:(?P<ch>\d+):(?P<name>[a-z_]+)"):
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
            discord.ui.Select(
                custom_id=select_id(channel_id, name),
                options=list(options),
                placeholder=placeholder,
                disabled=disabled,
                row=row,
            )
        )
        self.channel_id = channel_id
        self.name = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> GameSelect:
        return cls(int(match["ch"]), match["name"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = tuple((interaction.data or {}).get("values", ()))  # type: ignore[union-attr]
        await _route(interaction, Press(self.channel_id, self.name, "", values))


def make_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A never-expiring view of dynamic items only, so discord.py routes presses by custom_id."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
