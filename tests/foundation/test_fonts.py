"""Every picture draws with the shipped font, and the font has a glyph for every character drawn:
no missing-glyph boxes (Pillow's own font lacked the Kabuki board's "—")."""

from __future__ import annotations

import itertools

import pytest
from language_checks import drawn
from PIL import ImageFont

from bot.games import fonts
from bot.games.kabuki import pictures as kabuki
from bot.games.kingdom import pictures as kingdom
from bot.games.kingdom.cards import CHARACTERS
from bot.games.masks import pictures as masks
from bot.games.masks.faces import FACES

# Names are user input: characters no shipped font has must still draw, as "?" rather than boxes.
NAMES = ("alice", "Łukasz Żółć", "李雷", "🎲 dice", "Zoë—the—longest—name—at—the—table")


def draw_every_picture() -> None:
    masks_ids = range(len(kabuki.MASKS))
    for current, last in itertools.product([None, *masks_ids], [None, 0]):
        kabuki.render_board((current, None, 1, 2), (1, 0, 2, 11), current, last)
    for k in range(3):
        kabuki.render_reveal((4,) * (k + 1) + (1,) * 12, tuple(range(k)), 3)
    kabuki.gallery_png()
    for char in range(len(CHARACTERS)):
        kingdom.card_png(char)
    seats = [(name, char % 13, char, char % 2 == 0, char < 3) for char, name in enumerate(NAMES)]
    kingdom.table_png(tuple(seats), "Round 12")
    for face in range(FACES):
        masks.face_png(face)
    masks.board_png(3)


def test_every_picture_draws_every_string_with_the_shipped_font_which_has_all_its_glyphs():
    with drawn(kabuki, kingdom, masks) as seen:
        draw_every_picture()
    texts = {text for text, _ in seen}
    # What the pictures draw, from every game: the dash on an empty "On show", mask, character
    # and monster names, labels, values, and the names of the players.
    for expected in ("—", "Dragon", "actor", "2 cards", "TOP", "SAME", "INNKEEPER", "if Princess"):
        assert expected in texts, expected
    assert {"LOSES", "Round 12", "= 4  (turned)", "1. Grumpy", "Z", "alice"} <= texts
    for text, font in seen:
        assert getattr(font, "path", None) == str(fonts.FONT_FILE), text
        assert fonts.missing(text) == set(), f"{text!r} has no glyph for {fonts.missing(text)}"


def test_a_name_with_characters_the_font_lacks_is_drawn_with_a_question_mark_for_each():
    assert fonts.missing("李雷 🎲") == {"李", "雷", "🎲"}
    assert fonts.drawable("李雷") == "??" and fonts.drawable("🎲 dice") == "? dice"
    assert fonts.drawable("Łukasz Żółć — ok…") == "Łukasz Żółć — ok…"  # nothing to replace
    with drawn(kabuki, kingdom, masks) as seen:
        draw_every_picture()
    texts = {text for text, _ in seen}
    assert "??" in texts and "? dice" in texts  # Kingdom's table
    assert any(t.startswith("Zoë—the—") and t.endswith("…") for t in texts)  # cut to fit, still drawn


def test_the_character_map_reader_agrees_with_what_freetype_draws():
    """A code point the reader says is missing draws as the font's missing-glyph box; one it
    says is there draws something else. Checked over Latin, punctuation, arrows, symbols, CJK."""
    # Basic layout looks each character up in the font alone, as the question asks (the pictures'
    # layout engine, raqm, shapes whole strings and refuses some lone code points).
    font = ImageFont.truetype(str(fonts.FONT_FILE), 24, layout_engine=ImageFont.Layout.BASIC)

    def shape(text: str) -> tuple[tuple[int, int], bytes]:
        mask = font.getmask(text)
        return mask.size, bytes(mask)

    box = shape("\U0010fffd")  # a private-use code point no font maps
    have = fonts.characters()
    sample = [
        *range(0x21, 0x250),
        *range(0x2000, 0x2800, 3),
        *range(0x4E00, 0x4E20),
        *range(0x1F300, 0x1F320),
    ]
    checked = 0
    for code in sample:
        drawn = shape(chr(code))
        if not any(drawn[1]):
            continue  # drawn blank (a space, a control character): neither box nor glyph
        assert (drawn == box) == (code not in have), hex(code)
        checked += 1
    assert checked > 1000


def test_pillows_own_font_lacks_the_dash_the_kabuki_board_draws():
    """Why the bot ships a font: read by the same reader, Pillow's default font has no "—"."""
    default = ImageFont.load_default(size=20)
    assert 0x2014 not in fonts._cmap(default.path.getvalue())
    assert 0x2014 in fonts.characters()


@pytest.mark.parametrize("size", [12, 44])
def test_the_font_file_ships_with_the_package_and_its_licence(size):
    assert fonts.FONT_FILE.is_file() and (fonts.FONT_FILE.parent / "LICENSE").is_file()
    assert fonts.font(size).getname() == ("DejaVu Sans", "Book")
