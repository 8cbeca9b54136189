"""The CPU of drawing a board's text (embed and buttons, not the picture), each title, by hand:

    python bench/bench_board_text.py [--games kabuki,masks,kingdom] [--repeats 7] [--cold]

Each title's boards are those of seeded random games (random legal presses and waits), drawn in
game order as the bot draws them, one per change, in German (the catalogue's lookups, not
English's, which needs none), with the shuffle commitment under them as on every board. Whatever
the bot keeps between boards (bot.i18n's kept lookups and lines) is forgotten before each repeat,
so a repeat is a fresh process meeting those games. ``--cold`` copies a few hundred kB of Python
objects before each board, as SimCord and the rest of a press do between two boards under load: a
drawing then meets caches that other work emptied, which costs it two to four times its warm CPU.

Prints each title's CPU per board (``time.thread_time``), the median and the best of the repeats.
One machine, one sitting: compare two versions by running both back to back (``cd`` into each).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # random_games

from random_games import random_views  # noqa: E402

from bot.games.kabuki import board as kabuki_board  # noqa: E402
from bot.games.kabuki.engine import KabukiEngine  # noqa: E402
from bot.games.kingdom import board as kingdom_board  # noqa: E402
from bot.games.kingdom.engine import KingdomEngine  # noqa: E402
from bot.games.masks import board as masks_board  # noqa: E402
from bot.games.masks.engine import MasksEngine  # noqa: E402
from bot.glue.board import sign  # noqa: E402
from bot.i18n import catalogues  # noqa: E402

CHANNEL = 123456789012345678
COMMITMENT = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
LOCALE = "de"
Draw = Callable[[], Any]


def kabuki(seed: int) -> Iterator[Draw]:
    rng = random.Random(seed)
    names = [f"player {seat}" for seat in range(4)]
    engine = KabukiEngine.new(4, seed, {"grace_ms": 0}, 0)
    now = 0
    while not engine.is_over:
        seat = rng.randrange(4)
        legal = [a for a in engine.legal_actions(seat) if a["type"] != "stop" or rng.random() < 0.1]
        if legal:
            engine.apply(seat, rng.choice(legal), now)
        else:
            now = max(now + 300, min(engine.next_deadline() or now, now + 5000))
            engine.advance(now)
        view = engine.view(None)
        yield lambda view=view: sign(
            kabuki_board.render(view, names, CHANNEL, locale=LOCALE), COMMITMENT, locale=LOCALE
        )


def masks(seed: int) -> Iterator[Draw]:
    rng = random.Random(seed)
    names = [f"player {seat}" for seat in range(6)]
    engine = MasksEngine.new(6, seed, {"race_window_ms": 250, "reveal_ms": 2000}, 0)
    for view in random_views(engine, rng, 6, most_ms=60, allowed=lambda a: a["type"] != "end_guessing"):
        yield lambda view=view: sign(
            masks_board.render(CHANNEL, view, names, locale=LOCALE), COMMITMENT, locale=LOCALE
        )


def kingdom(seed: int) -> Iterator[Draw]:
    rng = random.Random(seed)
    names = [f"player {seat}" for seat in range(5)]
    engine = KingdomEngine.new(5, seed, {"length": 3}, 0)
    for view in random_views(engine, rng, 5, most_ms=2000):
        yield lambda view=view: sign(
            kingdom_board.kingdom_board(view, names, CHANNEL, f"g{seed}", locale=LOCALE),
            COMMITMENT,
            locale=LOCALE,
        )


GAMES = {"kabuki": kabuki, "masks": masks, "kingdom": kingdom}
# What a press's other work leaves in the caches between two boards: a copy of this, as SimCord's
# deep copies of each request make.
CLUTTER = {str(i): {"a": [i, str(i) * 3, {"x": i}], "b": list(range(20))} for i in range(600)}


def per_board(boards: list[Draw], cold: bool) -> float:
    """CPU µs per board, drawn in order, with nothing kept at the start."""
    getattr(catalogues, "_forget_lookups", lambda: None)()  # (a version that keeps nothing has none)
    spent = 0
    for draw in boards:
        if cold:
            copy.deepcopy(CLUTTER)
        started = time.thread_time_ns()
        draw()
        spent += time.thread_time_ns() - started
    return spent / len(boards) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    for game in args.games.split(","):
        boards = [draw for seed in range(args.seeds) for draw in GAMES[game](seed)]
        per_board(boards[:20], args.cold)  # imports, catalogues read
        runs = [per_board(boards, args.cold) for _ in range(args.repeats)]
        print(
            f"{game}: {len(boards)} boards, {'cold' if args.cold else 'warm'}: "
            f"median {statistics.median(runs):.1f} µs CPU per board, best {min(runs):.1f}"
        )


if __name__ == "__main__":
    main()
