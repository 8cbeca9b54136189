"""The 16 monster faces: ids and names, shared by the engine, the pictures and the buttons.

Kept apart from ``pictures.py`` so the engine never imports Pillow. Names are short enough for
a Discord button label and each names the *expression* the Mime has to act out.
"""

from __future__ import annotations

MONSTERS: tuple[str, ...] = (
    "Grumpy",  # 0  V-shaped brows, deep frown, horns
    "Giggles",  # 1  eyes squeezed shut (^ ^), laughing open mouth
    "Shocked",  # 2  huge round eyes, raised brows, small O mouth
    "Sleepy",  # 3  drooping lids, yawn, Zzz
    "Blep",  # 4  tongue stuck out, dopey eyes
    "Vampy",  # 5  smug smile with two fangs, one raised brow
    "Dizzy",  # 6  spiral eyes, wobbly mouth
    "Chomper",  # 7  enormous grin full of sharp teeth
    "Crybaby",  # 8  tears, sad brows, wobbly frown
    "Winky",  # 9  one eye shut, smirk
    "Roar",  # 10 mouth wide open with tonsil, angry brows
    "Puffer",  # 11 puffed cheeks, tiny pursed mouth
    "Kissy",  # 12 puckered lips, closed eyes, a heart
    "Shifty",  # 13 eyes slid to one side, flat mouth
    "Bucky",  # 14 two big buck teeth, goofy grin
    "Nervous",  # 15 clenched grimace, sweat drop, tiny pupils
)

FACES = len(MONSTERS)


def monster_name(face: int) -> str:
    return MONSTERS[face]
