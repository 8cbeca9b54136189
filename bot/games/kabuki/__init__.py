"""Kabuki: a memory game of masks dealt onto four actors (rules: docs/kabuki.md)."""

from bot.games.kabuki.engine import KabukiEngine
from bot.games.registry import GameDescriptor

GAME = GameDescriptor(
    engine=KabukiEngine,
    cog="bot.games.kabuki.cog",
    history="bot.games.kabuki.history",
    checker="bot.games.kabuki.replay:check_log",
    rules="docs/kabuki.md",
    computers="bot.games.kabuki.players",
    simulator="bot.games.kabuki.simulate",
)

__all__ = ["GAME", "KabukiEngine"]
