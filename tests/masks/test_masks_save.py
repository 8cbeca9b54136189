"""The per-press save (``MasksEngine.to_save``): it leaves out the finished turns' records, which a
restore rebuilds from the log, so a save does not grow with the game and a restore loses nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games.masks.engine import MasksEngine
from bot.games.masks.players import play_game
from bot.session.sessions import PLAYING, Session, restored_state
from bot.storage import SavedSession

# (players, seed, options, patience_ms, idle): tables driven by the simulator's computer players,
# with and without second chances, races wide enough to stay open between presses, the Mime
# ending the guessing, guessers sitting out (so the guess timer reveals), no reveal pause.
TABLES: list[tuple[int, int, dict[str, Any], int | None, float]] = [
    (3, 1, {"second_chance": False, "race_window_ms": 400}, None, 0.0),
    (3, 2, {"second_chance": True, "race_window_ms": 400}, None, 0.0),
    (4, 3, {"second_chance": False, "reveal_ms": 0}, 1500, 0.2),
    (4, 4, {"second_chance": True, "guess_ms": 5_000}, None, 0.4),
    (5, 5, {"second_chance": True, "race_window_ms": 600, "reveal_ms": 0}, 2000, 0.0),
    (8, 6, {"second_chance": False}, None, 0.1),
]


def saved(engine: MasksEngine) -> dict[str, Any]:
    """The engine's save as a restart reads it back: through JSON, its log put back in."""
    return json.loads(json.dumps(engine.to_save()))


def step(engine: MasksEngine, entry: dict[str, Any]) -> list[Any]:
    if entry["op"] == "apply":
        return engine.apply(entry["seat"], entry["action"], entry["now"])
    return engine.advance(entry["now"])


def fresh(log: list[dict[str, Any]]) -> MasksEngine:
    first = log[0]
    return MasksEngine.new(
        first["players"], first["seed"], first["options"], first["now"], deck=first["deck"]
    )


def moment(engine: MasksEngine) -> str:
    if engine.is_over:
        return "over"
    if engine.phase == "reveal":
        return "reveal"
    return "race" if engine.races else "guessing"


@pytest.mark.parametrize(("players", "seed", "options", "patience", "idle"), TABLES)
def test_a_save_restores_the_same_engine_at_every_step_and_play_goes_on_the_same(
    players: int, seed: int, options: dict[str, Any], patience: int | None, idle: float
) -> None:
    game, _ = play_game(players, seed, options=options, patience_ms=patience, idle=idle)
    live = fresh(game.log)
    outputs = [step(live, entry) for entry in game.log[1:]]
    live = fresh(game.log)
    seen = set()
    for i, entry in enumerate(game.log[1:]):
        step(live, entry)
        restored = MasksEngine.from_json(saved(live))
        assert restored.to_json() == live.to_json()
        seen.add(moment(live))
        if i % 9 == 0 or live.races or live.is_over:
            rest = game.log[i + 2 :]
            assert [step(restored, later) for later in rest] == outputs[i + 1 :]
            assert restored.to_json() == game.to_json() and restored.result() == game.result()
    assert {"guessing", "race", "over"} <= seen and ("reveal" in seen or options.get("reveal_ms") == 0)


def test_a_save_keeps_only_the_current_turn_so_the_last_press_writes_what_the_first_did() -> None:
    game, _ = play_game(8, 1)
    live = fresh(game.log)
    sizes = []
    for entry in game.log[1:]:
        step(live, entry)
        state = saved(live)
        assert state["history_from"] == live.turn - 1 and len(state["history"]) == 1
        assert state["history"][0] == live.history[-1]
        del state["log"]  # saved as rows of its own (bot.session.sessions)
        sizes.append(len(json.dumps(state)))
    # What still grows is the piles (48 cards in all) and the turn's own record; with every turn's
    # record the last save was about 15 times the first.
    assert max(sizes) < 2.5 * sizes[0]


def test_a_session_saved_mid_game_restores_through_its_log_rows() -> None:
    game, _ = play_game(5, 2, options={"race_window_ms": 600})
    live = fresh(game.log)
    for entry in game.log[1 : len(game.log) // 2]:
        step(live, entry)
    assert live.turn > 3
    session = Session("masks", 1, 2, 3, {}, 7, "key", 0, players=[10, 11, 12, 13, 14], status=PLAYING)
    session.engine = live
    state, rows = session.to_save()
    assert rows is not None and len(state["engine"]["history"]) == 1
    back = json.loads(json.dumps(state))
    restored = Session.from_json(
        restored_state(SavedSession(back, json.loads(json.dumps(rows.rows)))), MasksEngine
    )
    assert restored.to_json() == session.to_json()


def test_a_save_whose_log_does_not_replay_to_it_is_refused() -> None:
    game, _ = play_game(4, 5)
    live = fresh(game.log)
    for entry in game.log[1:40]:
        step(live, entry)
    state = saved(live)
    cut = dict(state, log=state["log"][:-3])  # a log missing its last rows
    with pytest.raises(ValueError):
        MasksEngine.from_json(cut)
    changed = json.loads(json.dumps(state))
    changed["log"][0]["seed"] += 1  # another deal
    with pytest.raises(ValueError):
        MasksEngine.from_json(changed)
    with pytest.raises(ValueError):
        MasksEngine.from_json(dict(state, log=[]))


def test_a_format_2_save_with_its_whole_history_still_restores_and_saves_bounded() -> None:
    """A game running when this change was deployed was saved with every turn's record."""
    game, _ = play_game(4, 6)
    live = fresh(game.log)
    for entry in game.log[1:50]:
        step(live, entry)
    old = json.loads(json.dumps(live.to_json()))
    old["format"] = 2
    del old["history_from"]
    restored = MasksEngine.from_json(old)
    assert restored.to_json() == live.to_json()
    again = MasksEngine.from_json(saved(restored))
    assert again.to_json() == live.to_json() and len(saved(restored)["history"]) == 1
