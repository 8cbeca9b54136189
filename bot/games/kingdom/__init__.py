"""Death Over the Kingdom: a bluffing and swapping card game (engine, computer players, pictures)."""

from bot.games.kingdom.engine import KingdomEngine

__all__ = ["KingdomEngine"]
