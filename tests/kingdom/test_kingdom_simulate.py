"""The simulator's summary and its one-JSON-object-per-game output."""

from __future__ import annotations

import json

from bot.games.kingdom import simulate


def test_json_output_has_one_line_per_game_with_rounds_and_standings(capsys):
    assert (
        simulate.main(["--mode", "only-one", "--players", "3", "--games", "2", "--seed", "4", "--json"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    game = json.loads(lines[0])
    assert game["seed"] == 4 and game["standings"]["winners"]
    first = game["rounds"][0]
    assert [d["seat"] for d in first["deal"]] == first["order"]
    assert {a["seat"] for a in first["actions"] if a["type"] != "thief"} == set(first["order"])
    assert first["reveal"]["losers"]
    assert len(game["rounds"]) == game["rounds"][-1]["round"]


def test_summary_reports_rounds_tokens_wins_and_speed(capsys):
    assert simulate.main(["--mode", "classic", "--players", "4", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "rounds per game:  12.0" in out and "wins per seat" in out and "games/s" in out
