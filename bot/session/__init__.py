"""The session layer: one lobby or game per channel, from the lobby to its recorded end.

Holds the cog base every game inherits (``gamecog``, ``lobby``), the per-channel session registry
(``sessions``), deadlines and computer moves (``timers``, ``computers``), the board message
(``publisher``), turn pings, Play again and the exactly-once record of a finished game.
May import: ``bot.engine``, ``bot.glue``, ``bot.community``, ``bot.storage``, ``bot.i18n``,
``bot.ops`` and the game registry; never ``bot.app`` (it is typed against ``bot.session.host``'s
protocol, not the bot class) and never one game's package by name.
"""
