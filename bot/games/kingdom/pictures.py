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


# The card's power lines, as large as their room allows: the page shows pictures smaller than
# they are drawn, where 13 pixels could not be read ("if Monk", "turned 5", "YOUR TURN").
POWER_WORDS = 17
TIMINGS = {"turn": N_("YOUR TURN"), "end": N_("END OF ROUND"), "always": N_("ALWAYS")}


def _card_image(char: int, locale: str = DEFAULT) -> Image.Image:
    c = CHARACTERS[char]
    name = t(locale, c.name)
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), 18, fill=COLOURS[char], outline=INK, width=4)
    d.rounded_rectangle((12, 12, CARD_W - 13, CARD_H - 13), 12, fill=PAPER, outline=INK, width=2)
    # Printed value top left, name across the top.
    d.ellipse((18, 18, 70, 70), fill=COLOURS[char], outline=INK, width=3)
    _text_centered(d, (44, 44), str(c.value), 30, "white")
    _text_centered(d, (CARD_W / 2 + 20, 44), name.upper(), 24 if len(name) < 8 else 20, INK, CARD_W - 90)
    d.rounded_rectangle((40, 82, CARD_W - 40, 242), 12, fill=_tint(COLOURS[char]))
    _emblem(d, char, 50, 87, 140)
    timing = t(locale, TIMINGS[c.timing]) if c.timing in TIMINGS else ""
    _text_centered(d, (CARD_W / 2, 262), timing, POWER_WORDS + 2, COLOURS[char], CARD_W - 40)
    if c.turned is not None:
        # Like a real card: the turned value upside down at the bottom, read by turning the card.
        strip = Image.new("RGBA", (CARD_W - 30, 70), (0, 0, 0, 0))
        sd = ImageDraw.Draw(strip)
        sd.line((20, 4, strip.width - 20, 4), fill=INK, width=2)
        sd.ellipse((strip.width / 2 - 24, 12, strip.width / 2 + 24, 60), fill=INK)
        _text_centered(sd, (strip.width / 2, 36), str(c.turned), 28, "white")
        _text_centered(sd, (36, 36), t(locale, "turned"), POWER_WORDS, INK, 66)
        trigger = t(locale, BY_NAME[c.turns_if].name) if c.turns_if else ""
        _text_centered(sd, (strip.width - 36, 36), t(locale, "if {card}", card=trigger), POWER_WORDS, INK, 66)
        image.alpha_composite(strip.rotate(180), (15, CARD_H - 88))
    else:
        _text_centered(
            d,
            (CARD_W / 2, CARD_H - 60),
            t(locale, "never turns"),
            POWER_WORDS + 2,
            (120, 110, 100),
            CARD_W - 40,
        )
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
