"""A record from a stranger: ``python -m bot replay`` and ``verify`` answer anything, however
large or wrong, in one plain line and fast: sizes are checked before anything is built from
them, and a wrong field is named with what it should be."""

from __future__ import annotations

import copy
import json
import resource
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import __main__ as cli
from bot.community.replays import ReplayError, log_record, seat_names
from bot.games.kabuki.simulate import play_game as play_kabuki
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.players import make_players
from bot.games.masks.players import play_game as play_masks

SALT = "00112233445566778899aabbccddeeff"


def _kingdom(seed: int):
    engine = KingdomEngine.new(3, seed, {"turn_ms": 0, "length": 2}, 0)
    seats = make_players("simple", 3, seed)
    now = 0
    while not engine.is_over:
        now += 500
        engine.apply(engine.active, seats[engine.active].choose(engine, engine.active), now)
    return engine


def _records() -> dict[str, dict]:
    engines = {
        "kabuki": play_kabuki(2, 7, memory=0.7, idle=0.2, bluff=0.1).engine,
        "masks": play_masks(3, 7)[0],
        "kingdom": _kingdom(7),
    }
    return {game: json.loads(json.dumps(log_record(engine, 7, SALT))) for game, engine in engines.items()}


RECORDS = _records()


def _limit_memory() -> None:
    # The old code built a name per seat before counting them: a billion seats filled the
    # machine's memory. Under a limit it fails at once instead of taking the machine with it.
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("game", sorted(RECORDS))
@pytest.mark.parametrize("command", ["replay", "verify"])
def test_a_billion_players_is_refused_in_one_line_before_any_seat_is_named(game, command, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**RECORDS[game], "players": 1_000_000_000}))
    done = subprocess.run(
        [sys.executable, "-m", "bot", command, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert done.returncode == 1 and done.stdout == ""
    said = done.stderr.strip()
    assert "\n" not in said and "Error" not in said, said
    assert 'its "players" is 1000000000' in said and "players" in said.split(":")[-1], said


def test_seat_names_refuses_more_seats_than_the_game_has_before_naming_any():
    with pytest.raises(ReplayError, match="Kabuki is played by 2 to 6 players"):
        seat_names({"game": "kabuki", "players": 10**12})
    with pytest.raises(ReplayError, match="no game has more than 20"):
        seat_names({"players": 10**12})
    assert seat_names({"game": "masks", "players": 3}, ["ann"]) == ["ann", "Player 2", "Player 3"]


@pytest.mark.parametrize(
    ("game", "change", "said"),
    [
        ("kabuki", {"options": None}, 'its "options" is null, not an object'),
        ("kingdom", {"rounds": "x"}, 'its "rounds" is "x", not a list'),
        ("kingdom", {"rounds": [7]}, 'item 1 of its "rounds" is 7, not an object'),
        ("masks", {"deck": {"a": 1}}, 'its "deck" is {"a": 1}, not a list'),
        ("kabuki", {"log": "x" * 500}, 'its "log" is a string (502 characters), not a list'),
    ],
)
def test_a_field_of_the_wrong_kind_is_named_with_what_it_should_be(game, change, said, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**RECORDS[game], **change}))
    assert cli.main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"{path}: not a game record: {said}\n"
    assert cli.main(["verify", str(path)]) == 1
    assert capsys.readouterr().err == f"not verified: not a game record: {said}\n"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"[" * 100_000, "{path} nests its JSON deeper than any game record does"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "{path} holds a number far longer than any game record's"),
        (b" " * (cli.LARGEST_RECORD + 1), "{path} is over 4 MB: far larger than a whole game's record"),
    ],
)
@pytest.mark.parametrize("command", ["replay", "verify"])
def test_json_no_record_is_made_of_is_said_in_one_line(command, content, said, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert cli.main([command, str(path)]) == 1
    assert capsys.readouterr() == ("", said.format(path=path) + "\n")


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.sampled_from([0, 1, -1, 2, 3, 6, 8, 20, 21, 2**31, 10**18])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _paths(value, path=()):
    """Every place in a record a stranger might change: each key of each object, each item."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):  # the first items: enough, and keeps the list short
            yield from _paths(item, (*path, index))


def _mutated(rec, path, how, new):
    rec = copy.deepcopy(rec)
    if not path:
        return new
    *above, last = path
    parent = rec
    for step in above:
        parent = parent[step]
    if how == "delete":
        del parent[last]
    elif how == "grow" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] = parent[last] * 1_000_003 + 7
    else:
        parent[last] = new
    return rec


@st.composite
def strangers_records(draw):
    if draw(st.integers(0, 4)) == 0:
        return draw(JSON)
    rec = RECORDS[draw(st.sampled_from(sorted(RECORDS)))]
    rec = copy.deepcopy(rec)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(rec))
        rec = _mutated(
            rec, draw(st.sampled_from(paths)), draw(st.sampled_from(["set", "delete", "grow"])), draw(JSON)
        )
        if not isinstance(rec, (dict, list)):
            break
    return rec


@settings(
    max_examples=150,
    derandomize=True,  # the same examples every run, so the suite never flakes; explore by hand with it off
    deadline=5000,  # generous: the bound is structural (sizes checked first), not a timing
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
@given(rec=strangers_records(), command=st.sampled_from(["replay", "verify"]))
def test_any_record_from_a_stranger_gets_an_answer_never_a_traceback(rec, command, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("stranger") / "game.json"
    path.write_text(json.dumps(rec))
    status = cli.main([command, str(path)])  # an exception here is the failure
    out, err = capsys.readouterr()
    assert status in (0, 1)
    assert "Traceback" not in err and "object has no attribute" not in err, err
    if command == "verify":  # one line per record
        assert (out + err).count("\n") == (len(rec) if isinstance(rec, list) and rec else 1), out + err


def test_a_mismatch_quoting_a_whole_log_is_said_in_a_short_line(tmp_path, capsys):
    rec = copy.deepcopy(RECORDS["masks"])
    rec["turns"] = rec["turns"] * 200  # the replay compares it with the engine's and quotes it
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert cli.main(["verify", str(path)]) == 1
    said = capsys.readouterr().err
    assert said.startswith("not verified: turns is [") and said.count("\n") == 1
    assert len(said) <= 420 and said.rstrip().endswith("…")


def test_a_log_padded_past_the_games_end_stops_at_the_end(tmp_path, capsys):
    rec = copy.deepcopy(RECORDS["masks"])
    steps = len(rec["log"])
    last = rec["log"][-1]["now"]
    rec["log"] += [{"op": "advance", "now": last + i} for i in range(1, 50_000)]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert cli.main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert err.endswith(
        f"the replay stops after step {steps}: log entry {steps} comes after the game's end\n"
    )
    assert out.count("\n") < steps + 10  # the padding is not replayed, step by step


def test_a_value_the_game_refuses_is_said_in_the_games_words(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**RECORDS["kingdom"], "players": 20}))  # classic: 3–16
    assert cli.main(["verify", str(path)]) == 1
    said = capsys.readouterr().err
    assert "needs 3–16 players, not 20" in said and "cannot read" not in said


def test_a_commitment_without_its_salt_is_said_not_raised(tmp_path, capsys):
    path = tmp_path / "game.json"
    rec = {key: value for key, value in RECORDS["masks"].items() if key != "salt"}
    path.write_text(json.dumps(rec))
    assert cli.main(["replay", str(path)]) == 0  # the moves replay; the commitment is verify's
    assert "(no salt in the record)" in capsys.readouterr().out
    assert cli.main(["verify", str(path)]) == 1
    assert capsys.readouterr().err.startswith("not verified: the commitment ")
