"""The players at each table of the load bench: what a human would press next, and when.

A table reads its game from the bot's session (the bench's privilege: a human reads the board)
and answers ``next_presses(now_ms)`` with the presses to make now, or with the Discord instant
to ask again (a grace period, a race or a reveal pause the bot's timer will end). Presses use
the bot's own custom id helpers, so they are the ids of the buttons on the board. A press the
board would no longer accept (the state moved on meanwhile) is refused by the bot, as for a
human who pressed a moment too late.

Races are made on purpose, as at a real table: a Kabuki mistake often draws two Stop! presses a
few tens of ms apart, and two Masks guessers now and then slap the same tile together.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games.kabuki.engine import STACKS
from bot.games.kingdom.board import POWERS, component_for
from bot.games.kingdom.players import SimplePlayer
from bot.games.masks import board as masks_board
from bot.games.masks.faces import FACES
from bot.glue.components import button_id

RACE_SPREAD_S = (0.02, 0.2)  # how far apart two racing presses come


@dataclass
class Press:
    seat: int
    name: str  # what the press is, for the figures: place, stop, slap, card, stand, …
    custom_id: str
    values: list[str] | None = None
    on_panel: bool = False  # made on the presser's last ephemeral answer, not on the board
    delay: float = 0.0  # seconds after the first press of the same batch (a racing press)


@dataclass
class Wait:
    until_ms: int  # ask again at this Discord instant


@dataclass(eq=False)
class Table:
    """One channel's game. ``members`` are seated in this order; the first is the host."""

    kind: str
    bot: Any
    guild_id: int
    channel: Any
    members: list[Any]
    options: dict[str, Any]
    rng: random.Random
    games_started: int = 0
    busy: bool = False
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def session(self) -> Any:
        return self.bot.sessions.get(self.channel.id)

    def playing(self) -> bool:
        session = self.session
        return session is not None and session.engine is not None and not session.engine.is_over

    def user_of(self, seat: int) -> int:
        return self.session.players[seat]

    def next_presses(self, now_ms: int) -> list[Press] | Wait:
        raise NotImplementedError


class KabukiTable(Table):
    """The active seat places on a safe stack (now and then on any stack: a mistake); after a
    mistake another seat presses Stop!, sometimes two of them race."""

    MISTAKE = 0.15
    STOP_MISTAKE = 0.8  # a mistake is caught
    RACE = 0.4  # two seats press Stop! together

    def next_presses(self, now_ms: int) -> list[Press] | Wait:
        engine = self.session.engine
        ch = self.channel_id
        if engine.race is not None:
            return Wait(engine.race.closes_at + 30)
        if engine.reveal is not None:
            return Wait(engine.reveal["until"] + 30)
        if engine.phase != "play":
            return Wait(now_ms + 300)
        window = engine.window
        if (
            window is not None
            and window["turn"] == engine.turn
            and self.state.get("judged") != engine.turn
            and engine.challenged_turn != engine.turn
        ):
            self.state["judged"] = engine.turn
            stack = engine.stacks[window["stack"]]
            if stack[-1] in stack[:-1] and self.rng.random() < self.STOP_MISTAKE:
                others = [s for s in range(engine.players) if s != window["placer"]]
                self.rng.shuffle(others)
                stop = button_id(ch, "stop", engine.turn)
                presses = [Press(others[0], "stop", stop)]
                if len(others) > 1 and self.rng.random() < self.RACE:
                    presses.append(Press(others[1], "stop", stop, delay=self.rng.uniform(*RACE_SPREAD_S)))
                return presses
        if engine.active is None or engine.pos >= len(engine.deck):
            return Wait(now_ms + 300)
        if now_ms < engine.place_from:
            return Wait(engine.place_from + 20)
        card = engine.deck[engine.pos]
        safe = [s for s in range(STACKS) if card not in engine.stacks[s]]
        stack = self.rng.choice(safe if safe and self.rng.random() > self.MISTAKE else range(STACKS))
        return [Press(engine.active, "place", button_id(ch, "place", f"{stack}-{engine.turn}"))]


class MasksTable(Table):
    """The guessers slap free tiles one by one, a third of them the right one; now and then two
    guessers slap the same tile together. The Mime looks at the card (My card) alongside the
    turn's first slap."""

    RIGHT = 0.3
    RACE = 0.15

    def next_presses(self, now_ms: int) -> list[Press] | Wait:
        engine = self.session.engine
        ch = self.channel_id
        if engine.phase != "guessing":
            return Wait((engine.reveal_until or now_ms) + 30)
        turn = engine.turn
        waiting = [s for s in engine.guessers() if s not in engine._tile_of and s not in engine._racing]
        if not waiting:
            closes = [race.closes_at for race in engine.races.values()]
            return Wait(min(closes) + 30 if closes else now_ms + 300)
        free = [t for t in range(FACES) if t not in engine.held and t not in engine.races]
        if not free:
            return Wait(now_ms + 300)
        seat = self.rng.choice(waiting)
        tile = (
            engine.card if engine.card in free and self.rng.random() < self.RIGHT else self.rng.choice(free)
        )
        slap = button_id(ch, masks_board.SLAP, masks_board.slap_arg(turn, tile))
        presses = [Press(seat, "slap", slap)]
        rivals = [s for s in waiting if s != seat]
        if rivals and self.rng.random() < self.RACE:
            presses.append(
                Press(self.rng.choice(rivals), "slap", slap, delay=self.rng.uniform(*RACE_SPREAD_S))
            )
        if self.state.get("looked") != turn:
            # The Mime looks at the card while the guessers get going.
            self.state["looked"] = turn
            look = button_id(ch, masks_board.CARD, turn)
            presses.append(Press(engine.mime, "card", look, delay=self.rng.uniform(0.0, 0.3)))
        return presses


class KingdomTable(Table):
    """The active seat plays as the simulator's simple player; a power is used from the card
    panel that My card opens (two presses). After a reveal someone presses Next round after a
    few seconds, as players do rather than wait out the 20 s pause."""

    def next_presses(self, now_ms: int) -> list[Press] | Wait:
        engine = self.session.engine
        ch = self.channel_id
        if engine.phase == "reveal":
            due = self.state.setdefault(("next", engine.round), now_ms + self.rng.randint(2000, 6000))
            if now_ms < due:
                return Wait(due)
            _, custom_id, _ = component_for({"type": "next"}, engine.version, ch)
            return [Press(self.rng.randrange(engine.players), "next", custom_id)]
        seat = engine.active
        if seat is None:
            return Wait(now_ms + 300)
        brains = self.state.setdefault("brains", {})
        brain = brains.setdefault(seat, SimplePlayer(self.rng.randrange(1 << 30)))
        action = brain.choose(engine, seat)
        if action["type"] in POWERS:
            self.state["power"] = action
            return [Press(seat, "card", button_id(ch, "card"))]
        kind, custom_id, value = component_for(action, engine.version, ch)
        return [Press(seat, action["type"], custom_id, [value] if kind == "select" else None)]

    def follow_up(self, press: Press) -> Press | None:
        """The power press on the card panel that a My card press opened."""
        action = self.state.pop("power", None)
        if press.name != "card" or action is None or not self.playing():
            return None
        engine = self.session.engine
        kind, custom_id, value = component_for(action, engine.version, self.channel_id)
        values = [value] if kind == "select" else None
        return Press(press.seat, action["type"], custom_id, values, on_panel=True)


TABLES: dict[str, type[Table]] = {"kabuki": KabukiTable, "masks": MasksTable, "kingdom": KingdomTable}
FollowUp = Callable[[Press], Press | None]
