"""Odd One Out, a test-only game (rules: rules.md): the smallest whole game, proving that a game
is one package and nothing else (docs/adding-a-game.md). Registered when tests/conftest.py imports
the test games; production never imports it."""

from bot.games.registry import GameDescriptor, register

from .engine import OddOneOutEngine

GAME = register(
    GameDescriptor(
        engine=OddOneOutEngine,
        cog=f"{__name__}.cog",
        rules="tests/games/oddoneout/rules.md",
        history=f"{__name__}.history",
        checker=f"{__name__}.rules_check:check_log",
        computers=f"{__name__}.players",
        simulator=f"{__name__}.simulate",
    )
)
