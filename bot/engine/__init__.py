"""The game-engine protocol shared by every game (no Discord in here)."""

from bot.engine.protocol import Action, Dice, Event, GameEngine, IllegalAction, Result
from bot.engine.race import Entry, Race

__all__ = ["Action", "Dice", "Entry", "Event", "GameEngine", "IllegalAction", "Race", "Result"]
