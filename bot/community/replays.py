"""Finished games' records, whatever the game: how a finished engine becomes its record, how a
record is replayed step by step, and how its shuffle is verified from the seed.

A record is the format the simulators write (``python -m bot simulate GAME --json``), which
says ``"source": "simulated"``. A game played on Discord says ``"source": "discord"`` instead and
adds ``salt`` and ``commitment``: the commitment was on its boards from the first one, and
``commitment == sha256(f"{salt}:{seed}")`` (``bot.engine.replay.commitment``). A record without a
commitment is checked only when it says it was simulated: one stripped of its commitment, its
salt and its source does not pass for a simulated one, it cannot be checked.
Each game's ``history`` module knows its own record, and its ``checker`` reads the rules again;
this module finds both in the game's descriptor (``bot.games.registry``) by ``rec["game"]``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bot.community.record_paths import where_wrong
from bot.engine.protocol import GameEngine
from bot.engine.replay import LOG_FORMAT, SIMULATED, ReplayError, commitment, malformed
from bot.games import registry
from bot.i18n import DEFAULT, Name


def history(kind: str) -> ModuleType:
    """``kind``'s history module; a ReplayError naming the game if it is unknown or keeps none."""
    try:
        game = registry.get(kind)
    except registry.GameError as error:
        raise ReplayError(str(error)) from None
    if game.history is None:
        raise ReplayError(f"{game.title} keeps no record of its games")
    return game.part("history")


def title(kind: str) -> str:
    """A game's title (English, as ``verify`` prints it); an unknown game's id as it is."""
    game = registry.games().get(kind)
    return game.title if game is not None else kind


PLAYED = "discord"  # ``source`` of a played game's record: it must carry its commitment


def log_record(engine: GameEngine, seed: int, salt: str = "") -> dict[str, Any]:
    """The record of a game played and finished here, saying so (``source``); with a salt (its
    boards showed the commitment), the salt and the commitment too. Without one (a session saved
    before salts existed) it carries no commitment, and ``verify`` says it cannot be checked."""
    rec = history(engine.kind).log_record(engine, seed)
    if salt:
        rec["salt"] = salt
        rec["commitment"] = commitment(seed, salt)
    rec["source"] = PLAYED  # whatever the history wrote (some build it as their simulator does)
    return rec


def most_players(kind: Any) -> int:
    """The most seats a record of ``kind`` may have: its engine's own limit (the largest of every
    game's when ``kind`` is none of them). A stranger's record may say a billion players; this
    is checked before anything is built per seat."""
    games = registry.games()
    known = [games[kind]] if kind in games else list(games.values())
    return max(game.engine.max_players for game in known)


def seat_names(rec: Mapping[str, Any], names: Sequence[str] | None = None) -> list[str]:
    players = int(rec["players"])
    if not 1 <= players <= most_players(rec.get("game")):
        raise ReplayError(f"{players} players: {_seats(rec.get('game'))}")
    given = list(names or [])
    return [Name(given[s] if s < len(given) and given[s] else f"Player {s + 1}") for s in range(players)]


def steps(
    rec: Mapping[str, Any], names: Sequence[str] | None = None, locale: str = DEFAULT
) -> Iterator[tuple[str, GameEngine]]:
    """Each step of the game: (what happened, in ``locale``; the engine just after it, the same
    engine object moved on at every step). Raises ReplayError where the record and the engine
    part (its words stay English, as ``verify`` prints them)."""
    _header(rec)
    try:
        yield from history(rec["game"]).rerun(rec, seat_names(rec, names), locale)
    except ReplayError:
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
        raise ReplayError(where_wrong(rec, error) or malformed(error)) from error


HEADER = {"format": int, "game": str, "seed": int, "players": int, "options": dict}


def record_problem(rec: Any) -> str:
    """Why ``rec`` is not a game record this bot reads ("" if its header is one): what every
    game's record starts with, checked before any game's code reads it."""
    if not isinstance(rec, Mapping):
        return f"not a game record: a JSON {_json_kind(rec)}, not an object"
    missing = [key for key in HEADER if key not in rec]
    if len(missing) == len(HEADER):
        return "not a game record: it has none of " + ", ".join(f'"{key}"' for key in HEADER)
    if missing:
        return "not a whole game record: it has no " + " and no ".join(f'"{key}"' for key in missing)
    for key, kind in HEADER.items():
        if not isinstance(rec[key], kind) or isinstance(rec[key], bool):
            return f'not a game record: its "{key}" is {_shown(rec[key])}, not {_a(kind)}'
    if rec["format"] != LOG_FORMAT:
        return f"a format {rec['format']} record: this bot reads format {LOG_FORMAT}"
    game = registry.games().get(rec["game"])
    if game is None:
        return f"a record of {rec['game']!r}, not a game this bot knows ({', '.join(registry.games())})"
    if game.history is None:
        return f"a record of {game.title}, which keeps no record of its games here"
    engine = game.engine
    if not engine.min_players <= rec["players"] <= engine.max_players:
        return f'not a game record: its "players" is {rec["players"]}: {_seats(rec["game"])}'
    return _fields_problem(rec, getattr(history(rec["game"]), "FIELDS", {}))


def _seats(kind: Any) -> str:
    game = registry.games().get(kind)
    if game is None:
        return f"no game has more than {most_players(kind)}"
    engine = game.engine
    return f"{engine.title} is played by {engine.min_players} to {engine.max_players} players"


def _fields_problem(rec: Mapping[str, Any], fields: Mapping[str, tuple[type, type | None]]) -> str:
    """The game's own fields, each of the JSON kind its code reads (and each item of a list),
    so a wrong one is named rather than met deep inside the replay as Python's own words."""
    for key, (kind, item) in fields.items():
        if key not in rec:
            return f'not a whole game record: it has no "{key}"'
        value = rec[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            return f'not a game record: its "{key}" is {_shown(value)}, not {_a(kind)}'
        for number, each in enumerate(value if item and isinstance(value, list) else [], 1):
            if not isinstance(each, item) or isinstance(each, bool):
                return f'not a game record: item {number} of its "{key}" is {_shown(each)}, not {_a(item)}'
    return ""


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else f"{_a(type(value))} ({len(text)} characters)"


def _a(kind: type) -> str:
    name = _json_kind(kind())
    return ("an " if name[0] in "aeiou" else "a ") + name


def _json_kind(value: Any) -> str:
    kinds = {dict: "object", list: "list", str: "string", bool: "true/false", type(None): "null"}
    return next((name for t, name in kinds.items() if isinstance(value, t)), "number")


def _header(rec: Any) -> None:
    problem = record_problem(rec)
    if problem:
        raise ReplayError(problem)


@dataclass(frozen=True)
class Verdict:
    verified: bool
    summary: str  # one line: what was checked, or the first mismatch (English, as ``verify`` prints it)
    # The same, in parts, for a page that says it in another language (``replay_board``):
    problem: str = ""  # not verified: the first mismatch, in English
    game: str = ""
    seed: int = 0
    commitment: str | None = None  # None: a simulated game's record has none
    salt: str = ""
    cards: int = 0
    steps: int = 0
    # False: not verified because the record carries no commitment and does not say it was
    # simulated, so nothing in it can show the deal was fair (``UNCHECKABLE``).
    checkable: bool = True


# Why a record without a commitment is refused. Either way nothing in it shows that the seed was
# fixed before the deal: the deal could be checked against the seed, and the seed chosen after.
PLAYED_UNCHECKABLE = (
    "this record says it was played on Discord but carries no shuffle commitment, so it cannot be "
    "checked: nothing shows the seed was fixed before the deal"
)
UNCHECKABLE = (
    "this record carries no shuffle commitment and does not say it was simulated, so it cannot be "
    "checked: nothing shows the seed was fixed before the deal"
)


def _uncommitted(rec: Mapping[str, Any]) -> str:
    """Why a record without a commitment cannot be checked ("" for a simulator's, which says so
    and has no salt). A missing ``source`` is no claim of a simulation: a played game's record
    with its commitment, its salt and its source deleted must not verify as one."""
    if rec.get("source") == PLAYED or "salt" in rec:
        return PLAYED_UNCHECKABLE
    if rec.get("source") != SIMULATED:
        return UNCHECKABLE
    return ""


def verify(rec: Mapping[str, Any]) -> Verdict:
    """Check the commitment against the seed, deal the game again from the seed through the
    engine (every card of every shuffle, every draw, each move's outcome), and read the log by
    the rules alone; the first thing that does not match is the verdict. A record without a
    commitment is checked only if it says it was simulated (``_uncommitted``); any other cannot
    be checked, and says so (``checkable`` False)."""
    try:
        _header(rec)
        seed = rec["seed"]
        committed = rec.get("commitment")
        uncommitted = _uncommitted(rec) if committed is None else ""
        if uncommitted:
            return Verdict(
                False, f"not verified: {uncommitted}", problem=uncommitted, game=rec["game"], checkable=False
            )
        if committed is not None:
            opened = commitment(seed, str(rec.get("salt", "")))
            if opened != committed:
                raise ReplayError(
                    f"the commitment {committed} is not SHA-256 of salt:seed "
                    f"({rec.get('salt', '')}:{seed} gives {opened})"
                )
        scripted = _scripted(rec)
        if scripted:
            raise ReplayError(f"the deal was scripted, not dealt from the seed: {scripted}")
        count = sum(1 for _ in steps(rec))
        registry.get(rec["game"]).part("checker")(rec)
        cards = history(rec["game"]).dealt_cards(rec)
    except ReplayError as error:
        return Verdict(False, f"not verified: {_short(error)}", problem=_short(error))
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
        problem = _short(where_wrong(rec, error) or malformed(error))
        return Verdict(False, f"not verified: {problem}", problem=problem)
    opened_by = (
        f"the commitment {committed} is SHA-256 of {rec.get('salt', '')}:{seed}; "
        if committed is not None
        else "no commitment in this record (a simulated game); "
    )
    return Verdict(
        True,
        f"verified: {title(rec['game'])}, seed {seed}: {opened_by}all {cards} cards were dealt as "
        f"the seed deals them, and all {count} steps replay through the engine and follow the rules",
        game=rec["game"],
        seed=seed,
        commitment=committed,
        salt=str(rec.get("salt", "")),
        cards=cards,
        steps=count,
    )


PROBLEM_MAX = 400  # characters: a mismatch quotes the record's values, which may be a whole log


def _short(problem: object) -> str:
    text = str(problem)
    return text if len(text) <= PROBLEM_MAX else text[: PROBLEM_MAX - 1] + "…"


def _scripted(rec: Mapping[str, Any]) -> str:
    """A test's or replay's scripted deal the engine accepts (never a Discord game's): the engine
    would follow it, so re-dealing alone would not notice it. Said by the game's history
    (``scripted``) where its engine accepts one."""
    scripted = getattr(history(rec["game"]), "scripted", None)
    return scripted(rec) if scripted is not None else ""


class UnreadableRecords(ValueError):
    """Text that holds no JSON records, said in words (``str``) for whoever gave it."""


def read_records(text: str, name: str = "the input") -> list[Any]:
    """One JSON record, or several, one per line (as ``simulate --json`` writes them). Whether
    each is a game record is left to ``record_problem``."""
    try:
        whole = _loads(text, name)
    except json.JSONDecodeError as error:
        lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2 or not _is_json(lines[0][1], name):
            raise UnreadableRecords(_not_json(name, error, text)) from None
        records = []
        for number, line in lines:  # one record per line: a bad line is named by its number
            try:
                records.append(_loads(line, name))
            except json.JSONDecodeError as bad:
                raise UnreadableRecords(_not_json(name, bad, line, number)) from None
        return records
    return whole if isinstance(whole, list) else [whole]


def _loads(text: str, name: str) -> Any:
    """``json.loads``, with what it raises beyond a syntax error said in words: JSON nested
    deeper than Python's stack, a number longer than Python converts (4300 digits)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise UnreadableRecords(f"{name} nests its JSON deeper than any game record does") from None
    except json.JSONDecodeError:
        raise
    except ValueError:
        raise UnreadableRecords(f"{name} holds a number far longer than any game record's") from None


def _is_json(text: str, name: str) -> bool:
    try:
        _loads(text, name)
    except json.JSONDecodeError:
        return False
    return True


def _not_json(name: str, error: json.JSONDecodeError, text: str, line: int | None = None) -> str:
    if not text.strip():
        return f"{name} is empty"
    where = f"line {line or error.lineno}, column {error.colno}"
    if error.pos >= len(text.rstrip()):
        return f"{name} is cut short: its JSON stops before it is complete ({where})"
    return f"{name} is not JSON ({where})"


def replay_problem(rec: Mapping[str, Any]) -> str:
    """Why ``rec`` does not replay to its game's end ("" if it does)."""
    count = 0
    try:
        for _ in steps(rec):
            count += 1
    except ReplayError as error:
        return (
            f"the replay stops after step {count}: {_short(error)}"
            if count
            else f"the replay does not start: {_short(error)}"
        )
    return ""


def as_text(rec: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """A finished game's record as readable text, move by move."""
    who = seat_names(rec, names)
    lines = [
        f"{title(rec.get('game'))}: {rec['players']} players ({', '.join(who)}), seed {rec['seed']}",
        "Options: " + (", ".join(f"{key} {value}" for key, value in rec["options"].items()) or "none"),
    ]
    if "commitment" in rec:
        salt = f"salt {rec['salt']}" if "salt" in rec else "no salt in the record"
        lines.append(f"Shuffle commitment: {rec['commitment']} ({salt})")
    engine = None
    try:
        for number, (text, at) in enumerate(steps(rec, who), 1):
            lines.append(f"{number:4}. {text}")
            engine = at
    except ReplayError as error:
        lines.append(f"      (the replay stops here: {_short(error)})")
        return "\n".join(lines)
    if engine is not None and engine.is_over:
        result = engine.result()
        winners = ", ".join(who[s] for s in result.winners)
        scores = ", ".join(f"{who[s]} {score}" for s, score in enumerate(result.scores))
        lines.append(f"Winner{'s' if len(result.winners) > 1 else ''}: {winners}. Scores: {scores}")
    return "\n".join(lines)
