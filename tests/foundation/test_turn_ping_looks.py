"""A restart's looks for lost turn pings (``TurnPings.recover``), many games at once: a game cog
makes a few at a time, so their requests do not meet Discord's global rate limit together, and
every game still gets the pings it did not know."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.session.sessions import PLAYING, Session
from bot.session.turn_pings import LOOKS_AT_ONCE, PING_AFTER_MS, STATE, TurnPings

GAMES = LOOKS_AT_ONCE + 3


def restored(channel_id: int) -> Session:
    """A game restored a minute into its turn, whose save knows one ping of an earlier turn."""
    session = Session(
        kind="kabuki",
        guild_id=1,
        channel_id=channel_id,
        host_id=10,
        options={},
        seed=1,
        game_key=f"g{channel_id}",
        created_at=0,
        players=[10, 11],
        status=PLAYING,
    )
    session.extra[STATE] = {"turn": "1.2", "since": 0, "sent": True, "message": 500, "stale": []}
    return session


async def test_a_cog_looks_for_lost_pings_a_few_games_at_a_time():
    armed: list[int] = []
    cog = SimpleNamespace(
        _alive=lambda session, status: status == PLAYING,
        timers=SimpleNamespace(arm=lambda session: armed.append(session.channel_id)),
    )
    pings = TurnPings(cog)  # type: ignore[arg-type]
    answer = asyncio.Event()
    looking = {"now": 0, "most": 0}

    async def pings_since(session: Session, since: int) -> list[int]:
        looking["now"] += 1
        looking["most"] = max(looking["most"], looking["now"])
        await answer.wait()  # Discord answers slowly
        looking["now"] -= 1
        return [500, 1000 + session.channel_id]  # the known ping, and one its save never kept

    pings._pings_since = pings_since  # type: ignore[method-assign]
    sessions = [restored(channel) for channel in range(GAMES)]
    for session in sessions:
        pings.recover(session, PING_AFTER_MS + 60_000)
    for _ in range(5):
        await asyncio.sleep(0)
    assert looking["most"] == LOOKS_AT_ONCE  # the others wait their turn
    answer.set()
    await asyncio.gather(*pings._looking)
    assert looking["most"] == LOOKS_AT_ONCE
    for session in sessions:  # each game's unknown ping is to be deleted, the known one kept
        assert session.extra[STATE]["stale"] == [1000 + session.channel_id]
    assert sorted(armed) == list(range(GAMES))  # each game's timer wakes to delete it


async def test_a_game_restored_within_a_pings_wait_does_not_look():
    pings = TurnPings(SimpleNamespace())  # type: ignore[arg-type]
    session = restored(1)
    pings.recover(session, PING_AFTER_MS - 1)
    assert not pings._looking
