"""The one data table of Death Over the Kingdom: its 13 characters.

Everything else (engine, computer players, pictures, docs) reads the characters from here, so a
different reading of "turns" (see ``turned``) is a change in this file only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.protocol import N_


@dataclass(frozen=True)
class Character:
    value: int  # printed value, also the character's id (0..12)
    name: str  # English, as records keep it; a board shows it translated (``N_``-marked)
    # Value once turned upside down. The rulebook never prints it; our reading is 12 - value.
    # None: the card never turns.
    turned: int | None
    # The character whose presence in play at the end of the round turns this card. The Knight
    # "turns every Dragon" and the Princess "every Knight" are stored on the Dragon and the
    # Knight, so one lookup answers "does this card turn?".
    turns_if: str | None
    timing: str  # "turn": a power used on your turn; "end": end of round; "always"; "none"
    power: str  # English, N_-marked: translated where shown


CHARACTERS: tuple[Character, ...] = (
    Character(0, N_("Death"), None, None, "always", N_("Its holder always loses the round.")),
    Character(1, N_("Innkeeper"), 11, "King", "end", N_("End of round: turns if a King is in play.")),
    Character(
        2,
        N_("Trader"),
        None,
        None,
        "turn",
        N_(
            "Your turn: reveal it and swap it with the top card of the deck "
            "(the Trader becomes the deck's top card, face up)."
        ),
    ),
    Character(
        3,
        N_("Thief"),
        None,
        None,
        "turn",
        N_(
            "Your turn: reveal it, secretly look at the card of any one player after you this round, "
            "then choose whether to swap your Thief with it."
        ),
    ),
    Character(4, N_("Clown"), 8, "Queen", "end", N_("End of round: turns if a Queen is in play.")),
    Character(
        5,
        N_("Bard"),
        None,
        None,
        "turn",
        N_("Your turn: reveal it and swap it, unseen, with the card of any one player after you this round."),
    ),
    Character(
        6,
        N_("Monk"),
        None,
        None,
        "end",
        N_(
            "End of round: takes the value of the card of the player to your right. "
            "Not for the dealer: a dealer's Monk stays 6."
        ),
    ),
    Character(7, N_("Magician"), 5, "Monk", "end", N_("End of round: turns if a Monk is in play.")),
    Character(
        8,
        N_("Dragon"),
        4,
        "Knight",
        "turn",
        N_(
            "Your turn: reveal it; the player to your right discards their card face up and takes the top "
            "card of the deck, then plays their own turn with it. Not for the dealer."
        ),
    ),
    Character(9, N_("Knight"), 3, "Princess", "end", N_("End of round: every Dragon in play turns.")),
    Character(10, N_("Princess"), None, None, "end", N_("End of round: every Knight in play turns.")),
    Character(11, N_("Queen"), 1, "Princess", "end", N_("End of round: turns if a Princess is in play.")),
    Character(
        12,
        N_("King"),
        None,
        None,
        "always",
        N_(
            "Shown face up as soon as a player holds it. No exchange, swap, cut or Dragon can take it "
            "from its holder, nor can its holder give it away: the holder can only stand."
        ),
    ),
)

COPIES = 2  # each character is in the box twice
DECK_SIZE = len(CHARACTERS) * COPIES

BY_NAME: dict[str, Character] = {c.name: c for c in CHARACTERS}

# Character ids, named for readable rules code.
DEATH, INNKEEPER, TRADER, THIEF, CLOWN, BARD, MONK, MAGICIAN, DRAGON, KNIGHT, PRINCESS, QUEEN, KING = range(
    13
)

# For each character id: the id whose presence turns it, or -1.
TURN_TRIGGER: tuple[int, ...] = tuple(BY_NAME[c.turns_if].value if c.turns_if else -1 for c in CHARACTERS)


def char_of(card: int) -> int:
    """A physical card (0..25) is one of the two copies of character ``card // 2``."""
    return card >> 1


# The character whose power each turn-power action uses.
POWER_CARDS: dict[str, int] = {"trader": TRADER, "thief": THIEF, "bard": BARD, "dragon": DRAGON}
POWER_OF: dict[int, str] = {char: kind for kind, char in POWER_CARDS.items()}

# Each character's name by id, for the hot paths that build card facts by hand.
NAMES: tuple[str, ...] = tuple(c.name for c in CHARACTERS)


def card_info(char: int) -> dict[str, int | str]:
    """How a character appears in views and events."""
    return {"char": char, "name": NAMES[char]}
