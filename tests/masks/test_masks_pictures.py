"""The monster pictures: every face renders, faces differ, the board rings the revealed card."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.masks.faces import FACES, MONSTERS
from bot.games.masks.pictures import CELL, LABEL_H, MARGIN, board_png, draw_face, face_png
from bot.i18n import shipped

PNG = b"\x89PNG\r\n\x1a\n"


def test_sixteen_monsters_with_short_unique_names() -> None:
    assert len(MONSTERS) == FACES == 16
    assert len(set(MONSTERS)) == 16
    assert all(0 < len(name) <= 10 for name in MONSTERS)  # fits a Discord button label


def test_every_face_renders_a_distinct_png() -> None:
    pngs = [face_png(face) for face in range(FACES)]
    assert all(png.startswith(PNG) for png in pngs)
    assert len(set(pngs)) == FACES
    images = [draw_face(face, 64).tobytes() for face in range(FACES)]
    assert len(set(images)) == FACES


def test_unknown_face_is_refused() -> None:
    with pytest.raises(ValueError):
        face_png(16)


def test_the_board_is_one_picture_per_revealed_card_in_few_colours() -> None:
    """Holders are on the buttons, so the board picture depends on the revealed card alone: 17
    pictures per language, each kept once drawn."""
    pictures = [board_png(), *(board_png(card) for card in range(FACES))]
    assert all(png.startswith(PNG) for png in pictures) and len(set(pictures)) == FACES + 1
    image = Image.open(io.BytesIO(pictures[8]))
    assert image.width > 600 and image.height > 600
    assert image.mode == "P" and len(image.getcolors()) <= 128  # a palette PNG: ~46 kB, not ~185 kB
    assert board_png.cache_info().maxsize == (FACES + 1) * len(shipped())


def test_the_revealed_card_is_ringed_in_gold_on_its_own_tile() -> None:
    plain = Image.open(io.BytesIO(board_png())).convert("RGB")
    ringed = Image.open(io.BytesIO(board_png(7))).convert("RGB")
    # Tile 8 (Chomper) is row 2, column 4 of the grid; its corner carries the ring.
    x, y = MARGIN + 3 * CELL + 4, MARGIN + 1 * (CELL + LABEL_H) + CELL // 2
    r, g, b = ringed.getpixel((x, y))
    assert r > 180 and g > 110 and b < 60, (r, g, b)  # gold
    assert plain.getpixel((x, y)) != ringed.getpixel((x, y))
    far = (MARGIN + CELL // 2, MARGIN + 8)  # tile 1's top edge: the same in both
    assert plain.getpixel(far) == ringed.getpixel(far)


def test_renders_are_cached() -> None:
    assert face_png(4) is face_png(4)
    assert board_png(3) is board_png(3)
