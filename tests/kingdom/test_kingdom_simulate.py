"""The simulator's summary, its one-JSON-object-per-game output, and check_log: an independent
replay of a record by the rules, which must accept every simulated game and refuse a tampered one."""

from __future__ import annotations

import copy
import json

import pytest

from bot.games.kingdom import simulate
from bot.games.kingdom.simulate import ReplayError, check_log

# (mode, players) cycled through by the check_log tests: the smallest and largest tables included.
TABLES = {
    "classic": (3, 5, 16),
    "death-over-all": (3, 6, 16),
    "only-one": (2, 7, 20),
}


def simulated(mode: str, players: int, seed: int, bots: str = "simple", length: int = 2) -> dict:
    engine, recorder = simulate.play(mode, players, seed, length, bots, record=True)
    return json.loads(json.dumps(simulate.record(engine, recorder, seed, bots)))


def find(mode: str, players: int, wanted) -> tuple[dict, int, int]:
    """The first simulated game with a round ``r`` and action ``a`` where ``wanted(actions, a)``."""
    for seed in range(200):
        rec = simulated(mode, players, seed, bots="random")
        for r, rnd in enumerate(rec["rounds"]):
            for a in range(len(rnd["actions"])):
                if wanted(rnd["actions"], a):
                    return rec, r, a
    raise AssertionError("no such game in 200 seeds")


def test_json_output_has_one_line_per_game_with_every_field_the_checker_needs(capsys):
    assert (
        simulate.main(["--mode", "only-one", "--players", "3", "--games", "2", "--seed", "4", "--json"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    game = json.loads(lines[0])
    assert list(game)[:2] == ["format", "game"] and (game["format"], game["game"]) == (2, "kingdom")
    assert game["seed"] == 4 and game["standings"]["winners"]
    assert game["options"] == {
        "mode": "only-one",
        "length": 3,
        "turn_ms": 0,
        "reveal_ms": 0,
        "dealer": None,
        "decks": [],
    }
    first = game["rounds"][0]
    assert game["first_dealer"] == first["dealer"] == first["order"][-1]
    assert [d["seat"] for d in first["deal"]] == first["order"]
    assert [d["char"] for d in first["deal"]] == first["shuffle"][: len(first["order"])]
    assert {a["seat"] for a in first["actions"] if a["type"] != "thief"} == set(first["order"])
    assert first["reveal"]["losers"]
    assert len(game["rounds"]) == game["rounds"][-1]["round"]
    for line in lines:
        check_log(json.loads(line))


def test_summary_reports_rounds_tokens_wins_and_speed(capsys):
    assert simulate.main(["--mode", "classic", "--players", "4", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "rounds per game:  12.0" in out and "wins per seat" in out and "games/s" in out


# ------------------------------------------------------------------ check_log accepts
@pytest.mark.parametrize("bots", ["simple", "random"])
@pytest.mark.parametrize("mode", sorted(TABLES))
def test_check_log_accepts_simulated_games_of_every_mode_over_many_seeds(mode, bots):
    draws, first_dealers = set(), set()
    for seed in range(24):
        players = TABLES[mode][seed % 3]
        rec = simulated(mode, players, seed, bots)
        check_log(rec)
        first_dealers.add((players, rec["first_dealer"]))
        draws |= {a["type"] for rnd in rec["rounds"] for a in rnd["actions"] if "deck" in a}
    assert len({d for p, d in first_dealers if p == TABLES[mode][0]}) > 1  # not always one seat
    assert draws == {"cut", "trader", "dragon"}  # the deck's draws were all checked


# ------------------------------------------------------------------ check_log refuses
def test_check_log_refuses_a_changed_dealer():
    rec = simulated("classic", 4, 3)
    bad = copy.deepcopy(rec)
    bad["rounds"][0]["dealer"] = (rec["first_dealer"] + 1) % 4
    with pytest.raises(ReplayError, match="round 1: .* should be dealt by"):
        check_log(bad)
    bad = copy.deepcopy(rec)
    bad["first_dealer"] = (rec["first_dealer"] + 1) % 4
    with pytest.raises(ReplayError, match="should be dealt by"):
        check_log(bad)
    bad = copy.deepcopy(rec)  # round 2's dealer must be round 1's first player
    bad["rounds"][1]["dealer"] = rec["rounds"][0]["dealer"]
    with pytest.raises(ReplayError, match="round 2: .* should be dealt by"):
        check_log(bad)


def test_check_log_refuses_a_deal_that_is_not_the_logged_shuffle():
    rec = simulated("classic", 4, 3)
    shuffle = rec["rounds"][0]["shuffle"]
    i = next(i for i in range(1, 4) if shuffle[i] != shuffle[0])
    shuffle[0], shuffle[i] = shuffle[i], shuffle[0]  # still two of each: only the deal is wrong
    with pytest.raises(ReplayError, match="round 1: dealt"):
        check_log(rec)


@pytest.mark.parametrize("kind", ["cut", "trader", "dragon"])
def test_check_log_refuses_a_card_drawn_from_the_deck_that_the_logged_order_does_not_hold(kind):
    def first_draw_of_its_round(actions, a):
        return actions[a]["type"] == kind and not any("deck" in x for x in actions[:a])

    rec, r, a = find("classic", 5, first_draw_of_its_round)
    rnd = rec["rounds"][r]
    # Nothing touched the deck before: the cut takes its logged position, Trader and Dragon the top.
    drawn = len(rnd["order"]) + (rnd["actions"][a]["position"] if kind == "cut" else 0)
    shuffle = rnd["shuffle"]
    other = next(i for i in range(len(rnd["order"]), 26) if shuffle[i] != shuffle[drawn])
    shuffle[drawn], shuffle[other] = shuffle[other], shuffle[drawn]  # still two of each
    with pytest.raises(ReplayError, match=f"round {r + 1}, action {a}: "):
        check_log(rec)


def test_check_log_refuses_an_illegal_action():
    rec, r, a = find("classic", 5, lambda actions, a: actions[a]["type"] == "exchange")
    action = rec["rounds"][r]["actions"][a]
    action["target"] = action["seat"]  # an exchange with oneself, not with the player to the right
    with pytest.raises(ReplayError, match="exchange by seat .* is illegal"):
        check_log(rec)

    rec, r, a = find("classic", 5, lambda actions, a: actions[a]["type"] == "stand")
    rec["rounds"][r]["actions"][a]["type"] = "bard"  # a power without its card (or its target)
    with pytest.raises(ReplayError, match="bard by seat .* is illegal"):
        check_log(rec)


def test_check_log_refuses_a_wrong_token_or_winner():
    rec = simulated("death-over-all", 4, 5)
    bad = copy.deepcopy(rec)
    bad["rounds"][2]["reveal"]["delta"][0] += 1
    with pytest.raises(ReplayError, match="round 3: the reveal.s delta is"):
        check_log(bad)
    bad = copy.deepcopy(rec)
    loser = next(s for s in range(4) if s not in rec["standings"]["winners"])
    bad["standings"]["winners"] = [loser]
    with pytest.raises(ReplayError, match="standings"):
        check_log(bad)


def test_check_log_refuses_a_wrong_length_or_incomplete_options():
    rec = simulated("classic", 3, 1)
    bad = copy.deepcopy(rec)
    bad["options"]["length"] = 3  # the record holds 3 x 2 rounds
    with pytest.raises(ReplayError, match="stops after round 6, before the game's end"):
        check_log(bad)
    bad = copy.deepcopy(rec)
    bad["rounds"].append(copy.deepcopy(rec["rounds"][-1]))
    with pytest.raises(ReplayError, match="round 7: played after the game was over"):
        check_log(bad)
    bad = copy.deepcopy(rec)
    del bad["options"]["reveal_ms"]
    with pytest.raises(ReplayError, match="options must list every option"):
        check_log(bad)
    bad = copy.deepcopy(rec)
    bad["options"]["mode"] = "only-one"  # same rounds, but only-one takes lives, not tokens
    with pytest.raises(ReplayError):
        check_log(bad)


def test_check_log_refuses_a_record_of_another_format_or_a_malformed_one():
    rec = simulated("only-one", 3, 2)
    with pytest.raises(ReplayError, match="not a format 2 Kingdom record"):
        check_log({**rec, "format": 1})
    bad = copy.deepcopy(rec)
    del bad["rounds"][0]["shuffle"]
    with pytest.raises(ReplayError, match="malformed record: KeyError"):
        check_log(bad)
