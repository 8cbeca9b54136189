"""Parts of a press the load bench can leave out, to weigh each by difference (``--leave-out``).

A diagnostic, never a figure to quote as the bot's: a run without them is a bot members could not
use. Each is left out for every game alike:

* ``picture``: every board counts as showing the picture already on its message, so none is drawn
  or uploaded after a game's first board (``bot.session.publisher.picture_key``); the pictures'
  thread and its hand-off back to the loop go with it.
* ``save``: a session is never written (``GameCog._store``); SQLite's writer thread and its
  hand-off go with it.
* ``metrics``: no press or save is counted (``Metrics.pressed``, ``Metrics.saved``).

Compare a run with a part left out with one without, same arguments, back to back: the ratio's
95 % interval says whether the difference is more than the run's noise.
"""

from __future__ import annotations

from typing import Any

PARTS = ("picture", "save", "metrics")


def leave_out(parts: list[str]) -> None:
    """Patch the bot's modules (before the bot is built) so ``parts`` are not done."""
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise SystemExit(f"--leave-out: unknown part(s) {sorted(unknown)}; choose from {PARTS}")
    if "picture" in parts:
        from bot.session import publisher

        publisher.picture_key = lambda board: None if board.picture is None else "left out"  # type: ignore[assignment]
    if "save" in parts:
        from bot.session.gamecog import GameCog

        async def store(self: Any, session: Any, **_: Any) -> None:
            return None

        GameCog._store = store  # type: ignore[method-assign]
    if "metrics" in parts:
        from bot.ops.metrics import Metrics

        Metrics.pressed = lambda *args, **kwargs: None  # type: ignore[method-assign]
        Metrics.saved = lambda *args, **kwargs: None  # type: ignore[method-assign]
