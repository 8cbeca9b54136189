"""A board or a private message as the page draws it: a card of plain data.

The page shows what the channel shows, drawn by the same renderers in the same words: a board's
embed (title, description, fields, footer), its picture and its controls become a ``card`` frame
the page lays out itself. A control carries the press it makes (its name, argument and game mark,
read back from its ``custom_id``), never the id: the page sends that press over its socket, and it
is checked against the game like any press. A picture is a capability address
(``/api/picture/<token>.png``, the token a keyed hash of the picture's key): only pages sent
the board learn it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.glue.board import Board
from bot.glue.components import press_of_id
from bot.glue.layout import rows
from bot.session.launcher import TABLE
from bot.session.rematch import AGAIN, again_key

STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "secondary"}


def card(
    embed: discord.Embed | None,
    content: str | None,
    components: Iterable[Mapping[str, Any]],
    image: str | None = None,
) -> dict[str, Any]:
    data = embed.to_dict() if embed is not None else {}
    colour = data.get("color")
    return {
        "title": data.get("title"),
        "description": data.get("description"),
        "color": colour,
        "fields": [
            {"name": f["name"], "value": f["value"], "inline": bool(f.get("inline"))}
            for f in data.get("fields", ())
        ],
        "footer": (data.get("footer") or {}).get("text"),
        "content": content,
        "image": image,
        "controls": [row for row in (controls(r.get("components", ())) for r in components) if row],
    }


def controls(row: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A row's buttons and selects that make a game press; any other (a link) is left out."""
    drawn = []
    for component in row:
        custom_id = str(component.get("custom_id", ""))
        press = press_of_id(custom_id)
        if press is not None:
            what = {"name": press.name, "arg": press.arg, "game": press.game}
        elif (key := again_key(custom_id)) is not None:  # the final board's Play again: no game's
            what = {"name": AGAIN, "arg": key, "game": ""}
        else:
            continue  # a link
        if what["name"] == TABLE:  # "Open the table": the page is the table
            continue
        if component.get("type") == 2:
            emoji = component.get("emoji") or {}
            drawn.append(
                {
                    "kind": "button",
                    "label": component.get("label"),
                    "emoji": emoji.get("name"),
                    "style": STYLES.get(component.get("style", 2), "secondary"),
                    "disabled": bool(component.get("disabled")),
                    "press": what,
                }
            )
        elif component.get("type") == 3:
            drawn.append(
                {
                    "kind": "select",
                    "placeholder": component.get("placeholder"),
                    "min": component.get("min_values", 1),
                    "max": component.get("max_values", 1),
                    "disabled": bool(component.get("disabled")),
                    "options": [
                        {
                            "label": option.get("label"),
                            "value": option.get("value"),
                            "description": option.get("description"),
                            "emoji": (option.get("emoji") or {}).get("name"),
                            "default": bool(option.get("default")),
                        }
                        for option in component.get("options", ())
                    ],
                    "press": what,
                }
            )
    return drawn


def board_card(board: Board, image: str | None) -> dict[str, Any]:
    return card(board.embed, board.content, rows(board.items), image)


def message_card(message: Mapping[str, Any]) -> dict[str, Any]:
    """A private message (``render_private``'s keyword arguments: content, embed or embeds, view,
    file) as a card. A file is left out: the page's own card shows what it says."""
    embeds: Sequence[discord.Embed] = message.get("embeds") or (
        [message["embed"]] if message.get("embed") else []
    )
    view = message.get("view")
    components = view.to_components() if view is not None else []
    drawn = card(embeds[0] if embeds else None, message.get("content"), components)
    for extra in embeds[1:]:  # a second embed's words follow the first's
        more = card(extra, None, ())
        drawn["fields"] += [
            {"name": more["title"] or "", "value": more["description"] or "", "inline": False}
        ]
    return drawn
