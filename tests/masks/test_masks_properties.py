"""Random legal play over many seeds: invariants after every step, determinism, save/restore."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.protocol import Event
from bot.games.masks.engine import MasksEngine
from bot.games.masks.players import play_game

Step = tuple[str, int, dict[str, Any] | None, int]


def random_game(seed: int, players: int | None = None) -> tuple[MasksEngine, list[Step], list[list[Event]]]:
    """Play a whole game with random legal actions, random clock jumps and out-of-order presses."""
    rng = random.Random(seed)
    players = players or rng.randint(3, 8)
    options = {
        "guess_ms": rng.choice([5_000, 10_000]),
        "race_window_ms": rng.choice([0, 100, 250]),
        "reveal_ms": rng.choice([0, 2_000]),
        "second_chance": rng.random() < 0.3,
    }
    engine = MasksEngine.new(players, seed, options, 0)
    steps: list[Step] = []
    outputs: list[list[Event]] = []
    clock = 0
    while not engine.is_over:
        roll = rng.random()
        if roll < 0.7:
            seat = rng.randrange(players)
            actions = engine.legal_actions(seat)
            if not actions or (actions[0]["type"] == "end_guessing" and rng.random() < 0.9):
                continue
            action = rng.choice(actions)
            at = clock + rng.randint(-80, 300)  # a press may carry an earlier timestamp than the last one
            if engine.guess_deadline is not None and at >= engine.guess_deadline:
                continue
            clock = max(clock, at)
            steps.append(("apply", seat, action, at))
            outputs.append(engine.apply(seat, action, at))
        else:
            deadline = engine.next_deadline()
            assert deadline is not None
            clock = max(clock, deadline if roll < 0.9 else clock + rng.randint(0, 2_000))
            steps.append(("advance", -1, None, clock))
            outputs.append(engine.advance(clock))
        check_invariants(engine, outputs[-1])
    return engine, steps, outputs


def run(engine: MasksEngine, step: Step) -> list[Event]:
    op, seat, action, now = step
    return engine.apply(seat, action, now) if op == "apply" else engine.advance(now)


def check_invariants(engine: MasksEngine, events: list[Event]) -> None:
    n = engine.players
    in_hand = 0 if engine.card is None else 1
    assert len(engine.deck) + sum(engine.pile_counts()) + len(engine.removed) + in_hand == 6 * n
    # Every finished turn used exactly two cards.
    finished = engine.turn - (1 if engine.phase == "guessing" else 0)
    assert 6 * n - len(engine.deck) - in_hand == 2 * finished
    # A tile has one holder and a seat holds at most one tile; the Mime holds none.
    holders = list(engine.held.values())
    assert len(holders) == len(set(holders)) and engine.mime not in holders
    # A race loser's slap is spent (unless second chances are on): it holds nothing and may not act.
    public = engine.view(None)
    if engine.options["second_chance"]:
        assert public["lost"] == []
    for seat in public["lost"]:
        assert seat not in holders and seat not in public["racing"] and engine.legal_actions(seat) == []
    for event in events:
        if event.kind == "reveal":
            correct = [s for t, s in event.data["held"] if t == event.data["card"]]
            assert len(correct) <= 1 and event.data["scorer"] == (correct[0] if correct else None)
            if event.data["reason"] == "all_slapped":
                done = {s for _, s in event.data["held"]}
                if not engine.options["second_chance"]:  # a race loser has slapped too
                    races = engine.history[event.data["turn"] - 1]["races"]
                    done |= {s for race in races for s, _ in race["entries"] if s != race["winner"]}
                assert done == set(range(n)) - {event.data["mime"]}
        if event.kind == "secret_card":
            assert event.to == (engine.mime,) or event.data["turn"] < engine.turn
    assert "card" not in public and "deck_order" not in public
    for seat in range(n):
        view = engine.view(seat)
        assert ("card" in view) == (seat == engine.mime and engine.phase == "guessing")
    for event in events:
        if event.public:
            assert event.kind != "secret_card"
            if engine.phase == "guessing" and event.kind != "reveal":
                assert "card" not in event.data


def test_random_play_keeps_every_invariant() -> None:
    for seed in range(60):
        engine, _, _ = random_game(seed)
        assert engine.is_over and not engine.deck
        result = engine.result()
        assert sum(result.scores) + len(engine.removed) == 6 * engine.players
        assert result.winners == tuple(s for s, v in enumerate(result.scores) if v == max(result.scores))


def test_public_view_does_not_depend_on_hidden_cards() -> None:
    """Swap the secret card, shuffle the deck and the piles' contents: the public view is unchanged."""
    for seed in range(15):
        engine, steps, _ = random_game(seed)
        replay = MasksEngine.new(engine.players, seed, engine.options, 0)
        rng = random.Random(seed)
        for step in steps:
            run(replay, step)
            if replay.phase != "guessing" or rng.random() < 0.7:
                continue
            data = replay.to_json()
            data["card"] = (data["card"] + 1 + rng.randrange(15)) % 16
            rng.shuffle(data["deck"])
            data["piles"] = [[rng.randrange(16) for _ in pile] for pile in data["piles"]]
            data["history"] = []
            data["log"] = []
            twin = MasksEngine.from_json(data)
            assert twin.view(None) == replay.view(None)
            assert twin.view(replay.mime)["card"] != replay.view(replay.mime)["card"]


def test_same_seed_gives_the_same_game_and_log() -> None:
    for seed in range(10):
        first, _, out1 = random_game(seed)
        second, _, out2 = random_game(seed)
        assert first.log == second.log and first.to_json() == second.to_json() and out1 == out2
        bots1, _ = play_game(5, seed)
        bots2, _ = play_game(5, seed)
        assert bots1.to_json() == bots2.to_json()


def test_replay_log_rebuilds_the_game() -> None:
    for seed in range(10):
        engine, _, _ = random_game(seed)
        assert MasksEngine.replay(engine.log).to_json() == engine.to_json()


def test_save_and_restore_at_any_point_continues_identically() -> None:
    for seed in range(12):
        engine, steps, outputs = random_game(seed)
        replay = MasksEngine.new(engine.players, seed, engine.options, 0)
        for i, step in enumerate(steps):
            run(replay, step)
            if i % 7:
                continue
            restored = MasksEngine.from_json(json.loads(json.dumps(replay.to_json())))
            assert restored.to_json() == replay.to_json()
            for later, expected in zip(steps[i + 1 :], outputs[i + 1 :], strict=True):
                assert run(restored, later) == expected
            assert restored.to_json() == engine.to_json()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 8))
def test_hypothesis_random_games_end_with_all_cards_accounted(seed: int, players: int) -> None:
    engine, _, _ = random_game(seed, players)
    assert engine.is_over and engine.turn == 3 * players
    assert len(engine.history) == engine.turn


def test_computer_tables_finish_with_all_cards_accounted() -> None:
    for players in range(3, 9):
        for seed in range(5):
            engine, stats = play_game(players, seed, skill=0.5)
            assert engine.is_over and sum(engine.pile_counts()) + len(engine.removed) == 6 * players
            assert stats.slaps >= engine.turn * (players - 1)
