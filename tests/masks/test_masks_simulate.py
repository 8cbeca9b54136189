"""The simulator's command line and its JSON-lines format."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main as bot_main
from bot.games.masks.simulate import main


def test_summary_reports_cards_correct_rate_races_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "4", "--games", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    for needle in ("average cards per player", "correct-guess rate", "races", "games per second"):
        assert needle in out


def test_json_lines_describe_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_main(["simulate", "masks", "--players", "3", "--games", "2", "--seed", "9", "--json"]) == 0
    captured = capsys.readouterr()
    games = [json.loads(line) for line in captured.out.splitlines()]
    assert [g["seed"] for g in games] == [9, 10]
    assert "games per second" in captured.err
    for game in games:
        assert game["players"] == 3 and len(game["deck"]) == 18 and game["box"] == 30
        assert game["options"]["guess_ms"] == 60_000
        assert len(game["turns"]) == 9
        for turn in game["turns"]:
            assert {"mime", "card", "slaps", "races", "scorer", "removed"} <= set(turn)
            assert all({"seat", "tile", "at"} == set(s) for s in turn["slaps"])
            assert (turn["scorer"] is None) == (len(turn["removed"]) == 2)
        assert sum(game["counts"]) + len(game["removed"]) == 18
        assert game["winners"] == [s for s, c in enumerate(game["counts"]) if c == max(game["counts"])]


def test_same_seed_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "6", "--games", "2", "--json"])
    first = capsys.readouterr().out
    main(["--players", "6", "--games", "2", "--json"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    "argv",
    [["--players", "2"], ["--players", "9"], ["--games", "0"], ["--skill", "1.5"], ["--guess-ms", "10"]],
)
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
