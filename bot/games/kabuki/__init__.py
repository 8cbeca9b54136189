"""Kabuki: a memory game of masks dealt onto four actors (rules: shared/rules/kabuki.md)."""

from bot.games.kabuki.engine import KabukiEngine

__all__ = ["KabukiEngine"]
