"""Every message as Discord's current layout (Components V2): one framed card per message.

A board, panel or answer is still drawn as an embed and its controls (``bot.glue.board.Board``:
the games, the Activity's cards and the publisher's comparisons read that model), and is turned
into a V2 layout only where it is sent:

- a line of words before the card (``content``: an invitation's mentions, a note) as a text of
  its own above it;
- the card: a ``Container`` in the embed's colour holding
  - the title as a heading, then the description;
  - each field as a smaller heading over its lines (a line a control acts on is a ``Section``
    with that control beside it: a Kabuki stack's Place, a Kingdom seat's Exchange);
  - the picture in a gallery, where the eye goes after the words;
  - the remaining controls in action rows, as they were laid out before;
  - the footer's secondary lines (shuffle commitment, options) under a divider, in small print.

Discord takes at most 40 components and 4,000 characters of text in one such message; the limits
test (tests/foundation/test_discord_limits.py) walks every board of every game size through
SimCord's validation. A message posted before the move (an embed) is edited into a layout as
Discord allows (the flag may be set by an edit, never taken off); its buttons keep their ids.

The layout is built as Discord's component dicts, not discord.py's ``LayoutView``: a board is
drawn on every press, and discord.py's items cost several times as much to build (see
``bot.glue.components.GameButton``). ``Layout`` answers the few methods discord.py's senders ask
of a view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import discord

from bot.glue.components import Component

TEXT = 10
SECTION = 9
CONTAINER = 17
GALLERY = 12
SEPARATOR = 14
# Discord's limits on one V2 message (checked by SimCord in the limits test).
MAX_COMPONENTS = 40
MAX_TEXT = 4000


def rows(items: Sequence[Component]) -> list[dict[str, Any]]:
    """Controls as Discord's action rows, laid out as discord.py's ``View`` lays them out: an
    item's ``row`` if it has one, else the first row with room; empty rows left out."""
    laid: list[list[dict[str, Any]]] = [[], [], [], [], []]
    weights = [0, 0, 0, 0, 0]
    for item in items:
        width = item.width
        row = item.row
        if row is None:
            row = next((index for index, weight in enumerate(weights) if weight + width <= 5), None)
            if row is None:
                raise ValueError("could not find open space for item")
        elif weights[row] + width > 5:
            raise ValueError(f"item would not fit at row {row}")
        weights[row] += width
        laid[row].append(item.to_component_dict())
    return [{"type": 1, "components": row} for row in laid if row]


class Layout:
    """A V2 message's components, as discord.py's senders take a view: they ask for its
    components, whether they are V2 (the message's flag), and whether a view must be kept to
    dispatch callbacks (never: game presses are routed by custom id, other buttons are
    registered ``DynamicItem`` s)."""

    __discord_ui_view__: ClassVar[bool] = True
    timeout = None

    def __init__(self, components: list[dict[str, Any]]) -> None:
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def clear_items(self) -> None:
        """As a view's (``bot.session.publisher.release``): nothing is kept."""


def text(content: str) -> dict[str, Any]:
    return {"type": TEXT, "content": content}


def divider() -> dict[str, Any]:
    return {"type": SEPARATOR, "divider": True, "spacing": 1}


def card(
    embed: discord.Embed,
    items: Sequence[Any] = (),
    *,
    content: str | None = None,
    beside: Sequence[tuple[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The components of a message showing ``embed`` with the controls ``items`` (``GameButton``
    s or discord.py items), ``content`` above it, and each control of ``beside`` next to its line
    (``(line, control)``: the first line of the description or a field equal to ``line``; the
    control is left out of the rows below). A control whose line is not on the card goes to the
    rows with the others."""
    inside: list[dict[str, Any]] = []
    pending = list(beside)
    placed: set[int] = set()
    head = [f"## {embed.title}"] if embed.title else []
    if embed.description or head:
        _lines(inside, head, embed.description or "", pending, placed)
    for field in getattr(embed, "_fields", ()):
        _lines(inside, [f"### {field['name']}"], field["value"], pending, placed)
    image = embed.image.url
    if image:
        inside.append({"type": GALLERY, "items": [{"media": {"url": image}}]})
    controls = [item for item in items if id(item) not in placed]
    if controls:
        inside.extend(rows(controls))
    footer = embed.footer.text
    if footer:
        inside.append(divider())
        inside.append(text("\n".join(f"-# {line}" for line in footer.split("\n") if line)))
    if not inside:
        inside.append(text("\u200b"))
    container: dict[str, Any] = {"type": CONTAINER, "components": inside}
    if embed.colour is not None:
        container["accent_color"] = embed.colour.value
    return [text(content), container] if content else [container]


def _lines(
    inside: list[dict[str, Any]],
    heading: list[str],
    value: str,
    pending: list[tuple[str, Any]],
    placed: set[int],
) -> None:
    """A heading over its lines; a line with a control beside it is a section of its own."""
    if not pending:  # nothing beside any line (most fields): one text, the lines not split
        _flush(inside, [*heading, value] if value else heading)
        return
    lines = list(heading)
    for line in value.split("\n") if value else ():
        control = next((c for want, c in pending if want == line), None)
        if control is None:
            lines.append(line)
            continue
        pending[:] = [(want, c) for want, c in pending if c is not control]
        placed.add(id(control))
        _flush(inside, lines)
        lines = []
        inside.append({"type": SECTION, "components": [text(line)], "accessory": control.to_component_dict()})
    _flush(inside, lines)


def _flush(inside: list[dict[str, Any]], lines: list[str]) -> None:
    """Lines read so far as one text (blank ones alone are no text: Discord refuses an empty one)."""
    joined = "\n".join(lines)
    if joined.strip():
        inside.append(text(joined))


def layout(
    embed: discord.Embed,
    items: Sequence[Any] = (),
    *,
    content: str | None = None,
    beside: Sequence[tuple[str, Any]] = (),
) -> Layout:
    """``card(...)`` as a view discord.py's senders take."""
    return Layout(card(embed, items, content=content, beside=beside))


def shown(embed: discord.Embed, items: Sequence[Any] = (), *, content: str | None = None) -> dict[str, Any]:
    """The keyword arguments of discord.py's send or edit (a message, an interaction's answer or
    followup) that show ``embed`` and ``items`` as one card. The embed and the text outside the
    card are cleared, so an edit turns a message posted before the layout into one."""
    return {"view": layout(embed, items, content=content), "embed": None, "content": None}


def private(message: dict[str, Any], *, onto_card: bool = False) -> dict[str, Any]:
    """A private message as games draw it for both front-ends (``content``, ``embed``, ``file``,
    ``view``: a panel, the news of a move) as discord.py's send or edit takes it on Discord: one
    card when it has an embed, its controls inside. Words alone (a refusal, a short notice) stay
    words: a card around one sentence would only make it larger; but ``onto_card`` (they replace
    a card by an edit, and a card cannot go back to words) they are a text of the layout."""
    embed = message.get("embed")
    if embed is None:
        if onto_card and message.get("content"):
            view = message.get("view")
            words = [text(message["content"]), *rows(view.children if view is not None else ())]
            return {**message, "view": Layout(words), "content": None}
        return message
    view = message.get("view")
    sent = {key: value for key, value in message.items() if key not in ("embed", "content", "view")}
    sent.update(shown(embed, view.children if view is not None else (), content=message.get("content")))
    return sent


def text_size(embed: discord.Embed) -> int:
    """About the characters ``card`` makes of ``embed`` (its headings' marks included)."""
    size = len(embed.title or "") + 4 + len(embed.description or "") + len(embed.footer.text or "") + 4
    return size + sum(len(field["name"]) + len(field["value"]) + 6 for field in getattr(embed, "_fields", ()))


def fit(embed: discord.Embed, budget: int) -> discord.Embed:
    """``embed``, or a copy whose longest parts (description, field values) lose their last
    lines until its card's text is inside ``budget`` characters ("…" says where): for a message
    that shows a card beside other text (a replay's page), inside Discord's 4,000 in all."""
    if text_size(embed) <= budget:
        return embed
    cut = embed.copy()
    while (over := text_size(cut) - budget) > 0:
        fields = getattr(cut, "_fields", [])
        longest = max(
            [(len(cut.description or ""), -1)] + [(len(f["value"]), i) for i, f in enumerate(fields)]
        )
        size, where = longest
        if size <= 1:
            break  # only headings left: nothing more to take
        value = cut.description if where < 0 else fields[where]["value"]
        lines = value.split("\n")
        shorter = "\n".join(lines[:-1]) + "\n…" if len(lines) > 1 else value[: max(1, size - over - 1)] + "…"
        if len(shorter) >= size:
            shorter = value[: max(1, size - over - 1)] + "…"
        if where < 0:
            cut.description = shorter
        else:
            fields[where]["value"] = shorter
    return cut


def spent(message: Any) -> Layout | None:
    """What a pressed message (``interaction.message``) shows once its controls are spent: a card
    keeps its words and picture without its controls (a V2 message must keep a component, and its
    flag: ``view=None`` would be refused), a legacy message loses its rows (None)."""
    if message is None or not message.flags.components_v2:
        return None
    return Layout([kept for item in message.components for kept in _without_controls(item.to_dict())])


def _without_controls(item: dict[str, Any]) -> list[dict[str, Any]]:
    """``item`` as it stays once controls are spent: an action row goes, a section leaves its
    words (a section needs an accessory), a container keeps the rest."""
    kind = item.get("type")
    if kind == 1:
        return []
    if kind == SECTION:
        return list(item["components"])
    children = item.get("components")
    if isinstance(children, list):
        return [{**item, "components": [kept for child in children for kept in _without_controls(child)]}]
    return [item]
