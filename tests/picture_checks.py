"""What the pictures' words must be, whatever the game: big enough to read where Discord shows the
picture (``bot.games.fonts.smallest_size``: 11 pixels once a picture is shown 400 wide), and each
line inside the room it was given, measured with Pillow's ``textbbox``. Imported as
``from picture_checks import …``."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageDraw

from bot.games import fonts

_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


def problems(
    words: Iterable[fonts.Words], picture_width: int, room: tuple[float, float, float, float] | None = None
) -> list[str]:
    """Every word of ``words`` (drawn on a picture ``picture_width`` wide) that is smaller than
    Discord needs, or whose ink leaves its box (or ``room``, the whole picture or strip), said in
    words; [] when all is well."""
    least = fonts.smallest_size(picture_width)
    found = []
    for word in words:
        if word.size < least:
            found.append(f"{word.text!r} is {word.size} px: under {least} on a picture {picture_width} wide")
        left, top, right, bottom = _MEASURE.textbbox(
            word.at, word.text, font=fonts.font(word.size), anchor="mm"
        )
        x0, y0, x1, y1 = word.box
        if left < x0 or top < y0 or right > x1 or bottom > y1:
            found.append(
                f"{word.text!r} at {word.size} px takes {(left, top, right, bottom)}: outside {word.box}"
            )
        if room is not None and not (room[0] <= x0 and room[1] <= y0 and x1 <= room[2] and y1 <= room[3]):
            found.append(f"{word.text!r}'s box {word.box} is outside its picture {room}")
    return found
