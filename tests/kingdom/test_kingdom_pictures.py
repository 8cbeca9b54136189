"""The card and table pictures are valid PNGs, one per character, and cached."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.kingdom.cards import CHARACTERS
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.pictures import CARD_H, CARD_W, card_png, reveal_png, reveal_seats, table_png


def test_every_character_has_a_card_picture():
    pictures = {card_png(c.value) for c in CHARACTERS}
    assert len(pictures) == len(CHARACTERS)
    image = Image.open(io.BytesIO(card_png(0)))
    assert image.format == "PNG" and image.size == (CARD_W, CARD_H)


def test_card_pictures_are_cached():
    assert card_png(12) is card_png(12)


def test_revealed_table_picture_shows_every_seat():
    engine = KingdomEngine.new(5, 3, {"turn_ms": 0}, 0)
    while engine.round == 1:
        engine.apply(engine.active, {"type": "stand"}, 1)
    names = [f"Player {s}" for s in range(5)]
    seats = reveal_seats(engine.reveal, names)
    assert [s[0] for s in seats] == [names[c["seat"]] for c in engine.reveal["cards"]]
    png = reveal_png(engine.reveal, names)
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert table_png(seats, "Round 1") == png  # drawn from exactly those seats
