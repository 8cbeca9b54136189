"""One page of a finished game's replay (``/replay``): the game's own public board as it stood
after a step, with what that board hid shown face up (the game is over), what the step did, and
whether the shuffle verified. Text only: replays draw no pictures, so a page costs a few
milliseconds (the record is replayed from the deal for each page, as each game's ``rerun`` moves
one engine on), spent in a worker thread by the cog.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.board import Board
from bot.engine.protocol import GameEngine
from bot.engine.replay import ReplayError
from bot.replays import TITLES, history, seat_names, steps, verify
from bot.storage import StoredGame

FORMER_MEMBER_NAME = "a former member"  # a seat whose member used /forget-me
FACE_UP_TITLE = "Face up (the game is over)"
NO_CHANNEL = 0  # the boards' own buttons are dropped: a replay has only its navigation buttons
EMBED_TOTAL = 6000  # Discord: all embeds of a message together
CONTENT_MAX = 2000


@dataclass(frozen=True)
class ReplayPage:
    step: int  # 1..count; 0 when not even the first step replays
    count: int  # the steps that replay
    content: str
    embeds: list[discord.Embed]


def replay_names(stored: StoredGame, players: int) -> list[str]:
    """Each seat's name in that game; a forgotten member's seat has none."""
    given = [name or FORMER_MEMBER_NAME for name in stored.names]
    return seat_names({"players": players}, given)


def public_board(kind: str, engine: GameEngine, names: Sequence[str], game_key: str) -> Board:
    """The board the channel saw at that moment, from the public view alone; the final board
    once the game is over."""
    view: Any = engine.view(None)
    if kind == "kabuki":
        from bot.games.kabuki import board as kabuki

        return kabuki.render(view, names, NO_CHANNEL, final=engine.is_over)
    if kind == "masks":
        from bot.games.masks import board as masks

        return masks.render_final(view, names) if engine.is_over else masks.render(NO_CHANNEL, view, names)
    from bot.games.kingdom import board as kingdom

    if engine.is_over:
        return kingdom.final_board(view, names, engine.result().winners, game_key)
    return kingdom.kingdom_board(view, names, NO_CHANNEL, game_key)


def replay_page(stored: StoredGame, step: int) -> ReplayPage:
    """The page for ``step``, clamped to the steps that replay."""
    rec = stored.log or {}
    kind = str(rec.get("game", stored.kind))
    names = replay_names(stored, int(rec.get("players", len(stored.names))))
    count, broken = _count(rec, names)
    verdict = verify(rec)
    head = (
        f"**Replay: {TITLES.get(kind, kind)}**, finished <t:{stored.ended_at // 1000}:f> "
        f"in <#{stored.channel_id}>"
    )
    check = f"✅ Shuffle {verdict.summary}" if verdict.verified else f"⚠️ Shuffle {verdict.summary}"
    if not count:
        return ReplayPage(0, 0, _cut(f"{head}\nThis game's record does not replay: {broken}\n{check}"), [])
    at = min(max(step, 1), count)
    text, engine = _at(rec, names, at)
    board = public_board(kind, engine, names, stored.game_key).embed
    lines = [head, f"Step **{at} / {count}**: {text}"]
    if broken:
        lines.append(f"The replay stops after step {count}: {broken}")
    lines.append(check)
    room = EMBED_TOTAL - len(board) - len(FACE_UP_TITLE) - 10
    face_up = discord.Embed(
        title=FACE_UP_TITLE,
        description=_cut(history(kind).hidden(engine, names), min(4096, room)),
        colour=discord.Colour.dark_grey(),
    )
    return ReplayPage(at, count, _cut("\n".join(lines)), [board, face_up])


def _count(rec: Any, names: Sequence[str]) -> tuple[int, str]:
    """How many steps replay, and why the replay stops early ("" if it does not)."""
    count = 0
    try:
        for _ in steps(rec, names):
            count += 1
    except ReplayError as error:
        return count, str(error)
    return count, ""


def _at(rec: Any, names: Sequence[str], step: int) -> tuple[str, GameEngine]:
    """What step ``step`` (of those that replay) did, and the engine just after it."""
    for number, (text, engine) in enumerate(steps(rec, names), 1):
        if number == step:
            return text, engine
    raise ReplayError(f"no step {step}")  # not reached: ``step`` was counted first


def _cut(text: str, limit: int = CONTENT_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
