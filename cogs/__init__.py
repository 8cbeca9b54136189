"""The commands every game shares, each a discord.py extension the bot loads by name: ``general``
(/leaderboard, /stats, /rules, /help, /end, /board), ``standings`` (/season, /settings,
/standings reset, /privacy, /forget-me) and ``replay`` (/replay). Each game's own cog lives in its
package (``bot/games/<game>/cog.py``).
May import: the session layer, ``bot.community``, ``bot.storage``, ``bot.glue``, ``bot.i18n`` and
the game registry; ``bot.app`` for types only.
"""
