"""A shuffle anyone can verify: ``python -m bot verify`` passes a true record of each game and
names the first thing wrong in a tampered one; ``python -m bot replay`` prints it move by move."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json

import pytest

from bot import __main__ as cli
from bot.community.replays import log_record, steps, verify
from bot.engine.replay import commitment
from bot.games import registry
from bot.games.kabuki.simulate import play_game as play_kabuki
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.players import make_players
from bot.games.masks.players import play_game as play_masks

SALT = "00112233445566778899aabbccddeeff"
SEED = 271828


def kabuki_record():
    game = play_kabuki(4, SEED, memory=0.7, idle=0.2, bluff=0.1)
    return log_record(game.engine, SEED, SALT)


def masks_record():
    engine, _ = play_masks(5, SEED)
    return log_record(engine, SEED, SALT)


def kingdom_record():
    """A timed game: some players let their turn timer run out, and rounds wait for the reveal."""
    engine = KingdomEngine.new(5, SEED, {"turn_ms": 5000, "reveal_ms": 3000}, 0)
    seats = make_players("simple", 5, SEED)
    now, moves = 0, 0
    while not engine.is_over:
        moves += 1
        if engine.phase == "reveal" or moves % 4 == 0:
            now = engine.next_deadline()
            engine.advance(now)
        else:
            now += 700
            engine.apply(engine.active, seats[engine.active].choose(engine, engine.active), now)
    return log_record(engine, SEED, SALT)


# The games whose deal these tests know how to stack (swap_two_cards), from richer games than
# their simulators play; every other registered game's record comes from its simulator.
RECORDS = {"kabuki": kabuki_record, "masks": masks_record, "kingdom": kingdom_record}
REPLAYED = sorted(kind for kind, game in registry.games().items() if game.history is not None)


def simulated_record(kind):
    """A registered game's record as its simulator writes it, opened as a played game's is."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        game = registry.get(kind)  # the most players: the longest record
        players = str(game.engine.max_players)
        game.part("simulator").main(["--players", players, "--games", "1", "--seed", str(SEED), "--json"])
    rec = json.loads(out.getvalue().splitlines()[0])
    return {**rec, "salt": SALT, "commitment": commitment(SEED, SALT), "source": "discord"}


def record_of(kind):
    """``kind``'s record as read back from a file."""
    return json.loads(json.dumps(RECORDS[kind]() if kind in RECORDS else simulated_record(kind)))


def swap_two_cards(rec):
    """Swap the first two different cards the seed dealt (a stacked deck: same cards, new order)."""
    if rec["game"] == "kabuki":
        deck = rec["log"][0]["deck"]
    elif rec["game"] == "masks":
        deck = rec["deck"]
    else:
        deck = rec["rounds"][0]["shuffle"]
    k = next(k for k in range(1, len(deck)) if deck[k] != deck[0])
    deck[0], deck[k] = deck[k], deck[0]


@pytest.fixture(params=REPLAYED, scope="module")
def record(request):
    """Every registered game's record: a new game is checked here by being registered."""
    return record_of(request.param)


@pytest.fixture(params=sorted(RECORDS), scope="module")
def dealt(request):
    """A record whose deal these tests can stack."""
    return record_of(request.param)


def test_a_true_record_verifies(record):
    verdict = verify(record)
    assert verdict.verified, verdict.summary
    assert (
        f"SHA-256 of {SALT}:{SEED}" in verdict.summary and "dealt as the seed deals them" in verdict.summary
    )


def test_the_commitment_is_sha256_of_salt_colon_seed_as_sha256sum_computes_it(record):
    by_hand = hashlib.sha256(f"{SALT}:{SEED}".encode()).hexdigest()  # printf '%s' 'SALT:SEED' | sha256sum
    assert record["commitment"] == by_hand == commitment(SEED, SALT)


def test_a_stacked_deck_fails_naming_the_card(dealt):
    rec = copy.deepcopy(dealt)
    swap_two_cards(rec)
    verdict = verify(rec)
    assert not verdict.verified
    assert "card 1 of the" in verdict.summary and "the seed deals" in verdict.summary


def test_a_changed_seed_fails_on_the_commitment(record):
    rec = copy.deepcopy(record)
    rec["seed"] += 1
    verdict = verify(rec)
    assert not verdict.verified and "commitment" in verdict.summary


def test_a_changed_seed_without_commitment_fails_on_the_deal(dealt):
    rec = copy.deepcopy(dealt)
    del rec["commitment"], rec["salt"]
    rec["source"] = "simulated"  # as a simulator writes it
    assert verify(rec).verified
    rec["seed"] += 1
    verdict = verify(rec)
    assert not verdict.verified and "the seed" in verdict.summary


def test_a_wrong_commitment_fails(record):
    rec = copy.deepcopy(record)
    rec["commitment"] = commitment(SEED, "ff" * 16)
    verdict = verify(rec)
    assert not verdict.verified and "is not SHA-256 of salt:seed" in verdict.summary


# A game's record states its outcome, so that verify can refuse a record whose result was
# changed (its standings would otherwise rest on a forged result): these tests change it.
SCORES = (
    "a game's record (its history's log_record, as its simulator writes it) must carry \"scores\","
    " each seat's final score as a list of numbers, which its history's rerun or its checker compares"
    " with the log"
)


def final_scores(rec) -> list:
    """A registered game's record's ``scores``, which a test may change; the rule if it has none."""
    scores = rec.get("scores")
    assert isinstance(scores, list) and scores and all(isinstance(s, int | float) for s in scores), (
        f"{rec.get('game')}: {SCORES}; this record has {scores!r} (its keys: {', '.join(rec)})"
    )
    return scores


def test_a_record_without_scores_is_told_the_rule():
    rule = r"ring: a game's record .* must carry \"scores\", .* \(its keys: game, log\)"
    with pytest.raises(AssertionError, match=rule):
        final_scores({"game": "ring", "log": []})


def test_a_changed_outcome_fails_even_with_a_true_deal(record):
    rec = copy.deepcopy(record)
    if rec["game"] not in RECORDS:  # a registered game's record keeps its final scores
        final_scores(rec)[0] += 1
    elif rec["game"] == "kabuki":
        rec["totals"][0] += 1
        rec["log"][-1]["totals"][0] += 1
    elif rec["game"] == "masks":
        rec["counts"][0] += 1
    else:
        rec["standings"]["tokens"][0] += 1
    assert not verify(rec).verified, f"{rec['game']}: verify took a record whose outcome was changed"


def test_every_step_replays_to_the_finished_game(record):
    seen = list(steps(record))
    texts = [text for text, _ in seen]
    engine = seen[-1][1]
    assert engine.is_over and len(texts) > 5
    assert all(text for text in texts)


def test_verify_command_exits_0_on_a_true_log_and_1_on_a_tampered_one(dealt, tmp_path, capsys):
    true, tampered = tmp_path / "true.jsonl", tmp_path / "tampered.json"
    true.write_text(json.dumps(dealt) + "\n" + json.dumps(dealt) + "\n")
    bad = copy.deepcopy(dealt)
    swap_two_cards(bad)
    tampered.write_text(json.dumps(bad, indent=2))
    assert cli.main(["verify", str(true)]) == 0
    out = capsys.readouterr().out
    assert out.count("verified:") == 2 and "record 2: verified" in out
    assert cli.main(["verify", str(tampered)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("not verified:") and "the seed deals" in err


def test_replay_command_prints_the_game_move_by_move(record, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    numbered = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert numbered[0].strip().startswith("1. ") and len(numbered) == len(list(steps(record)))
    assert f"seed {SEED}" in out and record["commitment"] in out
    assert "Winner" in out or "Game over" in out
    if record["game"] == "kabuki":
        places = sum(1 for e in record["log"] if e["e"] == "place")
        assert sum(" places " in line for line in numbered) == places


@pytest.mark.parametrize("command", ["verify", "replay"])
@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"this is not json", "{path} is not JSON (line 1, column 1)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "{path} is not text (UTF-8), so it is not a game record"),
        (b'{"format": 2, "game": "kabuki", "seed": 5', "{path} is cut short: its JSON stops before"),
        (b"", "{path} is empty"),
    ],
)
def test_a_file_that_is_no_json_record_is_said_in_one_plain_line(command, content, said, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert cli.main([command, str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(said.format(path=path)) and err.count("\n") == 1
    assert "Error" not in err and "codec" not in err and "char" not in err


def test_a_missing_file_is_said_in_one_plain_line(tmp_path, capsys):
    assert cli.main(["replay", str(tmp_path / "gone.json")]) == 1
    assert capsys.readouterr().err == f"there is no file {tmp_path / 'gone.json'}\n"


def without(rec, *keys):
    return {key: value for key, value in rec.items() if key not in keys}


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda rec: {"a": 1}, 'not a game record: it has none of "format", "game", "seed"'),
        (lambda rec: without(rec, "players"), 'not a whole game record: it has no "players"'),
        (lambda rec: [1], "not a game record: a JSON number, not an object"),
        (lambda rec: {**rec, "game": "chess"}, "a record of 'chess', not a game this bot knows"),
        (lambda rec: {**rec, "players": "four"}, 'not a game record: its "players" is "four", not a number'),
    ],
)
def test_replay_command_refuses_what_is_not_a_game_record_in_one_line(record, make, said, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make(record)))
    assert cli.main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}: {said}")
    assert err.count("\n") == 1 and "Traceback" not in err and "KeyError" not in err
    assert cli.main(["verify", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"not verified: {said}")


def test_replay_command_fails_on_a_record_cut_short_saying_where(record, tmp_path, capsys):
    rec = copy.deepcopy(record)
    log = "rounds" if rec["game"] == "kingdom" else "log"
    rec[log] = rec[log][: len(rec[log]) // 2]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert cli.main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "1. " in out  # what replays is printed
    assert err.startswith(f"{path}: the replay stops after step ") and err.count("\n") == 1
    assert "Error" not in err


def test_a_played_games_record_stripped_of_its_commitment_does_not_verify(record, tmp_path, capsys):
    assert record["source"] == "discord"
    stripped = without(record, "salt", "commitment")
    verdict = verify(stripped)
    assert not verdict.verified and not verdict.checkable
    assert verdict.summary == (
        "not verified: this record says it was played on Discord but carries no shuffle "
        "commitment, so it cannot be checked: nothing shows the seed was fixed before the deal"
    )
    assert not verify(without(record, "commitment")).verified  # a salt says so too
    path = tmp_path / "game.json"
    path.write_text(json.dumps(stripped))
    assert cli.main(["verify", str(path)]) == 1
    assert "carries no shuffle commitment" in capsys.readouterr().err


def test_a_stored_record_from_before_the_source_field_verifies_by_its_commitment(record):
    verdict = verify(without(record, "source"))
    assert verdict.verified and f"SHA-256 of {SALT}:{SEED}" in verdict.summary


def test_a_simulated_record_verifies_with_no_commitment(record):
    simulated = {**without(record, "salt", "commitment"), "source": "simulated"}
    verdict = verify(simulated)
    assert verdict.verified and "no commitment in this record (a simulated game)" in verdict.summary


@pytest.mark.parametrize("kind", REPLAYED)
def test_what_a_simulator_writes_says_so_and_verifies(kind):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        registry.get(kind).part("simulator").main(["--games", "1", "--seed", str(SEED), "--json"])
    rec = json.loads(out.getvalue().splitlines()[0])
    assert rec["source"] == "simulated" and "commitment" not in rec and "salt" not in rec
    verdict = verify(rec)
    assert verdict.verified and "no commitment in this record (a simulated game)" in verdict.summary


def test_a_played_games_record_stripped_of_source_salt_and_commitment_cannot_be_checked(
    record, tmp_path, capsys
):
    """Deleting every field that says where the game was played does not make it a simulated
    game's record: a record that does not say it was simulated needs its commitment."""
    stripped = without(record, "source", "salt", "commitment")
    verdict = verify(stripped)
    assert not verdict.verified and not verdict.checkable
    assert verdict.summary == (
        "not verified: this record carries no shuffle commitment and does not say it was "
        "simulated, so it cannot be checked: nothing shows the seed was fixed before the deal"
    )
    assert "simulated game" not in verdict.summary
    path = tmp_path / "game.json"
    path.write_text(json.dumps(stripped))
    assert cli.main(["verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "cannot be checked" in err
    # A source other than "simulated" claims nothing either.
    assert not verify({**stripped, "source": "elsewhere"}).checkable


def test_a_played_game_saved_before_salts_is_recorded_as_played_and_cannot_be_checked():
    engine, _ = play_masks(4, SEED)
    rec = json.loads(json.dumps(log_record(engine, SEED)))  # no salt: a session from before them
    assert rec["source"] == "discord" and "commitment" not in rec
    verdict = verify(rec)
    assert not verdict.checkable and "played on Discord" in verdict.summary


def test_a_deal_scripted_through_the_options_is_not_verified():
    engine, _ = play_masks(4, SEED)
    rec = json.loads(json.dumps(log_record(engine, SEED, SALT)))
    rec["log"][0]["deck"] = rec["deck"]  # the engine would deal this deck whatever the seed
    verdict = verify(rec)
    assert not verdict.verified and "scripted" in verdict.summary
    kingdom = json.loads(json.dumps(kingdom_record()))
    kingdom["options"]["dealer"] = kingdom["first_dealer"]
    assert "scripted" in verify(kingdom).summary
