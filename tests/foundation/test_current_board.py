"""A game's board is not drawn again for a press that changed nothing it shows
(``GameCog.current_board``: the board on show is given again when its state is equal; Kabuki and
Kingdom look at their view once, Monster Masks says its ``board_state``). Over random
games, with the language switched, names changed and (Kingdom) seats' tokens aging in between,
the board given must always be the board ``render_board`` draws afresh: a state that missed
something a board shows would give a stale board here."""

from __future__ import annotations

import contextlib
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.engine import IllegalAction
from bot.games.kabuki.cog import KabukiCog
from bot.games.kabuki.engine import KabukiEngine
from bot.games.kingdom.cog import KingdomCog
from bot.games.kingdom.engine import KingdomEngine
from bot.games.masks.cog import MasksCog
from bot.games.masks.engine import MasksEngine
from bot.glue.clock import DISCORD_EPOCH_MS, now_ms
from bot.session.gamecog import FOLLOWUP_TTL_MS
from bot.session.publisher import Publishers
from bot.session.sessions import PLAYING, SeatToken, Session, SessionRegistry

MESSAGE = 555


def shown(board: Any) -> Any:
    board.attach_picture()
    picture = board.picture.key if board.picture is not None else None
    return board.embed.to_dict(), [item.to_component_dict() for item in board.items], picture


def token(age_ms: int) -> SeatToken:
    return SeatToken(((now_ms() - age_ms - DISCORD_EPOCH_MS) << 22), "t", 1)


GAMES = {
    "kabuki": (KabukiCog, KabukiEngine, {"grace_ms": 1000, "reveal_ms": 2000}),
    "kingdom": (KingdomCog, KingdomEngine, {"length": 2, "reveal_ms": 1000}),
    "masks": (MasksCog, MasksEngine, {}),
}


@pytest.mark.parametrize("game", GAMES)
async def test_the_board_given_is_always_the_board_drawn_afresh(game):
    cog_class, engine_class, options = GAMES[game]
    given_again = drawn = 0
    for seed in range(4):
        rng = random.Random(seed)
        bot = SimpleNamespace(sessions=SessionRegistry())
        bot.publishers = Publishers(bot)
        cog = cog_class(bot)
        players = 5
        engine = engine_class.new(players, seed, options, 0)
        session = Session(
            game, 1, 10 + seed, 100, options, seed, f"g{seed}", 0, players=list(range(100, 100 + players))
        )
        session.engine, session.status, session.locale, session.salt = engine, PLAYING, "en", "s"
        session.names = {100 + seat: f"player {seat}" for seat in range(players)}
        session.board_message_id = MESSAGE
        bot.sessions.add(session)
        clock = 0
        for _ in range(400):
            if engine.is_over:
                break
            roll = rng.random()
            if roll < 0.4:
                seat = rng.randrange(players)
                if legal := engine.legal_actions(seat):
                    clock += rng.randint(0, 1500)
                    with contextlib.suppress(IllegalAction):  # refused: nothing changed
                        engine.apply(seat, rng.choice(legal), clock)
            elif roll < 0.55:
                clock += rng.choice((100, 1100, 3000))
                engine.advance(clock)  # a grace period ending changes a board without an event
            elif roll < 0.65:
                session.locale = rng.choice(("en", "de", "fr"))
            elif roll < 0.7:
                session.names[100 + rng.randrange(players)] = f"renamed {rng.randrange(3)}"
            elif roll < 0.8:
                seat = rng.randrange(players)  # a seat whose private news can or cannot arrive
                session.last_interaction[seat] = token(rng.choice((0, FOLLOWUP_TTL_MS + 60_000)))
            # else: nothing changed at all
            board = cog.board_again(session) if rng.random() < 0.5 else cog.current_board(session)
            publisher = cog.publisher(session)
            again = publisher.shown is not None and publisher.shown[1] is board
            given_again += again
            drawn += not again
            assert shown(board) == shown(cog.render_board(session))
            publisher.posted(MESSAGE, board)  # now on show
    assert given_again > 50 and drawn > 200
