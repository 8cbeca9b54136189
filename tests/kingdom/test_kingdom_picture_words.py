"""A card's small words read where Discord shows the card: its power lines (when the power acts,
"turned", "if …", "never turns") and name are at least as big as ``fonts.smallest_size`` asks of
a 240-pixel picture, in every language, and each line stays inside its room on the card (measured
with Pillow's textbbox), wrapped rather than shrunk past that size; the picture draws exactly
these words."""

from __future__ import annotations

import pytest
from language_checks import drawn
from picture_checks import problems

from bot.games import fonts
from bot.games.kingdom import pictures
from bot.games.kingdom.cards import CHARACTERS
from bot.games.kingdom.pictures import CARD_H, CARD_W, STRIP_H, STRIP_W, card_words
from bot.i18n import shipped

CARDS = range(len(CHARACTERS))


@pytest.mark.parametrize("locale", shipped())
def test_every_cards_words_are_big_enough_and_inside_their_room(locale):
    for char in CARDS:
        on_card, on_strip = card_words(char, locale)
        assert problems(on_card, CARD_W, (12, 12, CARD_W - 12, CARD_H - 12)) == []
        assert problems(on_strip, CARD_W, (0, 0, STRIP_W, STRIP_H)) == []
        # The power lines in particular: no smaller than the card's own floor, above Discord's.
        power = [w for w in [*on_card[2:], *on_strip[1:]] if not w.text.isdigit()]
        assert power and min(w.size for w in power) >= pictures.POWER_LEAST >= fonts.smallest_size(CARD_W)


def test_the_longest_german_and_french_power_lines_fit_at_full_size_or_wrap():
    def lines(locale):
        return [
            w for char in CARDS for w in [*card_words(char, locale)[0][2:], *card_words(char, locale)[1][1:]]
        ]

    german, french = lines("de"), lines("fr")
    longest = {
        locale: max(found, key=lambda w: fonts.font(w.size).getlength(w.text))
        for locale, found in (("de", german), ("fr", french))
    }
    # The longest German line draws at its full size on one line; so does "bei Prinzessin" (9 px
    # before, shrunk to fit beside the turned value).
    assert (longest["de"].text, longest["de"].size) == ("wird nie umgedreht", pictures.POWER_WORDS + 1)
    assert problems([longest["de"], longest["fr"]], CARD_W) == []
    prinzessin = next(w for w in german if w.text == "bei Prinzessin")
    assert prinzessin.size == pictures.POWER_WORDS and problems([prinzessin], CARD_W) == []
    assert longest["fr"].size == pictures.POWER_WORDS + 1
    # "ne se retourne jamais" is too long for one line at that size: two lines, each inside.
    never = [w for w in french if w.text in ("ne se retourne", "jamais")]
    assert [w.text for w in never[:2]] == ["ne se retourne", "jamais"]
    assert never[0].size == never[1].size == pictures.POWER_WORDS + 1
    assert never[0].at[1] < never[1].at[1] and problems(never[:2], CARD_W) == []


def test_a_word_too_small_or_too_wide_for_its_room_is_found():
    small = fonts.Words("turned", 9, (100, 20), (60, 0, 140, 40))
    wide = fonts.Words("bei Prinzessin", 18, (100, 20), (60, 0, 140, 40))
    assert len(problems([small], CARD_W)) == 1 and len(problems([wide], CARD_W)) == 1
    assert problems([small], 800) and not problems([fonts.Words("x", 22, (10, 10), (0, 0, 20, 20))], 800)


@pytest.mark.parametrize("locale", ["de", "fr"])
def test_the_card_draws_exactly_its_words(locale):
    for char in CARDS:
        with drawn(pictures) as seen:
            pictures.card_png(char, locale)
        on_card, on_strip = card_words(char, locale)
        assert sorted((text, font.size) for text, font in seen) == sorted(
            (w.text, w.size) for w in [*on_card, *on_strip]
        )
