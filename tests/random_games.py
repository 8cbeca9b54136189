"""Random games for tests and benches: an engine driven by random legal presses and waits."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any


def random_views(
    engine: Any,
    rng: random.Random,
    players: int,
    *,
    most_ms: int,
    allowed: Callable[[Mapping[str, Any]], bool] = lambda action: True,
) -> Iterator[Any]:
    """The public view after each step of a random game: an ``allowed`` legal press (up to
    ``most_ms`` after the last) or a wait to the next deadline, until the game is over."""
    clock = 0
    while not engine.is_over:
        seat = rng.randrange(players)
        actions = [action for action in engine.legal_actions(seat) if allowed(action)]
        if actions and rng.random() < 0.8:
            clock += rng.randint(0, most_ms)
            engine.apply(seat, rng.choice(actions), clock)
        else:
            clock = max(clock, engine.next_deadline() or clock)
            engine.advance(clock)
        yield engine.view(None)


def random_steps(engine: Any, rng: random.Random, players: int, *, most: int = 4000) -> Iterator[list[Any]]:
    """The events of each step of a random game, as a table makes them: mostly a seat's legal
    press a moment (up to 2 s) later, if it has one then, else nobody until the next deadline;
    until the game is over or ``most`` steps. The caller asserts it is over."""
    clock = 0
    for _ in range(most):
        if engine.is_over:
            return
        seat = rng.randrange(players)
        if rng.random() < 0.8:
            clock += rng.randint(0, 2000)
            events = engine.advance(clock)
            legal = engine.legal_actions(seat)
            if legal:
                events += engine.apply(seat, rng.choice(legal), clock)
        else:
            clock = max(clock, engine.next_deadline() or clock)
            events = engine.advance(clock)
        yield events
