"""What a member sees of a message: its card's words and its controls, read back from the
message as Discord holds it.

Every message of the bot is one Components V2 card (``bot.glue.layout``): a heading (the
title), the description, each field as a smaller heading over its lines, a picture, controls,
and the small print under a divider. ``card(message)`` reads that back into a ``discord.Embed``
(title, description, fields, footer, image, colour), so a test asserts on what is shown by its
part; ``controls(message)`` lists every button and select in the order they are drawn, those
beside a line included. A message from before the layout (an embed and action rows) reads the
same way, so a test can hold a board posted before an upgrade and after it alike.

``message`` may be a ``discord.Message``, a message SimCord stores, or an interaction's
response in SimCord's results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

V2 = 1 << 15


def components(message: Any) -> list[dict[str, Any]]:
    """The message's components as Discord's dicts."""
    raw = getattr(message, "components", None) or []
    return [c if isinstance(c, dict) else c.to_dict() for c in raw]


def is_card(message: Any) -> bool:
    """Whether the message is a V2 layout (Discord's flag, or a container in its components)."""
    flags = getattr(message, "flags", 0)
    value = flags if isinstance(flags, int) else getattr(flags, "value", 0)
    return bool(value & V2) or any(c.get("type") == 17 for c in components(message))


def walk(items: list[dict[str, Any]]) -> Any:
    for item in items:
        yield item
        yield from walk(item.get("components") or [])
        if isinstance(item.get("accessory"), dict):
            yield from walk([item["accessory"]])


@dataclass
class Control:
    """A button or a select, as a member finds it."""

    type: int
    label: str | None = None
    custom_id: str | None = None
    disabled: bool = False
    style: int | None = None
    emoji: str | None = None
    placeholder: str | None = None
    options: list[dict[str, Any]] = field(default_factory=list)
    beside: str | None = None  # the line it is drawn next to, if any

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]


def _control(raw: dict[str, Any], beside: str | None = None) -> Control:
    emoji = raw.get("emoji") or None
    return Control(
        type=raw["type"],
        label=raw.get("label"),
        custom_id=raw.get("custom_id"),
        disabled=bool(raw.get("disabled")),
        style=raw.get("style"),
        emoji=emoji.get("name") if isinstance(emoji, dict) else emoji,
        placeholder=raw.get("placeholder"),
        options=list(raw.get("options") or []),
        beside=beside,
    )


def controls(message: Any) -> list[Control]:
    """Every button and select of the message, in the order they are drawn."""
    found = []
    beside: set[int] = set()  # the accessories already found with their section
    for item in walk(components(message)):
        if item.get("type") == 9 and isinstance(item.get("accessory"), dict):
            accessory = item["accessory"]
            beside.add(id(accessory))
            if accessory.get("type") == 2:
                line = "\n".join(c.get("content", "") for c in item.get("components") or [])
                found.append(_control(accessory, beside=line))
        elif item.get("type") in (2, 3, 5, 6, 7, 8) and id(item) not in beside:
            found.append(_control(item))
    return found


def labels(message: Any) -> list[str | None]:
    return [c.label for c in controls(message)]


def rows(message: Any) -> list[list[Control]]:
    """The controls of each action row, in order (a control beside a line is in none)."""
    return [
        [_control(c) for c in item.get("components") or []]
        for item in walk(components(message))
        if item.get("type") == 1
    ]


def button(message: Any, label: str) -> Control:
    (found,) = [c for c in controls(message) if c.label == label]
    return found


def _embeds(message: Any) -> list[discord.Embed]:
    return [
        e if isinstance(e, discord.Embed) else discord.Embed.from_dict(e)
        for e in getattr(message, "embeds", None) or []
    ]


def card(message: Any) -> discord.Embed:
    """The message's card read back as an embed (see the module): its title, description,
    fields, footer, picture and colour."""
    (embed,) = cards(message)
    return embed


def cards(message: Any) -> list[discord.Embed]:
    """Every card of the message, in order, each read back as ``card`` reads one (a replay's
    page shows two: the board, then what the board hid); a legacy message's embeds."""
    if not is_card(message):
        return _embeds(message)
    return [_read(c) for c in components(message) if c.get("type") == 17]


def _read(container: dict[str, Any]) -> discord.Embed:
    embed = discord.Embed()
    if container.get("accent_color") is not None:
        embed.colour = discord.Colour(container["accent_color"])
    description: list[str] = []
    footer: list[str] = []
    current: list[str] | None = None  # the lines of the field being read
    names: list[str] = []
    values: list[list[str]] = []
    for item in walk(container.get("components") or []):
        if item.get("type") == 12:
            embed.set_image(url=item["items"][0]["media"]["url"])
        if item.get("type") != 10:
            continue
        for line in item["content"].split("\n"):
            if line.startswith("## ") and embed.title is None and not description and not names:
                embed.title = line[3:]
            elif line.startswith("### "):
                names.append(line[4:])
                values.append([])
                current = values[-1]
            elif line.startswith("-# "):
                footer.append(line[3:])
            elif current is not None:
                current.append(line)
            else:
                description.append(line)
    if description:
        embed.description = "\n".join(description)
    for name, lines in zip(names, values, strict=True):
        embed.add_field(name=name, value="\n".join(lines), inline=False)
    if footer:
        embed.set_footer(text="\n".join(footer))
    return embed


def above(message: Any) -> str | None:
    """The words above the card (an invitation's mentions, a note), or a legacy message's
    content."""
    if not is_card(message):
        return getattr(message, "content", None)
    texts = [c["content"] for c in components(message) if c.get("type") == 10]
    return "\n".join(texts) or None


def text(message: Any) -> str:
    """Every word the message shows, card and all, in order (for "is this said anywhere")."""
    if not is_card(message):
        parts = [getattr(message, "content", None) or ""]
        for embed in _embeds(message):
            parts += [embed.title or "", embed.description or ""]
            parts += [f"{f.name}\n{f.value}" for f in embed.fields]
            parts.append(embed.footer.text or "")
        return "\n".join(p for p in parts if p)
    return "\n".join(c["content"] for c in walk(components(message)) if c.get("type") == 10)
