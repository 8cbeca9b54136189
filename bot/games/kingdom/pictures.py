"""Pictures for Death Over the Kingdom, drawn by code with Pillow (no image files to ship).

``card_png(char)`` draws one character card; ``table_png(...)`` the revealed table at the end of
a round. Both return PNG bytes. The 13 cards are cached here; a table is drawn once per round,
and the board keeps it with every other game's pictures (``bot.glue.board.PICTURES``, bounded in
bytes: a 16-seat table is ~190 kB).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games import fonts
from bot.games.kingdom.cards import BY_NAME, CHARACTERS
from bot.i18n import DEFAULT, N_, shipped, t

CARD_W, CARD_H = 240, 360
INK = (34, 30, 40)
PAPER = (250, 244, 228)
GOLD = (222, 176, 52)
LOSER = (200, 40, 40)
# One background colour per character, darkest for Death, gold for the crowned.
COLOURS: tuple[tuple[int, int, int], ...] = (
    (70, 70, 78),  # Death
    (168, 120, 72),  # Innkeeper
    (96, 150, 96),  # Trader
    (84, 84, 120),  # Thief
    (214, 96, 140),  # Clown
    (128, 96, 176),  # Bard
    (150, 120, 88),  # Monk
    (70, 110, 190),  # Magician
    (180, 64, 48),  # Dragon
    (120, 130, 146),  # Knight
    (236, 150, 180),  # Princess
    (150, 60, 120),  # Queen
    (200, 150, 40),  # King
)


def _font(size: int) -> ImageFont.FreeTypeFont:
    return fonts.font(size)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _table_png(image: Image.Image) -> bytes:
    """The table is opaque and drawn once per round, while the table waits: without the alpha
    channel and with zlib's fastest level it encodes in about half the time at the same size."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _text_centered(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Any, width: float = 0
) -> None:
    """``width``: the room the text has; a longer text (a name in German) is drawn smaller."""
    font = _font(size)
    while width and size > 8 and font.getlength(text) > width:
        size -= 1
        font = _font(size)
    draw.text(xy, text, font=font, fill=fill, anchor="mm")


# ------------------------------------------------------------------ emblems
# Each emblem draws into a square box (x, y, s): simple shapes a player recognises at a glance.


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return out


def _crown(d: ImageDraw.ImageDraw, x: float, y: float, s: float, spikes: int, fill: Any) -> None:
    base_top, base_bottom = y + s * 0.55, y + s * 0.8
    pts = [(x + s * 0.1, base_bottom), (x + s * 0.1, y + s * 0.3)]
    for i in range(spikes):
        left = x + s * 0.1 + i * s * 0.8 / spikes
        pts += [(left + s * 0.4 / spikes, y + s * 0.1 if i % 2 == 0 or spikes < 5 else y + s * 0.2)]
        pts += [(left + s * 0.8 / spikes, base_top if i < spikes - 1 else y + s * 0.3)]
    pts += [(x + s * 0.9, base_bottom)]
    d.polygon(pts, fill=fill, outline=INK, width=3)
    for i in range(spikes):
        cx = x + s * 0.1 + (i + 0.5) * s * 0.8 / spikes
        d.ellipse((cx - s * 0.04, y + s * 0.62, cx + s * 0.04, y + s * 0.7), fill=(190, 30, 50))


def _emblem(d: ImageDraw.ImageDraw, char: int, x: float, y: float, s: float) -> None:
    cx = x + s / 2
    w = 3
    if char == 0:  # Death: a skull
        d.ellipse((x + s * 0.2, y + s * 0.1, x + s * 0.8, y + s * 0.7), fill=PAPER, outline=INK, width=w)
        d.rectangle((x + s * 0.32, y + s * 0.6, x + s * 0.68, y + s * 0.85), fill=PAPER, outline=INK, width=w)
        for ex in (0.38, 0.62):
            d.ellipse((x + s * (ex - 0.09), y + s * 0.32, x + s * (ex + 0.09), y + s * 0.5), fill=INK)
        d.polygon(
            [(cx, y + s * 0.52), (cx - s * 0.05, y + s * 0.62), (cx + s * 0.05, y + s * 0.62)], fill=INK
        )
        for tx in (0.41, 0.5, 0.59):
            d.line((x + s * tx, y + s * 0.7, x + s * tx, y + s * 0.85), fill=INK, width=2)
    elif char == 1:  # Innkeeper: a tankard
        d.rounded_rectangle(
            (x + s * 0.25, y + s * 0.3, x + s * 0.65, y + s * 0.88), 8, fill=GOLD, outline=INK, width=w
        )
        d.arc((x + s * 0.52, y + s * 0.4, x + s * 0.85, y + s * 0.75), -90, 90, fill=INK, width=6)
        for fx in (0.3, 0.45, 0.6):
            d.ellipse(
                (x + s * (fx - 0.09), y + s * 0.16, x + s * (fx + 0.09), y + s * 0.36),
                fill="white",
                outline=INK,
            )
    elif char == 2:  # Trader: a pair of scales
        d.line((cx, y + s * 0.15, cx, y + s * 0.85), fill=INK, width=5)
        d.line((x + s * 0.15, y + s * 0.3, x + s * 0.85, y + s * 0.3), fill=INK, width=5)
        d.rectangle((x + s * 0.35, y + s * 0.82, x + s * 0.65, y + s * 0.9), fill=INK)
        for px in (0.22, 0.78):
            d.line((x + s * px, y + s * 0.3, x + s * (px - 0.1), y + s * 0.6), fill=INK, width=2)
            d.line((x + s * px, y + s * 0.3, x + s * (px + 0.1), y + s * 0.6), fill=INK, width=2)
            d.chord(
                (x + s * (px - 0.14), y + s * 0.5, x + s * (px + 0.14), y + s * 0.7),
                0,
                180,
                fill=GOLD,
                outline=INK,
            )
    elif char == 3:  # Thief: a mask
        d.rounded_rectangle((x + s * 0.1, y + s * 0.35, x + s * 0.9, y + s * 0.65), 30, fill=INK)
        for ex in (0.32, 0.68):
            d.ellipse((x + s * (ex - 0.1), y + s * 0.42, x + s * (ex + 0.1), y + s * 0.56), fill=PAPER)
        d.line((x + s * 0.88, y + s * 0.45, x + s * 0.98, y + s * 0.3), fill=INK, width=4)
    elif char == 4:  # Clown: a face with a red nose and a hat
        d.ellipse((x + s * 0.22, y + s * 0.35, x + s * 0.78, y + s * 0.9), fill=PAPER, outline=INK, width=w)
        d.polygon(
            [(x + s * 0.3, y + s * 0.42), (cx, y + s * 0.02), (x + s * 0.7, y + s * 0.42)],
            fill=GOLD,
            outline=INK,
        )
        d.ellipse((cx - s * 0.07, y + s * 0.58, cx + s * 0.07, y + s * 0.72), fill=(220, 30, 30))
        d.arc((x + s * 0.35, y + s * 0.6, x + s * 0.65, y + s * 0.82), 20, 160, fill=INK, width=3)
        for ex in (0.4, 0.6):
            d.ellipse((x + s * (ex - 0.03), y + s * 0.5, x + s * (ex + 0.03), y + s * 0.56), fill=INK)
    elif char == 5:  # Bard: a lute and a note
        d.ellipse(
            (x + s * 0.15, y + s * 0.45, x + s * 0.6, y + s * 0.9), fill=(196, 140, 70), outline=INK, width=w
        )
        d.ellipse((x + s * 0.32, y + s * 0.6, x + s * 0.43, y + s * 0.72), fill=INK)
        d.line((x + s * 0.45, y + s * 0.58, x + s * 0.8, y + s * 0.15), fill=INK, width=8)
        d.ellipse((x + s * 0.7, y + s * 0.55, x + s * 0.84, y + s * 0.66), fill=INK)
        d.line((x + s * 0.83, y + s * 0.6, x + s * 0.83, y + s * 0.3), fill=INK, width=3)
    elif char == 6:  # Monk: a hooded head and a candle
        d.polygon(
            [(cx, y + s * 0.08), (x + s * 0.15, y + s * 0.9), (x + s * 0.85, y + s * 0.9)], fill=(110, 80, 55)
        )
        d.ellipse((x + s * 0.36, y + s * 0.35, x + s * 0.64, y + s * 0.65), fill=INK)
        d.rectangle((x + s * 0.8, y + s * 0.45, x + s * 0.88, y + s * 0.88), fill=PAPER, outline=INK)
        d.ellipse((x + s * 0.79, y + s * 0.33, x + s * 0.89, y + s * 0.45), fill=GOLD)
    elif char == 7:  # Magician: a star and a wand
        d.polygon(_star(x + s * 0.42, y + s * 0.4, s * 0.3), fill=GOLD, outline=INK)
        d.line((x + s * 0.55, y + s * 0.9, x + s * 0.85, y + s * 0.55), fill=INK, width=7)
        d.line((x + s * 0.81, y + s * 0.6, x + s * 0.85, y + s * 0.55), fill="white", width=7)
    elif char == 8:  # Dragon: wings, head and fire
        d.polygon(
            [(cx, y + s * 0.5), (x + s * 0.05, y + s * 0.15), (x + s * 0.2, y + s * 0.55)], fill=(120, 30, 30)
        )
        d.polygon(
            [(cx, y + s * 0.5), (x + s * 0.95, y + s * 0.15), (x + s * 0.8, y + s * 0.55)], fill=(120, 30, 30)
        )
        d.ellipse(
            (x + s * 0.3, y + s * 0.35, x + s * 0.7, y + s * 0.8), fill=(60, 140, 60), outline=INK, width=w
        )
        for ex in (0.42, 0.58):
            d.ellipse((x + s * (ex - 0.03), y + s * 0.5, x + s * (ex + 0.03), y + s * 0.56), fill=GOLD)
        d.polygon(
            [(x + s * 0.42, y + s * 0.78), (cx, y + s * 0.98), (x + s * 0.58, y + s * 0.78)],
            fill=(250, 140, 30),
        )
    elif char == 9:  # Knight: a sword
        d.polygon([(cx, y + s * 0.05), (cx - s * 0.06, y + s * 0.18), (cx - s * 0.06, y + s * 0.65),
                   (cx + s * 0.06, y + s * 0.65), (cx + s * 0.06, y + s * 0.18)], fill=(220, 224, 232), outline=INK)  # fmt: skip
        d.rectangle((x + s * 0.28, y + s * 0.65, x + s * 0.72, y + s * 0.72), fill=GOLD, outline=INK)
        d.rectangle((cx - s * 0.035, y + s * 0.72, cx + s * 0.035, y + s * 0.9), fill=(110, 70, 40))
        d.ellipse((cx - s * 0.06, y + s * 0.88, cx + s * 0.06, y + s * 0.98), fill=GOLD, outline=INK)
    elif char == 10:  # Princess: a tiara
        d.arc((x + s * 0.1, y + s * 0.4, x + s * 0.9, y + s * 1.0), 180, 360, fill=GOLD, width=10)
        d.polygon(_star(cx, y + s * 0.35, s * 0.16, 4), fill=GOLD, outline=INK)
        d.ellipse((cx - s * 0.05, y + s * 0.3, cx + s * 0.05, y + s * 0.4), fill=(80, 160, 220))
    elif char == 11:  # Queen: a crown with three points
        _crown(d, x, y + s * 0.05, s, 3, GOLD)
    elif char == 12:  # King: a tall crown with five points
        _crown(d, x - s * 0.05, y - s * 0.02, s * 1.1, 5, GOLD)


# ------------------------------------------------------------------ one card
def _tint(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The character's colour washed out on the card's paper (opaque, so it survives resizing)."""
    return tuple(int(p * 0.75 + c * 0.25) for p, c in zip(PAPER, colour, strict=True))  # type: ignore[return-value]


# The card's power lines (when it acts, "turned", "if …", "never turns"): as large as their room
# allows and never smaller than POWER_LEAST, so they read where Discord shows the card (240 pixels
# wide, as drawn: ``fonts.smallest_size`` asks 11). A line too long for its room is wrapped onto a
# second line where the card has one ("ne se retourne / jamais"), else drawn a little smaller.
POWER_WORDS = 18
POWER_LEAST = 14
TIMINGS = {"turn": N_("YOUR TURN"), "end": N_("END OF ROUND"), "always": N_("ALWAYS")}
STRIP_W, STRIP_H = CARD_W - 30, 70  # the turned value's strip at the bottom, printed upside down
LINE = 1.2  # a line's height, in font sizes


def _lines(
    text: str,
    size: int,
    centre: tuple[float, float],
    box: tuple[float, float, float, float],
    fill: Any,
    lines: int = 1,
) -> list[fonts.Words]:
    """``text`` fitted to ``box``'s width (``fonts.fitted``, from ``size`` down to ``POWER_LEAST``),
    its lines centred on ``centre``."""
    left, _, right, _ = box
    size, wrapped = fonts.fitted(text, size, POWER_LEAST, right - left, lines)
    x, y = centre
    return [
        fonts.Words(line, size, (x, y + (i - (len(wrapped) - 1) / 2) * size * LINE), box, fill)
        for i, line in enumerate(wrapped)
    ]


def card_words(char: int, locale: str = DEFAULT) -> tuple[list[fonts.Words], list[fonts.Words]]:
    """Every word a card draws, where, how big and in which colour, in ``locale``: those on the
    card, and those on its turned strip (in the strip's own pixels, before it is turned over)."""
    c = CHARACTERS[char]
    name = t(locale, c.name).upper()
    top = CARD_W / 2 + 20
    on_card = [
        fonts.Words(str(c.value), 30, (44, 44), (18, 18, 70, 70), "white"),
        *_lines(name, 24 if len(name) < 8 else 20, (top, 44), (top - 75, 20, top + 75, 68), INK),
    ]
    if c.timing in TIMINGS:
        timing = t(locale, TIMINGS[c.timing])
        on_card += _lines(
            timing, POWER_WORDS + 1, (CARD_W / 2, 259), (20, 246, CARD_W - 20, 272), COLOURS[char]
        )
    if c.turned is None:
        never, grey = t(locale, "never turns"), (120, 110, 100)
        room = (20, CARD_H - 86, CARD_W - 20, CARD_H - 22)
        return [*on_card, *_lines(never, POWER_WORDS + 1, (CARD_W / 2, CARD_H - 54), room, grey, 2)], []
    trigger = t(locale, BY_NAME[c.turns_if].name) if c.turns_if else ""
    strip = [
        fonts.Words(str(c.turned), 28, (38, 36), (14, 12, 62, 60), "white"),
        *_lines(t(locale, "turned"), POWER_WORDS, (138, 24), (74, 11, STRIP_W - 6, 36), INK),
        *_lines(t(locale, "if {card}", card=trigger), POWER_WORDS, (138, 49), (74, 37, STRIP_W - 6, 62), INK),
    ]
    return on_card, strip


def _draw_words(d: ImageDraw.ImageDraw, words: Sequence[fonts.Words]) -> None:
    for word in words:
        d.text(word.at, word.text, font=_font(word.size), fill=word.fill, anchor="mm")


def _card_image(char: int, locale: str = DEFAULT) -> Image.Image:
    on_card, on_strip = card_words(char, locale)
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), 18, fill=COLOURS[char], outline=INK, width=4)
    d.rounded_rectangle((12, 12, CARD_W - 13, CARD_H - 13), 12, fill=PAPER, outline=INK, width=2)
    # Printed value top left, name across the top, when the power acts under the emblem.
    d.ellipse((18, 18, 70, 70), fill=COLOURS[char], outline=INK, width=3)
    d.rounded_rectangle((40, 82, CARD_W - 40, 242), 12, fill=_tint(COLOURS[char]))
    _emblem(d, char, 50, 87, 140)
    _draw_words(d, on_card)
    if on_strip:
        # Like a real card: the turned value upside down at the bottom, read by turning the card:
        # its value in a disc, "turned" and "if …" beside it, each on a line of its own.
        strip = Image.new("RGBA", (STRIP_W, STRIP_H), (0, 0, 0, 0))
        sd = ImageDraw.Draw(strip)
        sd.line((20, 4, STRIP_W - 20, 4), fill=INK, width=2)
        sd.ellipse((14, 12, 62, 60), fill=INK)
        _draw_words(sd, on_strip)
        image.alpha_composite(strip.rotate(180), (15, CARD_H - 88))
    return image


@lru_cache(maxsize=128)
def card_png(char: int, locale: str = DEFAULT) -> bytes:
    """One character card (0..12) as PNG bytes, its words (name, timing) in ``locale``."""
    if not 0 <= char < len(CHARACTERS):
        raise ValueError(f"No character {char}.")
    return _png(_card_image(char, locale))


def draw_all_cards() -> None:
    """Fill ``card_png``'s cache in every language: a card first pushed inside a press would
    take ~5 ms of the loop."""
    for locale in shipped():
        for char in range(len(CHARACTERS)):
            card_png(char, locale)


@lru_cache(maxsize=128)
def _small_card(char: int, turned: bool, locale: str = DEFAULT) -> Image.Image:
    small = _card_image(char, locale).resize((CARD_W // 2, CARD_H // 2), Image.Resampling.LANCZOS)
    # A turned card is drawn upside down, so its turned value reads the right way up.
    return small.rotate(180) if turned else small


# ------------------------------------------------------------------ the revealed table
Seat = tuple[str, int, int, bool, bool]  # (player name, character, final value, turned, loses)


def table_png(seats: tuple[Seat, ...], title: str = "", locale: str = DEFAULT) -> bytes:
    """The revealed table: every seat's card in play order with the player's name, the final
    value (and how it came about) and the losers marked. Build ``seats`` from a reveal with
    ``reveal_seats``."""
    cols = min(len(seats), 8) or 1
    rows = max(1, math.ceil(len(seats) / cols))
    cw, ch = CARD_W // 2, CARD_H // 2
    cell_w, cell_h = cw + 24, ch + 74
    top = 44 if title else 10
    image = Image.new("RGBA", (cols * cell_w + 16, rows * cell_h + top + 6), (40, 44, 52, 255))
    d = ImageDraw.Draw(image)
    if title:
        _text_centered(d, (image.width / 2, 24), title, 22, "white")
    for i, (name, char, value, turned, loses) in enumerate(seats):
        x = 8 + (i % cols) * cell_w + 12
        y = top + (i // cols) * cell_h
        if loses:
            d.rounded_rectangle((x - 7, y - 5, x + cw + 6, y + ch + 66), 10, fill=LOSER)
        image.alpha_composite(_small_card(char, turned, locale), (x, y))
        name = fonts.drawable(name)
        label = name if len(name) <= 14 else name[:13] + "…"
        _text_centered(d, (x + cw / 2, y + ch + 14), label, 15, "white")
        if turned:
            worth = t(locale, "= {value}  (turned)", value=value)
        elif char == 6 and value != 6:
            worth = t(locale, "= {value}  (copied)", value=value)
        else:
            worth = f"= {value}"
        _text_centered(d, (x + cw / 2, y + ch + 34), worth, 16, GOLD, cell_w - 4)
        if loses:
            _text_centered(d, (x + cw / 2, y + ch + 54), t(locale, "LOSES"), 15, "white", cell_w - 4)
    return _table_png(image)


def reveal_seats(reveal: Mapping[str, Any], names: Sequence[str]) -> tuple[Seat, ...]:
    """Turn an engine reveal (``view(None)["reveal"]``) and seat names into ``table_png`` input."""
    return tuple((names[c["seat"]], c["char"], c["value"], c["turned"], c["loser"]) for c in reveal["cards"])


def reveal_png(reveal: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT) -> bytes:
    """The revealed table for an engine reveal, titled with the round number, in ``locale``."""
    title = t(locale, "Round {round}", round=reveal["round"])
    return table_png(reveal_seats(reveal, names), title, locale)
