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

**Decided before the move.** A press taken in time could still have its answer refused: its own
work (the engine, the save, the board, the answer's trip) runs on a loop that is busy, and a move
applied whose answer Discord then refuses is the one outcome a member cannot make sense of (the
move counts, the client says it failed). So a press older than ``ANSWER_FIRST_MS`` when its game's
lock is taken is answered **first**, by an acknowledgement (a deferred update, Discord's type 6),
and its move is applied only once Discord took that answer: refused (too late after all, or
Discord failing), the press is not applied and counts as too late, exactly as a press shed on
arrival. Taken, the move is applied, its board goes by a REST edit and its private words by
followups, as for any press answered already. Younger presses keep the one request: the board
edited inside the press's own answer, which a loop would have to stall for over 2 s to miss.

**The loop's queue counts too.** A press's age when its lock is taken says how long it waited
so far; what it will wait from there is its work's awaits (the save's commit, the picture, the
answer's request), each a trip through the event loop's queue of ready work. Under overload that
queue is long. In the load bench, with presses coming a third faster than the loop served them,
1,018 of ~2,300 presses in 10 s were answered after 3 s with their moves applied, not one of them
a second old when its lock was taken. So the age checked is the age the answer would leave at:
the press's age, plus ``TRIPS`` trips of the queue as last measured (``bot.glue.queue_trip``:
one callback at a time handed to the loop, timed on the loop's clock until it runs; no timer, so
a quiet loop, and SimCord's virtual clock, measure nothing). On a quiet loop that is the age
alone; on a loop a second behind, every press is answered first.

**Nor does a picture hold an answer back.** The pictures' thread (or processes) can be behind as
well (a Kingdom round's end draws its revealed table): while pictures are slow (the last one
took over ``bot.session.publisher.SLOW_PICTURE_MS`` from asking to having it,
``bot.glue.board.PICTURE_WAIT``), a press's own picture is awaited only until the press is
``ANSWER_BY_MS`` old; then the press is acknowledged without its board, and the board goes by a
REST edit, picture and all, once drawn.

**Told, while Discord still listens.** A press shed as too late is told so privately ("the table
was too busy…: press again") when Discord may still take its answer (``TELL_WITHIN_MS``); after
that nothing reaches the member, whose client then says the interaction failed, and the game
did not take the move either.

The press's age is its snowflake's timestamp against this machine's clock, as Discord's own
rule is; a host clock off by more than the margin would misjudge it (keep NTP on).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import discord

from bot.glue import faults
from bot.glue.clock import now_ms, snowflake_ms
from bot.glue.replies import reply_private
from bot.i18n import N_, private_locale, t

if TYPE_CHECKING:
    from bot.ops.metrics import Metrics

ANSWER_WINDOW_MS = 3000  # Discord refuses a first answer later than this
TAKE_WITHIN_MS = 2500  # a press older than this is not taken: its answer could not make it
# A press older than this when its game's lock is taken is answered before its move is applied
# (the write wait, bot.session.guarded.WRITE_WAIT_S, leaves a younger press its answer in time).
ANSWER_FIRST_MS = 1000
# Trips through the loop's queue between that check and the answer's request leaving: the save's
# commit and the picture come back through it, and the answer's turn to be sent.
TRIPS = 3
# A press's answer waits for its picture until the press is this old, then goes without it
# (``bot.session.publisher``): a second left for the answer's own trip.
ANSWER_BY_MS = 2000
TELL_WITHIN_MS = 2800  # a refusal sent by then still reaches Discord inside its 3 s
DROPPED = "too_late"  # marks a shed press in ``Interaction.extras`` for the press metrics
TOO_BUSY = N_("The table was too busy to take your press in time: nothing changed. Press again.")


def shed(interaction: discord.Interaction, metrics: Metrics, kind: str) -> bool:
    """Whether ``interaction`` is too old to take; if so it is counted as too late, once."""
    if interaction.extras.get(DROPPED):
        return True
    if interaction.response.is_done() or now_ms() - snowflake_ms(interaction.id) <= TAKE_WITHIN_MS:
        return False
    interaction.extras[DROPPED] = True
    metrics.too_late(kind)
    return True


def age_ms(interaction: discord.Interaction) -> int:
    """How long ago Discord made the press, by its snowflake against this machine's clock."""
    return now_ms() - snowflake_ms(interaction.id)


def answer_by_ms(interaction: discord.Interaction) -> float:
    """How long from now a press's answer may still wait for its work (a picture) and leave
    within ``ANSWER_BY_MS`` of Discord making the press, a trip of the loop's queue to spare."""
    return ANSWER_BY_MS - age_ms(interaction)


def waits_ms(interaction: discord.Interaction, metrics: Metrics) -> float:
    """The press's age when its answer would leave, as far as can be told now: its age and the
    loop's queue ``TRIPS`` times over. (A picture is not waited for past ``ANSWER_BY_MS``:
    ``bot.session.publisher`` answers without it.)"""
    return age_ms(interaction) + TRIPS * metrics.queue.ms()


async def tell_too_late(interaction: discord.Interaction) -> None:
    """A shed press's member told it was not taken, if Discord still takes an answer; a refusal
    of that answer changes nothing and is dropped."""
    if interaction.response.is_done() or age_ms(interaction) > TELL_WITHIN_MS:
        return
    with contextlib.suppress(discord.HTTPException):
        await reply_private(interaction, t(private_locale(interaction), TOO_BUSY))


async def answered_first(interaction: discord.Interaction, metrics: Metrics, kind: str) -> bool:
    """Under the game's lock, before the move: whether the press may be applied. A press whose
    age, with ``TRIPS`` of the loop's queue still to go, is over ``ANSWER_FIRST_MS`` is
    acknowledged first, and applied only if Discord took that; one Discord refused is counted as
    too late and not applied."""
    if interaction.response.is_done() or waits_ms(interaction, metrics) <= ANSWER_FIRST_MS:
        return True
    try:
        await interaction.response.defer()  # a component's press: a deferred update, nothing shown
    except discord.HTTPException as error:
        if not faults.discords_fault(error):
            raise
        interaction.extras[DROPPED] = True
        metrics.too_late(kind)
        return False
    metrics.answered_first(kind)
    return True
