"""The board's state (``board.board_state``) names everything the board is drawn from: a press
leaving it equal is not drawn again (``Publisher.redraw``), so equal states must draw equal
boards, over random legal play."""

from __future__ import annotations

import json
import random
from typing import Any

from random_games import random_views

from bot.games.masks import board as masks_board
from bot.games.masks.engine import MasksEngine

CHANNEL = 123456789012345678


def not_ending_the_guessing(action: dict[str, Any]) -> bool:
    return action["type"] != "end_guessing"


def drawn(view: dict[str, Any], names: list[str]) -> Any:
    board = masks_board.render(CHANNEL, view, names)
    return board.embed.to_dict(), [item.to_component_dict() for item in board.items], board.picture.key


def test_equal_board_states_draw_equal_boards_and_slaps_into_races_leave_the_state_equal() -> None:
    boards: dict[str, Any] = {}
    kept_while_the_view_changed = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = rng.randint(3, 8)
        names = [f"player {seat}" for seat in range(players)]
        options = {"race_window_ms": 250, "reveal_ms": 2_000, "second_chance": rng.random() < 0.5}
        engine = MasksEngine.new(players, seed, options, 0)
        before = None
        for view in random_views(engine, rng, players, most_ms=60, allowed=not_ending_the_guessing):
            state = masks_board.board_state(view, names)
            key = json.dumps(state, sort_keys=True)
            assert boards.setdefault(key, drawn(view, names)) == drawn(view, names)
            if before is not None and before[0] == key and before[1] != view:
                kept_while_the_view_changed += 1
            before = (key, view)
    assert kept_while_the_view_changed > 10


def test_the_board_tells_a_mime_their_card_comes_privately_and_my_card_is_the_fallback() -> None:
    """The card is sent to the Mime privately with the press that starts the turn; the board
    must not send them to My card for what they already have."""
    engine = MasksEngine.new(4, 1, {}, 0)
    description = masks_board.render(CHANNEL, engine.view(None), ["Ann", "Ben", "Cy", "Di"]).embed.description
    mime = ["Ann", "Ben", "Cy", "Di"][engine.view(None)["mime"]]
    assert f"**{mime}**: your secret card comes to you privately" in description
    assert "press **My card** to see" not in description
