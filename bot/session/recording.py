"""A game's record in the standings, written once when it finishes or is abandoned."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.community.ratings import places
from bot.community.replays import log_record
from bot.engine import Result
from bot.games import registry
from bot.glue.clock import now_ms
from bot.session import computers
from bot.session.sessions import Session
from bot.storage import FORMER_MEMBER, GameRecord, PlayerRecord

if TYPE_CHECKING:
    from bot.session.host import Table

log = logging.getLogger(__name__)


async def record(cog: Table, session: Session, outcome: str, result: Result | None) -> None:
    """Record ``session``'s game as ``outcome`` ("finished" with its ``result``, or "abandoned"):
    the standings' rows, and a finished game's log for /replay. Storage keeps the first record of
    a game key, so a game recorded again (a restart between recording and forgetting) is not
    counted twice."""
    scores = cog.recorded_scores(session, result) if result else [0] * len(session.players)
    history = None
    if result is not None and session.engine is not None and _kept(cog.kind):
        # A finished engine changes no more, so its record is built off the event loop.
        history = await asyncio.to_thread(log_record, session.engine, session.seed, session.salt)
    # Finishing places rate the game (bot/community/ratings.py); an abandoned game has none.
    finish = places(scores, result.winners, cog.engine_cls.lower_score_wins) if result else None
    players = [
        PlayerRecord(
            # A computer seat is kept under the id no standing ranks, with its name.
            user_id=FORMER_MEMBER if computers.is_computer(user_id) else user_id,
            seat=seat,
            score=scores[seat],
            won=bool(result and seat in result.winners),
            name=session.names.get(user_id),
            place=finish[seat] if finish else None,
            computer=computers.is_computer(user_id),
        )
        for seat, user_id in enumerate(session.players)
    ]
    recorded = await cog.bot.storage.record_game(
        GameRecord(
            game_key=session.game_key,
            guild_id=session.guild_id,
            channel_id=session.channel_id,
            kind=cog.kind,
            options=session.options,
            seed=session.seed,
            started_at=session.started_at or session.created_at,
            ended_at=now_ms(),
            outcome=outcome,
            players=players,
            log=history,
        )
    )
    log.info(
        "game %s in guild %s %s (%s)",
        session.game_key,
        session.guild_id,
        outcome,
        "recorded" if recorded else "already recorded",
    )


def _kept(kind: str) -> bool:
    """Whether ``kind``'s finished games keep their record (its descriptor names a history); a
    test's game the registry does not know keeps none."""
    game = registry.games().get(kind)
    return game is not None and game.history is not None
