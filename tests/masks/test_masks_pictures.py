"""The monster pictures: every face renders, faces differ, the board marks held tiles."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.masks.faces import FACES, MONSTERS
from bot.games.masks.pictures import board_png, face_image, face_png

PNG = b"\x89PNG\r\n\x1a\n"


def test_sixteen_monsters_with_short_unique_names() -> None:
    assert len(MONSTERS) == FACES == 16
    assert len(set(MONSTERS)) == 16
    assert all(0 < len(name) <= 10 for name in MONSTERS)  # fits a Discord button label


def test_every_face_renders_a_distinct_png() -> None:
    pngs = [face_png(face) for face in range(FACES)]
    assert all(png.startswith(PNG) for png in pngs)
    assert len(set(pngs)) == FACES
    images = [face_image(face, 64).tobytes() for face in range(FACES)]
    assert len(set(images)) == FACES


def test_unknown_face_is_refused() -> None:
    with pytest.raises(ValueError):
        face_png(16)


def test_board_shows_all_tiles_and_marks_held_ones() -> None:
    empty = board_png()
    marked = board_png(((3, "Alice"), (7, "A very long Discord display name")), highlight=7)
    assert empty.startswith(PNG) and marked.startswith(PNG) and empty != marked
    image = Image.open(io.BytesIO(marked))
    assert image.width > 600 and image.height > 600


def test_renders_are_cached() -> None:
    assert face_png(4) is face_png(4)
    assert board_png(((1, "P2"),)) is board_png(((1, "P2"),))
