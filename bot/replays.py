"""Finished games' records, whatever the game: how a finished engine becomes its record, how a
record is replayed step by step, and how its shuffle is verified from the seed.

A record is the format the simulators write (``python -m bot simulate GAME --json``). A game
played on Discord adds ``salt`` and ``commitment``: the commitment was on its boards from the
first one, and ``commitment == sha256(f"{salt}:{seed}")`` (``bot.engine.replay.commitment``).
Each game's ``history`` module knows its own record; this module picks it by ``rec["game"]``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bot.engine.protocol import GameEngine
from bot.engine.replay import LOG_FORMAT, ReplayError, commitment

HISTORIES = {
    "kabuki": "bot.games.kabuki.history",
    "masks": "bot.games.masks.history",
    "kingdom": "bot.games.kingdom.history",
}
# Each game's independent reading of the rules (it does not use the engine).
CHECKERS = {
    "kabuki": ("bot.games.kabuki.replay", "check_log"),
    "masks": ("bot.games.masks.simulate", "check_log"),
    "kingdom": ("bot.games.kingdom.simulate", "check_log"),
}
TITLES = {"kabuki": "Kabuki", "masks": "Island of Monster Masks", "kingdom": "Death Over the Kingdom"}


def history(kind: str) -> ModuleType:
    if kind not in HISTORIES:
        raise ReplayError(f"not a game this bot knows: {kind!r}")
    return importlib.import_module(HISTORIES[kind])


def log_record(engine: GameEngine, seed: int, salt: str = "") -> dict[str, Any]:
    """The record of a finished game; with a salt, the commitment its boards showed too."""
    rec = history(engine.kind).log_record(engine, seed)
    if salt:
        rec["salt"] = salt
        rec["commitment"] = commitment(seed, salt)
    return rec


def seat_names(rec: Mapping[str, Any], names: Sequence[str] | None = None) -> list[str]:
    players = int(rec["players"])
    given = list(names or [])
    return [given[s] if s < len(given) and given[s] else f"Player {s + 1}" for s in range(players)]


def steps(rec: Mapping[str, Any], names: Sequence[str] | None = None) -> Iterator[tuple[str, GameEngine]]:
    """Each step of the game: (what happened, the engine just after it; the same engine object,
    moved on, at every step). Raises ReplayError where the record and the engine part."""
    _header(rec)
    try:
        yield from history(rec["game"]).rerun(rec, seat_names(rec, names))
    except ReplayError:
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
        raise ReplayError(f"malformed record: {type(error).__name__}: {error}") from error


def _header(rec: Mapping[str, Any]) -> None:
    if not isinstance(rec, Mapping) or rec.get("format") != LOG_FORMAT or rec.get("game") not in HISTORIES:
        game = rec.get("game") if isinstance(rec, Mapping) else None
        raise ReplayError(f"not a format {LOG_FORMAT} game record of a known game (game {game!r})")


@dataclass(frozen=True)
class Verdict:
    verified: bool
    summary: str  # one line: what was checked, or the first mismatch


def verify(rec: Mapping[str, Any]) -> Verdict:
    """Check the commitment against the seed, deal the game again from the seed through the
    engine (every card of every shuffle, every draw, each move's outcome), and read the log by
    the rules alone; the first thing that does not match is the verdict."""
    try:
        _header(rec)
        seed = rec["seed"]
        committed = rec.get("commitment")
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
        module, name = CHECKERS[rec["game"]]
        getattr(importlib.import_module(module), name)(rec)
        cards = history(rec["game"]).dealt_cards(rec)
    except ReplayError as error:
        return Verdict(False, f"not verified: {error}")
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
        return Verdict(False, f"not verified: malformed record: {type(error).__name__}: {error}")
    opened_by = (
        f"the commitment {committed} is SHA-256 of {rec['salt']}:{seed}; "
        if committed is not None
        else "no commitment in this record (a simulated game); "
    )
    return Verdict(
        True,
        f"verified: {TITLES[rec['game']]}, seed {seed}: {opened_by}all {cards} cards were dealt as "
        f"the seed deals them, and all {count} steps replay through the engine and follow the rules",
    )


def _scripted(rec: Mapping[str, Any]) -> str:
    """A test's or replay's scripted deal the engine accepts (never a Discord game's): the engine
    would follow it, so re-dealing alone would not notice it."""
    if rec["game"] == "masks" and rec["log"][0].get("deck") is not None:
        return "the log's first entry gives the deck"
    options = rec["options"]
    if rec["game"] == "kingdom" and (options.get("decks") or options.get("dealer") is not None):
        return "the options give the decks or the first dealer"
    return ""


def read_records(text: str) -> list[dict[str, Any]]:
    """One JSON record, or several, one per line (as ``simulate --json`` writes them)."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return whole if isinstance(whole, list) else [whole]


def as_text(rec: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """A finished game's record as readable text, move by move."""
    who = seat_names(rec, names)
    lines = [
        f"{TITLES.get(rec.get('game'), rec.get('game'))}: {rec['players']} players ({', '.join(who)}), "
        f"seed {rec['seed']}",
        "Options: " + ", ".join(f"{key} {value}" for key, value in rec["options"].items()),
    ]
    if "commitment" in rec:
        lines.append(f"Shuffle commitment: {rec['commitment']} (salt {rec['salt']})")
    engine = None
    try:
        for number, (text, at) in enumerate(steps(rec, who), 1):
            lines.append(f"{number:4}. {text}")
            engine = at
    except ReplayError as error:
        lines.append(f"      (the replay stops here: {error})")
        return "\n".join(lines)
    if engine is not None and engine.is_over:
        result = engine.result()
        winners = ", ".join(who[s] for s in result.winners)
        scores = ", ".join(f"{who[s]} {score}" for s, score in enumerate(result.scores))
        lines.append(f"Winner{'s' if len(result.winners) > 1 else ''}: {winners}. Scores: {scores}")
    return "\n".join(lines)
