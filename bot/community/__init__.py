"""Community and standings: what outlives a game.

Skill ratings (``ratings``), a season's champions (``champions``), finished games' records,
``verify`` and ``/replay``'s pages and sharing rules (``replays``, ``replay_board``,
``replay_share``).
May import: ``bot.engine``, ``bot.glue``, ``bot.storage``, ``bot.i18n`` and the game registry;
never the session layer or ``bot.app``.
"""
