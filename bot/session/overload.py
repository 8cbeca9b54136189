"""Presses the bot comes to too late to answer: an overloaded process sheds them instead.

Discord takes a press's first answer only within 3 s of creating the interaction; after that the
presser's client shows "This interaction failed" whatever the bot does, and every answer is
refused (10062). A press can wait that long only when presses come faster than the process
handles them: in the event loop's queue before its handler runs, or behind the session's lock.

Decision: a press older than ``TAKE_WITHIN_MS`` when the bot comes to it (on arrival, and again
once it holds the session's lock) is **not applied**: nothing changes in the game, nothing is
saved or drawn, no answer is attempted, and it is counted (``Metrics.too_late``: the metric
``partycards_presses_too_late_total`` and the health line). The move and what the presser sees
then agree: "This interaction failed", and the game did not take the move, so pressing again is
right. Applying it instead would leave a move made with a failed answer, and would spend the
engine, a save and a drawn board on a press nobody can be told about, just when the process is
short of time. The margin below 3 s leaves time for the press's own work and the answer's trip.

A press taken in time whose answer still comes after 3 s (the loop stalled in between) stands:
it is saved, the board goes by a REST edit and it counts as a late answer (see ``GameCog``).

The press's age is its snowflake's timestamp against this machine's clock, as Discord's own
rule is; a host clock off by more than the margin would misjudge it (keep NTP on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.glue.clock import now_ms, snowflake_ms

if TYPE_CHECKING:
    import discord

    from bot.ops.metrics import Metrics

ANSWER_WINDOW_MS = 3000  # Discord refuses a first answer later than this
TAKE_WITHIN_MS = 2500  # a press older than this is not taken: its answer could not make it
DROPPED = "too_late"  # marks a shed press in ``Interaction.extras`` for the press metrics


def shed(interaction: discord.Interaction, metrics: Metrics, kind: str) -> bool:
    """Whether ``interaction`` is too old to take; if so it is counted as too late, once."""
    if interaction.extras.get(DROPPED):
        return True
    if interaction.response.is_done() or now_ms() - snowflake_ms(interaction.id) <= TAKE_WITHIN_MS:
        return False
    interaction.extras[DROPPED] = True
    metrics.too_late(kind)
    return True
