"""The simulator's command line, its JSON-lines format, and check_log replaying those records."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from test_masks_properties import random_game

from bot.__main__ import main as bot_main
from bot.games.masks.options import DEFAULT_OPTIONS
from bot.games.masks.players import play_game
from bot.games.masks.simulate import ReplayError, check_log, game_record, main

Record = dict[str, Any]


def record(players: int, seed: int, **kwargs: Any) -> Record:
    engine, _ = play_game(players, seed, **kwargs)
    return json.loads(json.dumps(game_record(engine, seed)))


def test_summary_reports_cards_correct_rate_races_reasons_and_speed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--players", "4", "--games", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    for needle in (
        "average cards per player",
        "correct-guess rate",
        "races",
        "guessing ended by",
        "games per second",
    ):
        assert needle in out
    assert "second chance off" in out


def test_json_lines_describe_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_main(["simulate", "masks", "--players", "3", "--games", "2", "--seed", "9", "--json"]) == 0
    captured = capsys.readouterr()
    games = [json.loads(line) for line in captured.out.splitlines()]
    assert [g["seed"] for g in games] == [9, 10]
    assert "games per second" in captured.err
    for game in games:
        assert list(game)[:2] == ["format", "game"] and game["format"] == 2 and game["game"] == "masks"
        assert game["options"] == DEFAULT_OPTIONS  # in full, defaults included
        assert game["host"] == 0 and game["turns"][0]["mime"] == 0
        assert game["players"] == 3 and len(game["deck"]) == 18 and game["box"] == 30
        assert game["log"][0]["op"] == "new" and game["log"][0]["options"] == game["options"]
        assert len(game["turns"]) == 9
        for turn in game["turns"]:
            assert {"mime", "card", "slaps", "races", "reason", "revealed_at", "scorer", "removed"} <= set(
                turn
            )
            assert all({"seat", "tile", "at"} == set(s) for s in turn["slaps"])
            assert (turn["scorer"] is None) == (len(turn["removed"]) == 2)
        assert sum(game["counts"]) + len(game["removed"]) == 18
        assert game["winners"] == [s for s, c in enumerate(game["counts"]) if c == max(game["counts"])]
        check_log(game)


def test_json_options_follow_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "5", "--games", "1", "--second-chance", "--reveal-ms", "0", "--json"]
    assert main(argv) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["options"] == {**DEFAULT_OPTIONS, "second_chance": True, "reveal_ms": 0}
    check_log(game)


def test_same_seed_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "6", "--games", "2", "--json"])
    first = capsys.readouterr().out
    main(["--players", "6", "--games", "2", "--json"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "2"],
        ["--players", "9"],
        ["--games", "0"],
        ["--skill", "1.5"],
        ["--idle", "-0.1"],
        ["--mime-patience-ms", "0"],
        ["--guess-ms", "10"],
    ],
)
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)


# -------------------------------------------------------------------------- computer players


def race_losers_who_slapped_again(rec: Record) -> int:
    count = 0
    for turn in rec["turns"]:
        seats = [slap["seat"] for slap in turn["slaps"]]
        count += len(seats) - len(set(seats))
    return count


def test_computer_race_losers_slap_again_only_with_second_chance() -> None:
    final = [record(6, seed) for seed in range(20)]
    assert sum(len(r["entries"]) - 1 for g in final for t in g["turns"] for r in t["races"]) > 0
    assert sum(race_losers_who_slapped_again(g) for g in final) == 0
    again = [record(6, seed, options={"second_chance": True}) for seed in range(20)]
    assert sum(race_losers_who_slapped_again(g) for g in again) > 0


def test_idle_guessers_and_a_patient_mime_end_turns_by_timer_and_by_the_mime() -> None:
    reasons = {t["reason"] for seed in range(5) for t in record(5, seed, idle=0.3)["turns"]}
    assert reasons == {"all_slapped", "timer"}
    patient = {
        t["reason"] for seed in range(5) for t in record(5, seed, idle=0.3, patience_ms=20_000)["turns"]
    }
    assert patient == {"all_slapped", "mime"}


# -------------------------------------------------------------------------- check_log


def test_check_log_accepts_simulated_games_for_many_seeds() -> None:
    reasons: set[str] = set()
    for second_chance in (False, True):
        for players in range(3, 9):
            for seed in range(12):
                patience = 20_000 if seed % 3 == 1 else None
                rec = record(
                    players,
                    seed,
                    options={"second_chance": second_chance, "reveal_ms": 0 if seed % 4 == 0 else 5_000},
                    idle=0.1 if seed % 3 else 0.0,
                    patience_ms=patience,
                )
                check_log(rec)
                reasons |= {t["reason"] for t in rec["turns"]}
    assert reasons == {"all_slapped", "timer", "mime"}


def test_check_log_accepts_random_legal_play_with_late_and_out_of_order_presses() -> None:
    for seed in range(40):
        engine, _, _ = random_game(seed)
        check_log(json.loads(json.dumps(game_record(engine, seed))))


def sample() -> Record:
    """A game with a race lost, a turn ended by the Mime and one ended by the timer."""
    for seed in range(100):
        rec = record(5, seed, idle=0.2, patience_ms=30_000, options={"guess_ms": 40_000})
        reasons = {t["reason"] for t in rec["turns"]}
        if {"mime", "timer", "all_slapped"} <= reasons and any(
            len(r["entries"]) > 1 for t in rec["turns"] for r in t["races"]
        ):
            return rec
    raise AssertionError("no sample game")


def first_turn(rec: Record, test: Callable[[Record], bool]) -> Record:
    return next(t for t in rec["turns"] if test(t))


def contested(rec: Record) -> Record:
    return next(r for t in rec["turns"] for r in t["races"] if len(r["entries"]) > 1)


def swap_race_winner(rec: Record) -> None:
    race = contested(rec)
    race["winner"] = next(seat for seat, _ in race["entries"] if seat != race["winner"])


def earlier_press_of_a_loser(rec: Record) -> None:
    """A rival who joined the race pressed before the winner, in the log and the turn alike."""
    turn, race, seat, at = next(
        (t, r, seat, at)
        for t in rec["turns"]
        for r in t["races"]
        for seat, at in r["entries"][1:]  # not the opener: the race's closing time stays
        if seat != r["winner"]
    )
    earlier = min(at for _, at in race["entries"]) - 1
    for entry in race["entries"]:
        if entry[0] == seat:
            entry[1] = earlier
    for slap in turn["slaps"]:
        if slap["seat"] == seat and slap["tile"] == race["tile"]:
            slap["at"] = earlier
    for step in rec["log"]:
        if step["op"] == "apply" and step["seat"] == seat and step["now"] == at:
            step["now"] = earlier


def mime_ending_by_a_guesser(rec: Record) -> None:
    step = next(s for s in rec["log"] if s["op"] == "apply" and s["action"]["type"] == "end_guessing")
    step["seat"] = (step["seat"] + 1) % rec["players"]


def mime_ending_called_a_timer(rec: Record) -> None:
    first_turn(rec, lambda t: t["reason"] == "mime")["reason"] = "timer"


def timer_called_all_slapped(rec: Record) -> None:
    first_turn(rec, lambda t: t["reason"] == "timer")["reason"] = "all_slapped"


def other_scorer(rec: Record) -> None:
    turn = first_turn(rec, lambda t: t["scorer"] is not None)
    turn["scorer"] = next(s for s in range(rec["players"]) if s not in (turn["scorer"], turn["mime"]))


def swapped_deck(rec: Record) -> None:
    i = next(i for i, c in enumerate(rec["deck"]) if c != rec["deck"][0])
    rec["deck"][0], rec["deck"][i] = rec["deck"][i], rec["deck"][0]


def other_removed_card(rec: Record) -> None:
    turn = first_turn(rec, lambda t: t["scorer"] is None)
    turn["removed"][1] = (turn["removed"][1] + 1) % 16


def moved_point(rec: Record) -> None:
    rec["counts"][0] += 1
    rec["counts"][1] -= 1


def extra_winner(rec: Record) -> None:
    rec["winners"] = sorted(
        {*rec["winners"], next(s for s in range(rec["players"]) if s not in rec["winners"])}
    )


def partial_options(rec: Record) -> None:
    del rec["options"]["second_chance"]


def second_chance_claimed(rec: Record) -> None:
    rec["options"]["second_chance"] = True
    rec["log"][0]["options"]["second_chance"] = True


def other_host(rec: Record) -> None:
    rec["host"] = 1


def old_format(rec: Record) -> None:
    rec["format"] = 1


def cut_log(rec: Record) -> None:
    del rec["log"][-1]


def slap_after_the_timer(rec: Record) -> None:
    step = next(s for s in rec["log"] if s["op"] == "apply")  # turn 1, which starts at 0
    step["now"] = rec["options"]["guess_ms"]


TAMPERINGS = [
    (swap_race_winner, "turn .*: races"),
    (earlier_press_of_a_loser, "turn .*: races is"),
    (mime_ending_by_a_guesser, "ended the guessing but seat"),
    (mime_ending_called_a_timer, "reason is 'timer', the rules give 'mime'"),
    (timer_called_all_slapped, "reason is 'all_slapped', the rules give 'timer'"),
    (other_scorer, "scorer"),
    (swapped_deck, "not the one the seed deals"),
    (other_removed_card, "removed"),
    (moved_point, "counts"),
    (extra_winner, "winners"),
    (partial_options, "options are not complete"),
    (second_chance_claimed, "no timer due|reason|races|slapped"),
    (other_host, "host"),
    (old_format, "format 2"),
    (cut_log, "stops before the deck ran out"),
    (slap_after_the_timer, "after the guess timer"),
]


@pytest.mark.parametrize(("tamper", "message"), TAMPERINGS, ids=[t.__name__ for t, _ in TAMPERINGS])
def test_check_log_refuses_a_tampered_record(tamper: Callable[[Record], None], message: str) -> None:
    rec = sample()
    check_log(rec)
    bad = copy.deepcopy(rec)
    tamper(bad)
    with pytest.raises(ReplayError, match=message):
        check_log(bad)


def test_check_log_refuses_a_race_loser_who_slapped_again_under_the_one_slap_rule() -> None:
    """A game played with second chances, recorded as if a slap were final."""
    rec = next(
        r
        for seed in range(50)
        if race_losers_who_slapped_again(r := record(5, seed, options={"second_chance": True}))
    )
    check_log(rec)
    rec["options"]["second_chance"] = False
    rec["log"][0]["options"]["second_chance"] = False
    with pytest.raises(
        ReplayError, match="slapped again after losing the race|acted while the card was revealed"
    ):
        check_log(rec)


def test_check_log_explains_a_malformed_record() -> None:
    rec = sample()
    del rec["turns"][0]["races"]
    with pytest.raises(ReplayError, match="turn 1: races"):
        check_log(rec)
    with pytest.raises(ReplayError, match="malformed"):
        check_log({"format": 2, "game": "masks"})
