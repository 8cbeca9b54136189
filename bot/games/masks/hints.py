"""Miming in emoji: the features of the 16 faces, a computer Mime's hint, and how a guesser reads one.

A face is described by what is drawn on it (``pictures.py``): its eyes, brows, mouth, what grows
on its head and its colour. A computer Mime posts one emoji each for a few features of its card,
chosen afresh each time from the emoji people read as them; a guesser
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

# feature -> the emoji a computer Mime may post for it: each one a person reads as that feature at
# a glance (a bear's round ears, an elf's pointy ones), never only what a program could decode
# (🐭 for round ears was in most hints, and nobody guessed it). A hint picks one of each.
SHOWN: dict[str, tuple[str, ...]] = {
    "horns": ("😈", "👿", "🐂"),
    "antennae": ("🐜", "🐝", "🦋"),
    "spikes": ("🦔", "🌵"),
    "round_ears": ("🐻", "🐼", "🐨"),
    "pointy_ears": ("🧝", "🦇"),
    "angry_brows": ("😠", "😡"),
    "sad_brows": ("🥺", "😟"),
    "raised_brow": ("🤨",),
    "laughing_eyes": ("😆", "😄"),
    "closed_eyes": ("😌",),
    "huge_eyes": ("😳", "😲"),
    "spiral_eyes": ("🌀", "😵\u200d💫"),
    "wink": ("😉",),
    "side_eyes": ("👀", "😒"),
    "squeezed_eyes": ("😣", "😖"),
    "goofy_eyes": ("🤪",),
    "frown": ("☹️", "🙁"),
    "laugh": ("😂", "🤣"),
    "o_mouth": ("😮", "😯"),
    "yawn": ("🥱",),
    "zzz": ("💤", "😴"),
    "tongue_out": ("😛", "👅"),
    "fangs": ("🧛", "🐍"),
    "sharp_teeth": ("🦈", "🐊"),
    "grin": ("😁", "😀"),
    "roar_mouth": ("🦁", "🐯"),
    "smirk": ("😏", "😼"),
    "wavy_mouth": ("〰️", "🥴"),
    "stars": ("💫", "⭐"),
    "tears": ("😭", "💧"),
    "kiss": ("💋", "😗"),
    "heart": ("❤️", "💕"),
    "blush": ("😊", "☺️"),
    "flat_mouth": ("😐", "😑"),
    "buck_teeth": ("🐰", "🦫"),
    "clenched_teeth": ("😬",),
    "sweat": ("💦", "😅"),
    "sparkle": ("✨",),
    "puffed_cheeks": ("🐡", "😤"),
    "red": ("🔴", "🍎"),
    "yellow": ("🟡", "💛"),
    "blue": ("🔵", "💙"),
    "purple": ("🟣", "💜"),
    "green": ("🟢", "💚"),
    "orange": ("🟠", "🎃"),
    "pink": ("🩷", "🌸"),
    "brown": ("🟤", "🤎"),
    "white": ("⚪", "🤍"),
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

# How many of a face's features a hint shows: a few, so that hints for one card differ, and
# enough to tell it from every other face (checked for each hint; the first four always do).
SHOWN_PER_HINT = (3, 4)
HINT_TRIES = 12

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
    _learn(_emoji, _feature)
for _colour, _emoji in _COLOURS.items():
    _learn(_emoji, _colour)
_learn(["👿", "🤘", "🐂", "🐃"], "horns")
_learn(["👿", "😡", "🤬"], "angry_brows")
_learn(["📡", "🐛"], "antennae")
_learn(["🦕", "🦖", "🌵"], "spikes")
_learn(["🐭", "🐹"], "round_ears")
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
_learn(["🐯", "📢", "🗣", "😱"], "roar_mouth")
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
    """A computer Mime's emoji for ``face``: a few of its features, each as one of the emoji a
    person reads as it, in an order of its own, so one card is mimed differently each time. A
    hint is kept only if a guesser reading it finds this face the best fit; else (rarely) the
    first features, which always are."""
    features = [feature for feature in FEATURES[face] if feature in SHOWN]
    for _ in range(HINT_TRIES):
        chosen = rng.sample(features, min(rng.choice(SHOWN_PER_HINT), len(features)))
        text = " ".join(rng.choice(SHOWN[feature]) for feature in chosen)
        if _tells(text, face):
            return text
    first = [SHOWN[feature][0] for feature in features[: max(SHOWN_PER_HINT)]]
    rng.shuffle(first)
    return " ".join(first)


def _tells(text: str, face: int) -> bool:
    fit = score(read([text]), face)
    return all(fit > score(read([text]), other) for other in range(FACES) if other != face)


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
