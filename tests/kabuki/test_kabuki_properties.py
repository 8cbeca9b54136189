"""Kabuki properties under random play: invariants after every step, determinism, save/restore."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.protocol import IllegalAction
from bot.games.kabuki.engine import BOX_TOKENS, DEFAULT_OPTIONS, KabukiEngine
from bot.games.kabuki.replay import check_log
from bot.games.kabuki.simulate import Game, play_game, record

OPTIONS = {"grace_ms": 1000, "race_window_ms": 250, "reveal_ms": 2000, "turn_ms": 5000}
WAITS = (0, 1, 30, 120, 249, 250, 400, 1000, 2500, 6000)


def random_step(engine: KabukiEngine, rng: random.Random, now: int, stopping: float) -> tuple[int, list[Any]]:
    """One random thing: time passes, a legal action, or an arbitrary (maybe illegal) press."""
    now += rng.choice(WAITS)
    trace: list[Any] = [[e.kind, dict(e.data), e.to] for e in engine.advance(now)]
    seat = rng.randrange(engine.players)
    roll = rng.random()
    if roll < 0.6:
        legal = engine.legal_actions(seat)
        if legal and legal[-1]["type"] == "stop" and rng.random() > stopping:
            legal.pop()
        if legal:
            action = rng.choice(legal)
            trace += [[e.kind, dict(e.data), e.to] for e in engine.apply(seat, action, now)]
    else:
        # Anything at all, with a press timestamp up to 300 ms old: accepted or refused, never a crash.
        action = rng.choice(
            [{"type": "stop"}, {"type": "place", "stack": rng.randrange(-1, 5)}, {"type": "x"}]
        )
        try:
            trace += [
                [e.kind, dict(e.data), e.to] for e in engine.apply(seat, action, now - rng.randrange(300))
            ]
        except IllegalAction as refused:
            assert refused.reason
            trace.append(["refused", refused.reason])
    return now, trace


def check_invariants(engine: KabukiEngine) -> None:
    assert all(t >= 0 for t in engine.tokens) and engine.box >= 0
    assert sum(engine.tokens) + engine.box == BOX_TOKENS  # nothing made or lost, whatever was handed out
    if engine.phase == "play":
        assert min(engine.tokens) > 0  # a player at 0 ends the round at once
    check_public_view(engine)
    placements_challenged: dict[int, int] = {}
    placements = 0
    for entry in engine.log:
        if entry["e"] == "place":
            placements += 1
        elif entry["e"] == "stop":
            placements_challenged[placements] = placements_challenged.get(placements, 0) + 1
    assert all(n == 1 for n in placements_challenged.values())


def check_public_view(engine: KabukiEngine) -> None:
    view = engine.view(None)
    for stack in view["stacks"]:
        assert set(stack) == {"top", "height"}
    if engine.reveal is None:
        assert view["reveal"] is None
    else:
        assert view["reveal"]["cards"] == engine.stacks[engine.reveal["stack"]]
    buried = [key for key in _keys(view) if key in ("cards", "matches")]
    assert buried == ([] if engine.reveal is None else ["cards", "matches"])
    json.dumps(view)


def _keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [k for k, v in value.items() for k in [k, *_keys(v)]]
    if isinstance(value, list):
        return [k for v in value for k in _keys(v)]
    return []


def random_game(seed: int, players: int, restore_every: int = 0) -> tuple[KabukiEngine, list[Any]]:
    rng = random.Random(seed)
    engine = KabukiEngine.new(players, seed, OPTIONS, now=0)
    now, trace, step = 0, [], 0
    stopping = rng.choice((0.02, 0.1, 0.5))  # how keen the table is on Stop: decides how rounds end
    while not engine.is_over:
        now, more = random_step(engine, rng, now, stopping)
        trace += more
        check_invariants(engine)
        step += 1
        if restore_every and step % restore_every == 0:
            engine = KabukiEngine.from_json(json.loads(json.dumps(engine.to_json())))
        assert step < 20_000
    check_log(json.loads(json.dumps(record(Game(engine), memory=1.0))))
    return engine, trace


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_random_legal_play_keeps_every_invariant_and_replays(seed: int, players: int) -> None:
    engine, _ = random_game(seed, players)
    assert engine.result().winners


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), every=st.integers(1, 40))
def test_save_and_restore_at_any_point_continues_identically(seed: int, players: int, every: int) -> None:
    straight, trace = random_game(seed, players)
    restored, trace_restored = random_game(seed, players, restore_every=every)
    assert trace == trace_restored
    assert straight.to_json() == restored.to_json()


def test_the_same_seed_gives_the_same_log() -> None:
    for seed in range(3):
        a, _ = random_game(seed, 4)
        b, _ = random_game(seed, 4)
        assert a.log == b.log
    assert random_game(1, 4)[0].log != random_game(2, 4)[0].log


def test_computer_games_replay_for_every_player_count() -> None:
    for players in range(2, 7):
        for seed in range(3):
            game = play_game(players, seed, memory=0.7, idle=0.05, bluff=0.2)
            check_log(json.loads(json.dumps(record(game, 0.7))))
            check_invariants(game.engine)


@pytest.mark.parametrize(
    "options",
    [
        {"race_window_ms": 0},  # a race closes the instant its first press arrives
        {"grace_ms": 0},  # the last card's Stop window closes as it is placed
        {"race_window_ms": 5000, "grace_ms": 200, "reveal_ms": 0},  # races outlast the grace
    ],
)
def test_computer_games_with_extreme_timings_replay(options: dict[str, int]) -> None:
    for players in (2, 6):
        for seed in range(3):
            game = play_game(players, seed, memory=0.6, idle=0.1, bluff=0.3, options=options)
            rec = json.loads(json.dumps(record(game, 0.6)))
            assert rec["options"] == {**DEFAULT_OPTIONS, **options}
            check_log(rec)


def test_computer_games_are_deterministic_and_survive_restores() -> None:
    a = play_game(4, 11, memory=0.8, bluff=0.1)
    b = play_game(4, 11, memory=0.8, bluff=0.1)
    c = play_game(4, 11, memory=0.8, bluff=0.1, save_every=7)
    assert a.engine.log == b.engine.log == c.engine.log


def test_computer_games_produce_races_and_both_kinds_of_challenge() -> None:
    stops = [
        e
        for seed in range(4)
        for e in play_game(5, seed, memory=0.6, bluff=0.3).engine.log
        if e["e"] == "stop"
    ]
    assert any(len(e["presses"]) > 1 for e in stops)
    assert any(e["k"] == 0 for e in stops) and any(e["k"] > 0 for e in stops)
