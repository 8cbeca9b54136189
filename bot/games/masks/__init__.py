"""Island of Monster Masks: a face-guessing race for 3–8 players (rules: docs/monster-masks.md)."""

from bot.games.masks.engine import MasksEngine
from bot.games.masks.faces import MONSTERS
from bot.games.registry import GameDescriptor

GAME = GameDescriptor(
    engine=MasksEngine,
    cog="bot.games.masks.cog",
    history="bot.games.masks.history",
    checker="bot.games.masks.simulate:check_log",
    rules="docs/monster-masks.md",
    computers="bot.games.masks.players",
    simulator="bot.games.masks.simulate",
)

__all__ = ["GAME", "MONSTERS", "MasksEngine"]
