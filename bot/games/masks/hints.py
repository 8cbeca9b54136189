"""Miming in emoji: the features of the 16 faces, a computer Mime's hint, and how a guesser reads one.

A face is described by what is drawn on it (``pictures.py``): its eyes, brows, mouth, what grows
on its head and its colour. A computer Mime posts one emoji per feature of its card; a guesser
turns whatever emoji the Mime posted (a computer's hint, or a person's in emoji mode) back into
features with ``LEXICON`` (which knows the emoji people reach for, not only the ones a computer
posts) and ranks the free tiles by how many of those features each face has. No emoji here names
a face: the hint is a description a person can check against the tiles, never the tile's name.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

from bot.games.masks.faces import FACES

# feature -> the emoji a computer Mime posts for it
SHOWN: dict[str, str] = {
    "horns": "😈",
    "antennae": "📡",
    "spikes": "🦔",
    "round_ears": "🐭",
    "pointy_ears": "🦇",
    "angry_brows": "😠",
    "sad_brows": "🥺",
    "raised_brow": "🤨",
    "laughing_eyes": "😆",
    "closed_eyes": "😌",
    "huge_eyes": "😳",
    "spiral_eyes": "🌀",
    "wink": "😉",
    "side_eyes": "👀",
    "squeezed_eyes": "😣",
    "goofy_eyes": "🤪",
    "frown": "☹️",
    "laugh": "😂",
    "o_mouth": "😮",
    "yawn": "🥱",
    "zzz": "💤",
    "tongue_out": "😛",
    "fangs": "🩸",
    "sharp_teeth": "🦈",
    "grin": "😁",
    "roar_mouth": "🦁",
    "smirk": "😏",
    "wavy_mouth": "〰️",
    "stars": "💫",
    "tears": "😭",
    "kiss": "💋",
    "heart": "❤️",
    "blush": "😊",
    "flat_mouth": "😐",
    "buck_teeth": "🐰",
    "clenched_teeth": "😬",
    "sweat": "💦",
    "sparkle": "✨",
    "puffed_cheeks": "🐡",
    "red": "🔴",
    "yellow": "🟡",
    "blue": "🔵",
    "purple": "🟣",
    "green": "🟢",
    "orange": "🟠",
    "pink": "🩷",
    "brown": "🟤",
    "white": "⚪",
}

# Each face's features, in MONSTERS order, the ones a hint shows first. Some a hint leaves out
# ("teeth", a second colour) are there for the emoji people use: 🦷 fits every face with teeth.
FEATURES: tuple[tuple[str, ...], ...] = (
    ("horns", "angry_brows", "frown", "red"),  # Grumpy
    ("round_ears", "laughing_eyes", "laugh", "blush", "yellow"),  # Giggles
    ("antennae", "huge_eyes", "o_mouth", "blue"),  # Shocked
    ("closed_eyes", "yawn", "zzz", "purple"),  # Sleepy
    ("round_ears", "tongue_out", "green"),  # Blep
    ("pointy_ears", "fangs", "smirk", "raised_brow", "purple", "teeth"),  # Vampy
    ("spiral_eyes", "wavy_mouth", "stars", "green", "blue"),  # Dizzy
    ("spikes", "sharp_teeth", "grin", "orange", "teeth"),  # Chomper
    ("sad_brows", "tears", "frown", "blue", "closed_eyes"),  # Crybaby
    ("round_ears", "wink", "smirk", "sparkle", "pink", "blush"),  # Winky
    ("horns", "angry_brows", "roar_mouth", "sharp_teeth", "green", "teeth"),  # Roar
    ("puffed_cheeks", "squeezed_eyes", "blush", "yellow", "green"),  # Puffer
    ("kiss", "closed_eyes", "heart", "pink", "blush"),  # Kissy
    ("round_ears", "side_eyes", "flat_mouth", "brown"),  # Shifty
    ("round_ears", "buck_teeth", "goofy_eyes", "grin", "brown", "teeth"),  # Bucky
    ("antennae", "clenched_teeth", "sweat", "sad_brows", "white", "teeth"),  # Nervous
)
assert len(FEATURES) == FACES

# How many of a face's features a hint shows: the first ones, enough to tell it from the others.
SHOWN_PER_HINT = 4

_COLOURS = {
    "red": "🔴🟥🍎",
    "yellow": "🟡🟨💛🌕🍋",
    "blue": "🔵🟦💙🩵🫐",
    "purple": "🟣🟪💜🍇",
    "green": "🟢🟩💚🥦",
    "orange": "🟠🟧🧡🎃🍊",
    "pink": "🩷🌸",
    "brown": "🟤🟫🤎",
    "white": "⚪⬜🤍",
}

# emoji -> the features a guesser reads in it. Written without variation selectors (U+FE0F),
# which are dropped before reading, so "☹" and "☹️" read alike.
LEXICON: dict[str, frozenset[str]] = {}


def _learn(emoji: Iterable[str], *features: str) -> None:
    for one in emoji:
        key = one.replace("\ufe0f", "")
        LEXICON[key] = LEXICON.get(key, frozenset()) | set(features)


for _feature, _emoji in SHOWN.items():
    _learn([_emoji], _feature)
for _colour, _emoji in _COLOURS.items():
    _learn(_emoji, _colour)
_learn(["👿", "🤘", "🐂", "🐃"], "horns")
_learn(["👿", "😡", "🤬"], "angry_brows")
_learn(["🐜", "🐝", "🐛", "🦋"], "antennae")
_learn(["🦕", "🦖", "🌵"], "spikes")
_learn(["🐻", "🐼", "🐨"], "round_ears")
_learn(["🧝", "🧛"], "pointy_ears")
_learn(["🧛", "🐍"], "fangs")
_learn(["😟", "😞", "😔", "😿", "😢", "😭"], "sad_brows")
_learn(["🙁", "😞", "😖"], "frown")
_learn(["😄", "😂", "🤣", "😹"], "laughing_eyes", "laugh")
_learn(["😆"], "laugh")
_learn(["😴", "😪", "😚"], "closed_eyes")
_learn(["😴", "😪", "🛌", "🛏"], "zzz")
_learn(["😲", "😱", "😯", "🙀", "😨"], "huge_eyes")
_learn(["😲", "😱", "😯", "🙀", "⭕", "😦", "😧"], "o_mouth")
_learn(["😵", "😵\u200d💫", "🥴"], "spiral_eyes")
_learn(["🥴", "🌊"], "wavy_mouth")
_learn(["⭐", "🌟"], "stars")
_learn(["😜", "😘"], "wink")
_learn(["😜", "😝", "👅", "🤪"], "tongue_out")
_learn(["😒", "👁", "🫣"], "side_eyes")
_learn(["😖", "😤"], "squeezed_eyes")
_learn(["😤", "🎈"], "puffed_cheeks")
_learn(["🐊", "🦷"], "sharp_teeth")
_learn(["🦷"], "teeth")
_learn(["🐯", "🐻", "📢", "🗣", "😱"], "roar_mouth")
_learn(["😼"], "smirk")
_learn(["💧", "😢", "😿"], "tears")
_learn(["😘", "😗", "😙", "😚", "🫦"], "kiss")
_learn(["💕", "💖", "💗", "💘", "💓", "😍", "🥰", "😘"], "heart")
_learn(["☺", "🥰"], "blush")
_learn(["😑", "😶", "➖"], "flat_mouth")
_learn(["🐇", "🦫", "🐹"], "buck_teeth")
_learn(["😅", "😰", "😓", "💧"], "sweat")
_learn(["🌟"], "sparkle")

_CUSTOM = re.compile(r"<a?:\w+:\d+>")
_LONGEST = max(len(key) for key in LEXICON)


def hint(face: int, rng: random.Random) -> str:
    """A computer Mime's emoji for ``face``: its first features, in an order of its own."""
    shown = [SHOWN[feature] for feature in FEATURES[face][:SHOWN_PER_HINT]]
    rng.shuffle(shown)
    return " ".join(shown)


def read(texts: Iterable[str]) -> set[str]:
    """The features the emoji of ``texts`` describe; anything else (words, custom emoji) is skipped."""
    seen: set[str] = set()
    for text in texts:
        text = _CUSTOM.sub(" ", text).replace("\ufe0f", "")
        at = 0
        while at < len(text):
            for size in range(min(_LONGEST, len(text) - at), 0, -1):
                features = LEXICON.get(text[at : at + size])
                if features is not None:
                    seen |= features
                    at += size
                    break
            else:
                at += 1
    return seen


def score(features: set[str], face: int) -> tuple[int, int]:
    """How well ``face`` fits: the features read that it has, then (fewer is better) those it has
    and nobody mentioned."""
    own = set(FEATURES[face])
    return len(features & own), -len(own - features)


def ranked(features: set[str], tiles: Sequence[int], rng: random.Random) -> list[int]:
    """``tiles`` best fit first; equally good tiles in random order, as a person would pick one."""
    shuffled = list(tiles)
    rng.shuffle(shuffled)
    return sorted(shuffled, key=lambda tile: score(features, tile), reverse=True)
