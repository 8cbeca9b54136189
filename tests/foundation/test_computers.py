"""Computer players in empty seats, end to end: one human and computers play a whole game of each
title through SimCord, across a restart, and only the human is recorded."""

from __future__ import annotations

import copy
import random

import pytest
from shown import card, is_card, labels
from simcord_clock import clock_held_still
from test_lobby import field

from bot.games import registry
from bot.session import computers
from bot.session.sessions import PLAYING

# Every registered game with computer players: a new game is played here by being registered.
COGS = [kind for kind, game in registry.games().items() if game.computers is not None]


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(COGS)


# Short timers: the human never presses, so their turns pass on the game's own timers (a game
# not named here: its own defaults).
GAMES = {
    "kabuki": {"grace": 0, "turn_timer": 10, "reveal": 1},
    "masks": {"guess_seconds": 5},
    "kingdom": {"length": 2, "timer": 10},
}


async def open_with_computers(world, kind: str, computers_wanted: int):
    human = world.members[0]
    await human.slash(world.channel, f"{kind} new", **GAMES.get(kind, {}))
    for _ in range(computers_wanted):
        await human.click(world.board(), label="Add computer")
    return human


async def test_the_host_seats_and_unseats_computer_players_by_name(world):
    alice, bob = world.members[:2]
    await open_with_computers(world, "kingdom", 2)
    assert field(world.board(), "Players (3/16)") == "1. alice\n2. 🤖 Robo 1\n3. 🤖 Robo 2"
    assert "Add computer" in labels(world.board()) and "Remove computer" in labels(world.board())
    refused = await bob.click(world.board(), label="Add computer")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await alice.click(world.board(), label="Remove computer")
    await bob.click(world.board(), label="Join")
    assert field(world.board(), "Players") == "1. alice\n2. 🤖 Robo 1\n3. bob"
    await alice.click(world.board(), label="Remove computer")
    none_left = await alice.click(world.board(), label="Remove computer")
    assert none_left.ephemeral and "no computer player" in none_left.response.content
    assert field(world.board(), "Players") == "1. alice\n2. bob"


async def test_computers_fill_the_lobby_only_up_to_the_game_s_maximum(world):
    alice = world.members[0]
    await open_with_computers(world, "masks", 7)  # Monster Masks seats 3–8
    full = await alice.click(world.board(), label="Add computer")
    assert full.ephemeral and "full" in full.response.content
    assert field(world.board(), "Players (8/8)").count("🤖") == 7


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])  # every game, whole, on each storage
@pytest.mark.parametrize("kind", COGS)
async def test_one_human_and_computers_play_a_whole_game_across_a_restart(
    world, simcord_env, restart_bot, kind
):
    human = await open_with_computers(world, kind, 2)
    # From the start on, the game moves only when the test moves time: the computers' first moves
    # are armed by this press and would otherwise come due on the wall clock during its settle.
    with clock_held_still(simcord_env):
        await human.click(world.board(), label="Start")
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session.status == PLAYING and session.players[1:] == [-1, -2]
    assert "🤖 Robo 1" in str(card(world.board()).to_dict())  # named on the board
    restarted = False
    for step in range(2000):
        session = simcord_env.bot.sessions.get(world.channel.id)
        if session is None:
            break
        if not restarted and step >= 5 and session.plans:
            # Straight from the last advance_time to the restart, with nothing awaited between:
            # a computer's timer due a moment later could otherwise fire on the wall clock.
            plans, stopped_at = copy.deepcopy(session.plans), simcord_env.now()
            await restart_bot(COGS)
            restarted = True
            # The game comes back at the instant it stopped, and the computers' next moves were
            # saved with it, so the same moves are still to come.
            assert simcord_env.now() == stopped_at
            assert simcord_env.bot.sessions.get(world.channel.id).plans == plans, (
                f"{kind}: the computers' plans changed across the restart, {plans} before it and"
                f" {simcord_env.bot.sessions.get(world.channel.id).plans} after: {WAITS_BY_VIEW}"
            )
        await simcord_env.advance_time(3)
    assert restarted and simcord_env.bot.sessions.get(world.channel.id) is None
    # The board, not a computer Mime's emoji posted after it.
    final = [m for m in world.channel.history() if is_card(m)][-1]
    assert labels(final) == ["Play again"]
    storage = simcord_env.bot.storage
    assert await storage.game_count(world.guild.id, kind) == 1
    rows, total = await storage.leaderboard(world.guild.id, kind)
    assert total == 1 and [r.user_id for r in rows] == [human.id]  # computers are never ranked
    past = (await storage.recent_games(world.guild.id))[0]
    assert list(past.names) == ["alice", "🤖 Robo 1", "🤖 Robo 2"]


# The rules every computer policy keeps (docs/adding-a-game.md), said when a test finds one broken.
THINK_MS = 1000
THINKS = f"every computer plan waits at least {THINK_MS:,} ms, as a person would (no instant moves)"
FOLLOWS = "a computer's plan follows from its view, legal actions, generator and memory alone"
WAITS_BY_VIEW = (
    "a computer waits (plan returns None) or acts by its view and legal actions, never by its random"
    " generator: the session layer asks a waiting computer again, with a new generator, whenever the"
    " game is saved (a press, a timer, a database retry, the save before a restart), so one that"
    " waits by chance decides differently after a restart"
)


def checked_plan(kind, plan, view, legal, step):
    """``plan(view, legal, rng)`` for one state, held to the rules above; the plan it made."""
    made = plan(view, legal, random.Random(step))
    assert made == plan(view, legal, random.Random(step)), f"{kind}: {FOLLOWS}: one state gave two plans"
    for other in range(1, 4):  # other generators: the same choice to wait or to act
        also = plan(view, legal, random.Random(step + 1000 * other))
        assert (made is None) == (also is None), (
            f"{kind}: {WAITS_BY_VIEW}; in one state it planned {made} and {also} by two generators"
        )
    if made is not None:
        assert made[0] >= THINK_MS, f"{kind}: {THINKS}; it planned {made[1]} after {made[0]} ms"
    return made


def test_a_computer_that_breaks_a_rule_is_told_the_rule():
    legal = [{"type": "tap"}]

    def hasty(view, legal, rng):
        return 500, legal[0]

    def moody(view, legal, rng):  # waits by a coin toss
        return None if rng.random() < 0.5 else (2000, legal[0])

    counting = iter(range(1000, 9000, 500))

    def restless(view, legal, rng):  # a plan from something besides its arguments
        return next(counting), legal[0]

    with pytest.raises(AssertionError, match="at least 1,000 ms, as a person would .* after 500 ms"):
        checked_plan("ring", hasty, {}, legal, 0)
    with pytest.raises(AssertionError, match=r"never by its random generator: .* after a restart"):
        for step in range(20):
            checked_plan("ring", moody, {}, legal, step)
    with pytest.raises(AssertionError, match="follows from its view, legal actions, generator and memory"):
        checked_plan("ring", restless, {}, legal, 0)


@pytest.mark.parametrize("kind", COGS)
def test_a_computer_s_move_depends_only_on_what_its_seat_may_see(kind):
    """Over many states: the plan is drawn from view(seat) and the seat's legal actions alone.
    Two games from different seeds in which the seat sees the same thing would plan alike; here
    the policy is handed a view with every hidden field the engine keeps scrambled away, which
    it could not read even if it tried: the view is all it gets."""
    engine_cls = registry.get(kind).engine
    options = {"kingdom": {"turn_ms": 0}, "kabuki": {"grace_ms": 0}}.get(kind, {})
    for seed in range(20):
        engine = engine_cls.new(4, seed, options, 0)
        now = 0
        for step in range(40):
            if engine.is_over:
                break
            moved = False
            for seat in range(4):
                legal = engine.legal_actions(seat)
                if not legal:
                    continue
                view = engine.view(seat)
                # The same view and legal actions give the same plan, whatever else the engine holds.
                made = checked_plan(
                    kind,
                    lambda *asked: computers.plan(registry.get(kind).part("computers"), *asked),
                    view,
                    legal,
                    step,
                )
                if made is None:
                    continue
                delay, action = made
                if action["type"] == computers.SAY:
                    continue  # said in the channel (a Masks Mime's emoji), not applied
                assert action in legal, (
                    f"{kind}: a computer's action must be one of its legal actions: {action}"
                )
                deadline = engine.next_deadline()
                if deadline is not None and now + delay >= deadline:
                    break  # time runs out first
                now += delay
                engine.apply(seat, action, now)
                moved = True
                break
            if not moved:
                deadline = engine.next_deadline()
                if deadline is None:
                    break
                now = max(now, deadline)
                engine.advance(now)
