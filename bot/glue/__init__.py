"""Discord glue: what every part of the bot shares about Discord itself.

Buttons that survive a restart (``components``), a press's own answer and private replies
(``answer``, ``replies``), Discord's faults told apart from bugs (``faults``), snowflake time
(``clock``), the board message's parts and its picture cache (``board``, ``picture_cache``).
May import: ``bot.i18n`` and ``bot.engine``; nothing above it.
"""
