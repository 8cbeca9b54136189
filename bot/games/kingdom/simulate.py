"""``python -m bot simulate kingdom``: computer players play whole games of Death Over the Kingdom.

Without ``--json`` it prints a summary; with ``--json`` one JSON object per game per line (the
format is described in docs/death-over-the-kingdom.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.engine.protocol import Event
from bot.engine.replay import LOG_FORMAT, ReplayError, check_header, replaying, simulated
from bot.games.kingdom.cards import (
    BARD,
    CHARACTERS,
    COPIES,
    DEATH,
    DRAGON,
    KING,
    MONK,
    NAMES,
    THIEF,
    TRADER,
    TURN_TRIGGER,
)
from bot.games.kingdom.engine import MODES, KingdomEngine
from bot.games.kingdom.players import make_players

ACTION_KINDS = frozenset({"stand", "exchange", "cut", "trader", "thief", "swap", "keep", "bard", "dragon"})


class Recorder:
    """Turns the engine's events (public and private alike) into the per-round JSON record."""

    def __init__(self) -> None:
        self.rounds: list[dict[str, Any]] = []

    def feed(self, events: list[Event]) -> None:
        for e in events:
            data = e.data
            if e.kind == "round":
                self.rounds.append(
                    {**data, "shuffle": None, "deal": [], "kings": [], "actions": [], "reveal": None}
                )
                continue
            current = self.rounds[-1]
            if e.kind == "shuffle":
                current["shuffle"] = list(data["cards"])
            elif e.kind == "deck":
                current["actions"][-1]["deck"] = list(data["cards"])
            elif e.kind == "card" and data["how"] == "deal":
                current["deal"].append({"seat": e.to[0], "char": data["char"], "name": data["name"]})  # type: ignore[index]
            elif e.kind in ACTION_KINDS:
                current["actions"].append({**data, "effects": []})
            elif e.kind == "card":
                current["actions"][-1]["effects"].append({"seat": e.to[0], "receives": data["name"]})  # type: ignore[index]
            elif e.kind == "peek":
                current["actions"][-1]["effects"].append({"sees": data["name"], "target": data["target"]})
            elif e.kind == "king":
                where = current["actions"][-1]["effects"] if current["actions"] else current["kings"]
                where.append({"king_shown": data["seat"]})
            elif e.kind == "reveal":
                current["reveal"] = data


def play(
    mode: str, players: int, seed: int, length: int, bots: str, record: bool
) -> tuple[KingdomEngine, Recorder]:
    engine = KingdomEngine.new(players, seed, {"mode": mode, "length": length, "turn_ms": 0}, 0)
    recorder = Recorder()
    if record:
        recorder.feed(engine.opening)
    seats = make_players(bots, players, seed)
    now = 0
    while not engine.is_over:
        seat = engine.active
        assert seat is not None
        now += 1
        events = engine.apply(seat, seats[seat].choose(engine, seat), now)
        if record:
            recorder.feed(events)
    return engine, recorder


def record(engine: KingdomEngine, recorder: Recorder, seed: int, bots: str) -> dict[str, Any]:
    """The ``--json`` line of one finished game (format in docs/death-over-the-kingdom.md)."""
    result = engine.result()
    return {
        "format": LOG_FORMAT,
        "game": "kingdom",
        "seed": seed,
        "players": engine.players,
        "options": engine.options,
        "bots": bots,
        "first_dealer": recorder.rounds[0]["dealer"],
        "rounds": recorder.rounds,
        "standings": {
            "tokens": list(result.scores),
            "winners": list(result.winners),
            "score": result.details["score"],
            "elimination_order": result.details["elimination_order"],
        },
    }


# ------------------------------------------------------------------ checking a record
# check_log reads the rules afresh instead of asking the engine, so it can catch the engine out.
# It shares only the characters' data table (cards.py: values, names, what turns a card and into
# what), which is where our reading of "turns" is written down; the modes' numbers are restated.
RANGES = {"classic": (3, 16), "death-over-all": (3, 16), "only-one": (2, 20)}
OPTION_KEYS = frozenset({"mode", "length", "turn_ms", "reveal_ms", "dealer", "decks"})
PENALTIES = (3, 2, 1)  # Death over all: lowest, second-lowest, third-lowest value
BOX = sorted(c for c in range(len(CHARACTERS)) for _ in range(COPIES))


def check_log(rec: Mapping[str, Any]) -> None:
    """Replay a ``--json`` record by the rules alone; raise ReplayError at the first decision it
    cannot justify: an option, a dealer, a deal, a card drawn from the deck, an action, a reveal,
    a token, the end of the game or its winners."""
    replaying(_check_record, rec)


def _check_record(rec: Mapping[str, Any]) -> None:
    check_header(rec, "kingdom", "Kingdom")
    players, options = rec["players"], rec["options"]
    mode = _check_options(players, options)
    first = rec["first_dealer"]
    if not (isinstance(first, int) and 0 <= first < players) or options["dealer"] not in (None, first):
        raise ReplayError(
            f"first dealer {first!r} is not a seat, or not the scripted dealer {options['dealer']}"
        )
    lives = 5 if players <= 6 else 4 if players <= 12 else 3
    tokens = [lives if mode == "only-one" else 0] * players
    out = [False] * players
    eliminated: list[list[int]] = []
    dealer, over = first, False
    for number, rnd in enumerate(rec["rounds"], start=1):
        if over:
            raise ReplayError(f"round {number}: played after the game was over")
        if rnd["round"] != number or rnd["dealer"] != dealer:
            raise ReplayError(
                f"round {number}: logged as round {rnd['round']} dealt by {rnd['dealer']}, should be dealt by {dealer}"
            )
        order = [s for s in ((dealer + 1 + k) % players for k in range(players)) if not out[s]]
        if rnd["order"] != order:
            raise ReplayError(f"round {number}: play order {rnd['order']} should be {order}")
        hands = _check_deal(number, rnd, order, options["decks"])
        deck = list(rnd["shuffle"][len(order) :])
        _check_actions(number, rnd["actions"], order, hands, deck, options["turn_ms"])
        expected = _reveal(mode, number, dealer, order, hands, tokens)
        if rnd["reveal"] != expected:
            key = next((k for k in expected if rnd["reveal"].get(k) != expected[k]), "keys")
            raise ReplayError(
                f"round {number}: the reveal's {key} is {rnd['reveal'].get(key)}, the rules give {expected.get(key)}"
            )
        tokens = expected["tokens"]
        for s in expected["eliminated"]:
            out[s] = True
        if expected["eliminated"]:
            eliminated.append(expected["eliminated"])
        # "The deal passes to the right": this round's first player deals next (the next player
        # still in the game if they just went out).
        dealer = next((s for s in ((order[0] + k) % players for k in range(players)) if not out[s]), order[0])
        standing = out.count(False)
        over = standing <= 1 if mode == "only-one" else number == players * options["length"]
    if not over:
        raise ReplayError(f"the record stops after round {len(rec['rounds'])}, before the game's end")
    if mode == "only-one":
        winners = [s for s in range(players) if not out[s]] or sorted(eliminated[-1])
    else:
        winners = [s for s in range(players) if tokens[s] == min(tokens)]
    standings = rec["standings"]
    if (standings["tokens"], standings["winners"], standings["elimination_order"]) != (
        tokens,
        winners,
        eliminated,
    ):
        raise ReplayError(
            f"standings {standings} should be tokens {tokens}, winners {winners}, eliminated {eliminated}"
        )


def _check_options(players: int, options: Mapping[str, Any]) -> str:
    if set(options) != OPTION_KEYS:
        raise ReplayError(
            f"options must list every option ({', '.join(sorted(OPTION_KEYS))}), not {sorted(options)}"
        )
    for key in ("length", "turn_ms", "reveal_ms"):
        if isinstance(options[key], bool) or not isinstance(options[key], int):
            raise ReplayError(f"option {key} must be a whole number, not {options[key]!r}")
    mode = options["mode"]
    if mode not in RANGES or not RANGES[mode][0] <= players <= RANGES[mode][1]:
        raise ReplayError(f"{players} players cannot play mode {mode!r}")
    if options["length"] not in range(2, 7):
        raise ReplayError(f"length {options['length']!r} is not 2–6")
    if options["turn_ms"] < 0 or options["reveal_ms"] < 0:
        raise ReplayError("a negative timer")
    if any(sorted(deck) != BOX for deck in options["decks"]):
        raise ReplayError("a rigged deck is not the 13 characters twice")
    return mode


def _check_deal(
    number: int, rnd: Mapping[str, Any], order: list[int], decks: list[list[int]]
) -> dict[int, int]:
    """Each seat's dealt card, from the logged shuffle: one card each from the dealer's right."""
    shuffle = rnd["shuffle"]
    if shuffle is None or sorted(shuffle) != BOX:
        raise ReplayError(f"round {number}: the shuffle {shuffle} is not the 13 characters twice")
    if number <= len(decks) and shuffle != decks[number - 1]:
        raise ReplayError(f"round {number}: the shuffle is not the rigged deck")
    hands = dict(zip(order, shuffle, strict=False))
    deal = [{"seat": s, "char": hands[s], "name": NAMES[hands[s]]} for s in order]
    if rnd["deal"] != deal:
        raise ReplayError(f"round {number}: dealt {rnd['deal']}, the shuffle deals {deal}")
    kings = [{"king_shown": s} for s in order if hands[s] == KING]
    if rnd["kings"] != kings:
        raise ReplayError(f"round {number}: Kings shown at the deal {rnd['kings']}, should be {kings}")
    return hands


def _check_actions(
    number: int,
    actions: list[Mapping[str, Any]],
    order: list[int],
    hands: dict[int, int],
    deck: list[int],
    turn_ms: int,
) -> None:
    """One action each in play order (a Thief's look and choice are two records); changes
    ``hands`` and ``deck`` as the actions did."""
    entries = iter(enumerate(actions))
    for pos, seat in enumerate(order):
        rest = order[pos + 1 :]
        right = rest[0] if rest else None
        i, act = next(entries, (len(actions), None))
        where = f"round {number}, action {i}"
        if act is None or act["seat"] != seat:
            raise ReplayError(f"{where}: seat {seat} should act now, the log says {act}")
        _check_action(where, act, seat, rest, right, hands, deck, turn_ms)
        if act["type"] == "thief":
            i, choice = next(entries, (len(actions), None))
            where = f"round {number}, action {i}"
            if choice is None or choice["seat"] != seat or choice["type"] not in ("swap", "keep"):
                raise ReplayError(
                    f"{where}: the Thief (seat {seat}) must now swap or keep, the log says {choice}"
                )
            if choice.get("target") != act["target"]:
                raise ReplayError(
                    f"{where}: the Thief chooses about seat {act['target']}, not {choice.get('target')}"
                )
            _check_action(where, choice, seat, rest, right, hands, deck, turn_ms)
    extra = next(entries, None)
    if extra is not None:
        raise ReplayError(f"round {number}, action {extra[0]}: an action after everyone has acted")


def _check_action(
    where: str,
    act: Mapping[str, Any],
    seat: int,
    rest: list[int],
    right: int | None,
    hands: dict[int, int],
    deck: list[int],
    turn_ms: int,
) -> None:
    kind, mine, target = act["type"], hands[seat], act.get("target")
    public: dict[str, Any] = {"type": kind, "seat": seat}
    effects: list[dict[str, Any]] = []

    def refuse(why: str) -> ReplayError:
        return ReplayError(f"{where}: {kind} by seat {seat} holding {NAMES[mine]} is illegal: {why}")

    def swap(other: int) -> None:
        hands[seat], hands[other] = hands[other], hands[seat]
        effects.extend(
            [{"seat": seat, "receives": NAMES[hands[seat]]}, {"seat": other, "receives": NAMES[hands[other]]}]
        )

    def draw(who: int, card: int, how: str) -> None:
        hands[who] = card
        effects.append({"seat": who, "receives": NAMES[card]})
        if card == KING:
            effects.append({"king_shown": who})
        if act.get("deck") != deck:
            raise ReplayError(
                f"{where}: after the {how} the deck should be {deck}, the log says {act.get('deck')}"
            )

    if mine == KING and (kind != "stand" or act.get("auto") != "king"):
        raise refuse("the King's holder only stands, at once")
    if kind in ("exchange", "dragon", "thief", "bard", "swap", "keep"):
        public["target"] = target
        if target not in rest:
            raise refuse(f"its target {target!r} is not a player after it this round")
        if kind not in ("swap", "keep") and hands[target] == KING:
            raise refuse("nobody can take the King from its holder")
    if kind == "stand":
        if mine == KING:
            public["auto"] = "king"
    elif kind == "exchange":
        if right is None or target != right:
            raise refuse("an exchange is with the player to the right, and the dealer has none")
        swap(target)
    elif kind == "cut":
        position = act.get("position")
        if right is not None or not isinstance(position, int) or not 0 <= position < len(deck):
            raise refuse("only the dealer cuts, at a position of the deck")
        public.update(discarded={"char": mine, "name": NAMES[mine]}, position=position)
        draw(seat, deck.pop(position), "cut")
    elif kind in ("trader", "dragon") and not deck:
        raise refuse("the deck is empty")
    elif kind == "trader":
        if mine != TRADER:
            raise refuse("the power is the Trader's")
        top, deck[0] = deck[0], TRADER  # the Trader lies face up on top of the deck
        draw(seat, top, "Trader's swap")
    elif kind == "dragon":
        if mine != DRAGON or right is None or target != right:
            raise refuse("the Dragon's holder, not the dealer, hits the player to the right")
        public["discarded"] = {"char": hands[target], "name": NAMES[hands[target]]}
        draw(target, deck.pop(0), "Dragon's draw")
    elif kind in ("thief", "bard"):
        if mine != (THIEF if kind == "thief" else BARD):
            raise refuse("a power is its card's holder's")
        if kind == "thief":
            effects.append({"sees": NAMES[hands[target]], "target": target})
        else:
            swap(target)
    elif kind == "swap":
        swap(target)
    elif kind != "keep":
        raise refuse("no such action")
    if act.get("timeout"):
        if kind not in ("stand", "keep") or not turn_ms or public.get("auto"):
            raise refuse("only an idle player's stand or an idle Thief's keep can time out, with a timer")
        public["timeout"] = True
    logged = {k: v for k, v in act.items() if k not in ("effects", "deck")}
    if logged != public or act["effects"] != effects:
        raise ReplayError(f"{where}: logged {dict(act)}, the rules give {public} with effects {effects}")
    if "deck" in act and kind not in ("cut", "trader", "dragon"):
        raise ReplayError(f"{where}: a {kind} does not touch the deck")


def _reveal(
    mode: str, number: int, dealer: int, order: list[int], hands: dict[int, int], tokens: list[int]
) -> dict[str, Any]:
    """The end of the round by the rules: turning, then Monks, then the losers and the tokens."""
    in_play = set(hands.values())
    value, turned, effects = {}, {}, []
    for s in order:
        c = hands[s]
        turned[s] = TURN_TRIGGER[c] in in_play
        value[s] = CHARACTERS[c].turned if turned[s] else c
        if turned[s]:
            effects.append(
                {"effect": "turn", "seat": s, "char": c, "because": TURN_TRIGGER[c], "value": value[s]}
            )
    copied: dict[int, int] = {}
    for s, nxt in zip(order, [*order[1:], None], strict=True):
        if hands[s] != MONK:
            continue
        if nxt is None:  # the dealer's Monk has nobody to the right: it stays 6
            effects.append({"effect": "dealer_monk", "seat": s, "value": value[s]})
        else:
            value[s], copied[s] = value[nxt], nxt
            effects.append({"effect": "monk", "seat": s, "from": nxt, "value": value[s]})
    death = [s for s in order if hands[s] == DEATH]
    losers = [s for s in order if value[s] == min(value.values()) or s in death]
    delta = [0] * len(tokens)
    if mode == "death-over-all":
        ranks = sorted(set(value.values()))[: len(PENALTIES)]
        for s in order:
            delta[s] = (
                PENALTIES[0] if s in death else PENALTIES[ranks.index(value[s])] if value[s] in ranks else 0
            )
        for s in order:
            if hands[s] == KING and tokens[s] + delta[s] > 0:
                delta[s] -= 1
                effects.append({"effect": "king_returns", "seat": s})
    else:
        for s in losers:
            delta[s] = -1 if mode == "only-one" else 1
    after = [t + d for t, d in zip(tokens, delta, strict=True)]
    return {
        "round": number,
        "dealer": dealer,
        "cards": [
            {
                "seat": s,
                "char": hands[s],
                "name": NAMES[hands[s]],
                "turned": turned[s],
                "copied_from": copied.get(s),
                "value": value[s],
                "loser": s in losers,
                "delta": delta[s],
            }
            for s in order
        ],
        "effects": effects,
        "losers": losers,
        "death": death,
        "delta": delta,
        "tokens": after,
        "eliminated": [s for s in order if mode == "only-one" and after[s] <= 0],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot simulate kingdom", description=__doc__)
    parser.add_argument("--mode", choices=sorted(MODES), default="classic")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--length", type=int, default=3, help="Classic / Death over all: rounds = players x length"
    )
    parser.add_argument("--bots", choices=("simple", "random"), default="simple")
    parser.add_argument("--json", action="store_true", help="one JSON object per game per line")
    args = parser.parse_args(argv)
    try:
        KingdomEngine.check_mode_players(args.mode, args.players)
    except ValueError as exc:
        parser.error(str(exc))

    wins: Counter[int] = Counter()
    tokens = [0] * args.players
    rounds = 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        engine, recorder = play(args.mode, args.players, seed, args.length, args.bots, args.json)
        result = engine.result()
        for s in result.winners:
            wins[s] += 1
        for s, t in enumerate(result.scores):
            tokens[s] += t
        rounds += engine.round
        if args.json:
            line = simulated(record(engine, recorder, seed, args.bots))
            sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
    elapsed = time.perf_counter() - started
    if args.json:
        return 0
    games = max(args.games, 1)
    print(
        f"Death Over the Kingdom — {args.mode}, {args.players} players, {args.games} games, seed {args.seed}"
    )
    print(f"  rounds per game:  {rounds / games:.1f}")
    label = "tokens left" if args.mode == "only-one" else "tokens taken"
    print(f"  average {label} per seat: " + " ".join(f"{t / games:.2f}" for t in tokens))
    print(f"  average {label} overall: {sum(tokens) / games / args.players:.2f}")
    print(
        "  wins per seat (shared wins count for each): " + " ".join(str(wins[s]) for s in range(args.players))
    )
    print(f"  speed: {args.games / elapsed:.0f} games/s ({elapsed:.2f} s)" if elapsed else "  speed: -")
    return 0
