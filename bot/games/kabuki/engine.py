"""The Kabuki rules as a pure engine (see docs/kabuki.md for actions, view, events and options).

Time is never read: every method that needs it takes ``now`` in milliseconds. Deadlines are fired
at their own scheduled instant (not at the ``now`` that ``advance`` was called with), so the same
inputs always give the same game whenever the caller's timer happens to run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from bot.engine.protocol import N_, Dice, Event, GameEngine, IllegalAction, Result
from bot.engine.race import Entry, Race

MASK_KINDS = 10
COPIES = 5
DECK_SIZE = MASK_KINDS * COPIES
STACKS = 4
ROUNDS = 3
BOX_TOKENS = 24

DEFAULT_OPTIONS: dict[str, int] = {
    "grace_ms": 3000,
    "race_window_ms": 250,
    "reveal_ms": 8000,
    "turn_ms": 60000,
}
# Inclusive bounds; outside them a game would be unplayable (or a typo in a command).
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "grace_ms": (0, 60_000),
    "race_window_ms": (0, 5_000),
    "reveal_ms": (0, 60_000),
    "turn_ms": (1_000, 86_400_000),
}

PLAY = "play"
BETWEEN = "between"  # a round has ended; the next starts when the reveal is hidden
OVER = "over"

# Event data fields that show buried cards: kept out of the view's remembered ``last_event``.
_SECRET_FIELDS = ("cards", "matches")
# Routine events that would otherwise push the interesting news ("placed for an idle player",
# "X caught Y") off the board's last-event line; the view shows their content anyway.
_QUIET = frozenset({"turn", "reveal_end"})


def tokens_per_player(players: int) -> int:
    return 5 if players <= 4 else 4


def check_options(options: Mapping[str, Any] | None) -> dict[str, int]:
    """Defaults filled in; ValueError for an unknown option or a value out of its range."""
    out = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTION_RANGES:
            raise ValueError(f"Unknown Kabuki option {key!r}; known: {', '.join(OPTION_RANGES)}.")
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"Option {key} must be a whole number of milliseconds, not {value!r}.")
        low, high = OPTION_RANGES[key]
        if not low <= value <= high:
            raise ValueError(f"Option {key} must be between {low} and {high} ms, not {value}.")
        out[key] = value
    return out


class KabukiEngine(GameEngine):
    kind = "kabuki"
    title = "Kabuki"
    min_players = 2
    max_players = 6

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        """A bare state; use ``new`` (or ``from_json``) to get a playable game."""
        self.players = players
        self.seed = seed
        self.options = check_options(options)
        self.dice = Dice(seed)
        self.phase = PLAY
        self.round = 0
        self.tokens = [0] * players
        self.totals = [0] * players
        self.box = BOX_TOKENS
        self.stacks: list[list[int]] = [[] for _ in range(STACKS)]
        self.deck: list[int] = []
        self.pos = 0  # cards placed this round; deck[pos] is the card on show
        self.active: int | None = None
        self.place_from = 0  # the active seat may place from this instant; its turn timer runs from it
        self.turn = 0  # placements so far in the whole game: the public id of the last placement
        self.version = 0  # bumped by every public event
        self.clock = 0  # latest instant seen
        # The placement that may still be challenged: placer, stack, turn, at, closes_at (last card only).
        self.window: dict[str, Any] | None = None
        self.race: Race | None = None
        # The open race's presses for the replay log, in arrival order: seat, Discord timestamp
        # and the instant the engine received it (its clock), which the Race does not keep.
        self.presses: list[dict[str, int]] = []
        self.reveal: dict[str, Any] | None = None
        self.challenged_turn = 0
        self.last_event: dict[str, Any] | None = None
        self.round_results: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self._events: list[Event] = []

    # -- protocol -------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, Any] | None, now: int) -> Self:
        cls.check_players(players)
        engine = cls(players, seed, options or {})
        engine.clock = now
        engine._start_round(now, first=None)
        engine._events.clear()  # the opening board is shown from view(); nothing to announce
        return engine

    def apply(self, seat: int, action: Mapping[str, Any], now: int) -> list[Event]:
        """Judge the action against the state as it is: call ``advance(clock)`` first to fire timers."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(N_("You are not playing in this game."))
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "place":
            self._check_place(seat, action, now)
            self.clock = max(self.clock, now)
            self._place(seat, int(action["stack"]), self.clock, auto=False)
        elif kind == "stop":
            self._check_stop(seat, action, now)
            self.clock = max(self.clock, now)
            self._press_stop(seat, now)
        else:
            raise IllegalAction(N_("Unknown action."))
        return self._flush()

    def advance(self, now: int) -> list[Event]:
        self.clock = max(self.clock, now)
        while True:
            due = self._due()
            if due is None or due > now:
                break
            self._fire(due)
        return self._flush()

    def next_deadline(self) -> int | None:
        due = self._due()
        if self._can_place_later():
            # Not a timer of the rules, but the board must enable the place buttons then.
            return self.place_from if due is None else min(due, self.place_from)
        return due

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = []
        if self._placing_blocked(seat, self.clock) is None:
            actions += [{"type": "place", "stack": s, "turn": self.turn} for s in range(STACKS)]
        if self._stop_refusal(seat, self.clock) is None:
            actions.append({"type": "stop", "turn": self.turn})
        return actions

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        best = max(self.totals)
        winners = tuple(s for s, t in enumerate(self.totals) if t == best)
        return Result(
            scores=tuple(self.totals), winners=winners, details={"rounds": list(self.round_results)}
        )

    # -- the view ---------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        current = None
        if self.phase == PLAY and self.pos < DECK_SIZE and self.active is not None:
            current = {"card": self.deck[self.pos], "seat": self.active}
        window = None
        if self.window is not None:
            window = {k: self.window[k] for k in ("placer", "stack", "turn", "closes_at")}
        out: dict[str, Any] = {
            "kind": self.kind,
            "version": self.version,
            "turn": self.turn,
            "round": self.round,
            "rounds": ROUNDS,
            "phase": self.phase,
            "players": self.players,
            "stacks": [{"top": st[-1] if st else None, "height": len(st)} for st in self.stacks],
            "current": current,
            "active": self.active if self.phase == PLAY else None,
            "place_from": self.place_from if current else None,
            # Only while that instant is still ahead: a board must not say "from 1 second ago".
            "place_opens": self.place_from if current and self._can_place_later() else None,
            "turn_deadline": self._turn_deadline(),
            "placing_blocked": self._block_reason() if current else None,
            "stop_window": window,
            "race": None if self.race is None else {"closes_at": self.race.closes_at},
            "reveal": None if self.reveal is None else _copy_reveal(self.reveal),
            "tokens": list(self.tokens),
            "totals": list(self.totals),
            "box": self.box,
            "deck_left": max(0, DECK_SIZE - self.pos - (1 if current else 0)),
            "last_event": None if self.last_event is None else dict(self.last_event),
            "round_results": [dict(r) for r in self.round_results],
            "winners": list(self.result().winners) if self.phase == OVER else None,
        }
        if seat is not None:
            out["seat"] = seat
            out["legal"] = self.legal_actions(seat)
            out["raced"] = self.race is not None and self.race.has(seat)
        return out

    # -- saving -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "dice": self.dice.to_json(),
            "phase": self.phase,
            "round": self.round,
            "tokens": list(self.tokens),
            "totals": list(self.totals),
            "box": self.box,
            "stacks": [list(s) for s in self.stacks],
            "deck": list(self.deck),
            "pos": self.pos,
            "active": self.active,
            "place_from": self.place_from,
            "turn": self.turn,
            "version": self.version,
            "clock": self.clock,
            "window": None if self.window is None else dict(self.window),
            "race": None if self.race is None else self.race.to_json(),
            "presses": [dict(p) for p in self.presses],
            "reveal": None if self.reveal is None else _copy_reveal(self.reveal),
            "challenged_turn": self.challenged_turn,
            "last_event": None if self.last_event is None else _deep(self.last_event),
            "round_results": [dict(r) for r in self.round_results],
            # Entries are written once and never changed, so sharing them is safe; copying them
            # grew every save with the length of the game.
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        engine = cls(int(data["players"]), int(data["seed"]), data["options"])
        engine.dice = Dice.from_json(data["dice"])
        engine.phase = data["phase"]
        engine.round = int(data["round"])
        engine.tokens = [int(t) for t in data["tokens"]]
        engine.totals = [int(t) for t in data["totals"]]
        engine.box = int(data["box"])
        engine.stacks = [[int(c) for c in s] for s in data["stacks"]]
        engine.deck = [int(c) for c in data["deck"]]
        engine.pos = int(data["pos"])
        engine.active = None if data["active"] is None else int(data["active"])
        engine.place_from = int(data["place_from"])
        engine.turn = int(data["turn"])
        engine.version = int(data["version"])
        engine.clock = int(data["clock"])
        engine.window = None if data["window"] is None else dict(data["window"])
        engine.race = Race.from_json(data["race"])
        engine.presses = _saved_presses(data, engine)
        engine.reveal = None if data["reveal"] is None else _copy_reveal(data["reveal"])
        engine.challenged_turn = int(data["challenged_turn"])
        engine.last_event = None if data["last_event"] is None else _deep(data["last_event"])
        engine.round_results = [dict(r) for r in data["round_results"]]
        engine.log = [_deep(e) for e in data["log"]]
        return engine

    # -- legality ---------------------------------------------------------------------------------

    def _block_reason(self) -> str | None:
        """Why nobody can place right now (time aside), or None."""
        if self.phase == OVER:
            return N_("The game is over.")
        if self.phase == BETWEEN:
            return N_("The round is over.")
        if self.race is not None:
            return N_("Someone pressed Stop! Wait for the challenge to be resolved.")
        if self.reveal is not None:
            return N_("A challenged stack is being shown; play resumes when it is hidden.")
        if self.pos >= DECK_SIZE:
            return N_("The deck is empty; the round ends when the last Stop window closes.")
        return None

    def _placing_blocked(self, seat: int, now: int) -> IllegalAction | None:
        """Why ``seat`` may not place now (a refusal to raise), or None."""
        reason = self._block_reason()
        if reason is not None:
            return IllegalAction(reason)
        if seat != self.active:
            return IllegalAction(N_("It is not your turn."))
        if now < self.place_from:
            tenths = -(-(self.place_from - now) // 100)  # rounded up, so never "wait 0.0 s"
            return IllegalAction(
                N_("Wait {seconds} s: the others still get a chance to press Stop."), seconds=tenths / 10
            )
        return None

    def _check_place(self, seat: int, action: Mapping[str, Any], now: int) -> None:
        if "turn" in action and action["turn"] != self.turn:
            raise IllegalAction(N_("That card was already placed."))
        stack = action.get("stack")
        if isinstance(stack, bool) or not isinstance(stack, int) or not 0 <= stack < STACKS:
            raise IllegalAction(N_("Choose a stack from 1 to {count}."), count=STACKS)
        refusal = self._placing_blocked(seat, now)
        if refusal is not None:
            raise refusal

    def _stop_refusal(self, seat: int, now: int) -> str | None:
        if self.phase == OVER:
            return N_("The game is over.")
        window = self.window
        if window is None:
            if self.turn and self.challenged_turn == self.turn:
                return N_("This card was already challenged.")
            if self.phase == BETWEEN:
                return N_("The round is over.")
            return N_("No card has been placed yet.")
        if seat == window["placer"]:
            return N_("You placed this card; you cannot stop yourself.")
        if self.race is not None and self.race.has(seat):
            return N_("You already pressed Stop.")
        if now < window["at"]:
            return N_("Too late: the next card was already placed.")
        if self.race is not None and now >= self.race.closes_at:
            return N_("Too late: someone else pressed Stop first.")
        if window["closes_at"] is not None and now >= window["closes_at"]:
            return N_("Too late: the Stop window for the last card has closed.")
        return None

    def _check_stop(self, seat: int, action: Mapping[str, Any], now: int) -> None:
        if "turn" in action and action["turn"] != self.turn:
            raise IllegalAction(N_("Too late: that card is no longer the last one placed."))
        reason = self._stop_refusal(seat, now)
        if reason is not None:
            raise IllegalAction(reason)

    # -- timers -----------------------------------------------------------------------------------

    def _turn_deadline(self) -> int | None:
        if self._block_reason() is not None:
            return None
        return self.place_from + self.options["turn_ms"]

    def _can_place_later(self) -> bool:
        return self.clock < self.place_from and self._block_reason() is None

    def _due(self) -> int | None:
        """The one rule deadline pending now: they exclude each other, so there is never a tie."""
        if self.race is not None:
            return self.race.closes_at
        if self.reveal is not None:
            return self.reveal["until"]
        if self.phase != PLAY:
            return None
        if self.window is not None and self.window["closes_at"] is not None:
            return self.window["closes_at"]
        return self._turn_deadline()

    def _fire(self, at: int) -> None:
        if self.race is not None:
            self._settle_race(at)
        elif self.reveal is not None:
            self._hide_reveal(at)
        elif self.window is not None and self.window["closes_at"] is not None:
            placer = self.window["placer"]
            self.window = None
            self._end_round(placer, "deck_out", at)
        else:
            assert self.active is not None
            self._place(self.active, self.dice.randrange(STACKS), at, auto=True)

    # -- what happens -----------------------------------------------------------------------------

    def _emit(self, kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        self._events.append(Event(kind, data, to))
        if to is None:
            self.version += 1
            if kind in _QUIET:
                return
            self.last_event = {
                "kind": kind,
                "data": {k: v for k, v in data.items() if k not in _SECRET_FIELDS},
            }

    def _flush(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _start_round(self, at: int, first: int | None) -> None:
        self.round += 1
        self.phase = PLAY
        each = tokens_per_player(self.players)
        self.tokens = [each] * self.players
        self.box = BOX_TOKENS - each * self.players
        self.deck = self.dice.shuffled([m for m in range(MASK_KINDS) for _ in range(COPIES)])
        if first is None:
            first = self.dice.randrange(self.players)
        self.pos = 0
        self.stacks = [[] for _ in range(STACKS)]
        self.window = None
        self.active = first
        self.place_from = at
        self.log.append(
            {
                "e": "round",
                "round": self.round,
                "first": first,
                "tokens": each,
                "deck": list(self.deck),
                "at": at,
            }
        )
        self._emit("round_start", {"round": self.round, "first": first, "tokens": each, "box": self.box})
        self._announce_turn()

    def _announce_turn(self) -> None:
        self._emit(
            "turn",
            {
                "seat": self.active,
                "card": self.deck[self.pos],
                "turn": self.turn,
                "place_from": self.place_from,
                "deadline": self.place_from + self.options["turn_ms"],
            },
        )

    def _place(self, seat: int, stack: int, at: int, auto: bool) -> None:
        card = self.deck[self.pos]
        self.stacks[stack].append(card)
        self.pos += 1
        self.turn += 1
        last = self.pos == DECK_SIZE
        closes_at = at + self.options["grace_ms"] if last else None
        self.window = {"placer": seat, "stack": stack, "turn": self.turn, "at": at, "closes_at": closes_at}
        self.log.append({"e": "place", "seat": seat, "card": card, "stack": stack, "auto": auto, "at": at})
        self._emit(
            "placed",
            {
                "seat": seat,
                "card": card,
                "stack": stack,
                "height": len(self.stacks[stack]),
                "turn": self.turn,
                "auto": auto,
                "at": at,
                "last": last,
                "closes_at": closes_at,
            },
        )
        if last:
            self.active = None
        else:
            self.active = (seat + 1) % self.players
            self.place_from = at + self.options["grace_ms"]
            self._announce_turn()

    def _press_stop(self, seat: int, at: int) -> None:
        opened = self.race is None
        if self.race is None:
            # The window counts from when the bot learns of the press, so a press that arrives
            # late still leaves the others the whole window to be compared with it.
            closes_at = max(at, self.clock) + self.options["race_window_ms"]
            self.race = Race(closes_at=closes_at, entries=[Entry(seat, at)])
            assert self.window is not None
            self._emit(
                "race_open",
                {
                    "placer": self.window["placer"],
                    "stack": self.window["stack"],
                    "turn": self.turn,
                    "closes_at": closes_at,
                },
            )
        else:
            self.race.add(seat, at)
        self.presses.append({"seat": seat, "at": at, "received": self.clock})
        self._emit(
            "stop_received",
            {"turn": self.turn, "at": at, "closes_at": self.race.closes_at, "opened": opened},
            to=(seat,),
        )

    def _settle_race(self, at: int) -> None:
        race, window = self.race, self.window
        assert race is not None and window is not None
        winner = race.winner().seat
        for loser, by_ms in race.losers():
            self._emit(
                "race_lost", {"winner": winner, "by_ms": by_ms, "turn": window["turn"]}, to=(loser.seat,)
            )
        placer, stack = window["placer"], window["stack"]
        cards = list(self.stacks[stack])
        top = cards[-1]
        matches = [i for i, c in enumerate(cards[:-1]) if c == top]
        k = len(matches)
        if k:
            moved = min(k, self.tokens[placer])
            self.tokens[placer] -= moved
            self.tokens[winner] += moved
        else:
            moved = 1
            self.tokens[winner] -= 1
            self.box += 1
        until = at + self.options["reveal_ms"]
        self.race = None
        presses, self.presses = self.presses, []
        self.window = None
        self.challenged_turn = window["turn"]
        self.reveal = {
            "stack": stack,
            "cards": cards,
            "matches": matches,
            "challenger": winner,
            "placer": placer,
            "k": k,
            "moved": moved,
            "until": until,
            "turn": window["turn"],
        }
        self.log.append(
            {
                "e": "stop",
                "challenger": winner,
                "placer": placer,
                "stack": stack,
                "cards": list(cards),
                "k": k,
                "moved": moved,
                "to": "challenger" if k else "box",
                "presses": presses,
                "closes_at": race.closes_at,
                "tokens": list(self.tokens),
                "box": self.box,
                "at": at,
            }
        )
        self._emit(
            "challenge",
            {
                "challenger": winner,
                "placer": placer,
                "stack": stack,
                "cards": list(cards),
                "matches": list(matches),
                "k": k,
                "moved": moved,
                "to": "challenger" if k else "box",
                "tokens": list(self.tokens),
                "box": self.box,
                "reveal_until": until,
                "turn": window["turn"],
                "entrants": len(race.entries),
            },
        )
        if k and self.tokens[placer] == 0:
            self._end_round(placer, "zero_tokens", at)
        elif not k and self.tokens[winner] == 0:
            self._end_round(winner, "zero_tokens", at)
        elif self.pos == DECK_SIZE:
            self._end_round(placer, "deck_out", at)

    def _hide_reveal(self, at: int) -> None:
        assert self.reveal is not None
        stack = self.reveal["stack"]
        self.reveal = None
        self._emit("reveal_end", {"stack": stack})
        if self.phase == BETWEEN:
            self._start_round(at, first=self.round_results[-1]["ended_by"])
        elif self.phase == PLAY:
            # Play was paused while the stack was shown: the active seat gets its full turn again.
            self.place_from = max(self.place_from, at)
            self._announce_turn()

    def _end_round(self, ended_by: int, reason: str, at: int) -> None:
        self.window = None
        self.active = None
        scored = list(self.tokens)
        self.totals = [t + s for t, s in zip(self.totals, scored, strict=True)]
        summary = {"round": self.round, "ended_by": ended_by, "reason": reason, "tokens": scored}
        self.round_results.append(summary)
        self.log.append({"e": "round_end", **summary, "totals": list(self.totals), "at": at})
        self._emit("round_end", {**summary, "totals": list(self.totals)})
        if self.round == ROUNDS:
            self.phase = OVER
            result = self.result()
            self.log.append({"e": "game_end", "totals": list(result.scores), "winners": list(result.winners)})
            self._emit("game_over", {"totals": list(result.scores), "winners": list(result.winners)})
        elif self.reveal is None:
            self._start_round(at, first=ended_by)
        else:
            self.phase = BETWEEN


def _saved_presses(data: Mapping[str, Any], engine: KabukiEngine) -> list[dict[str, int]]:
    """The open race's presses from a save; states saved before they were kept lack them."""
    if "presses" in data:
        return [{k: int(v) for k, v in p.items()} for p in data["presses"]]
    if engine.race is None:
        return []
    # Rebuilt as closely as the old save allows: the race opened when its first press was
    # received, window_ms before its close; a later press was received by the saved clock.
    opened = engine.race.closes_at - engine.options["race_window_ms"]
    return [
        {"seat": e.seat, "at": e.at, "received": opened if i == 0 else engine.clock}
        for i, e in enumerate(engine.race.entries)
    ]


def _copy_reveal(reveal: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(reveal)
    out["cards"] = list(reveal["cards"])
    out["matches"] = list(reveal["matches"])
    return out


def _deep(value: Any) -> Any:
    """A copy of plain JSON data, so saved states and the live one never share lists."""
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value
