"""Island of Monster Masks: a face-guessing race for 3–8 players (engine, pictures, computer players)."""

from bot.games.masks.engine import MasksEngine
from bot.games.masks.faces import MONSTERS

__all__ = ["MONSTERS", "MasksEngine"]
