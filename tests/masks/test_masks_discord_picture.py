"""The board's picture of the 16 faces: who holds a tile is on the buttons, so a slap uploads
nothing; the picture changes only to ring the revealed card, and it is drawn off the event loop."""

from __future__ import annotations

import threading

import pytest
from masks_tables import RACE_MS, SETTLE_S
from shown import labels

from bot.games.masks import board as masks_board
from bot.games.masks.pictures import board_png
from bot.glue import board as session_board
from bot.glue.picture_cache import ByteLRU

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)

RACE = RACE_MS / 1000 + 0.1


def shown_picture(table) -> tuple[int, bytes]:
    (attachment,) = table.board().attachments
    assert attachment.filename == "tiles.png"
    return attachment.id, table.env.backend.cdn.get(attachment.url)


async def test_a_slap_uploads_no_picture_and_only_the_reveal_rings_the_card(open_table, simcord_env) -> None:
    table = await open_table(4)
    first_id, first = shown_picture(table)
    assert first == board_png()
    card = table.card()
    guessers = table.guessers()
    await table.slap(guessers[0], card)
    await simcord_env.advance_time(RACE)  # the race settles: the board says who holds the tile
    tiles = labels(table.board())
    assert tiles[card].endswith(f" · {table.session.seat_names()[table.players.index(guessers[0])]}")
    assert shown_picture(table)[0] == first_id  # the edit kept the picture: nothing uploaded
    for guesser, tile in zip(guessers[1:], (t for t in range(16) if t != card), strict=False):
        await table.slap(guesser, tile)
    await simcord_env.advance_time(RACE)  # every guesser holds a tile: the card is revealed
    assert table.view["phase"] == "reveal"
    assert shown_picture(table)[1] == board_png(card)  # the revealed card ringed in gold
    await simcord_env.advance_time(5)  # the next Mime draws
    assert table.view["phase"] == "guessing" and shown_picture(table)[1] == first


async def test_the_board_picture_is_drawn_off_the_event_loop(open_table, monkeypatch) -> None:
    drawn_on = []

    def recording_board_png(highlight=None, locale="en"):
        drawn_on.append(threading.current_thread())
        return board_png(highlight, locale)

    monkeypatch.setattr(masks_board, "board_png", recording_board_png)
    monkeypatch.setattr(session_board, "PICTURES", ByteLRU(1 << 20))  # nothing drawn before counts
    table = await open_table(3)
    assert drawn_on and threading.main_thread() not in drawn_on
    assert shown_picture(table)[1] == board_png()
