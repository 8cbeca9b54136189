"""The Kabuki replay record: every Stop press, the race's close and the box are in it, and
``check_log`` catches a record whose race, box or timing could not have happened by the rules."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from bot.games.kabuki.engine import BOX_TOKENS, DEFAULT_OPTIONS, KabukiEngine
from bot.games.kabuki.replay import ReplayError, check_log
from bot.games.kabuki.scripting import script_round
from bot.games.kabuki.simulate import Game, record

GRACE = DEFAULT_OPTIONS["grace_ms"]
WINDOW = DEFAULT_OPTIONS["race_window_ms"]
FOX, OWL = 2, 5
CLOSE = 3500 + WINDOW  # the race below opens when its first press is received, at 3500


def raced_game() -> KabukiEngine:
    """Four players; seat 1 puts an Owl on a Fox (no match) and three others race to Stop it.

    Arrival order: seat 2 (pressed 3480, received 3500), seat 3 (pressed 3460, received 3530),
    seat 0 (pressed 3490, received 3600). Seat 3 pressed first, so seat 3 challenges and pays one
    token to the box. Then the turn timer plays the rest of the game.
    """
    engine = KabukiEngine.new(4, seed=7, options={}, now=0)
    script_round(engine, (FOX, OWL), first=0)
    for seat, at in ((0, 0), (1, GRACE)):
        engine.advance(at)
        engine.apply(seat, {"type": "place", "stack": 0}, at)
    for seat, pressed, received in ((2, 3480, 3500), (3, 3460, 3530), (0, 3490, 3600)):
        engine.advance(received)
        engine.apply(seat, {"type": "stop"}, pressed)
    engine.advance(10**9)
    assert engine.is_over
    return engine


@pytest.fixture(scope="module")
def clean() -> dict[str, Any]:
    return json.loads(json.dumps(record(Game(raced_game()), memory=1.0)))


@pytest.fixture
def rec(clean: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(clean))


def first_stop(rec: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in rec["log"] if e["e"] == "stop")


def test_each_stop_press_is_logged_in_arrival_order_with_its_timestamp_and_when_it_arrived(rec) -> None:
    stop = first_stop(rec)
    assert stop["presses"] == [
        {"seat": 2, "at": 3480, "received": 3500},
        {"seat": 3, "at": 3460, "received": 3530},
        {"seat": 0, "at": 3490, "received": 3600},
    ]
    assert stop["challenger"] == 3  # the earliest timestamp, not the first to arrive


def test_the_race_closes_one_window_after_its_first_press_was_received(rec) -> None:
    stop = first_stop(rec)
    assert stop["closes_at"] == stop["at"] == CLOSE  # not 3480 + WINDOW: that press arrived late


def test_the_tokens_and_the_box_after_each_stop_are_logged_and_conserved(rec) -> None:
    stop = first_stop(rec)
    assert stop["tokens"] == [5, 5, 5, 4] and stop["box"] == BOX_TOKENS - 4 * 5 + 1
    stops = [e for e in rec["log"] if e["e"] == "stop"]
    assert all(sum(e["tokens"]) + e["box"] == BOX_TOKENS for e in stops)


def test_the_record_names_its_format_and_game_first_and_every_option(rec) -> None:
    assert list(rec)[:2] == ["format", "game"]
    assert rec["format"] == 2 and rec["game"] == "kabuki"
    assert rec["options"] == DEFAULT_OPTIONS  # nothing was chosen, and every default is there
    check_log(rec)


def _stop_press(n: int, **fields: int) -> Callable[[dict[str, Any]], None]:
    return lambda rec: first_stop(rec)["presses"][n].update(fields)


def _stop(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda rec: first_stop(rec).update(fields)


def _swap_arrivals(rec: dict[str, Any]) -> None:
    presses = first_stop(rec)["presses"]
    presses[1], presses[2] = presses[2], presses[1]


def _entry(kind: str, nth: int, **fields: int) -> Callable[[dict[str, Any]], None]:
    return lambda rec: [e for e in rec["log"] if e["e"] == kind][nth].update(fields)


def _with_tokens(rec: dict[str, Any]) -> None:
    first_stop(rec)["tokens"] = [5, 5, 5, 5]


def _first_auto_a_moment_early(rec: dict[str, Any]) -> None:
    next(e for e in rec["log"] if e["e"] == "place" and e["auto"])["at"] -= 1


TAMPERED = {
    # seat 2 now pressed before seat 3 (still after the placement and before it arrived)
    "a moved timestamp that changes the winner": (_stop_press(0, at=3450), "pressed first"),
    "an equal timestamp that arrived first wins the tie": (_stop_press(0, at=3460), "pressed first"),
    "a press made before its card was placed": (_stop_press(1, at=GRACE - 1), "collection window"),
    "a press made at the close": (_stop_press(2, at=CLOSE, received=CLOSE + 5), "collection window"),
    "a press received at the close": (_stop_press(2, received=CLOSE), "collection window"),
    "a press received before it was made": (_stop_press(0, at=3501), "collection window"),
    "presses out of arrival order": (_swap_arrivals, "arrival order"),
    "a race closed a window after the first timestamp": (_stop(closes_at=3480 + WINDOW), "must close"),
    "a race resolved after its close": (_stop(at=CLOSE + 1), "must close"),
    "a wrong box count": (_stop(box=BOX_TOKENS - 20), "box holds"),
    "wrong tokens after the Stop": (_with_tokens, "after the Stop"),
    "a Stop pressed twice by one seat": (_stop_press(2, seat=2), "at most once"),
    "a round ending late": (_entry("round_end", 0, at=10**8), "should end at"),
    "a round starting before the last one ended": (_entry("round", 1, at=0), "start"),
    "time running backwards": (_entry("place", 5, at=1), "backwards"),
    "a placement inside the grace period": (_entry("place", 1, at=GRACE - 1), "before"),
    "an idle placement before the turn timer ran out": (_first_auto_a_moment_early, "turn timer"),
}


@pytest.mark.parametrize(("tamper", "complaint"), TAMPERED.values(), ids=TAMPERED.keys())
def test_check_log_refuses_a_record_the_rules_could_not_produce(rec, tamper, complaint) -> None:
    check_log(rec)
    tamper(rec)
    with pytest.raises(ReplayError, match=complaint):
        check_log(rec)


@pytest.mark.parametrize("missing", ["format", "game"])
def test_check_log_refuses_a_record_without_its_format_or_game(rec, missing) -> None:
    del rec[missing]
    with pytest.raises(ReplayError, match="format"):
        check_log(rec)


def test_check_log_refuses_a_record_whose_options_are_not_in_full(rec) -> None:
    del rec["options"]["reveal_ms"]
    with pytest.raises(ReplayError, match="not in full"):
        check_log(rec)


def test_a_game_saved_mid_race_before_presses_were_kept_still_logs_them() -> None:
    """A session saved by the previous version has no ``presses``: they are rebuilt from its race."""
    engine = KabukiEngine.new(4, seed=7, options={}, now=0)
    script_round(engine, (FOX, OWL), first=0)
    for seat, at in ((0, 0), (1, GRACE)):
        engine.advance(at)
        engine.apply(seat, {"type": "place", "stack": 0}, at)
    engine.advance(3500)
    engine.apply(2, {"type": "stop"}, 3480)
    engine.advance(3530)
    engine.apply(3, {"type": "stop"}, 3460)
    saved = engine.to_json()
    del saved["presses"]
    restored = KabukiEngine.from_json(json.loads(json.dumps(saved)))
    restored.advance(10**9)
    rec = json.loads(json.dumps(record(Game(restored), memory=1.0)))
    assert first_stop(rec)["presses"] == [
        {"seat": 2, "at": 3480, "received": 3500},  # exact: the race's close minus the window
        {"seat": 3, "at": 3460, "received": 3530},  # the saved clock: no earlier than it arrived
    ]
    check_log(rec)
