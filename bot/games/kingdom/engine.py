"""Death Over the Kingdom as a pure engine (rules: /work/shared/rules/death-over-the-kingdom.md).

Cards are the physical cards 0..25 (two copies per character, see ``cards.char_of``) so that a
revealed copy can be told apart from its face-down twin. ``face_up`` holds the physical cards the
whole table has seen face up this round; once seen, a card stays known wherever it goes, so the
public view may show it in any hand or on top of the deck. Nothing else is ever public before the
reveal.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Self

from bot.engine.protocol import N_, Action, Dice, Event, GameEngine, IllegalAction, Result
from bot.games.kingdom.cards import (
    BARD,
    CHARACTERS,
    COPIES,
    DECK_SIZE,
    DRAGON,
    KING,
    NAMES,
    POWER_CARDS,
    THIEF,
    TRADER,
    card_info,
)
from bot.games.kingdom.resolution import resolve, token_changes

MODES: dict[str, tuple[int, int]] = {
    "classic": (3, 16),
    "death-over-all": (3, 16),
    "only-one": (2, 20),
}
MAX_TURN_MS = 86_400_000  # a day: the longest turn a slow server may give
DEFAULTS: dict[str, Any] = {"mode": "classic", "length": 3, "turn_ms": 60_000, "reveal_ms": 0}
# Every option ``new`` knows, with its default; the last two are for tests and replays.
ALL_DEFAULTS: dict[str, Any] = {**DEFAULTS, "dealer": None, "decks": []}
LENGTHS = range(2, 7)  # Classic / Death over all: rounds = players x length
TARGETED = ("thief", "bard")
# A refusal per power, whole sentences: a language may need the card's name declined.
NOT_HELD = {
    "trader": N_("You do not hold the Trader."),
    "thief": N_("You do not hold the Thief."),
    "bard": N_("You do not hold the Bard."),
    "dragon": N_("You do not hold the Dragon."),
}
STATE_VERSION = 1
# Attributes saved as they are by to_json (the dice and the face-up set are converted).
_STATE_KEYS = (
    "players", "mode", "length", "turn_ms", "reveal_ms", "decks", "tokens", "out", "eliminated",
    "round", "rounds_total", "dealer", "order", "pos", "hands", "deal", "deck", "discards", "peek",
    "acted", "phase", "deadline", "actions", "reveal", "winners", "version", "log",
)  # fmt: skip


def _top_copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def start_tokens(players: int) -> int:
    """There can be only one: 5 tokens for 2-6 players, 4 for 7-12, 3 for 13-20."""
    return 5 if players <= 6 else 4 if players <= 12 else 3


def _int_option(options: Mapping[str, Any], key: str) -> int:
    value = options.get(key, DEFAULTS[key])
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"Option {key} must be a whole number, not {value!r}.")
    return value


class KingdomEngine(GameEngine):
    kind = "kingdom"
    title = "Death Over the Kingdom"
    # The widest range over all modes; ``new`` checks the chosen mode's own range.
    min_players = 2
    max_players = 20
    # Classic and Death over all count tokens against you. In "only-one" Result.scores are tokens
    # *remaining* (more is better): read Result.winners, and details["score"] says which.
    lower_score_wins = True

    # ----------------------------------------------------------------- set-up
    def __init__(self) -> None:
        # Filled by ``new`` or ``from_json``; listed here for the reader and the type checker.
        self.players = 0
        self.mode = "classic"
        self.length = 3
        self.turn_ms = 0
        self.reveal_ms = 0
        self.decks: list[list[int]] = []  # rigged decks (tests, replays), one per round
        self.dice = Dice(0)
        self.tokens: list[int] = []
        self.out: list[bool] = []
        self.eliminated: list[list[int]] = []  # only-one: seats going out, one group per round
        self.round = 0
        self.rounds_total: int | None = None
        self.dealer = 0
        self.order: list[int] = []  # this round's play order: dealer's right ... dealer
        self.pos = 0  # index in ``order`` of the player to act
        self.hands: list[int | None] = []  # physical card per seat (None: out of the game)
        self.deal: list[int | None] = []  # physical card dealt to each seat this round
        self.deck: list[int] = []  # top card first
        self.discards: list[int] = []
        self.face_up: set[int] = set()
        self.peek: dict[str, int] | None = None  # a Thief who has looked and must now choose
        self.acted: list[int] = []
        self.phase = "play"  # "play" | "reveal" (pause before next round) | "over"
        self.deadline: int | None = None
        self.actions: list[dict[str, Any]] = []  # this round's public action log
        self.reveal: dict[str, Any] | None = None  # the last round's reveal
        self.winners: list[int] = []
        self.version = 0
        self.log: list[dict[str, Any]] = []  # replay log: every accepted input in order
        # The events of the first deal made by ``new`` (private cards, Kings shown); not saved.
        self.opening: list[Event] = []

    @classmethod
    def players_range(cls, options: Mapping[str, Any]) -> tuple[int, int]:
        """Each mode's own range (Classic 3-16, only-one 2-20); an unknown mode gets the widest,
        and ``new`` then refuses it."""
        return MODES.get(options.get("mode", DEFAULTS["mode"]), (cls.min_players, cls.max_players))

    @classmethod
    def check_mode_players(cls, mode: str, players: int) -> None:
        if mode not in MODES:
            raise ValueError(f"Unknown mode {mode!r}; choose one of {', '.join(MODES)}.")
        low, high = MODES[mode]
        if not low <= players <= high:
            raise ValueError(f"{cls.title} ({mode}) needs {low}–{high} players, not {players}.")

    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, Any], now: int) -> Self:
        """Options: mode, length (2-6), turn_ms (0 = no timer, else >= 1000), reveal_ms (>= 0)
        and, for tests and replays, dealer (the first dealer's seat; default None: drawn at random
        with the game's dice) and decks: a list of per-round decks, each 26 character ids in deal
        order (first to the dealer's right ... dealer, then the deck top first)."""
        unknown = set(options) - set(ALL_DEFAULTS)
        if unknown:
            raise ValueError(f"Unknown option(s): {', '.join(sorted(unknown))}.")
        mode = options.get("mode", DEFAULTS["mode"])
        cls.check_mode_players(mode, players)
        length = _int_option(options, "length")
        if length not in LENGTHS:
            raise ValueError(f"length must be 2–6, not {length}.")
        turn_ms = _int_option(options, "turn_ms")
        if turn_ms != 0 and not 1000 <= turn_ms <= MAX_TURN_MS:
            raise ValueError(f"turn_ms must be 0 (no timer) or 1000–{MAX_TURN_MS}.")
        reveal_ms = _int_option(options, "reveal_ms")
        if reveal_ms < 0:
            raise ValueError("reveal_ms cannot be negative.")
        dealer = options.get("dealer")
        if dealer is not None and (
            isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players
        ):
            raise ValueError(f"dealer must be a seat 0–{players - 1}.")
        decks = [cls._rigged_deck(d) for d in options.get("decks", [])]

        self = cls()
        self.players, self.mode, self.length = players, mode, length
        self.turn_ms, self.reveal_ms, self.decks = turn_ms, reveal_ms, decks
        self.dice = Dice(seed)
        only_one = mode == "only-one"
        self.tokens = [start_tokens(players) if only_one else 0] * players
        self.out = [False] * players
        self.rounds_total = None if only_one else players * length
        self.hands = [None] * players
        self.deal = [None] * players
        # "The dealer is chosen randomly": the game's first draw, before the first shuffle.
        self.dealer = self.dice.randrange(players) if dealer is None else dealer
        self.log.append({"new": {"players": players, "seed": seed, "options": dict(options), "now": now}})
        self._start_round(now, self.opening)
        return self

    @staticmethod
    def _rigged_deck(chars: Any) -> list[int]:
        """Character ids -> physical cards, each copy used once."""
        if sorted(chars) != sorted(c for c in range(len(CHARACTERS)) for _ in range(COPIES)):
            raise ValueError("A rigged deck must hold every character id exactly twice.")
        seen = [0] * len(CHARACTERS)
        cards = []
        for c in chars:
            cards.append(c * COPIES + seen[c])
            seen[c] += 1
        return cards

    @property
    def options(self) -> dict[str, Any]:
        """Every option in force, defaults included, as ``new`` was given them (from the log)."""
        return {**copy.deepcopy(ALL_DEFAULTS), **copy.deepcopy(self.log[0]["new"]["options"])}

    # ----------------------------------------------------------------- small queries
    def char(self, seat: int) -> int | None:
        """The character ``seat`` holds (what that seat sees of its own card)."""
        card = self.hands[seat]
        return None if card is None else card >> 1

    @property
    def active(self) -> int | None:
        """The seat whose move it is (the Thief while choosing), or None."""
        if self.phase != "play":
            return None
        if self.peek is not None:
            return self.peek["seat"]
        return self.order[self.pos]

    def right_of(self, seat: int) -> int | None:
        """The next seat in this round's play order; the dealer has nobody to the right."""
        i = self.order.index(seat)
        return self.order[i + 1] if i + 1 < len(self.order) else None

    def _holds_king(self, seat: int) -> bool:
        card = self.hands[seat]
        return card is not None and card >> 1 == KING

    # ----------------------------------------------------------------- rounds
    def _start_round(self, now: int, events: list[Event]) -> None:
        self.round += 1
        n = self.players
        first = (self.dealer + 1) % n
        self.order = [s for s in ((first + k) % n for k in range(n)) if not self.out[s]]
        if self.round <= len(self.decks):
            cards = list(self.decks[self.round - 1])
        else:
            cards = self.dice.shuffled(range(DECK_SIZE))
        self.hands = [None] * n
        for seat, card in zip(self.order, cards, strict=False):
            self.hands[seat] = card
        self.deal = list(self.hands)
        self.deck = cards[len(self.order) :]
        self.discards = []
        self.face_up = set()
        self.peek = None
        self.acted = []
        self.actions = []
        self.pos = 0
        self.phase = "play"
        events.append(
            Event("round", {"round": self.round, "dealer": self.dealer, "order": list(self.order)}),
        )
        # The deal order is a secret of every seat: to=() shows it to nobody at the table; only an
        # after-the-game record (the simulator's) keeps it, so the deck's draws can be checked.
        events.append(Event("shuffle", {"round": self.round, "cards": [c >> 1 for c in cards]}, to=()))
        hands = self.hands
        for seat in self.order:
            card = hands[seat]
            assert card is not None
            char = card >> 1
            events.append(Event("card", {"char": char, "name": NAMES[char], "how": "deal"}, to=(seat,)))
            if char == KING:
                self._show_king(seat, card, events)
        self._begin_turn(now, events)

    def _show_king(self, seat: int, card: int, events: list[Event]) -> None:
        """A King is shown face up the moment a player holds it."""
        if card >> 1 == KING and card not in self.face_up:
            self.face_up.add(card)
            events.append(Event("king", {"seat": seat}))

    def _deck_event(self, events: list[Event]) -> None:
        """The deck, top first, after a draw from it: for nobody at the table (see "shuffle")."""
        events.append(Event("deck", {"cards": [c >> 1 for c in self.deck]}, to=()))

    def _begin_turn(self, now: int, events: list[Event]) -> None:
        # A King's holder can only stand, so they stand at once instead of waiting for a press.
        order, hands = self.order, self.hands
        while self.pos < len(order) and hands[order[self.pos]] >> 1 == KING:  # type: ignore[operator]
            seat = order[self.pos]
            self._record(events, {"type": "stand", "seat": seat, "auto": "king"})
            self.acted.append(seat)
            self.pos += 1
        if self.pos == len(self.order):
            self._reveal(now, events)
            return
        self.deadline = now + self.turn_ms if self.turn_ms else None
        events.append(Event("turn", {"seat": self.order[self.pos], "deadline": self.deadline}))

    def _record(self, events: list[Event], public: dict[str, Any], timeout: bool = False) -> None:
        """One public fact about an action: into the round's log and out as an event. ``timeout``
        marks an idle player's default move, so the board can say why it happened."""
        if timeout:
            public["timeout"] = True
        self.actions.append(public)
        events.append(Event(public["type"], public))

    def _reveal(self, now: int, events: list[Event]) -> None:
        order = self.order
        chars = {s: self.hands[s] >> 1 for s in order}  # type: ignore[operator]
        res = resolve(order, chars)
        delta = token_changes(self.mode, order, chars, res, self.tokens)
        gone: list[int] = []
        for s in order:
            self.tokens[s] += delta[s]
            if self.mode == "only-one" and self.tokens[s] <= 0:
                self.out[s] = True
                gone.append(s)
        if gone:
            self.eliminated.append(gone)
        self.reveal = {
            "round": self.round,
            "dealer": self.dealer,
            "cards": [
                {
                    "seat": s,
                    "char": chars[s],
                    "name": NAMES[chars[s]],
                    "turned": res.turned[s],
                    "copied_from": res.copied.get(s),
                    "value": res.values[s],
                    "loser": s in res.losers,
                    "delta": delta[s],
                }
                for s in order
            ],
            "effects": res.effects,
            "losers": res.losers,
            "death": res.death,
            "delta": delta,
            "tokens": list(self.tokens),
            "eliminated": gone,
        }
        self.face_up.update(c for c in self.hands if c is not None)
        self.acted = list(order)
        events.append(Event("reveal", self.reveal))
        for s in gone:
            events.append(Event("eliminated", {"seat": s}))

        # The next dealer is this round's first player (or, if they just went out, the next
        # player still in the game after them).
        n = self.players
        first = order[0]
        nxt = (
            next((first + k) % n for k in range(n) if not self.out[(first + k) % n])
            if not all(self.out)
            else first
        )
        self.dealer = nxt
        if self._finished():
            self.phase = "over"
            self.deadline = None
            self.winners = self._winners()
            events.append(Event("game_over", {"winners": list(self.winners), "tokens": list(self.tokens)}))
        elif self.reveal_ms:
            self.phase = "reveal"
            self.deadline = now + self.reveal_ms
        else:
            self._start_round(now, events)

    def _finished(self) -> bool:
        if self.mode == "only-one":
            return sum(not o for o in self.out) <= 1
        return self.round >= (self.rounds_total or 0)

    def _winners(self) -> list[int]:
        if self.mode == "only-one":
            standing = [s for s in range(self.players) if not self.out[s]]
            # Everyone left went out together: they share the victory.
            return standing or sorted(self.eliminated[-1])
        best = min(self.tokens)
        return [s for s in range(self.players) if self.tokens[s] == best]

    # ----------------------------------------------------------------- actions
    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.phase == "reveal":
            return [{"type": "next"}] if 0 <= seat < self.players else []
        if self.phase != "play":
            return []
        if self.peek is not None:
            if seat != self.peek["seat"]:
                return []
            return [
                {"type": "swap", "target": self.peek["target"]},
                {"type": "keep", "target": self.peek["target"]},
            ]
        if seat != self.order[self.pos]:
            return []
        card = self.hands[seat]
        assert card is not None
        c = card >> 1
        acts: list[dict[str, Any]] = [{"type": "stand"}]
        if c == KING:
            return acts
        hands = self.hands
        rest = self.order[self.pos + 1 :]
        right = rest[0] if rest else None
        right_free = right is not None and hands[right] >> 1 != KING  # type: ignore[operator]
        if right is None:
            if self.deck:
                acts.append({"type": "cut"})
        elif right_free:
            acts.append({"type": "exchange", "target": right})
        if c == TRADER:
            if self.deck:
                acts.append({"type": "trader"})
        elif c in (THIEF, BARD):
            kind = "thief" if c == THIEF else "bard"
            acts.extend({"type": kind, "target": t} for t in rest if hands[t] >> 1 != KING)  # type: ignore[operator]
        elif c == DRAGON and right_free and self.deck:
            acts.append({"type": "dragon", "target": right})
        return acts

    def _refuse(self, seat: int, action: Action) -> IllegalAction:
        """A reason a player can act on."""
        kind = action.get("type")
        if self.phase == "over":
            return IllegalAction(N_("The game is over."))
        if self.phase == "reveal":
            return IllegalAction(N_("The round is over; the next one starts shortly."))
        if not 0 <= seat < self.players or self.out[seat]:
            return IllegalAction(N_("You are not in this game."))
        if self.active != seat:
            return IllegalAction(N_("It is not your turn."))
        if self.peek is not None:
            return IllegalAction(N_("Choose whether to swap your Thief or keep it."))
        if self._holds_king(seat):
            return IllegalAction(N_("The King's holder can only stand."))
        target = action.get("target")
        if target is None and kind in ("exchange", "dragon"):
            target = self.right_of(seat)
        if isinstance(target, int) and 0 <= target < self.players and self._holds_king(target):
            return IllegalAction(N_("Nobody can take the King from its holder."))
        if kind in POWER_CARDS:
            if self.char(seat) != POWER_CARDS[kind]:
                return IllegalAction(NOT_HELD[kind])
            if kind in TARGETED:
                return IllegalAction(N_("Choose a player after you this round."))
            if kind == "dragon" and self.right_of(seat) is None:
                return IllegalAction(N_("The dealer has nobody to the right: no Dragon."))
        if kind == "exchange" and self.right_of(seat) is None:
            return IllegalAction(N_("The dealer's exchange is the cut."))
        if kind == "cut":
            return IllegalAction(N_("Only the dealer cuts the deck."))
        return IllegalAction(N_("That is not allowed now."))

    def apply(self, seat: int, action: Action, now: int) -> list[Event]:
        kind = action.get("type")
        if kind == "stand" and self.phase == "play" and self.peek is None and self.order[self.pos] == seat:
            # Standing is always open to the player to act: skip listing every option (hot path).
            self.log.append({"seat": seat, "action": {"type": "stand"}, "now": now})
            return self._perform(seat, {"type": "stand"}, now)
        legal = self.legal_actions(seat)
        # Untargeted actions may omit the target (e.g. the Dragon always hits the right player).
        match = next(
            (
                a
                for a in legal
                if a["type"] == kind and ("target" not in action or action["target"] == a.get("target"))
            ),
            None,
        )
        if match is None or (kind in TARGETED and "target" not in action):
            raise self._refuse(seat, action)
        self.log.append({"seat": seat, "action": dict(match), "now": now})
        return self._perform(seat, match, now)

    def _perform(self, seat: int, match: dict[str, Any], now: int, timeout: bool = False) -> list[Event]:
        """Carry out a checked action (a press, or with ``timeout`` an idle player's default)."""
        self.version += 1
        kind = match["type"]
        events: list[Event] = []
        if kind == "next":
            self._start_round(now, events)
            return events
        target = match.get("target")
        me = self.hands[seat]
        assert me is not None
        if kind == "stand":
            self._record(events, {"type": "stand", "seat": seat}, timeout)
        elif kind == "exchange":
            other = self.hands[target]
            assert other is not None
            self.hands[seat], self.hands[target] = other, me
            self._record(events, {"type": "exchange", "seat": seat, "target": target})
            events.append(
                Event("card", {**card_info(other >> 1), "how": "exchange", "from": target}, (seat,))
            )
            events.append(Event("card", {**card_info(me >> 1), "how": "exchange", "from": seat}, (target,)))
        elif kind == "cut":
            i = self.dice.randrange(len(self.deck))
            new = self.deck.pop(i)
            self.discards.append(me)
            self.hands[seat] = new
            self._record(
                events, {"type": "cut", "seat": seat, "discarded": card_info(me >> 1), "position": i}
            )
            events.append(Event("card", {**card_info(new >> 1), "how": "cut"}, (seat,)))
            self._show_king(seat, new, events)
            self._deck_event(events)
        elif kind == "trader":
            new = self.deck[0]
            self.deck[0] = me
            self.face_up.add(me)
            self.hands[seat] = new
            self._record(events, {"type": "trader", "seat": seat})
            events.append(Event("card", {**card_info(new >> 1), "how": "trader"}, (seat,)))
            self._show_king(seat, new, events)
            self._deck_event(events)
        elif kind == "thief":
            self.face_up.add(me)
            self.peek = {"seat": seat, "target": target}
            other = self.hands[target]
            assert other is not None
            self._record(events, {"type": "thief", "seat": seat, "target": target})
            events.append(Event("peek", {**card_info(other >> 1), "target": target}, (seat,)))
            # Looking and choosing are two presses; the choice gets a full turn of its own.
            self.deadline = now + self.turn_ms if self.turn_ms else None
            events.append(Event("turn", {"seat": seat, "deadline": self.deadline, "choosing": True}))
            return events
        elif kind == "swap" or kind == "keep":
            self.peek = None
            if kind == "swap":
                other = self.hands[target]
                assert other is not None
                self.hands[seat], self.hands[target] = other, me
                self._record(events, {"type": "swap", "seat": seat, "target": target})
                events.append(
                    Event("card", {**card_info(other >> 1), "how": "thief", "from": target}, (seat,))
                )
                events.append(Event("card", {**card_info(me >> 1), "how": "thief", "from": seat}, (target,)))
            else:
                self._record(events, {"type": "keep", "seat": seat, "target": target}, timeout)
        elif kind == "bard":
            self.face_up.add(me)
            other = self.hands[target]
            assert other is not None
            self.hands[seat], self.hands[target] = other, me
            self._record(events, {"type": "bard", "seat": seat, "target": target})
            events.append(Event("card", {**card_info(other >> 1), "how": "bard", "from": target}, (seat,)))
            events.append(Event("card", {**card_info(me >> 1), "how": "bard", "from": seat}, (target,)))
        elif kind == "dragon":
            self.face_up.add(me)
            victim = self.hands[target]
            assert victim is not None
            new = self.deck.pop(0)
            self.discards.append(victim)
            self.hands[target] = new
            self._record(
                events,
                {"type": "dragon", "seat": seat, "target": target, "discarded": card_info(victim >> 1)},
            )
            events.append(Event("card", {**card_info(new >> 1), "how": "dragon"}, (target,)))
            self._show_king(target, new, events)
            self._deck_event(events)
        self.acted.append(seat)
        self.pos += 1
        self._begin_turn(now, events)
        return events

    # ----------------------------------------------------------------- time
    def next_deadline(self) -> int | None:
        return self.deadline if self.phase != "over" else None

    def advance(self, now: int) -> list[Event]:
        """An idle player stands (an idle Thief keeps); after a reveal pause the next round starts."""
        events: list[Event] = []
        while self.deadline is not None and self.phase != "over" and now >= self.deadline:
            self.log.append({"advance": now})
            if self.phase == "reveal":
                self.version += 1
                self._start_round(now, events)
                continue
            seat = self.active
            assert seat is not None
            action = {"type": "keep", "target": self.peek["target"]} if self.peek else {"type": "stand"}
            events.append(Event("timeout", {"seat": seat, "action": action["type"]}))
            events.extend(self._perform(seat, action, now, timeout=True))
        return events

    # ----------------------------------------------------------------- views
    def _public_card(self, card: int | None) -> dict[str, Any] | None:
        return card_info(card >> 1) if card is not None and card in self.face_up else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The board (``None``) or one seat's view; see docs/death-over-the-kingdom.md."""
        order_index = {s: i for i, s in enumerate(self.order)}
        seats = []
        for s in range(self.players):
            in_round = s in order_index
            seats.append(
                {
                    "seat": s,
                    "tokens": self.tokens[s],
                    "out": self.out[s],
                    "in_round": in_round,
                    "acted": s in self.acted,
                    "dealer": bool(self.order) and s == self.order[-1],
                    "shown": self._public_card(self.hands[s]) if in_round else None,
                    "right": self.right_of(s) if in_round else None,
                }
            )
        top = self.deck[0] if self.deck else None
        out: dict[str, Any] = {
            "kind": self.kind,
            "mode": self.mode,
            "players": self.players,
            "round": self.round,
            "rounds": self.rounds_total,
            "dealer": self.order[-1] if self.order else self.dealer,
            "next_dealer": self.dealer if self.phase != "play" else None,
            "order": list(self.order),
            "phase": self.phase,
            "turn": self.active,
            "choosing": self.peek["seat"] if self.peek else None,
            "peek_target": self.peek["target"] if self.peek else None,
            "deadline": self.next_deadline(),
            "version": self.version,
            "seats": seats,
            "tokens": list(self.tokens),
            "deck_size": len(self.deck),
            "deck_top": self._public_card(top),
            "discards": [card_info(c >> 1) for c in self.discards],
            "actions": [dict(a) for a in self.actions],
            "reveal": self.reveal,
            "eliminated": [s for group in self.eliminated for s in group],
            "winners": list(self.winners) if self.phase == "over" else None,
        }
        if seat is not None and 0 <= seat < self.players:
            c = self.char(seat)
            me: dict[str, Any] = {
                "seat": seat,
                "card": card_info(c) if c is not None else None,
                "legal": self.legal_actions(seat),
                "peek": None,
            }
            if self.peek is not None and self.peek["seat"] == seat:
                other = self.hands[self.peek["target"]]
                assert other is not None
                me["peek"] = {"target": self.peek["target"], **card_info(other >> 1)}
            out["me"] = me
        return out

    # ----------------------------------------------------------------- saving
    def to_json(self) -> dict[str, Any]:
        """The state as JSON data. Saved after every press, so it copies only what the engine
        changes in place: the top-level lists. Their items (action records, log entries,
        reveals, rigged decks, elimination groups) are never changed once stored, so they are
        shared, not deep-copied (a deep copy of the growing log cost more than the rest of a
        press). Treat the result as read-only; ``from_json`` copies deeply."""
        data = {key: _top_copy(getattr(self, key)) for key in _STATE_KEYS}
        data.update(v=STATE_VERSION, dice=self.dice.to_json(), face_up=sorted(self.face_up))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if data.get("v") != STATE_VERSION:
            raise ValueError(f"Unknown Death Over the Kingdom save version {data.get('v')!r}.")
        self = cls()
        for key in _STATE_KEYS:
            setattr(self, key, copy.deepcopy(data[key]))
        self.dice = Dice.from_json(data["dice"])
        self.face_up = set(data["face_up"])
        return self

    # ----------------------------------------------------------------- end
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result:
        if not self.is_over:
            raise RuntimeError("The game is not over yet.")
        only_one = self.mode == "only-one"
        return Result(
            scores=tuple(self.tokens),
            winners=tuple(self.winners),
            details={
                "mode": self.mode,
                "score": "tokens remaining (more is better)"
                if only_one
                else "tokens taken (fewer is better)",
                "lower_score_wins": not only_one,
                "rounds": self.round,
                "elimination_order": [list(g) for g in self.eliminated],
            },
        )

    # ----------------------------------------------------------------- replay
    @classmethod
    def replay(cls, log: list[Mapping[str, Any]]) -> Self:
        """Rebuild a game from its replay log (``to_json()["log"]``)."""
        start = log[0]["new"]
        engine = cls.new(start["players"], start["seed"], start["options"], start["now"])
        for entry in log[1:]:
            if "advance" in entry:
                engine.advance(entry["advance"])
            else:
                engine.apply(entry["seat"], entry["action"], entry["now"])
        return engine
