"""The Activity's launch button, **Open the table**: on a lobby and on a game in play's board.

Its press is answered by ``GameBot.route_press`` (Discord opens the Activity for the presser),
never by a game; the page leaves it out of its cards (the page is the table). Offered only where
the Activity is on: on a game's board in a row of its own, or where the game takes all five rows,
after the controls of the last row with room; a board with no room at all goes without it
(Discord's App Launcher opens the table as well).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.glue.board import Board
from bot.glue.components import GameButton
from bot.i18n import N_, t

TABLE = "table"
OPEN_THE_TABLE = N_("Open the table")
ROWS = 5  # a message's action rows
ROW_WIDTH = 5  # of each


def table_button(channel_id: int, locale: str, row: int) -> GameButton:
    return GameButton(channel_id, TABLE, label=t(locale, OPEN_THE_TABLE), emoji="🎲", row=row)


def free_row(items: Sequence[Any]) -> int | None:
    """Where Open the table goes among ``items``, laid out as Discord lays them out (an item's own
    row, else the first with room: ``bot.glue.layout.rows``): the first row after every row they
    take; when the game takes all five (Monster Masks' tiles and its Mime's row), the last row with
    room, after the game's own controls there; None when every row is full."""
    weights = [0] * ROWS
    for item in items:
        width = getattr(item, "width", 1)
        row = item.row
        if row is None:
            row = next(
                (index for index, weight in enumerate(weights) if weight + width <= ROW_WIDTH), ROWS - 1
            )
        weights[row] += width
    used = [index for index, weight in enumerate(weights) if weight]
    after = (used[-1] + 1) if used else 0
    if after < ROWS:
        return after
    return next((index for index in reversed(range(ROWS)) if weights[index] < ROW_WIDTH), None)


def offer_table(board: Board, channel_id: int, locale: str) -> Board:
    """``board`` with Open the table in a row of its own, when one is free and it has none yet
    (a board on show drawn again from an equal state is the same board: offered once)."""
    row = free_row(board.items)
    button = table_button(channel_id, locale, ROWS - 1 if row is None else row)
    if row is not None and all(
        getattr(item, "unbound_id", None) != button.unbound_id for item in board.items
    ):
        board.items = [*board.items, button]
    return board
