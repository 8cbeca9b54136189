"""Soak of the playground's page: random legal clicks in a real Chromium for N minutes.

Run: ``python bench/soak_playground.py [--minutes 20] [--seed 1]`` (needs the test extra and
Debian's chromium, like tests/playground/test_browser.py). One browser tab plays Kabuki (three
members) and Island of Monster Masks (four) in turn through the page alone: the Viewing-as
switch, the slash-command composer and the board's buttons, at a person's pace, with the games'
timers running in real time. Each click is one the bot's engine calls legal at that moment (the
game may move on before it lands, as with people). Prints refused actions, page lock-ups and the
clock's drift (simulated seconds elapsed minus real seconds). Targets: 0, 0, under 1 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # browsers.py, which pagedriver uses
sys.path.insert(0, str(ROOT / "tests" / "playground"))

from pagedriver import PageDriver, Playground, browser_missing, chromium  # noqa: E402

GAME_SECONDS = 240  # a game still running after this is ended with /end and another starts
KABUKI = ("Alice", "Bob", "Carol")
MASKS = ("Alice", "Bob", "Carol", "Dave")


class Soak:
    def __init__(self, playground: Playground, page: PageDriver, rng: random.Random) -> None:
        self.playground = playground
        self.page = page
        self.rng = rng
        self.games = 0
        self.skipped = 0  # legal when chosen, gone by the time the button was looked for
        self.drift = 0.0
        self.worst_drift = 0.0
        self._origin = self._clocks()
        self._game: tuple[str, float] | None = None  # the game's key, and when we first saw it

    def _clocks(self) -> tuple[float, float]:
        env = self.playground.env
        return self.playground.call(lambda: env.now().timestamp()), time.perf_counter()

    def measure_drift(self) -> None:
        (sim0, real0), (sim, real) = self._origin, self._clocks()
        self.drift = (sim - sim0) - (real - real0)
        self.worst_drift = max(self.worst_drift, abs(self.drift))

    def pause(self) -> None:
        """A person's pace: mostly a moment, sometimes at once, now and then a longer look."""
        time.sleep(self.rng.choice((0.0, 0.2, 0.5, 0.8, 1.5, 3.0)))

    def board(self) -> int | None:
        """The board's message id, posted again with /board if it scrolled out of the page."""
        session = self.playground.session()
        if session is None or session.board_message_id is None:
            return None
        if self.page.message(session.board_message_id) is None:
            self.page.command("board")
            session = self.playground.session()
        return None if session is None else session.board_message_id

    def start(self, command: str, options: dict[str, Any], members: tuple[str, ...]) -> None:
        self.games += 1
        self.page.view_as(members[0])
        self.page.command(command, options)
        board = self.board()
        if board is None:
            return
        for name in members[1:]:
            self.page.view_as(name)
            self.page.click(board, "Join")
        self.page.view_as(members[0])
        self.page.click(board, "Start")

    def moves(self, engine: Any, names: list[str]) -> list[tuple[str, str, Any]]:
        """(member, what, label test) for every action the engine calls legal now."""

        def listed() -> list[tuple[str, str, Any]]:
            out = []
            view = engine.view(None)
            for seat, name in enumerate(names):
                for action in engine.legal_actions(seat):
                    if action["type"] == "place":
                        s = action["stack"]
                        out.append((name, f"stack {s + 1}", lambda label, s=s: label.startswith(f"{s + 1} ")))
                    elif action["type"] == "stop":
                        out.append((name, "Stop!", lambda label: label.endswith("Stop!")))
                    elif action["type"] == "slap":
                        tile = view["tile_names"][action["tile"]]
                        out.append((name, tile, lambda label, tile=tile: label == tile))
                    elif action["type"] == "end_guessing":
                        out.append((name, "End guessing", lambda label: label.endswith("End guessing")))
                        out.append((name, "My card", lambda label: label.endswith("My card")))
            return out

        return self.playground.call(listed)

    def step(self) -> None:
        session = self.playground.session()
        if session is None:
            if self.games % 2 == 0:
                self.start("kabuki new", {"grace": 2, "reveal": 3, "turn_timer": 10}, KABUKI)
            else:
                self.start("masks new", {"guess_seconds": 15}, MASKS)
            return
        if self._game is None or self._game[0] != session.game_key:
            self._game = session.game_key, time.perf_counter()
        if session.engine is None or time.perf_counter() - self._game[1] > GAME_SECONDS:
            self.page.view_as("Alice")  # the host
            self.page.command("end")
            return
        moves = self.moves(session.engine, session.seat_names())
        board = self.board()
        if not moves or board is None:
            return  # a race closing, a reveal on show: the timers move the game on
        name, what, label = self.rng.choice(moves)
        self.page.view_as(name)
        try:
            self.page.click(board, label, what)
        except LookupError:
            self.skipped += 1

    def run(self, minutes: float) -> None:
        end = time.perf_counter() + minutes * 60
        next_report = time.perf_counter() + 60
        while time.perf_counter() < end:
            lockups = len(self.page.tally.lockups)
            try:
                self.step()
            except Exception as error:  # the page could not be driven at all: stuck
                self.page.tally.lockup(f"stuck: {type(error).__name__}: {str(error).splitlines()[0]}")
            if len(self.page.tally.lockups) > lockups:
                self.page.reload()
            self.measure_drift()
            if time.perf_counter() > next_report:
                next_report += 60
                self.report(final=False)
            self.pause()
        self.report(final=True)

    def report(self, *, final: bool) -> None:
        tally = self.page.tally
        line = (
            f"{tally.actions} actions, {self.games} games: {len(tally.refused)} refused, "
            f"{len(tally.lockups)} lock-ups, clock drift {self.drift:+.3f} s (worst {self.worst_drift:.3f} s)"
        )
        print(("result: " if final else "so far: ") + line, flush=True)
        if final:
            for kind, items in (("refused", tally.refused), ("lock-up", tally.lockups)):
                for item in items[:20]:
                    print(f"  {kind}: {item}")
            for record in self.playground.errors[:20]:
                print(f"  error logged: {record.getMessage()}")
            print(f"  skipped (a chosen button was gone when looked for): {self.skipped}")
            live = self.playground.live
            if live is not None:
                print(
                    f"  made on an older revision of the page and admitted all the same: {live.stale_admitted}"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="a visible browser window")
    args = parser.parse_args()
    if (missing := browser_missing()) is not None:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 1
    playground = Playground().start()
    try:
        with chromium(headless=not args.show) as tab:
            page = PageDriver(tab, playground.member_ids)
            page.open(playground.url)
            Soak(playground, page, random.Random(args.seed)).run(args.minutes)
    finally:
        playground.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
