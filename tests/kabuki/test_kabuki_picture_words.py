"""The board picture's small words read where Discord shows it (716 pixels wide, shown 400 wide):
a revealed stack's title and its TOP, SAME and numbers, each stack's heading with "last", its count
and "On show" are at least as big as ``fonts.smallest_size`` asks, in every language, and each
stays inside its room (measured with Pillow's textbbox); a reveal is never wider than the board,
so it never makes the picture wider (and its words smaller as shown)."""

from __future__ import annotations

import pytest
from language_checks import drawn
from picture_checks import problems

from bot.games import fonts
from bot.games.kabuki import pictures
from bot.games.kabuki.pictures import BOARD_H, BOARD_W, board_words, reveal_image, reveal_words, stacked
from bot.i18n import shipped

FOX, MOON, OWL = 2, 1, 5
LONG = (MOON, FOX, MOON, OWL, MOON) * 5 + (MOON,)  # 26 cards: four rows, all sorts of labels
MATCHES = tuple(i for i, card in enumerate(LONG[:-1]) if card == MOON)


@pytest.mark.parametrize("locale", shipped())
def test_a_revealed_stacks_words_are_big_enough_and_inside_their_room(locale):
    image = reveal_image(LONG, MATCHES, 3, locale=locale)
    assert image.width <= BOARD_W  # under the board: the picture stays the board's width
    words = reveal_words(LONG, MATCHES, 3, locale=locale)
    assert problems(words, BOARD_W, (0, 0, image.width, image.height)) == []
    labels = [w.text for w in words[1:]]
    assert labels[-1] == pictures.t(locale, "TOP") and pictures.t(locale, "SAME") in labels and "2" in labels
    assert {w.size for w in words} == {fonts.smallest_size(BOARD_W)} == {20}  # 17 and 16 before


@pytest.mark.parametrize("locale", shipped())
@pytest.mark.parametrize("last", [None, 0, 1, 2, 3])
def test_the_boards_words_are_big_enough_and_inside_their_room(locale, last):
    words = board_words((0, 1, 12, 3), last, locale=locale)
    assert problems(words, BOARD_W, (0, 0, BOARD_W, BOARD_H)) == []
    if last is not None:
        assert pictures.t(locale, "last") in [w.text for w in words]


def test_a_short_stack_is_titled_within_the_board_in_every_language():
    for locale in shipped():
        for stack in range(4):
            image = reveal_image((FOX,), (), stack, locale=locale)
            assert image.width <= BOARD_W
            picture = stacked(pictures.board_image((FOX, None, None, None), (1, 0, 0, 0), None), image)
            assert picture.width == BOARD_W


@pytest.mark.parametrize("locale", ["de", "fr"])
def test_the_picture_draws_the_words_it_was_measured_with(locale):
    with drawn(pictures, primed=[pictures._palette]) as seen:
        pictures.board_image((FOX, None, MOON, OWL), (2, 0, 12, 1), None, 2, locale=locale)
        reveal_image(LONG, MATCHES, 3, locale=locale)
    shown = {(text, font.size) for text, font in seen}
    measured = {(w.text, w.size) for w in board_words((2, 0, 12, 1), 2, locale=locale)}
    measured |= {(w.text, w.size) for w in reveal_words(LONG, MATCHES, 3, locale=locale)}
    assert measured <= shown
