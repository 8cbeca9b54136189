"""Pictures of the 16 monster faces, drawn by code with Pillow.

Each face differs above all in its *expression* (eyes, brows, mouth, teeth, tongue, tears…),
because that is what the Mime acts out; colours and head shapes only help to tell them apart
at a glance. Faces are drawn at twice the size and scaled down, which is Pillow's cheapest
anti-aliasing. Renders are cached: the board picture changes only when a card is revealed.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games import fonts
from bot.games.masks.faces import FACES, MONSTERS
from bot.i18n import DEFAULT, shipped, t

INK = (40, 28, 36)
WHITE = (255, 255, 255)
MOUTH = (110, 20, 40)
TONGUE = (240, 110, 140)
TEAR = (90, 170, 255)
BLUSH = (255, 120, 140)

# (head colour, darker shade for horns/ears) per face, in MONSTERS order.
COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((232, 86, 60), (150, 40, 30)),  # Grumpy
    ((255, 210, 60), (215, 150, 30)),  # Giggles
    ((120, 200, 250), (60, 120, 200)),  # Shocked
    ((185, 160, 235), (120, 95, 180)),  # Sleepy
    ((130, 215, 110), (70, 150, 60)),  # Blep
    ((150, 130, 170), (80, 60, 100)),  # Vampy
    ((70, 200, 190), (30, 130, 125)),  # Dizzy
    ((255, 150, 50), (200, 90, 20)),  # Chomper
    ((170, 215, 245), (100, 150, 200)),  # Crybaby
    ((250, 150, 200), (200, 90, 150)),  # Winky
    ((60, 150, 80), (30, 90, 45)),  # Roar
    ((210, 230, 90), (150, 170, 40)),  # Puffer
    ((225, 80, 170), (160, 40, 120)),  # Kissy
    ((200, 160, 90), (130, 95, 45)),  # Shifty
    ((205, 150, 110), (140, 95, 60)),  # Bucky
    ((220, 240, 200), (150, 180, 130)),  # Nervous
)


class Pen:
    """Draws in a 100×100 unit box whatever the pixel size, so the faces read like sketches."""

    def __init__(self, draw: ImageDraw.ImageDraw, size: int) -> None:
        self.d = draw
        self.k = size / 100

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        k = self.k
        return (x0 * k, y0 * k, x1 * k, y1 * k)

    def w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def oval(
        self, cx: float, cy: float, rx: float, ry: float, fill=None, outline=INK, width: float = 1.6
    ) -> None:
        self.d.ellipse(
            self.box(cx - rx, cy - ry, cx + rx, cy + ry), fill=fill, outline=outline, width=self.w(width)
        )

    def dot(self, cx: float, cy: float, r: float, fill=INK) -> None:
        self.oval(cx, cy, r, r, fill=fill, outline=None)

    def line(self, points: Sequence[tuple[float, float]], width: float = 2.0, fill=INK) -> None:
        pts = [(x * self.k, y * self.k) for x, y in points]
        self.d.line(pts, fill=fill, width=self.w(width), joint="curve")
        r = width / 2  # round the ends so thick strokes look drawn with a marker
        for x, y in (points[0], points[-1]):
            self.oval(x, y, r, r, fill=fill, outline=None)

    def poly(self, points: Sequence[tuple[float, float]], fill, outline=INK, width: float = 1.4) -> None:
        pts = [(x * self.k, y * self.k) for x, y in points]
        self.d.polygon(pts, fill=fill, outline=outline, width=self.w(width))

    def arc(
        self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, width: float = 2.0
    ) -> None:
        self.d.arc(self.box(cx - rx, cy - ry, cx + rx, cy + ry), start, end, fill=INK, width=self.w(width))

    def chord(
        self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, fill, width=1.6
    ) -> None:
        box = self.box(cx - rx, cy - ry, cx + rx, cy + ry)
        self.d.chord(box, start, end, fill=fill, outline=INK, width=self.w(width))

    def curve(
        self, fn: Callable[[float], tuple[float, float]], steps: int = 24, width: float = 2.0, fill=INK
    ) -> None:
        self.line([fn(i / steps) for i in range(steps + 1)], width, fill)


# ---------------------------------------------------------------- features


def eye(
    p: Pen, cx: float, cy: float, r: float = 7, look: tuple[float, float] = (0, 0), pupil: float = 3.2
) -> None:
    p.oval(cx, cy, r, r, fill=WHITE)
    p.dot(cx + look[0], cy + look[1], pupil)
    p.dot(cx + look[0] - pupil * 0.35, cy + look[1] - pupil * 0.35, pupil * 0.3, fill=WHITE)


def horns(p: Pen, shade, tall: float = 16) -> None:
    p.poly([(24, 30), (18, 30 - tall), (34, 24)], shade)
    p.poly([(76, 30), (82, 30 - tall), (66, 24)], shade)


def ears(p: Pen, shade, pointy: bool = False) -> None:
    if pointy:
        p.poly([(16, 44), (4, 20), (24, 34)], shade)
        p.poly([(84, 44), (96, 20), (76, 34)], shade)
    else:
        p.oval(15, 36, 8, 8, fill=shade)
        p.oval(85, 36, 8, 8, fill=shade)


def antennae(p: Pen, shade) -> None:
    p.line([(40, 22), (32, 6)], 1.6)
    p.line([(60, 22), (68, 6)], 1.6)
    p.oval(32, 6, 4, 4, fill=shade)
    p.oval(68, 6, 4, 4, fill=shade)


def spikes(p: Pen, shade) -> None:
    for x in (30, 42, 54, 66):
        p.poly([(x - 5, 24), (x + 1, 6), (x + 7, 22)], shade)


def head(p: Pen, colour, rx: float = 38, ry: float = 36, cy: float = 55) -> None:
    p.oval(50, cy, rx, ry, fill=colour, width=2.2)


def brow(p: Pen, x0: float, y0: float, x1: float, y1: float, width: float = 3.2) -> None:
    p.line([(x0, y0), (x1, y1)], width)


def teeth_row(p: Pen, x0: float, x1: float, y: float, depth: float, n: int) -> None:
    """A zigzag of pointed teeth hanging from (depth > 0) or rising to (depth < 0) the line y."""
    step = (x1 - x0) / n
    for i in range(n):
        a = x0 + i * step
        p.poly([(a, y), (a + step / 2, y + depth), (a + step, y)], WHITE, width=0.8)


# ------------------------------------------------------------------- faces


def grumpy(p: Pen, colour, shade) -> None:
    horns(p, shade)
    head(p, colour)
    eye(p, 37, 48, 6, (0, 1.5))
    eye(p, 63, 48, 6, (0, 1.5))
    brow(p, 26, 35, 44, 43, 4)
    brow(p, 74, 35, 56, 43, 4)
    p.arc(50, 82, 14, 9, 200, 340, 3)


def giggles(p: Pen, colour, shade) -> None:
    ears(p, shade)
    head(p, colour)
    p.arc(36, 48, 7, 6, 180, 360, 3)
    p.arc(64, 48, 7, 6, 180, 360, 3)
    p.oval(26, 60, 6, 3.5, fill=BLUSH, outline=None)
    p.oval(74, 60, 6, 3.5, fill=BLUSH, outline=None)
    p.chord(50, 62, 20, 20, 0, 180, MOUTH)
    p.chord(50, 77, 10, 5, 180, 360, TONGUE, width=0)


def shocked(p: Pen, colour, shade) -> None:
    antennae(p, shade)
    head(p, colour)
    eye(p, 36, 47, 10, (0, 0), 2.2)
    eye(p, 64, 47, 10, (0, 0), 2.2)
    p.arc(36, 33, 9, 5, 200, 340, 2.6)
    p.arc(64, 33, 9, 5, 200, 340, 2.6)
    p.oval(50, 75, 6, 8, fill=MOUTH, width=2)


def sleepy(p: Pen, colour, shade) -> None:
    head(p, colour, 37, 37)
    for cx in (36, 64):
        p.arc(cx, 46, 8, 5, 20, 160, 3)  # shut eyes drooping downwards
        p.arc(cx, 53, 6, 3, 30, 150, 1.4)  # bags under them
    p.oval(50, 74, 7, 9, fill=MOUTH, width=2)
    p.chord(50, 80, 5, 3, 180, 360, TONGUE, width=0)
    for x, y, size in ((68, 12, 14), (78, 5, 11), (87, 1, 8)):
        p.d.text((x * p.k, y * p.k), "Z", fill=INK, font=fonts.font(int(size * p.k)))


def blep(p: Pen, colour, shade) -> None:
    ears(p, shade)
    head(p, colour)
    eye(p, 37, 46, 6, (1.5, 0))
    eye(p, 63, 46, 6, (-1.5, 0))
    p.chord(54, 72, 8, 12, 0, 180, TONGUE)
    p.line([(54, 73), (54, 80)], 1.2)
    p.line([(36, 71), (64, 71)], 2.6)


def vampy(p: Pen, colour, shade) -> None:
    ears(p, shade, pointy=True)
    head(p, colour)
    p.poly([(38, 20), (50, 32), (62, 20)], shade, outline=None)  # widow's peak
    for cx in (37, 63):
        p.oval(cx, 47, 7, 6, fill=WHITE)
        p.dot(cx, 47, 3.4, fill=(200, 20, 40))
        p.dot(cx, 47, 1.5)
    brow(p, 29, 38, 45, 42, 3)
    p.arc(64, 34, 9, 5, 200, 340, 3)  # one raised brow: smug
    p.arc(50, 66, 16, 7, 20, 160, 2.6)
    p.poly([(40, 72.2), (43, 82), (46, 72.8)], WHITE, width=1)
    p.poly([(54, 72.8), (57, 82), (60, 72.2)], WHITE, width=1)


def spiral(p: Pen, cx: float, cy: float, r: float) -> None:
    p.curve(
        lambda t: (cx + r * t * math.cos(t * 4 * math.pi), cy + r * t * math.sin(t * 4 * math.pi)), 40, 1.8
    )


def dizzy(p: Pen, colour, shade) -> None:
    head(p, colour, 38, 37)
    for cx in (36, 64):
        p.oval(cx, 47, 9, 9, fill=WHITE)
        spiral(p, cx, 47, 8)
    p.curve(lambda t: (34 + 32 * t, 74 + 3.5 * math.sin(t * 3 * math.pi)), 30, 2.6)
    for x, y in ((22, 14), (50, 8), (78, 14)):
        p.poly([(x, y - 5), (x + 1.5, y - 1.5), (x + 5, y), (x + 1.5, y + 1.5), (x, y + 5),
                (x - 1.5, y + 1.5), (x - 5, y), (x - 1.5, y - 1.5)], (255, 230, 80), width=0.8)  # fmt: skip


def chomper(p: Pen, colour, shade) -> None:
    spikes(p, shade)
    head(p, colour)
    eye(p, 38, 40, 5, (0, -1))
    eye(p, 62, 40, 5, (0, -1))
    p.chord(50, 60, 30, 28, 0, 180, MOUTH, width=2.2)
    teeth_row(p, 21, 79, 60.5, 7, 9)
    teeth_row(p, 31, 69, 86, -6, 6)


def crybaby(p: Pen, colour, shade) -> None:
    head(p, colour)
    brow(p, 27, 40, 43, 34, 3)
    brow(p, 73, 40, 57, 34, 3)
    p.arc(36, 44, 7, 6, 0, 180, 3)
    p.arc(64, 44, 7, 6, 0, 180, 3)
    for cx in (33, 67):
        p.poly([(cx, 52), (cx - 4, 62), (cx + 4, 62)], TEAR, outline=None)
        p.oval(cx, 63, 4, 4, fill=TEAR, outline=None)
        p.oval(cx + (2 if cx < 50 else -2), 76, 3, 3, fill=TEAR, outline=None)
    p.chord(50, 82, 12, 10, 180, 360, MOUTH, width=2.2)  # wailing


def winky(p: Pen, colour, shade) -> None:
    ears(p, shade)
    head(p, colour)
    eye(p, 36, 46, 7, (1, 0))
    p.arc(36, 36, 7, 4, 210, 330, 2.6)
    p.line([(56, 46), (64, 42), (72, 46)], 3)  # the shut eye
    p.arc(64, 34, 7, 4, 210, 330, 2.6)
    p.arc(54, 62, 15, 12, 20, 110, 3)
    p.oval(74, 62, 6, 3.5, fill=BLUSH, outline=None)
    p.poly([(84, 26), (86, 31), (91, 33), (86, 35), (84, 40), (82, 35), (77, 33), (82, 31)], WHITE, width=0.8)


def roar(p: Pen, colour, shade) -> None:
    horns(p, shade, tall=20)
    head(p, colour)
    eye(p, 34, 40, 5, (1, 1), 2.6)
    eye(p, 66, 40, 5, (-1, 1), 2.6)
    brow(p, 24, 28, 42, 35, 4)
    brow(p, 76, 28, 58, 35, 4)
    p.oval(50, 70, 18, 17, fill=MOUTH, width=2.2)
    teeth_row(p, 36, 64, 55.5, 6, 5)
    p.oval(50, 70, 3, 5, fill=TONGUE, outline=None)
    p.chord(50, 86, 10, 5, 180, 360, TONGUE, width=0)


def puffer(p: Pen, colour, shade) -> None:
    head(p, colour, 44, 34, 57)
    p.oval(24, 66, 12, 11, fill=colour, width=1.6)
    p.oval(76, 66, 12, 11, fill=colour, width=1.6)
    p.oval(24, 66, 7, 4, fill=BLUSH, outline=None)
    p.oval(76, 66, 7, 4, fill=BLUSH, outline=None)
    p.line([(30, 42), (38, 46), (30, 50)], 2.6)  # squeezed eyes > <
    p.line([(70, 42), (62, 46), (70, 50)], 2.6)
    p.oval(50, 70, 3.2, 3.2, fill=MOUTH, width=1.6)
    for x in (40, 50, 60):
        p.line([(x, 22), (x, 16)], 1.6)


def heart(p: Pen, cx: float, cy: float, r: float) -> None:
    p.curve(lambda t: (cx + r * 16 * math.sin(2 * math.pi * t) ** 3 / 16,
                       cy - r * (13 * math.cos(2 * math.pi * t) - 5 * math.cos(4 * math.pi * t)
                                 - 2 * math.cos(6 * math.pi * t) - math.cos(8 * math.pi * t)) / 16), 40, 1.2)  # fmt: skip
    p.dot(cx - r * 0.45, cy - r * 0.3, r * 0.45, fill=(230, 40, 70))
    p.dot(cx + r * 0.45, cy - r * 0.3, r * 0.45, fill=(230, 40, 70))
    p.poly(
        [(cx - r * 0.88, cy - 0.1 * r), (cx + r * 0.88, cy - 0.1 * r), (cx, cy + r * 0.95)],
        (230, 40, 70),
        None,
    )


def kissy(p: Pen, colour, shade) -> None:
    head(p, colour)
    for cx in (36, 64):
        p.arc(cx, 44, 7, 6, 0, 180, 3)
        for dx in (-5, 0, 5):
            p.line([(cx + dx, 50), (cx + dx * 1.4, 54)], 1.4)
    p.oval(28, 60, 5, 3, fill=BLUSH, outline=None)
    p.oval(72, 60, 5, 3, fill=BLUSH, outline=None)
    p.oval(50, 68, 6, 4, fill=(220, 30, 60), width=1.6)
    p.oval(50, 75, 6, 4, fill=(220, 30, 60), width=1.6)
    heart(p, 84, 16, 9)


def shifty(p: Pen, colour, shade) -> None:
    ears(p, shade)
    head(p, colour)
    for cx in (36, 64):
        p.oval(cx, 47, 9, 6, fill=WHITE)
        p.dot(cx + 6, 47, 3.2)  # both eyes slid to the side
        p.line([(cx - 9, 43), (cx + 9, 43)], 3)  # heavy, suspicious lids
    brow(p, 27, 35, 45, 37, 3)
    brow(p, 55, 37, 73, 33, 3)
    p.line([(40, 72), (64, 69)], 2.8)
    p.line([(64, 69), (67, 66)], 2.4)


def bucky(p: Pen, colour, shade) -> None:
    ears(p, shade)
    head(p, colour)
    eye(p, 35, 44, 8, (-2, 2), 3.6)
    eye(p, 65, 44, 8, (2, -2), 3.6)
    p.arc(50, 58, 20, 12, 20, 160, 3)
    p.poly([(43, 69.5), (43, 82), (50, 82), (50, 70)], WHITE, width=1.4)
    p.poly([(50, 70), (50, 82), (57, 82), (57, 69.5)], WHITE, width=1.4)
    p.dot(50, 60, 2.5)  # nose


def nervous(p: Pen, colour, shade) -> None:
    antennae(p, shade)
    head(p, colour)
    eye(p, 36, 46, 8, (0, 0), 1.6)
    eye(p, 64, 46, 8, (0, 0), 1.6)
    brow(p, 27, 36, 43, 32, 2.6)
    brow(p, 73, 36, 57, 32, 2.6)
    p.d.rounded_rectangle(p.box(34, 64, 66, 78), radius=3 * p.k, fill=WHITE, outline=INK, width=p.w(2))
    p.line([(34, 71), (66, 71)], 1.2)
    for x in (42, 50, 58):
        p.line([(x, 64), (x, 78)], 1.2)
    p.poly([(82, 28), (78, 38), (86, 38)], TEAR, None)
    p.oval(82, 39, 4, 4, fill=TEAR, outline=None)


DRAWERS: tuple[Callable[[Pen, tuple[int, int, int], tuple[int, int, int]], None], ...] = (
    grumpy,
    giggles,
    shocked,
    sleepy,
    blep,
    vampy,
    dizzy,
    chomper,
    crybaby,
    winky,
    roar,
    puffer,
    kissy,
    shifty,
    bucky,
    nervous,
)
assert len(DRAWERS) == FACES == len(COLOURS)


# ----------------------------------------------------------------- renders

CELL = 170
FACE = 136  # a face on the board
LABEL_H = 28
MARGIN = 12


def draw_face(face: int, size: int = 256) -> Image.Image:
    """One face on a transparent background."""
    if not 0 <= face < FACES:
        raise ValueError(f"No monster face {face}.")
    big = Image.new("RGBA", (size * 2, size * 2), (0, 0, 0, 0))
    colour, shade = COLOURS[face]
    DRAWERS[face](Pen(ImageDraw.Draw(big), size * 2), colour, shade)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=FACES)
def face_image(face: int) -> Image.Image:
    """A face at the board's size, shared by the board pictures (read-only)."""
    return draw_face(face, FACE)


def _png(image: Image.Image) -> bytes:
    # 128 colours look the same (flat colours and their anti-aliased edges) and make a quarter
    # of the bytes to upload: the board is ~46 kB instead of ~185 kB.
    out = io.BytesIO()
    image.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _fitted_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, width: float
) -> None:
    """``text`` centred on ``xy``, drawn smaller until it fits ``width`` (a long name in a language)."""
    while size > 8 and draw.textlength(text, font=fonts.font(size)) > width:
        size -= 1
    draw.text(xy, text, fill=INK, font=fonts.font(size), anchor="mm")


@lru_cache(maxsize=FACES)
def _card_face(face: int, size: int) -> Image.Image:
    """A card's face, drawn once for every language's card (read-only)."""
    return draw_face(face, size)


@lru_cache(maxsize=FACES * len(shipped()))
def face_png(face: int, locale: str = DEFAULT) -> bytes:
    """The Mime's secret card: one face on a card, with its name in ``locale`` underneath."""
    size = 256
    pad = size // 16
    text_h = size // 6
    card = Image.new("RGB", (size + 2 * pad, size + 2 * pad + text_h), (252, 246, 232))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((2, 2, card.width - 3, card.height - 3), radius=pad, outline=INK, width=3)
    art = _card_face(face, size)
    card.paste(art, (pad, pad), art)
    name = t(locale, MONSTERS[face])
    _fitted_text(draw, (card.width / 2, size + pad + text_h / 2), name, max(10, size // 9), size)
    return _png(card)


def draw_all_faces() -> None:
    """Fill ``face_png``'s cache in every language: the Mime's card is sent inside a press, on the
    event loop."""
    for locale in shipped():
        for face in range(FACES):
            face_png(face, locale)


@lru_cache(maxsize=(FACES + 1) * len(shipped()))  # 17 per language
def board_png(highlight: int | None = None, locale: str = DEFAULT) -> bytes:
    """All 16 faces in a 4×4 grid with names (in ``locale``), in tile order (row by row, like the
    buttons); ``highlight`` rings one tile in gold (the revealed card).

    Who holds a tile is shown on its button, not here: so these 17 pictures per language serve
    every game and turn, each drawn once (~40 ms) and cached, and a slap uploads nothing.
    """
    width = 4 * CELL + 2 * MARGIN
    board = Image.new("RGB", (width, 4 * (CELL + LABEL_H) + 2 * MARGIN), (250, 244, 228))
    draw = ImageDraw.Draw(board)
    for tile in range(FACES):
        row, col = divmod(tile, 4)
        x = MARGIN + col * CELL
        y = MARGIN + row * (CELL + LABEL_H)
        bg = (255, 225, 110) if tile == highlight else (255, 255, 255)
        draw.rounded_rectangle(
            (x + 4, y + 4, x + CELL - 4, y + CELL + LABEL_H - 4), 14, fill=bg, outline=INK, width=2
        )
        image = face_image(tile)
        off = (CELL - FACE) // 2
        board.paste(image, (x + off, y + off), image)
        name = t(locale, MONSTERS[tile])
        _fitted_text(draw, (x + CELL / 2, y + CELL + 2), f"{tile + 1}. {name}", 20, CELL - 24)
        if tile == highlight:
            draw.rounded_rectangle(
                (x + 2, y + 2, x + CELL - 2, y + CELL + LABEL_H - 2), 16, outline=(220, 150, 0), width=6
            )
    return _png(board)
