"""Random legal play over many seeds: invariants after every step, determinism, save/restore."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.engine.protocol import Event
from bot.games.kingdom.cards import BARD, DRAGON, KING, THIEF, TRADER
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.simulate import Recorder, check_log, record

ACTIONS = {"stand", "exchange", "cut", "trader", "swap", "keep", "bard", "dragon"}  # "thief" is half a turn

# (mode, players) tables the property tests cycle through; 2-player and 20-player included.
TABLES = [
    ("classic", 3),
    ("classic", 5),
    ("death-over-all", 4),
    ("only-one", 2),
    ("only-one", 6),
    ("classic", 8),
]


def new_game(seed: int) -> KingdomEngine:
    mode, players = TABLES[seed % len(TABLES)]
    rng = random.Random(seed)
    options = {"mode": mode, "length": 2, "turn_ms": 5_000, "reveal_ms": rng.choice([0, 3_000])}
    return KingdomEngine.new(players, seed, options, 0)


def step(engine: KingdomEngine, seed: int, n: int, now: int) -> tuple[list[Event], int]:
    """One move of random legal play, decided by (seed, n) alone so a restored game replays it."""
    rng = random.Random(f"{seed}:{n}")
    deadline = engine.next_deadline()
    if deadline is not None and rng.random() < 0.15:
        now = max(now, deadline)
        return engine.advance(now), now
    now += rng.randrange(1, 2_000)
    seat = engine.active if engine.active is not None else rng.randrange(engine.players)
    return engine.apply(seat, rng.choice(engine.legal_actions(seat)), now), now


class PublicKnowledge:
    """What the table can know from public events alone, kept independently of the engine."""

    def __init__(self, engine: KingdomEngine) -> None:
        self.known: dict[int, int] = {s: KING for s in engine.order if engine.char(s) == KING}
        self.top: int | None = None

    def feed(self, events: list[Event]) -> None:
        known = self.known
        for e in events:
            if not e.public:
                continue
            d: Any = e.data
            kind = e.kind
            if kind == "round":
                known.clear()
                self.top = None
            elif kind == "king":
                known[d["seat"]] = KING
            elif kind in ("exchange", "swap", "bard"):
                if kind == "bard":
                    known[d["seat"]] = BARD
                self._swap(d["seat"], d["target"])
            elif kind == "thief":
                known[d["seat"]] = THIEF
            elif kind == "cut":
                known.pop(d["seat"], None)
                if d["position"] == 0:
                    self._take_top(d["seat"])
            elif kind == "trader":
                known.pop(d["seat"], None)
                self._take_top(d["seat"])
                self.top = TRADER
            elif kind == "dragon":
                known[d["seat"]] = DRAGON
                known.pop(d["target"], None)
                self._take_top(d["target"])

    def _swap(self, a: int, b: int) -> None:
        ka, kb = self.known.pop(a, None), self.known.pop(b, None)
        if ka is not None:
            self.known[b] = ka
        if kb is not None:
            self.known[a] = kb

    def _take_top(self, seat: int) -> None:
        if self.top is not None:
            self.known[seat] = self.top
        self.top = None


def check_step(
    engine: KingdomEngine, events: list[Event], public: PublicKnowledge, round_moves: Counter
) -> None:
    # 26 cards: hands + deck + discards, each physical card once.
    cards = [c for c in engine.hands if c is not None] + engine.deck + engine.discards
    assert sorted(cards) == list(range(26))
    view = engine.view(None)
    json.dumps(view)
    if engine.phase == "play":
        # Exactly the public facts: a seat's card or the deck top is shown only if public events showed it.
        shown = {s["seat"]: s["shown"]["char"] for s in view["seats"] if s["shown"]}
        assert shown == public.known
        assert (view["deck_top"] or {}).get("char") == public.top
    for seat in range(engine.players):
        seat_view = engine.view(seat)
        me = seat_view.pop("me")
        assert seat_view == view  # a seat's view adds only its own part
        assert me["legal"] == engine.legal_actions(seat)
    for e in events:
        if e.kind in ("shuffle", "deck"):
            assert e.to == (), "the deck order is for no seat"
        if e.kind == "round":
            round_moves.clear()
        elif e.public and e.kind in ACTIONS:
            round_moves[e.data["seat"]] += 1
        elif e.kind == "reveal":
            order = [c["seat"] for c in e.data["cards"]]
            assert round_moves == Counter(order), "one action per player per round"
            if engine.mode == "classic":
                assert sum(e.data["delta"]) == len(e.data["losers"])
            assert set(e.data["death"]) <= set(e.data["losers"])


def play_out(seed: int, checks: bool = True) -> KingdomEngine:
    engine = new_game(seed)
    public = PublicKnowledge(engine)
    moves: Counter = Counter()
    recorder = Recorder()
    recorder.feed(engine.opening)
    public.feed(engine.opening)
    for e in engine.opening:
        if e.public and e.kind in ACTIONS:
            moves[e.data["seat"]] += 1
    n, now = 0, 0
    while not engine.is_over:
        events, now = step(engine, seed, n, now)
        n += 1
        if checks:
            recorder.feed(events)
            public.feed(events)
            check_step(engine, events, public, moves)
    if checks:
        # An independent replay by the rules agrees with the engine, timeouts and pauses included.
        check_log(json.loads(json.dumps(record(engine, recorder, seed, "random"))))
    return engine


@pytest.mark.parametrize("seed", range(40))
def test_random_play_keeps_every_invariant(seed):
    engine = play_out(seed)
    result = engine.result()
    assert result.winners and len(result.scores) == engine.players
    if engine.mode == "only-one":
        assert sum(len(g) for g in engine.eliminated) >= engine.players - 1


@pytest.mark.parametrize("seed", range(0, 60, 5))
def test_same_seed_gives_an_identical_game_and_log(seed):
    a, b = play_out(seed, checks=False), play_out(seed, checks=False)
    assert a.to_json() == b.to_json()
    assert KingdomEngine.replay(a.log).to_json() == a.to_json()


@pytest.mark.parametrize("seed", range(24))
def test_save_and_restore_at_any_point_continues_identically(seed):
    original = play_out(seed, checks=False)
    stop = random.Random(seed).randrange(max(len(original.log) - 1, 1))
    engine = new_game(seed)
    n, now = 0, 0
    while len(engine.log) - 1 < stop and not engine.is_over:
        _, now = step(engine, seed, n, now)
        n += 1
    restored = KingdomEngine.from_json(json.loads(json.dumps(engine.to_json())))
    assert restored.to_json() == engine.to_json()
    assert restored.view(None) == engine.view(None)
    while not restored.is_over:
        _, now = step(restored, seed, n, now)
        n += 1
    assert restored.to_json() == original.to_json()
    assert restored.result() == original.result()
