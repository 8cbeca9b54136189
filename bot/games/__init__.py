"""One package per game: a pure engine, its board and cog, its record's replay, computer players
and simulator; each package's ``__init__`` ends with its ``GAME`` descriptor, which
``bot.games.registry`` finds (docs/adding-a-game.md). Shared by the games: ``fonts`` and
``limits``.
May import: ``bot.engine`` and ``bot.i18n`` (engines, histories, players); ``bot.glue`` (boards);
``bot.session`` (cogs only). Nothing outside a game's package
imports it by name: everything reads the registry.
"""
