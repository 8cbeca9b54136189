"""/stats' chart: a member's all-time rating after each of their rated games, one line per game.

``chart_of`` turns a member's rating history (``Storage.rating_history``) into a ``Chart``: the
numbers members see (``Rating.shown``), each game's title, colour and marker, and the chart's
words in the reader's language. ``draw`` makes the PNG with Pillow; ``picture`` wraps it as the
board pictures are wrapped, so it is drawn in the pictures' thread (``bot.glue.board``), never on
the event loop, and kept by its content in their cache. See docs/standings.md, *The rating chart*.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageDraw

from bot.community.ratings import DISPLAY_BASE, TIERS, Rating
from bot.games import fonts
from bot.glue.board import Picture
from bot.i18n import DEFAULT, t

FILENAME = "rating.png"
WIDTH, HEIGHT = 800, 450  # shown 400 wide on desktop: every word is drawn at least 22 px
SS = 2  # drawn at twice the size and shrunk: smooth lines
SMALL = fonts.smallest_size(WIDTH)  # tick numbers and tier names
WORDS = SMALL + 2  # the axes' words and the legend
PAPER = (43, 45, 49)  # Discord's dark embed
INK = (220, 221, 222)
DIM = (150, 154, 160)
GRID = (70, 73, 80)
# One colour per game, from the Okabe-Ito colour-blind-safe palette (the ones that read on a
# dark ground), and a marker of its own, so two games are told apart without their colours.
COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (204, 121, 167),  # reddish purple
    (213, 94, 0),  # vermillion
)
MARKERS = ("circle", "square", "triangle", "diamond")
MARKED_UP_TO = 40  # more games than this: a line without markers, which would crowd it


@dataclass(frozen=True)
class Line:
    title: str  # the game's name in the reader's language
    colour: tuple[int, int, int]
    marker: str
    ratings: tuple[int, ...]  # the shown rating after each rated game, oldest first


@dataclass(frozen=True)
class Words:
    """The chart's words, in the reader's language."""

    rating: str  # over the rating axis
    games: str  # under the games' axis
    tiers: tuple[tuple[int, str], ...]  # (lowest rating, tier name), drawn as lines across


@dataclass(frozen=True)
class Chart:
    lines: tuple[Line, ...]
    words: Words
    start: int = DISPLAY_BASE  # every line starts here, before its first game


def words(locale: str = DEFAULT) -> Words:
    return Words(
        rating=t(locale, "All-time rating"),
        games=t(locale, "Rated games"),
        tiers=tuple((floor, t(locale, name)) for floor, name in TIERS if floor),
    )


def chart_of(
    history: Mapping[str, Sequence[Rating]],
    titles: Mapping[str, str],
    order: Sequence[str],
    locale: str = DEFAULT,
) -> Chart | None:
    """The chart of a member's history (per game, their ratings after each rated game), one line
    per game in ``order`` (the games loaded, then any other), titled from ``titles``; each game's
    colour and marker by its place in ``order``, so a game keeps them on every member's chart.
    None when there is nothing to draw."""
    kinds = [kind for kind in order if history.get(kind)]
    kinds += sorted(kind for kind in history if history[kind] and kind not in order)
    if not kinds:
        return None
    places = {kind: i for i, kind in enumerate([*order, *(kind for kind in kinds if kind not in order)])}
    lines = tuple(
        Line(
            titles.get(kind, kind),
            COLOURS[places[kind] % len(COLOURS)],
            MARKERS[places[kind] % len(MARKERS)],
            tuple(r.shown for r in history[kind]),
        )
        for kind in kinds
    )
    return Chart(lines, words(locale))


def picture(chart: Chart) -> Picture:
    """The chart as a board's picture: drawn in the pictures' thread, kept by its content."""
    return Picture(key=("rating chart", chart), render=partial(draw, chart), filename=FILENAME)


def _step(span: float, most: int) -> int:
    """A round step (1, 2, 5 × 10ⁿ) that cuts ``span`` into at most ``most`` parts."""
    raw = max(span, 1) / most
    if raw <= 1:
        return 1
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def _legend(chart: Chart, width: float) -> list[list[tuple[Line, float]]]:
    """The legend's entries in rows that fit ``width``: each with its width."""
    font = fonts.font(WORDS * SS)
    rows: list[list[tuple[Line, float]]] = [[]]
    used = 0.0
    for line in chart.lines:
        size = 34 * SS + font.getlength(fonts.drawable(line.title)) + 24 * SS
        if rows[-1] and used + size > width:
            rows.append([])
            used = 0.0
        rows[-1].append((line, size))
        used += size
    return rows


def _marker(d: ImageDraw.ImageDraw, kind: str, x: float, y: float, r: float, colour) -> None:
    if kind == "square":
        d.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=PAPER, width=SS)
    elif kind == "triangle":
        d.polygon([(x, y - r * 1.2), (x - r * 1.1, y + r * 0.8), (x + r * 1.1, y + r * 0.8)], fill=colour)
    elif kind == "diamond":
        d.polygon([(x, y - r * 1.25), (x + r * 1.25, y), (x, y + r * 1.25), (x - r * 1.25, y)], fill=colour)
    else:
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=PAPER, width=SS)


def draw(chart: Chart) -> bytes:
    """The chart as PNG bytes, ``WIDTH`` × ``HEIGHT``. Thread-safe: it only reads ``chart``."""
    w, h = WIDTH * SS, HEIGHT * SS
    image = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(image)
    small, big = fonts.font(SMALL * SS), fonts.font(WORDS * SS)
    pad = 16 * SS
    # Top: the rating axis's name, then the legend (as many rows as the games' names need).
    d.text((pad, pad), chart.words.rating, font=big, fill=INK, anchor="lt")
    y = pad + (WORDS + 12) * SS
    for row in _legend(chart, w - 2 * pad):
        x = pad
        middle = y + WORDS * SS / 2
        for line, size in row:
            d.line((x, middle, x + 28 * SS, middle), fill=line.colour, width=4 * SS)
            _marker(d, line.marker, x + 14 * SS, middle, 5 * SS, line.colour)
            d.text((x + 34 * SS, middle), fonts.drawable(line.title), font=big, fill=INK, anchor="lm")
            x += size
        y += (WORDS + 8) * SS
    # The plot: ratings up, games along.
    values = [chart.start, *(r for line in chart.lines for r in line.ratings)]
    step = _step(max(values) - min(values), 4)
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    games = max(len(line.ratings) for line in chart.lines)
    labels = [str(v) for v in range(low, high + 1, step)]
    left = pad + max(small.getlength(label) for label in labels) + 12 * SS
    right = w - pad - 12 * SS
    top = y + 10 * SS
    bottom = h - pad - (WORDS + SMALL + 18) * SS

    def at(game: float, rating: float) -> tuple[float, float]:
        return (
            left + (right - left) * game / games,
            bottom - (bottom - top) * (rating - low) / (high - low),
        )

    for value, label in zip(range(low, high + 1, step), labels, strict=True):
        _, gy = at(0, value)
        d.line((left, gy, right, gy), fill=GRID, width=SS)
        d.text((left - 10 * SS, gy), label, font=small, fill=DIM, anchor="rm")
    named = top  # where a tier begins, named at the right end where the name has room
    for floor, name in sorted(chart.words.tiers, reverse=True):
        if low < floor < high:
            _, gy = at(0, floor)
            for x in range(int(left), int(right), 16 * SS):
                d.line((x, gy, min(x + 8 * SS, right), gy), fill=DIM, width=SS)
            if gy - (SMALL + 6) * SS >= named:
                d.text((right - 4 * SS, gy - 4 * SS), name, font=small, fill=DIM, anchor="rb")
                named = gy
    every = _step(games, 8)
    for game in range(0, games + 1, every):
        gx, _ = at(game, low)
        d.line((gx, bottom, gx, bottom + 6 * SS), fill=DIM, width=SS)
        d.text((gx, bottom + 10 * SS), str(game), font=small, fill=DIM, anchor="mt")
    d.line((left, bottom, right, bottom), fill=DIM, width=SS)
    d.text(((left + right) / 2, h - pad), chart.words.games, font=big, fill=INK, anchor="mb")
    for line in chart.lines:
        points = [at(game, rating) for game, rating in enumerate((chart.start, *line.ratings))]
        d.line(points, fill=line.colour, width=4 * SS, joint="curve")
        if len(line.ratings) <= MARKED_UP_TO:
            for x, y in points[1:]:
                _marker(d, line.marker, x, y, 5 * SS, line.colour)
    out = io.BytesIO()
    image.reduce(SS).save(out, format="PNG", compress_level=3)  # a 2×2 average: ~3 ms, where LANCZOS took ~70
    return out.getvalue()
