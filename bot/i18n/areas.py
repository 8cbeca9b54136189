"""Which catalogue file (area) holds which part of the code's messages.

Each language's catalogue is split into one ``.po`` per area, so helpers converting different
parts of the bot at the same time never edit one file; the loader merges a language's areas into
one catalogue (``bot.i18n.catalogues``) and the extractor writes one template (``.pot``) per
area (``bot.i18n.extract``). A source file belongs to the first area whose pattern matches its
path (relative to the repository, ``fnmatch`` style); the last area takes everything else.
"""

from __future__ import annotations

from fnmatch import fnmatch

# The slash commands' names, descriptions, options and choices, read from the loaded command tree.
COMMANDS = "commands"
# After the games' areas (one each, named by its id: its descriptor's ``area_sources``).
SHARED: dict[str, tuple[str, ...]] = {
    # The shared commands (/leaderboard, /stats, /season, /replay ...) and what outlives a game.
    "general": ("cogs/*", "bot/community/*"),
    # The session layer (lobby, boards' shared parts, refusals, play again) and the engine protocol.
    "session": ("bot/*", "cogs/*"),
}
SOURCES = ("bot", "cogs")  # where the extractor looks for messages


def area_patterns() -> dict[str, tuple[str, ...]]:
    """Every area's files: each game's (from the game registry, read when first needed, so the
    catalogues load no game), then the shared ones."""
    from bot.games import registry

    games = {game.id: game.area_sources for game in registry.builtin().values()}
    return {**games, **SHARED}


def area_of(path: str) -> str:
    """The area of a source file, by its path relative to the repository ("bot/games/kabuki/cog.py")."""
    for area, patterns in area_patterns().items():
        if any(fnmatch(path, pattern) for pattern in patterns):
            return area
    return "session"


def areas() -> tuple[str, ...]:
    """Every area, the slash commands' first."""
    return (COMMANDS, *area_patterns())
