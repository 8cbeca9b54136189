"""A shuffle anyone can verify: ``python -m bot verify`` passes a true record of each game and
names the first thing wrong in a tampered one; ``python -m bot replay`` prints it move by move."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from bot import __main__ as cli
from bot.engine.replay import commitment
from bot.games.kabuki.simulate import play_game as play_kabuki
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.players import make_players
from bot.games.masks.players import play_game as play_masks
from bot.replays import log_record, steps, verify

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


RECORDS = {"kabuki": kabuki_record, "masks": masks_record, "kingdom": kingdom_record}


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


@pytest.fixture(params=sorted(RECORDS), scope="module")
def record(request):
    return json.loads(json.dumps(RECORDS[request.param]()))  # as read back from a file


def test_a_true_record_verifies(record):
    verdict = verify(record)
    assert verdict.verified, verdict.summary
    assert (
        f"SHA-256 of {SALT}:{SEED}" in verdict.summary and "dealt as the seed deals them" in verdict.summary
    )


def test_the_commitment_is_sha256_of_salt_colon_seed_as_sha256sum_computes_it(record):
    by_hand = hashlib.sha256(f"{SALT}:{SEED}".encode()).hexdigest()  # printf '%s' 'SALT:SEED' | sha256sum
    assert record["commitment"] == by_hand == commitment(SEED, SALT)


def test_a_stacked_deck_fails_naming_the_card(record):
    rec = copy.deepcopy(record)
    swap_two_cards(rec)
    verdict = verify(rec)
    assert not verdict.verified
    assert "card 1 of the" in verdict.summary and "the seed deals" in verdict.summary


def test_a_changed_seed_fails_on_the_commitment(record):
    rec = copy.deepcopy(record)
    rec["seed"] += 1
    verdict = verify(rec)
    assert not verdict.verified and "commitment" in verdict.summary


def test_a_changed_seed_without_commitment_fails_on_the_deal(record):
    rec = copy.deepcopy(record)
    del rec["commitment"], rec["salt"]
    assert verify(rec).verified
    rec["seed"] += 1
    verdict = verify(rec)
    assert not verdict.verified and "the seed" in verdict.summary


def test_a_wrong_commitment_fails(record):
    rec = copy.deepcopy(record)
    rec["commitment"] = commitment(SEED, "ff" * 16)
    verdict = verify(rec)
    assert not verdict.verified and "is not SHA-256 of salt:seed" in verdict.summary


def test_a_changed_outcome_fails_even_with_a_true_deal(record):
    rec = copy.deepcopy(record)
    if rec["game"] == "kabuki":
        rec["totals"][0] += 1
        rec["log"][-1]["totals"][0] += 1
    elif rec["game"] == "masks":
        rec["counts"][0] += 1
    else:
        rec["standings"]["tokens"][0] += 1
    assert not verify(rec).verified


def test_every_step_replays_to_the_finished_game(record):
    seen = list(steps(record))
    texts = [text for text, _ in seen]
    engine = seen[-1][1]
    assert engine.is_over and len(texts) > 10
    assert all(text for text in texts)


def test_verify_command_exits_0_on_a_true_log_and_1_on_a_tampered_one(record, tmp_path, capsys):
    true, tampered = tmp_path / "true.jsonl", tmp_path / "tampered.json"
    true.write_text(json.dumps(record) + "\n" + json.dumps(record) + "\n")
    bad = copy.deepcopy(record)
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


def test_verify_command_refuses_an_unreadable_file(tmp_path, capsys):
    path = tmp_path / "nothing.json"
    path.write_text("this is not json")
    assert cli.main(["verify", str(path)]) == 1
    assert "Cannot read" in capsys.readouterr().err


def test_a_deal_scripted_through_the_options_is_not_verified():
    engine, _ = play_masks(4, SEED)
    rec = json.loads(json.dumps(log_record(engine, SEED, SALT)))
    rec["log"][0]["deck"] = rec["deck"]  # the engine would deal this deck whatever the seed
    verdict = verify(rec)
    assert not verdict.verified and "scripted" in verdict.summary
    kingdom = json.loads(json.dumps(kingdom_record()))
    kingdom["options"]["dealer"] = kingdom["first_dealer"]
    assert "scripted" in verify(kingdom).summary
