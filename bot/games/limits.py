"""Limits shared by the games' options. Counts and timers are written by the catalogues
(``bot.i18n.tn`` and ``bot.i18n.duration``), in each language's own plurals and units."""

from __future__ import annotations

# The longest per-turn timer a game offers, in seconds: a day, for slow servers.
LONGEST_TURN_S = 86_400
