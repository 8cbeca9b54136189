"""The 16 monster faces: ids and names, shared by the engine, the pictures and the buttons.

Kept apart from ``pictures.py`` so the engine never imports Pillow. Names are short enough for
a Discord button label and each names the *expression* the Mime has to act out. They are English
message ids: the engine and records hold them as they are, screens translate them where shown.
"""

from __future__ import annotations

from bot.engine.protocol import N_

MONSTERS: tuple[str, ...] = (
    N_("Grumpy"),  # 0  V-shaped brows, deep frown, horns
    N_("Giggles"),  # 1  eyes squeezed shut (^ ^), laughing open mouth
    N_("Shocked"),  # 2  huge round eyes, raised brows, small O mouth
    N_("Sleepy"),  # 3  drooping lids, yawn, Zzz
    N_("Blep"),  # 4  tongue stuck out, dopey eyes
    N_("Vampy"),  # 5  smug smile with two fangs, one raised brow
    N_("Dizzy"),  # 6  spiral eyes, wobbly mouth
    N_("Chomper"),  # 7  enormous grin full of sharp teeth
    N_("Crybaby"),  # 8  tears, sad brows, wobbly frown
    N_("Winky"),  # 9  one eye shut, smirk
    N_("Roar"),  # 10 mouth wide open with tonsil, angry brows
    N_("Puffer"),  # 11 puffed cheeks, tiny pursed mouth
    N_("Kissy"),  # 12 puckered lips, closed eyes, a heart
    N_("Shifty"),  # 13 eyes slid to one side, flat mouth
    N_("Bucky"),  # 14 two big buck teeth, goofy grin
    N_("Nervous"),  # 15 clenched grimace, sweat drop, tiny pupils
)

FACES = len(MONSTERS)


def monster_name(face: int) -> str:
    return MONSTERS[face]
