"""Check a Kabuki ``--json`` record (docs/kabuki.md) by the rules alone, not with the engine.

Someone holding only the rules and a record can replay the game with this: the deal, every
placement and its timing, every Stop race (each press's Discord timestamp and arrival, the
close, the winner), the tokens and the box, how and when each round ended, and the winners.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.replay import ReplayError, check_header, replaying
from bot.games.kabuki.engine import (
    BOX_TOKENS,
    COPIES,
    DECK_SIZE,
    MASK_KINDS,
    ROUNDS,
    STACKS,
    check_options,
    tokens_per_player,
)


def check_log(rec: Mapping[str, Any]) -> None:
    """Replay a ``--json`` record by the rules alone; raise ReplayError at the first inconsistency."""
    replaying(_check, rec)


def _check(rec: Mapping[str, Any]) -> None:
    check_header(rec, "kabuki", "Kabuki")
    players = rec["players"]
    log = list(rec["log"])
    if not 2 <= players <= 6:
        raise ReplayError(f"bad player count {players}")
    options = _full_options(rec["options"])
    grace, reveal, turn_ms = options["grace_ms"], options["reveal_ms"], options["turn_ms"]
    totals = [0] * players
    i = 0
    clock = 0  # the log's times never run backwards
    previous_ender: int | None = None
    next_start: int | None = None  # when the next round must start (after the last reveal)
    for rnd in range(1, ROUNDS + 1):
        start = _expect(log, i, "round")
        i += 1
        each = tokens_per_player(players)
        if start["round"] != rnd or start["tokens"] != each:
            raise ReplayError(f"round {rnd}: bad header {start}")
        deck = start["deck"]
        if sorted(deck) != sorted(m for m in range(MASK_KINDS) for _ in range(COPIES)):
            raise ReplayError(f"round {rnd}: the deck is not 10 masks x 5 copies")
        if previous_ender is not None and start["first"] != previous_ender:
            raise ReplayError(f"round {rnd}: first player {start['first']} did not end the last round")
        if next_start is not None and start["at"] != next_start:
            raise ReplayError(f"round {rnd}: started at {start['at']}, should start at {next_start}")
        clock = _tick(clock, start, rnd)
        tokens = [each] * players
        box = BOX_TOKENS - each * players
        stacks: list[list[int]] = [[] for _ in range(STACKS)]
        seat = start["first"]
        pos = 0
        last_placer: int | None = None
        placed_at = 0
        place_from = start["at"]  # the active seat may place from then; its turn timer runs from it
        challenged = True  # nothing to challenge before the first placement
        ended: tuple[int, str] | None = None
        end_at = 0
        next_start = None
        while ended is None:
            entry = log[i] if i < len(log) else {"e": "end of log"}
            i += 1
            if entry["e"] == "place":
                clock = _tick(clock, entry, rnd)
                if entry["seat"] != seat:
                    raise ReplayError(
                        f"round {rnd}: seat {entry['seat']} placed out of turn (expected {seat})"
                    )
                if entry["card"] != deck[pos]:
                    raise ReplayError(f"round {rnd}: placed {entry['card']}, the deck says {deck[pos]}")
                if not 0 <= entry["stack"] < STACKS:
                    raise ReplayError(f"round {rnd}: no stack {entry['stack']}")
                if entry["auto"] and entry["at"] != place_from + turn_ms:
                    raise ReplayError(
                        f"round {rnd}: the turn timer placed at {entry['at']}, not at {place_from + turn_ms}"
                    )
                if entry["at"] < place_from:
                    raise ReplayError(f"round {rnd}: placed at {entry['at']}, before {place_from}")
                place_from = entry["at"] + grace
                stacks[entry["stack"]].append(entry["card"])
                last_placer, last_stack, challenged = seat, entry["stack"], False
                placed_at = entry["at"]
                pos += 1
                seat = (seat + 1) % players
            elif entry["e"] == "stop":
                clock = _tick(clock, entry, rnd)
                if challenged or last_placer is None:
                    raise ReplayError(f"round {rnd}: a Stop with no unchallenged placement")
                challenger = entry["challenger"]
                if (
                    challenger == last_placer
                    or entry["placer"] != last_placer
                    or entry["stack"] != last_stack
                ):
                    raise ReplayError(f"round {rnd}: Stop on the wrong card or by the placer: {entry}")
                last_closes = placed_at + grace if pos == DECK_SIZE else None
                _check_race(entry, players, placed_at, last_closes, options["race_window_ms"], rnd)
                cards = stacks[last_stack]
                k = cards[:-1].count(cards[-1])
                moved = min(k, tokens[last_placer]) if k else 1
                if entry["cards"] != cards or entry["k"] != k or entry["moved"] != moved:
                    raise ReplayError(f"round {rnd}: Stop resolved wrongly: {entry}, stack {cards}")
                if k:
                    tokens[last_placer] -= moved
                    tokens[challenger] += moved
                else:
                    tokens[challenger] -= 1
                    box += 1
                if entry["tokens"] != tokens or entry["box"] != box:
                    raise ReplayError(
                        f"round {rnd}: after the Stop the tokens are {tokens} and the box holds {box}, "
                        f"the log says {entry['tokens']} and {entry['box']}"
                    )
                challenged = True
                end_at = entry["at"]
                if k and tokens[last_placer] == 0:
                    ended = (last_placer, "zero_tokens")
                elif not k and tokens[challenger] == 0:
                    ended = (challenger, "zero_tokens")
                elif pos == DECK_SIZE:
                    ended = (last_placer, "deck_out")
                if ended is not None:
                    next_start = entry["at"] + reveal  # the next round starts when the stack is hidden
                place_from = max(place_from, entry["at"] + reveal)  # play is paused while it is shown
            elif entry["e"] == "round_end" and pos == DECK_SIZE:
                assert last_placer is not None
                ended = (last_placer, "deck_out")
                end_at = next_start = placed_at + grace  # the last card's Stop window closed
                i -= 1
            else:
                raise ReplayError(f"round {rnd}: unexpected {entry['e']!r} after {pos} placements")
            if pos > DECK_SIZE or sum(tokens) + box != BOX_TOKENS:
                raise ReplayError(f"round {rnd}: tokens not conserved")
        end = _expect(log, i, "round_end")
        i += 1
        if (end["ended_by"], end["reason"]) != ended or end["tokens"] != tokens:
            raise ReplayError(f"round {rnd}: the round should end by {ended} with {tokens}, log says {end}")
        if end["at"] != end_at:
            raise ReplayError(f"round {rnd}: ended at {end['at']}, should end at {end_at}")
        clock = _tick(clock, end, rnd)
        totals = [t + s for t, s in zip(totals, tokens, strict=True)]
        if end["totals"] != totals:
            raise ReplayError(f"round {rnd}: totals {end['totals']} should be {totals}")
        previous_ender = ended[0]
    final = _expect(log, i, "game_end")
    best = max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    if final["totals"] != totals or final["winners"] != winners or i + 1 != len(log):
        raise ReplayError(f"game end {final} should be totals {totals}, winners {winners}")
    if rec.get("totals", totals) != totals or rec.get("winners", winners) != winners:
        raise ReplayError("the record's totals or winners differ from its log")


def _full_options(options: Mapping[str, Any]) -> dict[str, int]:
    """The record must name every option the engine knows, each within its range."""
    try:
        full = check_options(options)
    except ValueError as bad:
        raise ReplayError(str(bad)) from None
    if set(options) != set(full):
        raise ReplayError(f"options not in full: missing {sorted(set(full) - set(options))}")
    return full


def _tick(clock: int, entry: Mapping[str, Any], rnd: int) -> int:
    if entry["at"] < clock:
        raise ReplayError(f"round {rnd}: time ran backwards to {entry['at']} after {clock}: {entry}")
    return int(entry["at"])


def _check_race(
    stop: Mapping[str, Any],
    players: int,
    placed_at: int,
    last_closes: int | None,
    window_ms: int,
    rnd: int,
) -> None:
    """The Stop race of one placement, from its presses in arrival order (docs/kabuki.md).

    The race opens when the first press is received and collects presses for ``window_ms``; a
    press counts if it was made at or after the placement, before the close (and, for the round's
    last card, before its Stop window closed), and received while the race was open. The earliest
    press wins; equal timestamps go to the first to arrive.
    """
    presses = stop["presses"]
    seats = [p["seat"] for p in presses]
    if not presses or len(set(seats)) != len(seats) or stop["placer"] in seats:
        raise ReplayError(f"round {rnd}: each player but the placer presses Stop at most once: {seats}")
    if any(not 0 <= s < players for s in seats):
        raise ReplayError(f"round {rnd}: a Stop by a seat not in the game: {seats}")
    opened = presses[0]["received"]
    closes = opened + window_ms
    if stop["closes_at"] != closes or stop["at"] != closes:
        raise ReplayError(
            f"round {rnd}: the race opened at {opened} and must close at {closes}, "
            f"the log says {stop['closes_at']} (resolved at {stop['at']})"
        )
    if last_closes is not None and opened >= last_closes:
        raise ReplayError(f"round {rnd}: a Stop received after the last card's window closed")
    received = placed_at
    for n, press in enumerate(presses):
        # The first press opened the race, so it is inside by definition (with a window of 0 it
        # is received at the very close); a later one had to be made and received before the close.
        late = n > 0 and (press["at"] >= closes or press["received"] >= closes)
        if press["received"] < received or late or not placed_at <= press["at"] <= press["received"]:
            raise ReplayError(
                f"round {rnd}: press {press} outside the collection window or out of arrival order "
                f"(the card was placed at {placed_at}, the race closed at {closes})"
            )
        received = press["received"]
        if last_closes is not None and press["at"] >= last_closes:
            raise ReplayError(f"round {rnd}: press {press} after the last card's window closed")
    winner = min(presses, key=lambda p: p["at"])["seat"]  # min keeps the first of equal ones
    if stop["challenger"] != winner:
        raise ReplayError(f"round {rnd}: seat {winner} pressed first, not {stop['challenger']}")


def _expect(log: Sequence[Mapping[str, Any]], i: int, kind: str) -> Mapping[str, Any]:
    if i >= len(log) or log[i]["e"] != kind:
        found = log[i]["e"] if i < len(log) else "end of log"
        raise ReplayError(f"expected {kind!r} at log entry {i}, found {found!r}")
    return log[i]
