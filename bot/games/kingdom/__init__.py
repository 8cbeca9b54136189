"""Death Over the Kingdom: a bluffing and swapping card game (rules: docs/death-over-the-kingdom.md)."""

from bot.games.kingdom.engine import KingdomEngine
from bot.games.registry import GameDescriptor

GAME = GameDescriptor(
    engine=KingdomEngine,
    cog="bot.games.kingdom.cog",
    history="bot.games.kingdom.history",
    checker="bot.games.kingdom.simulate:check_log",
    rules="docs/death-over-the-kingdom.md",
    computers="bot.games.kingdom.players",
    simulator="bot.games.kingdom.simulate",
)

__all__ = ["GAME", "KingdomEngine"]
