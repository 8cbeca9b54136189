"""Island of Monster Masks: the pure rules engine (no Discord, no clock, no global random).

A turn: the Mime draws a secret card and mimes it; every guesser slaps one of 16 tiles; the
card is revealed when every guesser has slapped (a slap that lost a race counts: it is final),
when the guess timer ends, or when the Mime ends the guessing. Tile claims are settled as fair
races by press timestamp (``Race``): the first slap on a free tile opens a short collection
window and the earliest press in it wins. The ``second_chance`` option lets a race loser slap
again instead.

See docs/monster-masks.md for the actions, views, events and options in one place.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.engine.protocol import N_, Action, Dice, Event, GameEngine, IllegalAction, Result
from bot.engine.race import Race
from bot.games.masks.faces import FACES, MONSTERS
from bot.games.masks.options import parse_options

COPIES = 3
CARDS_PER_PLAYER = 6
BOX = FACES * COPIES  # 48 Secret Mask cards in the box

GUESSING = "guessing"
REVEAL = "reveal"  # the pause after a reveal, before the next Mime draws
OVER = "over"

# Bump when the JSON layout changes incompatibly. 2: race losers are saved ("lost"); a format 1
# save was played with second chances, so it loads with that option on. 3: "history" may leave
# out the first "history_from" turns (a save leaves out the finished ones), rebuilt from the log.
FORMAT = 3

# A slap on a tile someone else took first. The refusal carries who took it and how long before
# this slap they slapped it (fields ``holder``, a seat, and ``by_ms``), as a race's loser is told:
# the cog names the holder (``MasksCog.refusal_text``); the English reason stays this line.
TAKEN = N_("{monster} is already taken.")


class MasksEngine(GameEngine):
    kind = "masks"
    title = "Island of Monster Masks"
    min_players = 3
    max_players = 8

    def __init__(self, players: int, options: dict[str, Any], dice: Dice) -> None:
        self.players = players
        self.options = options
        self.dice = dice
        self.dealt: list[int] = []  # the deck as built, top first; kept for replays and the simulator
        self.deck: list[int] = []  # top card first
        self.piles: list[list[int]] = [[] for _ in range(players)]
        self.removed: list[int] = []
        self.turn = 0
        self.mime = 0
        self.phase = GUESSING
        self.card: int | None = None  # the Mime's secret card while guessing
        self.held: dict[int, int] = {}  # tile -> seat
        self.races: dict[int, Race] = {}  # tile -> open race
        self.started_at = 0
        self.guess_deadline: int | None = None
        self.reveal_until: int | None = None
        self.last_reveal: dict[str, Any] | None = None
        self.version = 0
        self.log: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        # Derived indexes, rebuilt on load, so the hot path never scans the tiles.
        self._tile_of: dict[int, int] = {}  # seat -> held tile
        self._racing: dict[int, int] = {}  # seat -> tile it is racing for
        # seat -> tile whose race it lost: its one slap is spent and it holds nothing this turn.
        # Empty with second_chance (a loser slaps again). Saved: it is not derived from the tiles.
        self._lost: dict[int, int] = {}

    # ----------------------------------------------------------------- set-up

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None,
        now: int,
        *,
        deck: Sequence[int] | None = None,
    ) -> Self:
        """A game whose first turn starts at ``now`` with seat 0 as the Mime.

        ``deck`` (top card first, 6 per player, at most 3 copies of a face) scripts the deal for
        tests; normally the deck is 6 random cards per player from the 48.
        """
        cls.check_players(players)
        opts = parse_options(options)
        engine = cls(players, opts, Dice(seed))
        size = CARDS_PER_PLAYER * players
        if deck is None:
            cards = engine.dice.shuffled([face for face in range(FACES) for _ in range(COPIES)])[:size]
        else:
            cards = [int(c) for c in deck]
            if len(cards) != size:
                raise ValueError(
                    f"A scripted deck for {players} players needs {size} cards, not {len(cards)}."
                )
            if any(not 0 <= c < FACES for c in cards) or any(cards.count(c) > COPIES for c in set(cards)):
                raise ValueError("A scripted deck holds faces 0–15, at most 3 copies of each.")
        engine.dealt = list(cards)
        engine.deck = list(cards)
        engine.log.append(
            {
                "op": "new",
                "players": players,
                "seed": seed,
                "options": dict(opts),
                "now": now,
                "deck": None if deck is None else list(cards),
            }
        )
        engine._start_turn(now, mime=0)
        return engine

    @classmethod
    def replay(cls, log: Sequence[Mapping[str, Any]]) -> Self:
        """Rebuild a game from its replay log (``engine.log``) by playing every step again."""
        first = log[0]
        engine = cls.new(first["players"], first["seed"], first["options"], first["now"], deck=first["deck"])
        for step in log[1:]:
            if step["op"] == "apply":
                engine.apply(step["seat"], step["action"], step["now"])
            else:
                engine.advance(step["now"])
        return engine

    # ------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action, now: int) -> list[Event]:
        """``{"type": "slap", "tile": t}`` by a guesser or ``{"type": "end_guessing"}`` by the Mime.

        Either may carry ``"turn"``: a press from an earlier turn's buttons is then refused.
        ``apply`` never fires timers; call ``advance`` for those.
        """
        if not isinstance(action, Mapping):
            raise IllegalAction(N_("Unknown action."))
        kind = action.get("type")
        if kind == "slap":
            events = self._slap(seat, action, now)
            logged: dict[str, Any] = {"type": "slap", "tile": action["tile"]}
        elif kind == "end_guessing":
            events = self._end_guessing(seat, action, now)
            logged = {"type": "end_guessing"}
        else:
            raise IllegalAction(N_("Unknown action."))
        if "turn" in action:
            logged["turn"] = action["turn"]
        self.log.append({"op": "apply", "seat": seat, "action": logged, "now": now})
        self.version += 1
        return events

    def _check_common(self, seat: int, action: Action) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(N_("You are not playing in this game."))
        if self.phase == OVER:
            raise IllegalAction(N_("The game is over."))
        turn = action.get("turn")
        if turn is not None and turn != self.turn:
            raise IllegalAction(N_("Those buttons are from an earlier turn."))
        if self.phase != GUESSING:
            raise IllegalAction(N_("The card is already revealed; wait for the next turn."))

    def _slap(self, seat: int, action: Action, now: int) -> list[Event]:
        try:
            self._check_common(seat, action)
        except IllegalAction as refusal:
            # Too late for the turn (revealed, or an earlier turn's button): a tile someone else
            # took that turn is said too, with by how much (``beaten``).
            refusal.fields.update(self.beaten(seat, action.get("turn", self.turn), action.get("tile"), now))
            raise
        if seat == self.mime:
            raise IllegalAction(N_("You are the Mime: act out the face, don't slap!"))
        if seat in self._tile_of:
            raise IllegalAction(
                N_("You already slapped {monster}; a slap can't be changed."),
                monster=MONSTERS[self._tile_of[seat]],
            )
        if seat in self._lost:
            raise IllegalAction(
                N_(
                    "You lost the race for {monster}: a slap can't be changed, so you hold no tile this turn."
                ),
                monster=MONSTERS[self._lost[seat]],
            )
        if seat in self._racing:
            raise IllegalAction(
                N_("You are racing for {monster}; wait for the result."), monster=MONSTERS[self._racing[seat]]
            )
        tile = action.get("tile")
        if not isinstance(tile, int) or isinstance(tile, bool) or not 0 <= tile < FACES:
            raise IllegalAction(N_("There is no such tile."))
        if tile in self.held:
            raise IllegalAction(
                TAKEN, **{"monster": MONSTERS[tile], **self.beaten(seat, self.turn, tile, now)}
            )
        assert self.guess_deadline is not None
        if now >= self.guess_deadline:
            raise IllegalAction(N_("Time is up: the card is being revealed."))

        self.history[-1]["slaps"].append({"seat": seat, "tile": tile, "at": now})
        self._racing[seat] = tile
        race = self.races.get(tile)
        if race is None:
            race = self.races[tile] = Race.open(seat, now, self.options["race_window_ms"])
            data = {
                "turn": self.turn,
                "tile": tile,
                "name": MONSTERS[tile],
                "seat": seat,
                "closes_at": race.closes_at,
            }
            return [Event("race_opened", data)]
        race.add(seat, now)
        return [Event("race_joined", {"turn": self.turn, "tile": tile, "name": MONSTERS[tile], "seat": seat})]

    def beaten(self, seat: int, turn: Any, tile: Any, now: int) -> dict[str, Any]:
        """Who took ``tile`` in ``turn`` before ``seat``'s slap made at ``now``, for its refusal:
        ``{"holder", "by_ms", "monster"}`` (``by_ms`` from the holder's winning slap to this one;
        0 or less when this slap was made first but reached the bot after the race had closed).
        Empty when nobody else won it, or when ``seat`` was that turn's Mime or holds a tile of
        its own that turn (its refusal says so already)."""
        if not isinstance(tile, int) or isinstance(tile, bool) or not 0 <= tile < FACES:
            return {}
        record = next((r for r in reversed(self.history) if r["turn"] == turn), None)
        if record is None or record["mime"] == seat or any(r["winner"] == seat for r in record["races"]):
            return {}
        race = next((r for r in record["races"] if r["tile"] == tile), None)
        if race is None:
            return {}
        won_at = min(at for entrant, at in race["entries"] if entrant == race["winner"])
        return {"holder": race["winner"], "by_ms": now - won_at, "monster": MONSTERS[tile]}

    def _end_guessing(self, seat: int, action: Action, now: int) -> list[Event]:
        self._check_common(seat, action)
        if seat != self.mime:
            raise IllegalAction(N_("Only the Mime can end the guessing."))
        return self._settle_all(now) + self._reveal(now, "mime")

    # ---------------------------------------------------------------- time

    def _next_due(self) -> tuple[int, int, int] | None:
        """(when, order, tile) of the earliest timer; races sort before the guess timer on a tie."""
        if self.phase == GUESSING:
            assert self.guess_deadline is not None
            best = (self.guess_deadline, 1, -1)
            for tile, race in self.races.items():
                key = (race.closes_at, 0, tile)
                if key < best:
                    best = key
            return best
        if self.phase == REVEAL:
            assert self.reveal_until is not None
            return (self.reveal_until, 2, -1)
        return None

    def next_deadline(self) -> int | None:
        due = self._next_due()
        return None if due is None else due[0]

    def advance(self, now: int) -> list[Event]:
        """Fire every timer due at or before ``now``, earliest first. Calling it again is a no-op.

        Whatever a timer starts (the reveal pause, the next turn's guess timer) is measured from
        ``now``, so a late call after a restart cannot cascade through several turns at once.
        """
        events: list[Event] = []
        while True:
            due = self._next_due()
            if due is None or due[0] > now:
                break
            _, order, tile = due
            if order == 0:
                events += self._settle(tile, now)
                # A seat is done once it holds a tile or lost its race; nobody can be racing then.
                if len(self._tile_of) + len(self._lost) == self.players - 1:
                    events += self._reveal(now, "all_slapped")
            elif order == 1:
                events += self._settle_all(now) + self._reveal(now, "timer")
            else:
                events += self._start_turn(now, (self.mime + 1) % self.players)
        if events:
            self.log.append({"op": "advance", "now": now})
            self.version += 1
        return events

    # --------------------------------------------------------------- steps

    def _start_turn(self, now: int, mime: int) -> list[Event]:
        self.turn += 1
        self.mime = mime
        self.card = self.deck.pop(0)
        self.phase = GUESSING
        self.held.clear()
        self.races.clear()
        self._tile_of.clear()
        self._racing.clear()
        self._lost.clear()
        self.started_at = now
        self.guess_deadline = now + self.options["guess_ms"]
        self.reveal_until = None
        self.history.append(
            {
                "turn": self.turn,
                "mime": mime,
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
        return self.turn_events()

    def turn_events(self) -> list[Event]:
        """The current turn's opening events again: the public start and the Mime's secret card.

        Useful right after ``new`` (which returns no events) or after a restart.
        """
        if self.phase != GUESSING:
            return []
        assert self.card is not None
        start = {
            "turn": self.turn,
            "mime": self.mime,
            "deadline": self.guess_deadline,
            "deck": len(self.deck),
        }
        secret = {"turn": self.turn, "card": self.card, "name": MONSTERS[self.card]}
        return [Event("turn_started", start), Event("secret_card", secret, to=(self.mime,))]

    def _settle(self, tile: int, now: int) -> list[Event]:
        race = self.races.pop(tile)
        winner = race.winner()
        self.held[tile] = winner.seat
        self._tile_of[winner.seat] = tile
        for entry in race.entries:
            self._racing.pop(entry.seat, None)
        losers = race.losers()
        self.history[-1]["races"].append(
            {
                "tile": tile,
                "entries": [[e.seat, e.at] for e in race.entries],
                "closes_at": race.closes_at,
                "settled_at": now,
                "winner": winner.seat,
            }
        )
        name = MONSTERS[tile]
        taken = {
            "turn": self.turn,
            "tile": tile,
            "name": name,
            "seat": winner.seat,
            "at": winner.at,
            "rivals": [e.seat for e, _ in losers],
        }
        events = [Event("tile_taken", taken)]
        again = self.options["second_chance"]
        for entry, by_ms in losers:
            if not again:
                self._lost[entry.seat] = tile
            lost = {
                "turn": self.turn,
                "tile": tile,
                "name": name,
                "winner": winner.seat,
                "by_ms": by_ms,
                "again": again,
            }
            events.append(Event("race_lost", lost, to=(entry.seat,)))
        return events

    def _settle_all(self, now: int) -> list[Event]:
        """Close every open race early (guessing is over): the fastest press so far wins."""
        events: list[Event] = []
        for tile in sorted(self.races, key=lambda t: (self.races[t].closes_at, t)):
            events += self._settle(tile, now)
        return events

    def _reveal(self, now: int, reason: str) -> list[Event]:
        card = self.card
        assert card is not None
        record = self.history[-1]
        scorer = self.held.get(card)
        if scorer is not None:
            won = self.deck.pop(0)
            self.piles[scorer].append(won)
            self.piles[self.mime].append(card)
            record["won"] = won
        else:
            # Drawn without looking: the second card stays secret even as it leaves the game.
            extra = self.deck.pop(0)
            self.removed += [card, extra]
            record["removed"] = [card, extra]
        record.update(scorer=scorer, reason=reason, revealed_at=now)
        self.card = None
        self.last_reveal = {
            "turn": self.turn,
            "mime": self.mime,
            "card": card,
            "name": MONSTERS[card],
            "scorer": scorer,
            "reason": reason,
            "held": sorted([tile, seat] for tile, seat in self.held.items()),
        }
        data = {
            **self.last_reveal,
            "piles": self.pile_counts(),
            "deck": len(self.deck),
            "removed": len(self.removed),
        }
        events = [Event("reveal", data)]
        if not self.deck:
            self.phase = OVER
            self.guess_deadline = None
            result = self.result()
            events.append(
                Event("game_over", {"scores": list(result.scores), "winners": list(result.winners)})
            )
            return events
        self.phase = REVEAL
        self.guess_deadline = None
        self.reveal_until = now + self.options["reveal_ms"]
        if self.options["reveal_ms"] == 0:
            events += self._start_turn(now, (self.mime + 1) % self.players)
        return events

    # --------------------------------------------------------------- views

    def pile_counts(self) -> list[int]:
        return [len(pile) for pile in self.piles]

    def free_tiles(self) -> list[int]:
        """Tiles nobody holds yet (a tile with an open race is still free: slapping it joins the race)."""
        return [t for t in range(FACES) if t not in self.held]

    def guessers(self) -> list[int]:
        return [s for s in range(self.players) if s != self.mime]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.phase != GUESSING or not 0 <= seat < self.players:
            return []
        if seat == self.mime:
            return [{"type": "end_guessing", "turn": self.turn}]
        if seat in self._tile_of or seat in self._racing or seat in self._lost:
            return []
        return [{"type": "slap", "tile": t, "turn": self.turn} for t in self.free_tiles()]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know; ``None`` is the public board. Only the Mime's view has ``card``."""
        held_by: list[int | None] = [self.held.get(t) for t in range(FACES)]
        racing = sorted(self._racing)
        slapped = sorted(self._tile_of)
        view: dict[str, Any] = {
            "kind": self.kind,
            "title": self.title,
            "players": self.players,
            "phase": self.phase,
            "over": self.phase == OVER,
            "turn": self.turn,
            "turns": CARDS_PER_PLAYER * self.players // 2,
            "mime": self.mime,
            "version": self.version,
            "tile_names": list(MONSTERS),
            "held_by": held_by,
            "races": [
                {"tile": t, "seats": [e.seat for e in r.entries], "closes_at": r.closes_at}
                for t, r in sorted(self.races.items())
            ],
            "slapped": slapped,
            "racing": racing,
            "lost": sorted(self._lost),
            "waiting": [
                s
                for s in self.guessers()
                if self.phase == GUESSING
                and s not in self._tile_of
                and s not in self._racing
                and s not in self._lost
            ],
            "started_at": self.started_at,
            "guess_deadline": self.guess_deadline,
            "reveal_until": self.reveal_until if self.phase == REVEAL else None,
            "next_deadline": self.next_deadline(),
            "piles": self.pile_counts(),
            "deck": len(self.deck),
            "removed": len(self.removed),
            "box": BOX - len(self.dealt),
            "last_reveal": _reveal_copy(self.last_reveal),
            "options": dict(self.options),
            "winners": list(self.result().winners) if self.phase == OVER else None,
            "seat": seat,
        }
        if seat is not None and 0 <= seat < self.players:
            view["role"] = "mime" if seat == self.mime else "guesser"
            if seat == self.mime and self.phase == GUESSING:
                view["card"] = self.card
                view["card_name"] = MONSTERS[self.card] if self.card is not None else None
            view["my_tile"] = self._tile_of.get(seat)
            view["my_race"] = self._racing.get(seat)
            view["my_lost"] = self._lost.get(seat)
            view["legal_actions"] = self.legal_actions(seat)
        return view

    # ------------------------------------------------------------- results

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        if self.phase != OVER:
            raise ValueError("The game is not over yet.")
        scores = tuple(self.pile_counts())
        best = max(scores)
        winners = tuple(s for s, score in enumerate(scores) if score == best)
        correct = sum(1 for turn in self.history if turn["scorer"] is not None)
        return Result(
            scores, winners, {"turns": self.turn, "correct_turns": correct, "removed": len(self.removed)}
        )

    # ------------------------------------------------------------- storage

    def to_json(self) -> dict[str, Any]:
        return self._state(0)

    def to_save(self) -> dict[str, Any]:
        """The state without the finished turns' records: they never change once the turn is over
        and follow from the log, which ``from_json`` replays to put them back. So a save stays
        the same size from the first turn to the last."""
        return self._state(max(0, len(self.history) - 1))

    def _state(self, history_from: int) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": self.players,
            "options": dict(self.options),
            "dice": self.dice.to_json(),
            "dealt": list(self.dealt),
            "deck": list(self.deck),
            "piles": [list(p) for p in self.piles],
            "removed": list(self.removed),
            "turn": self.turn,
            "mime": self.mime,
            "phase": self.phase,
            "card": self.card,
            "held": sorted([tile, seat] for tile, seat in self.held.items()),
            # Insertion order decides ties between equal timestamps, so keep entries as they came.
            "races": [[tile, race.to_json()] for tile, race in self.races.items()],
            "lost": sorted([seat, tile] for seat, tile in self._lost.items()),
            "started_at": self.started_at,
            "guess_deadline": self.guess_deadline,
            "reveal_until": self.reveal_until,
            # Replaced whole at each reveal, never changed in place: shared.
            "last_reveal": self.last_reveal,
            "version": self.version,
            # Both grow with the game, so only what can still change is copied: the current
            # turn's record (``_turn_copy``). Finished turns and log entries are never modified
            # once written, and the result shares them (treat it as read-only).
            "history_from": history_from,
            "history": [*self.history[history_from:-1], _turn_copy(self.history[-1])] if self.history else [],
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if data.get("format") not in (1, 2, FORMAT):
            raise ValueError(f"Unsupported Island of Monster Masks save format: {data.get('format')!r}.")
        data = copy.deepcopy(dict(data))
        if data["format"] == 1:
            # Begun before a slap was final: finish it with the rule it started with, replays too.
            for options in (data["options"], data["log"][0]["options"] if data["log"] else {}):
                options.setdefault("second_chance", True)
            data["lost"] = []
        engine = cls(int(data["players"]), parse_options(data["options"]), Dice.from_json(data["dice"]))
        engine.dealt = data["dealt"]
        engine.deck = data["deck"]
        engine.piles = data["piles"]
        engine.removed = data["removed"]
        engine.turn = data["turn"]
        engine.mime = data["mime"]
        engine.phase = data["phase"]
        engine.card = data["card"]
        engine.held = {int(tile): int(seat) for tile, seat in data["held"]}
        engine.races = {}
        for tile, race_data in data["races"]:
            race = Race.from_json(race_data)
            assert race is not None
            engine.races[int(tile)] = race
        engine.started_at = data["started_at"]
        engine.guess_deadline = data["guess_deadline"]
        engine.reveal_until = data["reveal_until"]
        engine.last_reveal = data["last_reveal"]
        engine.version = data["version"]
        engine.history = data["history"]
        engine.log = data["log"]
        engine._tile_of = {seat: tile for tile, seat in engine.held.items()}
        engine._racing = {e.seat: tile for tile, race in engine.races.items() for e in race.entries}
        engine._lost = {int(seat): int(tile) for seat, tile in data["lost"]}
        if data.get("history_from", 0):
            engine._put_back_history(int(data["history_from"]))
        return engine

    def _put_back_history(self, left_out: int) -> None:
        """The first ``left_out`` turns' records, which a save leaves out, rebuilt by replaying
        the log. The replay must come to exactly the saved state, so the records it gives are
        the ones the game made; a log that does not is refused, never restored half right."""
        if not self.log or self.log[0].get("op") != "new":
            raise ValueError("An Island of Monster Masks save without its history needs its log.")
        try:
            replayed = type(self).replay(self.log)
        except IllegalAction as refusal:
            raise ValueError(f"The saved log does not replay: {refusal.reason}") from None
        if len(replayed.history) != left_out + len(self.history):
            raise ValueError(
                f"The log replays {len(replayed.history)} turns; the save has {len(self.history)} "
                f"after the {left_out} it left out."
            )
        self.history[:0] = replayed.history[:left_out]
        if replayed.to_json() != self.to_json():
            raise ValueError("The log does not replay to the saved Island of Monster Masks state.")


def _turn_copy(record: dict[str, Any]) -> dict[str, Any]:
    """A turn's record as it stands: its fields are set whole and its two lists only grow by
    entries never changed once added, so copying the record and those lists is a full copy
    (``copy.deepcopy`` of it was most of a save's cost)."""
    return {**record, "slaps": list(record["slaps"]), "races": list(record["races"])}


def _reveal_copy(reveal: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last reveal for a view, which its reader may change without touching the engine's."""
    if reveal is None:
        return None
    return {**reveal, "held": [list(pair) for pair in reveal["held"]]}
