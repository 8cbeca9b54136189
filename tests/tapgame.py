"""A tiny test-only game ("Tap") that exercises the engine protocol and the session layer.

Seats take turns. The active seat presses Tap (+1 point) or Pass. A turn timer passes for an
idle seat; Hurry brings the active seat's own deadline forward to 5 s from now (a press that
moves a deadline earlier). Wink (only the winker hears of it) and Nod (nothing at all) change nothing public. Each seat holds a secret number only it may see (a "Peek" button shows it). The game
ends after ``target`` taps in all; the most taps win. Users never see this game: it is not
registered, and a test's bot runs it by its descriptor (``make_bot([TAP])``, the default).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

import discord
from discord import app_commands

from bot.engine import Dice, Event, GameEngine, IllegalAction, Result
from bot.games.registry import GameDescriptor
from bot.glue.board import Board
from bot.glue.components import GameButton
from bot.i18n import NN_
from bot.session.gamecog import GameCog
from bot.session.press import Move
from bot.session.sessions import Session

HURRY_MS = 5_000


class TapEngine(GameEngine):
    kind = "tap"
    title = "Tap"
    min_players = 2
    max_players = 4

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state

    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, Any], now: int) -> Self:
        cls.check_players(players)
        target = int(options.get("target", 3))
        if not 1 <= target <= 50:
            raise ValueError("target must be 1–50")
        dice = Dice(seed)
        # Four digits: a secret of 0 or 1 was found in the board's public "bob: 0" by the leak checks.
        secrets = [1000 + dice.randrange(1000) for _ in range(players)]
        turn_ms = int(options.get("turn_ms", 30_000))
        return cls(
            {
                "n": players,
                "target": target,
                "turn": 0,
                "active": 0,
                "scores": [0] * players,
                "secrets": secrets,
                "dice": dice.to_json(),
                "turn_ms": turn_ms,
                "deadline": now + turn_ms,
                "taps": 0,
                "log": [],  # like the real games' replay logs: saved as rows of their own
            }
        )

    def apply(self, seat: int, action: Mapping[str, Any], now: int) -> list[Event]:
        if self.is_over:
            raise IllegalAction("The game is over.")
        if seat != self.s["active"]:
            raise IllegalAction("It is not your turn.")
        kind = action.get("type")
        if kind == "tap":
            self.s["scores"][seat] += 1
            self.s["taps"] += 1
            events = [
                Event("tapped", {"seat": seat}),
                Event("secret", {"value": self.s["secrets"][seat]}, to=(seat,)),
            ]
        elif kind == "pass":
            events = [Event("passed", {"seat": seat})]
        elif kind == "wink":
            return [Event("winked", {}, to=(seat,))]
        elif kind == "nod":
            return []
        elif kind == "hurry":
            self.s["deadline"] = min(self.s["deadline"], now + HURRY_MS)
            return [Event("hurried", {"seat": seat})]
        else:
            raise IllegalAction("Unknown move.")
        self.s["log"].append({"seat": seat, "type": kind, "now": now})
        self._next(now)
        return events

    def _next(self, now: int) -> None:
        self.s["turn"] += 1
        self.s["active"] = (self.s["active"] + 1) % self.s["n"]
        self.s["deadline"] = None if self.is_over else now + self.s["turn_ms"]

    def advance(self, now: int) -> list[Event]:
        deadline = self.s["deadline"]
        if deadline is None or now < deadline:
            return []
        seat = self.s["active"]
        self.s["log"].append({"advance": deadline})
        self._next(deadline)
        return [Event("timed_out", {"seat": seat})]

    def next_deadline(self) -> int | None:
        return self.s["deadline"]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.is_over or seat != self.s["active"]:
            return []
        return [{"type": "tap"}, {"type": "pass"}]

    def view(self, seat: int | None) -> dict[str, Any]:
        public = {k: self.s[k] for k in ("turn", "active", "scores", "target", "taps", "deadline")}
        if seat is not None:
            public["secret"] = self.s["secrets"][seat]
        return public

    def to_json(self) -> dict[str, Any]:
        return dict(self.s)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(dict(data))

    @property
    def is_over(self) -> bool:
        return self.s["taps"] >= self.s["target"]

    def result(self) -> Result:
        best = max(self.s["scores"])
        return Result(tuple(self.s["scores"]), tuple(i for i, v in enumerate(self.s["scores"]) if v == best))


class TapCog(GameCog, group_name="tap", group_description="The test-only Tap game"):
    engine_cls = TapEngine
    rules_summary = "Tap when it is your turn."
    score_label = "taps"  # a word of its own (not one of SCORE_WORDS), as a new game may have
    score_counts = NN_("{n} tap", "{n} taps")

    @app_commands.command(name="new", description="Open a Tap lobby")
    async def new(self, interaction: discord.Interaction, target: app_commands.Range[int, 1, 50] = 3) -> None:
        await self.open_lobby(interaction, {"target": target})

    def default_options(self) -> dict:
        return {"target": 3}

    def render_board(self, session: Session) -> Board:
        assert session.engine is not None
        view = session.engine.view(None)
        names = session.seat_names()
        embed = discord.Embed(title="Tap", description=f"Turn {view['turn']}: **{names[view['active']]}**")
        embed.add_field(
            name="Scores", value="\n".join(f"{n}: {s}" for n, s in zip(names, view["scores"], strict=True))
        )
        items = [
            GameButton(session.channel_id, "tap", label="Tap"),
            GameButton(session.channel_id, "pass", label="Pass"),
            GameButton(session.channel_id, "peek", label="Peek"),
            GameButton(session.channel_id, "wink", label="Wink"),
            GameButton(session.channel_id, "nod", label="Nod"),
            GameButton(session.channel_id, "hurry", label="Hurry"),
        ]
        return Board(embed=embed, items=items)

    def render_private(self, session: Session, seat: int, event: Event) -> dict[str, Any] | None:
        if event.kind == "secret":
            return {"content": f"Your secret number is {event.data['value']}."}
        if event.kind == "winked":
            return {"content": "You winked; nobody saw it."}
        return None

    async def handle_query(self, move: Move, session: Session, seat: int) -> bool:
        if move.press.name != "peek":
            return False
        assert session.engine is not None
        await self.send_panel(
            move, session, {"content": f"Your secret number is {session.engine.view(seat)['secret']}."}
        )
        return True


# No history, checker, computers or simulator: the session layer's tests need none of them. Its
# extension is a module of its own: discord.py runs an extension's module anew for every bot, and
# tests patch TapEngine and TapCog as this module defines them.
TAP = GameDescriptor(engine=TapEngine, cog="tap_extension", rules="tests/tapgame.py")
