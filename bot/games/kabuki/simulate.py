"""Play whole Kabuki games between computer players, and check replay logs.

``python -m bot simulate kabuki --players 4 --games 100 --seed 1 [--memory 0.8] [--json]``

Time is simulated: each press has a Discord-like timestamp (when the player acted) and arrives
at the engine a little later (network latency), so Stop races happen and arrive out of order,
exactly as the engine must cope with in Discord. ``replay.check_log`` checks a ``--json`` record
with an independent reading of the rules (it does not use the engine).
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.protocol import Event, IllegalAction
from bot.engine.replay import LOG_FORMAT, simulated
from bot.games.kabuki.engine import KabukiEngine
from bot.games.kabuki.players import ComputerPlayer, Temper

LATENCY_MS = (10, 150)  # from a press to the bot receiving it


@dataclass
class Game:
    engine: KabukiEngine
    refused: Counter[str] = field(default_factory=Counter)  # presses the engine turned down, by type


def play_game(
    players: int,
    seed: int,
    memory: float = 1.0,
    options: Mapping[str, Any] | None = None,
    idle: float = 0.0,
    bluff: float = 0.0,
    save_every: int = 0,
) -> Game:
    """One complete game. ``save_every`` > 0 round-trips the engine through JSON that often (tests)."""
    engine = KabukiEngine.new(players, seed, options or {}, now=0)
    rng = random.Random(f"kabuki-sim:{seed}")
    temper = Temper(memory=memory, idle=idle, bluff=bluff)
    bots = [ComputerPlayer(s, rng.getrandbits(32), temper) for s in range(players)]
    game = Game(engine)
    # Pending presses: (arrival, seq, seat, action, press timestamp).
    queue: list[tuple[int, int, int, dict[str, Any], int]] = []
    seq = 0
    steps = 0

    def push(seat: int, action: dict[str, Any], at: int) -> None:
        nonlocal seq
        seq += 1
        heapq.heappush(queue, (at + rng.randint(*LATENCY_MS), seq, seat, action, at))

    def react(events: list[Event]) -> None:
        for event in events:
            if event.to is not None:
                continue
            for bot in bots:
                bot.observe(event)
            data = event.data
            if event.kind == "placed":
                for bot in bots:
                    delay = bot.stop_delay(data["seat"], data["stack"])
                    if delay is not None:
                        push(bot.seat, {"type": "stop", "turn": data["turn"]}, data["at"] + delay)
            elif event.kind == "turn":
                delay = bots[data["seat"]].place_delay()
                if delay is not None:
                    bot = bots[data["seat"]]
                    stack = bot.choose_stack(data["card"])
                    start = max(data["place_from"], engine.clock)
                    push(bot.seat, {"type": "place", "stack": stack, "turn": data["turn"]}, start + delay)

    react(_opening_events(engine))
    while not engine.is_over:
        due = engine.next_deadline()
        if queue and (due is None or queue[0][0] <= due):
            arrival, _, seat, action, at = heapq.heappop(queue)
            react(engine.advance(arrival))
            try:
                react(engine.apply(seat, action, at))
            except IllegalAction:
                game.refused[action["type"]] += 1
        elif due is not None:
            react(engine.advance(due))
        else:
            raise RuntimeError("Kabuki simulation stuck: no press pending and no deadline")
        steps += 1
        if save_every and steps % save_every == 0:
            engine = game.engine = KabukiEngine.from_json(json.loads(json.dumps(engine.to_json())))
    return game


def _opening_events(engine: KabukiEngine) -> list[Event]:
    """``new`` announces nothing (the board shows the view); bots need the first turn as an event."""
    current = engine.view(None)["current"]
    return [
        Event("round_start", {"round": engine.round}),
        Event(
            "turn",
            {
                "seat": current["seat"],
                "card": current["card"],
                "turn": engine.turn,
                "place_from": engine.place_from,
            },
        ),
    ]


def record(game: Game, memory: float) -> dict[str, Any]:
    """The ``--json`` line for one game (format in docs/kabuki.md)."""
    engine = game.engine
    result = engine.result()
    return {
        "format": LOG_FORMAT,
        "game": "kabuki",
        "seed": engine.seed,
        "players": engine.players,
        "options": dict(engine.options),  # every option, defaults filled in, as the engine used them
        "memory": memory,
        "log": engine.log,
        "totals": list(result.scores),
        "winners": list(result.winners),
    }


def summarize(games: Sequence[Game], elapsed: float) -> str:
    players = games[0].engine.players
    sums = [0] * players
    stops = won = races = auto = late = 0
    endings: Counter[str] = Counter()
    for game in games:
        for seat, total in enumerate(game.engine.totals):
            sums[seat] += total
        late += game.refused["stop"]
        for entry in game.engine.log:
            if entry["e"] == "stop":
                stops += 1
                won += entry["k"] > 0
                races += len(entry["presses"]) > 1
            elif entry["e"] == "place":
                auto += entry["auto"]
            elif entry["e"] == "round_end":
                endings[entry["reason"]] += 1
    n = len(games)
    lines = [
        f"Kabuki: {n} games, {players} players",
        "average totals by seat: " + ", ".join(f"{s + 1}: {t / n:.2f}" for s, t in enumerate(sums)),
        f"average total: {sum(sums) / (n * players):.2f} VP",
        f"challenges: {stops / n:.2f} per game, won {won / max(stops, 1):.0%}; "
        f"{races} races with several presses, {late} presses too late",
        f"rounds ended: {endings['zero_tokens']} by a player at 0 tokens, {endings['deck_out']} by the deck",
        f"idle placements by the turn timer: {auto}",
        f"{n / elapsed:.1f} games per second" if elapsed > 0 else "",
    ]
    return "\n".join(line for line in lines if line)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot simulate kabuki", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--players", type=int, default=4, help="2 to 6 (default 4)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed + i")
    parser.add_argument("--memory", type=float, default=1.0, help="chance to remember each card (0-1)")
    parser.add_argument("--idle", type=float, default=0.0, help="chance a player lets the turn timer run out")
    parser.add_argument(
        "--bluff", type=float, default=0.05, help="chance to Stop on a hunch (forgetful players)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON record per game, one per line")
    args = parser.parse_args(argv)
    if (
        not 2 <= args.players <= 6
        or args.games < 1
        or not 0 <= args.memory <= 1
        or not 0 <= args.idle <= 1
        or not 0 <= args.bluff <= 1
    ):
        parser.error("need 2-6 players, at least 1 game, memory, idle and bluff between 0 and 1")
    started = time.perf_counter()
    games = []
    for i in range(args.games):
        game = play_game(args.players, args.seed + i, memory=args.memory, idle=args.idle, bluff=args.bluff)
        if args.json:
            sys.stdout.write(json.dumps(simulated(record(game, args.memory)), separators=(",", ":")) + "\n")
        else:
            games.append(game)
    if not args.json:
        print(summarize(games, time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
