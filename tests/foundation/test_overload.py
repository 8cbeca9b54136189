"""Overload: a press the bot comes to after Discord's 3 s is counted and not taken, never raised
(bot/session/overload.py). Not timed: SimCord's virtual clock is moved on while the press waits,
as a loaded loop would make it wait."""

from __future__ import annotations

import asyncio
import time

import pytest
from lobby_buttons import lobby_id
from shown import card


async def open_tap(world, *, start=True):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new", target=5)
    await bob.click(world.board(), custom_id=lobby_id(world.env, world.channel, "join"))
    if start:
        await alice.click(world.board(), custom_id=lobby_id(world.env, world.channel, "start"))


def scores(world) -> str:
    return card(world.board()).fields[0].value


class SlowLock:
    """The session's lock, held by others for ``seconds`` of Discord's clock before this press
    gets it (as presses queued ahead of it on a loaded loop)."""

    def __init__(self, env, lock: asyncio.Lock, seconds: float) -> None:
        self.env, self.lock, self.seconds = env, lock, seconds

    async def __aenter__(self) -> None:
        self.env.backend.advance_clock(self.seconds)
        await self.lock.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.lock.release()


def answers_before_move(env, session) -> list[int]:
    """Filled, each time the engine applies a move, with how many interaction answers Discord
    had been sent by then."""
    calls: list[int] = []
    apply = session.engine.apply

    def watched(*args, **kwargs):
        calls.append(len([r for r in env.http_requests if "/callback" in r.path]))
        return apply(*args, **kwargs)

    session.engine.apply = watched
    return calls


async def tap_waiting(world, env, session, seconds: float) -> tuple[int, list[int]]:
    """Alice taps once her press has waited ``seconds`` for the game's lock: the interaction
    answers Discord had been sent before it, and the types of the press's own answers."""
    session.lock = SlowLock(env, session.lock, seconds)
    before = len([r for r in env.http_requests if "/callback" in r.path])
    await world.members[0].click(world.board(), label="Tap")
    session.lock = session.lock.lock
    await env.settle()
    callbacks = [r for r in env.http_requests if "/callback" in r.path][before:]
    return before, [c.json["type"] for c in callbacks]


def counted(bot) -> tuple[int, int, str]:
    metrics = bot.metrics
    too_late = metrics._too_late.labels("tap")._value.get()
    return int(too_late), metrics.late_count, metrics.health_line(60.0)


async def test_a_press_reaching_the_bot_after_3_s_is_counted_and_changes_nothing(
    world, simcord_env, monkeypatch
):
    await open_tap(world)
    bot = simcord_env.bot
    board_before = card(world.board()).to_dict()
    real = bot.on_interaction

    async def arrives_late(interaction):
        simcord_env.backend.advance_clock(3.5)  # queued that long behind other presses
        await real(interaction)

    monkeypatch.setattr(bot, "on_interaction", arrives_late)
    late = await world.members[0].click(world.board(), label="Tap")
    monkeypatch.undo()
    assert late.response is None and late.followups == []  # the presser sees "interaction failed"
    assert card(world.board()).to_dict() == board_before
    assert bot.sessions.get(world.channel.id).engine.s["scores"] == [0, 0]
    too_late, late_answers, line = counted(bot)
    assert (too_late, late_answers) == (1, 0)
    assert "1 too late to take" in line
    # The game goes on: the same press in time is taken.
    fresh = await world.members[0].click(world.board(), label="Tap")
    assert not fresh.ephemeral
    assert scores(world) == "alice: 1\nbob: 0"


@pytest.mark.parametrize("seconds, taken", [(3.5, False), (0.5, True)])
async def test_a_press_waiting_for_the_lock_past_the_window_is_not_applied(
    world, simcord_env, seconds, taken
):
    await open_tap(world)
    session = simcord_env.bot.sessions.get(world.channel.id)
    session.lock = SlowLock(simcord_env, session.lock, seconds)
    result = await world.members[0].click(world.board(), label="Tap")
    session.lock = session.lock.lock
    assert session.engine.s["scores"] == ([1, 0] if taken else [0, 0])
    assert (result.response is not None) == taken
    assert counted(simcord_env.bot)[:2] == ((0, 0) if taken else (1, 0))


async def test_a_lobby_press_waiting_past_the_window_is_not_applied(world, simcord_env):
    await open_tap(world, start=False)
    session = simcord_env.bot.sessions.get(world.channel.id)
    session.lock = SlowLock(simcord_env, session.lock, 3.5)
    result = await world.members[2].click(world.board(), custom_id=lobby_id(world.env, world.channel, "join"))
    session.lock = session.lock.lock
    assert result.response is None
    assert len(session.players) == 2 and counted(simcord_env.bot)[0] == 1


async def test_a_press_taken_late_is_answered_before_its_move_is_applied(world, simcord_env):
    """Older than ANSWER_FIRST_MS at the lock: acknowledged first, then applied; the board goes
    by a REST edit of the board message."""
    await open_tap(world)
    bot = simcord_env.bot
    session = bot.sessions.get(world.channel.id)
    calls = answers_before_move(simcord_env, session)
    before, answers = await tap_waiting(world, simcord_env, session, 1.5)
    assert answers == [6]  # one answer: a deferred update
    assert calls == [before + 1], "the move was applied before the press had its answer"
    assert session.engine.s["scores"] == [1, 0]
    assert scores(world) == "alice: 1\nbob: 0"  # the board shows it (a REST edit)
    assert bot.metrics.answered_first_count == 1
    assert counted(bot)[:2] == (0, 0)


async def test_a_press_whose_first_answer_discord_refuses_is_not_applied(world, simcord_env):
    await open_tap(world)
    bot = simcord_env.bot
    session = bot.sessions.get(world.channel.id)
    board_before = card(world.board()).to_dict()
    simcord_env.inject_error(
        "POST", "/interactions/*/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    session.lock = SlowLock(simcord_env, session.lock, 1.5)
    await world.members[0].click(world.board(), label="Tap")
    session.lock = session.lock.lock
    await simcord_env.settle()
    assert session.engine.s["scores"] == [0, 0]  # not applied behind a refused answer
    assert card(world.board()).to_dict() == board_before
    assert counted(bot)[0] == 1


async def test_a_press_too_late_to_take_is_told_while_discord_still_listens(world, simcord_env):
    await open_tap(world)
    session = simcord_env.bot.sessions.get(world.channel.id)
    session.lock = SlowLock(simcord_env, session.lock, 2.6)
    result = await world.members[0].click(world.board(), label="Tap")
    session.lock = session.lock.lock
    assert session.engine.s["scores"] == [0, 0]
    assert result.ephemeral and "too busy" in result.response.content


async def test_the_loops_queue_is_measured_as_long_as_work_handed_to_it_waits():
    """The trip a callback handed over now makes before it runs, on the loop's clock: a queue
    holding 50 ms of work ahead of it reads at least that, and once that trip is over the next
    one is measured afresh (120 ms of work: at least that). Only lower bounds: a busy machine
    may make any trip longer."""
    from bot.glue.queue_trip import QueueTrip

    queue = QueueTrip()
    loop = asyncio.get_running_loop()
    loop.call_soon(time.sleep, 0.05)  # ready work ahead of the measuring callback
    queue.measure()
    queue.measure()  # one callback waits at a time: this one hands over nothing
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert queue.ms() >= 50
    loop.call_soon(time.sleep, 0.12)
    queue.measure()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert queue.ms() >= 120


class MeasuredQueue:
    """The loop's queue as measured last, held at ``seconds`` (``bot.glue.queue_trip``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def measure(self) -> None:
        pass

    def ms(self) -> float:
        return self.seconds * 1000


@pytest.mark.parametrize("queue_s, answered_first", [(0.4, True), (0.0, False)])
async def test_a_press_on_a_loop_far_behind_is_answered_before_its_move(
    world, simcord_env, monkeypatch, queue_s, answered_first
):
    """Half a second old at the lock, with the loop's queue 0.4 s long: its save, picture and
    answer would each wait that long again, past Discord's 3 s with the move applied. So it is
    answered first (a deferred update), then applied. With the queue empty, the same press keeps
    its one answer, the board edited inside it."""
    await open_tap(world)
    bot = simcord_env.bot
    monkeypatch.setattr(bot.metrics, "queue", MeasuredQueue(queue_s))
    session = bot.sessions.get(world.channel.id)
    calls = answers_before_move(simcord_env, session)
    before, answers = await tap_waiting(world, simcord_env, session, 0.5)
    assert answers == ([6] if answered_first else [7])
    assert calls == [before + (1 if answered_first else 0)]
    assert session.engine.s["scores"] == [1, 0]
    assert scores(world) == "alice: 1\nbob: 0"
    assert bot.metrics.answered_first_count == (1 if answered_first else 0)
