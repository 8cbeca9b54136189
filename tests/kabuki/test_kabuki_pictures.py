"""Kabuki pictures: every mask draws, pictures are PNGs, and redraws come from the cache."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.games.kabuki.engine import DEFAULT_OPTIONS, KabukiEngine
from bot.games.kabuki.pictures import MASKS, board_png, mask_card, render_board, render_reveal, reveal_png
from bot.games.kabuki.replay import check_log
from bot.games.kabuki.simulate import main


def test_there_are_ten_named_masks_and_each_card_looks_different() -> None:
    assert len(MASKS) == 10 and len(set(MASKS)) == 10
    cards = [mask_card(m).tobytes() for m in range(10)]
    assert len(set(cards)) == 10


def test_the_board_picture_is_a_png_and_redrawing_it_is_cached() -> None:
    engine = KabukiEngine.new(3, 5, {}, 0)
    engine.advance(200_000)  # the turn timer has placed a few cards
    view = engine.view(None)
    png = board_png(view)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width > image.height
    assert board_png(view) is png
    assert render_board((None, None, None, None), (0, 0, 0, 0), None) != png


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
