"""Computer players for Island of Monster Masks: a simulated table, and the Discord table's.

In the simulator a computer guesser cannot watch a Mime, so "reading the Mime" is modelled as a
probability: with probability ``skill`` it aims at the secret card's tile (if that tile is still
free), otherwise at a random free tile. Its press lands ``reaction_ms`` ± ``jitter_ms`` after it
starts looking, so two guessers aiming at the same tile produce a real timestamp race. A race
loser slaps again only when the game's ``second_chance`` option lets it. With probability
``idle`` a guesser sits a turn out (away from the keyboard), and a Mime with ``patience_ms``
stops waiting for them: it ends the guessing that long after the latest slap. So the guess
timer (nobody slapped), the Mime and "everyone slapped" all end turns in simulated games.
Seeded ``random.Random`` is fine here: only the engine must stay free of it.

At a Discord table (``bot.session.computers``) a computer never sees the card it guesses: it reads the
emoji the Mime posted (``hints``), well or less well by the game's ``computer_skill``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.computers import SAY, Action, Memory, Plan
from bot.games.masks import hints
from bot.games.masks.engine import MasksEngine


@dataclass
class ComputerGuesser:
    seat: int
    rng: random.Random
    skill: float = 0.6
    reaction_ms: int = 1500
    jitter_ms: int = 500

    def delay(self) -> int:
        """Milliseconds from looking at the board to the press landing (never zero: no psychics)."""
        return max(1, self.reaction_ms + self.rng.randint(-self.jitter_ms, self.jitter_ms))

    def pick(self, card: int, free: list[int]) -> int:
        """The tile to slap: the right one with probability ``skill`` (if free), else a random free one."""
        if self.rng.random() < self.skill and card in free:
            return card
        others = [t for t in free if t != card] or free
        return self.rng.choice(others)


@dataclass
class TableStats:
    slaps: int = 0
    races: int = 0  # races with more than one press
    lost: int = 0  # presses that lost a race
    idle: int = 0  # turns a guesser sat out


def play_game(
    players: int,
    seed: int,
    *,
    skill: float = 0.6,
    reaction_ms: int = 1500,
    jitter_ms: int | None = None,
    options: Mapping[str, Any] | None = None,
    start: int = 0,
    idle: float = 0.0,
    patience_ms: int | None = None,
) -> tuple[MasksEngine, TableStats]:
    """Play one whole game with computer players.

    Events are processed in time order: a press due before the engine's next deadline is
    applied first, otherwise the engine advances to that deadline. Presses are decided when they
    land, so a guesser sees the tiles taken up to that moment. ``idle`` is each guesser's chance
    to sit a turn out; the Mime ends the guessing ``patience_ms`` after the latest slap (None:
    never).
    """
    rng = random.Random(f"masks-table:{seed}")
    jitter = reaction_ms // 3 if jitter_ms is None else jitter_ms
    bots = [ComputerGuesser(seat, rng, skill, reaction_ms, jitter) for seat in range(players)]
    engine = MasksEngine.new(players, seed, options or {}, start)
    stats = TableStats()
    pending: dict[int, int] = {}  # seat -> when its next press lands (the Mime's: end guessing)

    def look(events: list[Any], now: int) -> None:
        for event in events:
            if event.kind == "turn_started":
                pending.clear()
                for seat in engine.guessers():
                    if idle and rng.random() < idle:
                        stats.idle += 1
                    else:
                        pending[seat] = now + bots[seat].delay()
            elif event.kind == "race_lost":
                stats.lost += 1
                if event.data["again"]:  # otherwise the slap was final
                    seat = event.to[0]
                    pending[seat] = now + bots[seat].delay()
            elif event.kind == "tile_taken":
                if event.data["rivals"]:
                    stats.races += 1
            elif event.kind == "reveal":
                pending.clear()

    look(engine.turn_events(), start)
    while not engine.is_over:
        deadline = engine.next_deadline()
        assert deadline is not None
        at, seat = min([(when, who) for who, when in pending.items()], default=(deadline, -1))
        if seat >= 0 and at < deadline:
            del pending[seat]
            if seat == engine.mime:
                look(engine.apply(seat, {"type": "end_guessing"}, at), at)
                continue
            assert engine.card is not None
            tile = bots[seat].pick(engine.card, engine.free_tiles())
            engine.apply(seat, {"type": "slap", "tile": tile}, at)
            stats.slaps += 1
            if patience_ms is not None:
                pending[engine.mime] = at + patience_ms
        else:
            look(engine.advance(deadline), deadline)
    return engine, stats


# ------------------------------------------------------------------ in Discord (bot.session.computers)


@dataclass(frozen=True)
class Skill:
    """How a computer guesser at a Discord table reads the Mime's emoji: how often it slaps the
    tile that fits them best (otherwise the next best: a near miss, as a person makes), and how
    long after the Mime's latest emoji its slap lands."""

    accuracy: float
    reaction_ms: tuple[int, int]


SKILLS: dict[str, Skill] = {
    "easy": Skill(0.6, (4000, 8000)),
    "normal": Skill(0.85, (2500, 5000)),
    "hard": Skill(1.0, (1500, 3000)),
}
MIME_THINK_MS = (2000, 5000)  # a computer Mime looks at its card, then posts its emoji
BLIND_MS = (1200, 3500)  # a guesser with nothing to read slaps at random after this


def mime_hint(view: Mapping[str, Any], rng: random.Random) -> tuple[int, str] | None:
    """A computer Mime's emoji for its card, once a turn, after a moment's thought; None once posted."""
    if view.get("card") is None or view.get("mimed"):
        return None
    return rng.randint(*MIME_THINK_MS), hints.hint(view["card"], rng)


def guess(
    view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random
) -> tuple[int, Mapping[str, Any]] | None:
    """The slap of a computer guesser that reads the Mime's emoji posted this turn (``mimed``,
    public messages only) and nothing else. Without emoji it can read, it waits when some may
    still come (a computer Mime, or emoji mode) and otherwise (a person miming on camera, which
    it cannot watch) slaps a free tile at random."""
    slaps = {action["tile"]: action for action in legal if action["type"] == "slap"}
    if not slaps:
        return None
    features = hints.read(view.get("mimed") or ())
    if not features:
        mime_may_post = (
            view["mime"] in view.get("computer_seats", ()) or view["options"]["mime_mode"] == "emoji"
        )
        if mime_may_post:
            return None
        return rng.randint(*BLIND_MS), slaps[rng.choice(sorted(slaps))]
    skill = SKILLS[view["options"]["computer_skill"]]
    best = hints.ranked(features, sorted(slaps), rng)
    right = rng.random() < skill.accuracy or len(best) == 1
    return rng.randint(*skill.reaction_ms), slaps[best[0] if right else best[1]]


# The policy the session layer plays an empty seat with (``GameDescriptor.computers``).
MIME_TRIES = 2  # a computer Mime's post Discord refused is tried once more in that turn


def plan(
    view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Memory | None
) -> Plan | None:
    """A computer Mime posts emoji describing its card's face; a guesser slaps the free tile
    that best fits the emoji the Mime posted this turn (``view["mimed"]``), never the card
    (above). A computer Mime lets the guessers (or the guess timer) end its turn."""
    if view.get("role") == "mime":
        if view.get("mime_refused", 0) >= MIME_TRIES:
            return None  # Discord refused its posts this turn: the guess timer ends the turn
        said = mime_hint(view, rng)
        return None if said is None else (said[0], {"type": SAY, "turn": view["turn"], "text": said[1]})
    return guess(view, legal, rng)
