"""Kabuki pictures: every mask draws, pictures are palette PNGs pasted together from parts, each
part where the board says it is."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.games.kabuki import pictures
from bot.games.kabuki.board import render_picture
from bot.games.kabuki.engine import DEFAULT_OPTIONS, KabukiEngine
from bot.games.kabuki.pictures import (
    CARD_H,
    CARD_W,
    GAP,
    LABEL_H,
    MARGIN,
    MASKS,
    REVEAL_GAP,
    REVEAL_HEAD,
    REVEAL_SCALE,
    board_png,
    mask_card,
    render_board,
    render_reveal,
    reveal_png,
)
from bot.games.kabuki.replay import check_log
from bot.games.kabuki.simulate import main

MOON, FOX, OWL, TIGER, DRAGON = 1, 2, 5, 7, 9


def test_there_are_ten_named_masks_and_each_card_looks_different() -> None:
    assert len(MASKS) == 10 and len(set(MASKS)) == 10
    cards = [mask_card(m).tobytes() for m in range(10)]
    assert len(set(cards)) == 10


def test_the_board_picture_is_a_palette_png_and_the_same_board_draws_the_same_bytes() -> None:
    engine = KabukiEngine.new(3, 5, {}, 0)
    engine.advance(200_000)  # the turn timer has placed a few cards
    view = engine.view(None)
    png = board_png(view)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P" and image.width > image.height
    assert board_png(view) == png
    assert render_board((None, None, None, None), (0, 0, 0, 0), None) != png


def card_at(image: Image.Image, x: int, y: int, scale: float = 1.0) -> bytes:
    w, h = round(CARD_W * scale), round(CARD_H * scale)
    return image.crop((x, y, x + w, y + h)).convert("RGB").tobytes()


def drawn(mask: int | None, scale: float = 1.0) -> bytes:
    """A card as every picture shows it: in the pictures' palette."""
    return pictures._card(mask, scale).convert("RGB").tobytes()


def test_each_stack_shows_its_top_card_and_the_card_on_show_is_apart() -> None:
    tops, current = (FOX, None, MOON, DRAGON), TIGER
    image = Image.open(io.BytesIO(render_board(tops, (3, 0, 1, 7), current, 2)))
    y = MARGIN + LABEL_H
    for stack, top in enumerate(tops):
        assert card_at(image, MARGIN + stack * (CARD_W + GAP), y) == drawn(top), stack
    assert card_at(image, image.width - MARGIN - CARD_W, y) == drawn(current)
    # The challengeable stack is framed in yellow, just outside its card; the others are not.
    frame = image.convert("RGB")
    x2 = MARGIN + 2 * (CARD_W + GAP)
    assert (
        frame.getpixel((x2 - 3, y + 50))
        == frame.getpixel((x2 - 4, y + 80))
        != frame.getpixel((x2 - 9, y + 50))
    )
    x1 = MARGIN + 1 * (CARD_W + GAP)
    assert frame.getpixel((x1 - 3, y + 50)) == frame.getpixel((x1 - 9, y + 50))


def test_the_revealed_stack_is_shown_bottom_to_top_under_the_board() -> None:
    view_key = ("kabuki", "en", (OWL, None, None, None), (3, 0, 0, 0), None, 0, 0, (FOX, MOON, OWL), (0,))
    image = Image.open(io.BytesIO(render_picture(view_key)))
    board = Image.open(io.BytesIO(render_board((OWL, None, None, None), (3, 0, 0, 0), None, 0)))
    assert image.crop((0, 0, board.width, board.height)).tobytes() == board.tobytes()
    cw = round(CARD_W * REVEAL_SCALE)
    y = board.height + MARGIN + REVEAL_HEAD
    for i, card in enumerate((FOX, MOON, OWL)):
        assert card_at(image, MARGIN + i * (cw + REVEAL_GAP), y, REVEAL_SCALE) == drawn(card, REVEAL_SCALE)


def test_the_reveal_picture_shows_the_stack_only_while_it_is_revealed() -> None:
    engine = KabukiEngine.new(3, 5, {}, 0)
    assert reveal_png(engine.view(None)) is None
    png = render_reveal(tuple(range(10)) + (3, 3), (3, 10), 2)
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_the_simulator_command_prints_a_summary_and_replayable_json_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--players", "3", "--games", "2", "--seed", "4"]) == 0
    assert "average total" in capsys.readouterr().out
    assert main(["--players", "2", "--games", "2", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        rec = json.loads(line)
        assert list(rec)[:2] == ["format", "game"] and rec["options"] == DEFAULT_OPTIONS
        check_log(rec)  # someone else can replay and check every game


def test_the_small_words_are_as_tall_as_the_tables_other_words() -> None:
    """TOP, SAME and "last" were drawn at 12 pixels, 7 on the page that shows the board 400
    pixels wide: unreadable. They are drawn as tall as the stacks' headings now."""
    entry = pictures._index(pictures.MARK)
    mark = tuple(pictures._palette().getpalette()[3 * entry : 3 * entry + 3])

    def rows_of_mark(image: Image.Image) -> int:
        rgb = image.convert("RGB")
        return sum(any(rgb.getpixel((x, y)) == mark for x in range(rgb.width)) for y in range(rgb.height))

    reveal = pictures.reveal_image((FOX, OWL, FOX), (0,), 0)
    cw, ch = round(CARD_W * REVEAL_SCALE), round(CARD_H * REVEAL_SCALE)
    x, y = MARGIN + 2 * (cw + REVEAL_GAP), MARGIN + REVEAL_HEAD + ch + 6  # under the frame: TOP
    top_label = reveal.crop((x, y, x + cw, y + pictures.REVEAL_LABEL_H - 4))
    last = pictures._stack_head(0, True)
    assert rows_of_mark(top_label) >= 10 and rows_of_mark(last) >= 10
