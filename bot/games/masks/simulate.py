"""``python -m bot simulate masks``: play many games with computer players, and check their records.

With ``--json`` every game is printed as one JSON object per line on stdout (the summary goes
to stderr), in the format described in docs/monster-masks.md. ``check_log`` replays such a
record with an independent reading of the rules (it does not use the engine) and raises
``ReplayError`` at the first decision the rules would not have made.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.replay import LOG_FORMAT, ReplayError, check_header, replaying, simulated
from bot.games.masks.engine import BOX, CARDS_PER_PLAYER, COPIES, MasksEngine
from bot.games.masks.faces import FACES
from bot.games.masks.options import DEFAULT_OPTIONS, INT_RANGES, parse_options
from bot.games.masks.players import play_game

HOST = 0  # the seat of the member who opened the lobby, who is the first Mime


def game_record(engine: MasksEngine, seed: int) -> dict[str, Any]:
    result = engine.result()
    return {
        "format": LOG_FORMAT,
        "game": "masks",
        "seed": seed,
        "players": engine.players,
        "host": HOST,
        "options": dict(engine.options),
        "deck": list(engine.dealt),
        "box": BOX - len(engine.dealt),
        "log": list(engine.log),
        "turns": [
            {
                "turn": t["turn"],
                "mime": t["mime"],
                "card": t["card"],
                "started_at": t["started_at"],
                "slaps": t["slaps"],
                "races": t["races"],
                "reason": t["reason"],
                "revealed_at": t["revealed_at"],
                "scorer": t["scorer"],
                "won": t["won"],
                "removed": t["removed"],
            }
            for t in engine.history
        ],
        "removed": list(engine.removed),
        "counts": list(result.scores),
        "winners": list(result.winners),
    }


# --------------------------------------------------------------------------- check_log


class _Table:
    """The rules of /shared/rules/monster-masks.md as this bot plays them, read afresh from the log."""

    def __init__(self, players: int, options: Mapping[str, Any], deck: Sequence[int]) -> None:
        self.players = players
        self.options = options
        self.deck = list(deck)
        self.piles = [0] * players
        self.removed: list[int] = []
        self.turns: list[dict[str, Any]] = []
        self.turn = 0
        self.mime = HOST - 1
        self.phase = "guessing"

    def start(self, now: int) -> None:
        self.turn += 1
        self.mime = (self.mime + 1) % self.players
        self.card = self.deck.pop(0)
        self.phase = "guessing"
        self.deadline = now + self.options["guess_ms"]
        self.reveal_until: int | None = None
        self.held: dict[int, int] = {}  # tile -> seat
        self.races: dict[int, dict[str, Any]] = {}  # tile -> open race, in the order they opened
        self.racing: dict[int, int] = {}  # seat -> tile
        self.lost: dict[int, int] = {}  # seat -> tile of the race it lost (a final slap)
        self.turns.append(
            {
                "turn": self.turn,
                "mime": self.mime,
                "card": self.card,
                "started_at": now,
                "slaps": [],
                "races": [],
                "reason": None,
                "revealed_at": None,
                "scorer": None,
                "won": None,
                "removed": [],
            }
        )

    def slap(self, seat: int, tile: Any, now: int) -> None:
        if seat == self.mime:
            raise ReplayError(f"seat {seat} is the Mime and slapped")
        if seat in self.held.values() or seat in self.racing:
            raise ReplayError(f"seat {seat} slapped twice: a slap can't be changed")
        if seat in self.lost:
            raise ReplayError(f"seat {seat} slapped again after losing the race for tile {self.lost[seat]}")
        if not isinstance(tile, int) or not 0 <= tile < FACES:
            raise ReplayError(f"seat {seat} slapped no such tile {tile!r}")
        if tile in self.held:
            raise ReplayError(f"seat {seat} slapped tile {tile}, already held by seat {self.held[tile]}")
        if now >= self.deadline:
            raise ReplayError(f"seat {seat} slapped at {now}, after the guess timer ({self.deadline})")
        self.turns[-1]["slaps"].append({"seat": seat, "tile": tile, "at": now})
        self.racing[seat] = tile
        race = self.races.get(tile)
        if race is None:
            self.races[tile] = {"entries": [[seat, now]], "closes_at": now + self.options["race_window_ms"]}
        else:
            race["entries"].append([seat, now])

    def settle(self, tile: int, now: int) -> None:
        race = self.races.pop(tile)
        # The earliest Discord timestamp wins; min keeps the first of equals, the first to arrive.
        winner = min(race["entries"], key=lambda entry: entry[1])[0]
        self.held[tile] = winner
        for seat, _ in race["entries"]:
            del self.racing[seat]
            if seat != winner and not self.options["second_chance"]:
                self.lost[seat] = tile
        self.turns[-1]["races"].append({"tile": tile, **race, "settled_at": now, "winner": winner})

    def settle_all(self, now: int) -> None:
        for tile in sorted(self.races, key=lambda t: (self.races[t]["closes_at"], t)):
            self.settle(tile, now)

    def reveal(self, now: int, reason: str) -> None:
        record = self.turns[-1]
        scorer = self.held.get(self.card)
        if scorer is not None:
            record["won"] = self.deck.pop(0)
            self.piles[scorer] += 1
            self.piles[self.mime] += 1
        else:
            record["removed"] = [self.card, self.deck.pop(0)]
            self.removed += record["removed"]
        record.update(reason=reason, revealed_at=now, scorer=scorer)
        if not self.deck:
            self.phase = "over"
            return
        self.phase = "reveal"
        self.reveal_until = now + self.options["reveal_ms"]
        if self.options["reveal_ms"] == 0:
            self.start(now)

    def due(self) -> tuple[int, int, int] | None:
        """(when, order, tile) of the next timer: race closes, then the guess timer, then the pause."""
        if self.phase == "guessing":
            races = [(race["closes_at"], 0, tile) for tile, race in self.races.items()]
            return min([*races, (self.deadline, 1, -1)])
        if self.phase == "reveal":
            assert self.reveal_until is not None
            return (self.reveal_until, 2, -1)
        return None

    def advance(self, now: int) -> bool:
        fired = False
        while (due := self.due()) is not None and due[0] <= now:
            fired = True
            _, order, tile = due
            if order == 0:
                self.settle(tile, now)
                # Every guesser has slapped: each holds a tile or lost its race (a final slap).
                if len(self.held) + len(self.lost) == self.players - 1:
                    self.reveal(now, "all_slapped")
            elif order == 1:
                self.settle_all(now)
                self.reveal(now, "timer")
            else:
                self.start(now)
        return fired


def check_log(rec: Mapping[str, Any]) -> None:
    """Replay a ``--json`` record by the rules alone; raise ReplayError at the first inconsistency."""
    replaying(_check, rec)


def _check(rec: Mapping[str, Any]) -> None:
    check_header(rec, "masks", "Monster Masks")
    players = rec["players"]
    if not isinstance(players, int) or not MasksEngine.min_players <= players <= MasksEngine.max_players:
        raise ReplayError(f"bad player count {players!r}")
    options = rec["options"]
    if set(options) != set(DEFAULT_OPTIONS) or parse_options(options) != options:
        raise ReplayError(f"the options are not complete and valid: {options}")
    if rec["host"] != HOST:
        raise ReplayError(f"the host is seat {HOST} (the first Mime), not {rec['host']!r}")
    deck = rec["deck"]
    if len(deck) != CARDS_PER_PLAYER * players or rec["box"] != BOX - len(deck):
        raise ReplayError(f"{players} players play with {CARDS_PER_PLAYER * players} cards, the rest boxed")
    if (
        any(not isinstance(c, int) or not 0 <= c < FACES for c in deck)
        or max(Counter(deck).values()) > COPIES
    ):
        raise ReplayError("the deck holds faces 0–15 with at most three copies each")
    log = rec["log"]
    new = log[0]
    if new.get("op") != "new" or (new["players"], new["seed"], new["options"]) != (
        players,
        rec["seed"],
        options,
    ):
        raise ReplayError("the log does not start with this game's players, seed and options")
    if new["deck"] is None:
        # An unscripted deal: Dice(seed)'s first draw shuffles the 48 cards (docs/monster-masks.md).
        box = [face for face in range(FACES) for _ in range(COPIES)]
        random.Random(f"{rec['seed']}:0").shuffle(box)
        if box[: len(deck)] != deck:
            raise ReplayError("the deck is not the one the seed deals")
    elif new["deck"] != deck:
        raise ReplayError("the log's scripted deck differs from the record's")

    table = _Table(players, options, deck)
    table.start(new["now"])
    for i, step in enumerate(log[1:], 1):
        where = f"log entry {i} (turn {table.turn})"
        if table.phase == "over":
            raise ReplayError(f"{where}: the game was already over")
        try:
            if step["op"] == "advance":
                if not table.advance(step["now"]):
                    raise ReplayError("an advance with no timer due")
            elif step["op"] == "apply":
                _apply(table, step["seat"], step["action"], step["now"])
            else:
                raise ReplayError(f"unknown op {step['op']!r}")
        except ReplayError as error:
            raise ReplayError(f"{where}: {error}") from None
    if table.phase != "over":
        raise ReplayError("the log stops before the deck ran out")

    turns = rec["turns"]
    if len(turns) != len(table.turns):
        raise ReplayError(f"{len(turns)} turns recorded, the rules give {len(table.turns)}")
    for recorded, replayed in zip(turns, table.turns, strict=True):
        for key, value in replayed.items():
            if recorded.get(key) != value:
                raise ReplayError(
                    f"turn {replayed['turn']}: {key} is {recorded.get(key)!r}, the rules give {value!r}"
                )
    best = max(table.piles)
    winners = [seat for seat, count in enumerate(table.piles) if count == best]
    for key, value in (("removed", table.removed), ("counts", table.piles), ("winners", winners)):
        if rec[key] != value:
            raise ReplayError(f"{key} is {rec[key]!r}, the rules give {value!r}")


def _apply(table: _Table, seat: Any, action: Mapping[str, Any], now: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < table.players:
        raise ReplayError(f"no seat {seat!r}")
    if table.phase != "guessing":
        raise ReplayError(f"seat {seat} acted while the card was revealed")
    if action.get("turn", table.turn) != table.turn:
        raise ReplayError(f"seat {seat} pressed a button of turn {action['turn']}")
    if action["type"] == "slap":
        table.slap(seat, action["tile"], now)
    elif action["type"] == "end_guessing":
        if seat != table.mime:
            raise ReplayError(f"seat {seat} ended the guessing but seat {table.mime} is the Mime")
        table.settle_all(now)
        table.reveal(now, "mime")
    else:
        raise ReplayError(f"unknown action {action['type']!r}")


# --------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot simulate masks", description="Simulate Island of Monster Masks."
    )
    p.add_argument("--players", type=int, default=5, help="3–8 (default 5)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i")
    p.add_argument("--skill", type=float, default=0.6, help="chance a guesser reads the Mime right (0–1)")
    p.add_argument("--reaction", type=int, default=1500, help="guessers' mean reaction time in ms")
    p.add_argument("--jitter", type=int, default=None, help="± reaction jitter in ms (default reaction/3)")
    p.add_argument("--idle", type=float, default=0.0, help="chance a guesser sits a turn out (0–1)")
    p.add_argument(
        "--mime-patience-ms", type=int, default=None, help="the Mime ends the guessing this long into a turn"
    )
    p.add_argument("--guess-ms", type=int, default=DEFAULT_OPTIONS["guess_ms"], help="guess timer in ms")
    p.add_argument("--race-window-ms", type=int, default=DEFAULT_OPTIONS["race_window_ms"])
    p.add_argument("--reveal-ms", type=int, default=DEFAULT_OPTIONS["reveal_ms"])
    p.add_argument(
        "--second-chance", action="store_true", help="option: a player who loses a race may slap another tile"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per game (summary to stderr)")
    return p


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not MasksEngine.min_players <= args.players <= MasksEngine.max_players:
        parser.error("--players must be between 3 and 8")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 0.0 <= args.skill <= 1.0 or not 0.0 <= args.idle <= 1.0:
        parser.error("--skill and --idle must be between 0 and 1")
    if args.reaction < 1 or (args.jitter is not None and not 0 <= args.jitter < args.reaction):
        parser.error("--reaction must be positive and --jitter between 0 and the reaction time")
    if args.mime_patience_ms is not None and args.mime_patience_ms < 1:
        parser.error("--mime-patience-ms must be positive")
    options = {
        "guess_ms": args.guess_ms,
        "race_window_ms": args.race_window_ms,
        "reveal_ms": args.reveal_ms,
        "second_chance": args.second_chance,
    }
    for key, (low, high) in INT_RANGES.items():
        if not low <= options[key] <= high:
            parser.error(f"--{key.replace('_', '-')} must be between {low} and {high}")

    cards = turns = correct = races = lost = 0
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        engine, stats = play_game(
            args.players,
            seed,
            skill=args.skill,
            reaction_ms=args.reaction,
            jitter_ms=args.jitter,
            options=options,
            idle=args.idle,
            patience_ms=args.mime_patience_ms,
        )
        result = engine.result()
        cards += sum(result.scores)
        turns += result.details["turns"]
        correct += result.details["correct_turns"]
        races += stats.races
        lost += stats.lost
        reasons.update(turn["reason"] for turn in engine.history)
        if args.json:
            print(json.dumps(simulated(game_record(engine, seed)), separators=(",", ":")))
    elapsed = time.perf_counter() - started

    out = sys.stderr if args.json else sys.stdout
    print(
        f"Island of Monster Masks: {args.games} games, {args.players} players, "
        f"skill {args.skill:.2f}, reaction {args.reaction} ms, "
        f"second chance {'on' if args.second_chance else 'off'}",
        file=out,
    )
    print(f"average cards per player: {cards / (args.games * args.players):.2f}", file=out)
    print(f"correct-guess rate: {100 * correct / turns:.1f}% of {turns} turns", file=out)
    print(
        f"races (contested tiles): {races / args.games:.2f} per game, {lost / args.games:.2f} lost presses",
        file=out,
    )
    print(
        f"guessing ended by: everyone slapped {reasons['all_slapped']}, "
        f"the timer {reasons['timer']}, the Mime {reasons['mime']}",
        file=out,
    )
    print(f"games per second: {args.games / elapsed:.0f}", file=out)
    return 0
