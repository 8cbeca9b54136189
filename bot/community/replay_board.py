"""One page of a finished game's replay (``/replay``): the game's own public board as it stood
after a step, with what that board hid shown face up (the game is over), what the step did, and
whether the shuffle verified. Text only: replays draw no pictures, so a page costs 10–20 ms
(the record is replayed from the deal for each page, as each game's ``rerun`` moves one engine
on, and every step's board is drawn to find the pages), spent in a worker thread by the cog.

A page is a step that changed what it shows: a step that leaves both the board and what it hid
as they were (a Monster Masks slap that opens or joins a race still being decided, a timer that
passes) joins the next step that changes them, and its words go first on that page. Boards are
drawn as a replay's (``live=False``): no deadlines, no instructions to press anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.community.replays import Verdict, history, seat_names, steps, title, verify
from bot.engine.protocol import GameEngine
from bot.engine.replay import ReplayError
from bot.glue.board import Board
from bot.i18n import DEFAULT, N_, t, tn, translated
from bot.storage import StoredGame

FORMER_MEMBER_NAME = N_("a former member")  # a seat whose member used /forget-me
FACE_UP_TITLE = N_("Face up (the game is over)")
EMBED_TOTAL = 6000  # Discord: all embeds of a message together
CONTENT_MAX = 2000


@dataclass(frozen=True)
class Moment:
    """What one page shows: what happened (one step, or a few that changed nothing on their
    own) and the boards just after it."""

    text: str
    board: discord.Embed
    hidden: str
    step: int  # the last of the record's steps it shows (1-based)


@dataclass(frozen=True)
class ReplayPage:
    step: int  # 1..count; 0 when not even the first step replays
    count: int  # the steps that replay
    content: str
    embeds: list[discord.Embed]
    # For posting in the channel: the step's number and the verdict without the step's words,
    # which are written face up (the board alone says what the channel saw then).
    public: str = ""


def replay_names(stored: StoredGame, players: int, locale: str = DEFAULT) -> list[str]:
    """Each seat's name in that game; a forgotten member's seat has none."""
    given = [name or t(locale, FORMER_MEMBER_NAME) for name in stored.names]
    return seat_names({"players": players}, given)


def public_board(
    kind: str, engine: GameEngine, names: Sequence[str], game_key: str, locale: str = DEFAULT
) -> Board:
    """The board the channel saw at that moment, from the public view alone; the final board
    once the game is over: drawn by the game's own history (``replay_board``). An unknown game
    is a ReplayError naming it, never drawn with another game's code."""
    return history(kind).replay_board(engine, names, game_key, locale)


def title_of(kind: str, locale: str) -> str:
    """A game's name as its slash command's ``game:`` choice shows it in ``locale``."""
    name = title(kind)
    return translated(locale, name, "command") or name


def replay_page(stored: StoredGame, step: int, locale: str = DEFAULT) -> ReplayPage:
    """The page for ``step``, clamped to the pages that replay, in ``locale`` (the viewer's
    language for a private page, the server's for a posted one): the step's words, what the
    board hid and the shuffle's verdict too (a mismatch's own words stay English)."""
    rec = stored.log or {}
    kind = str(rec.get("game", stored.kind))
    names = replay_names(stored, int(rec.get("players", len(stored.names))), locale)
    moments, broken = replay_moments(rec, names, stored.game_key, locale)
    count = len(moments)
    verdict = verify(rec)
    head = t(
        locale,
        "**Replay: {game}**, finished {ended} in {channel}",
        game=title_of(kind, locale),
        ended=f"<t:{stored.ended_at // 1000}:f>",
        channel=f"<#{stored.channel_id}>",
    )
    check = verdict_line(verdict, locale)
    if not count:
        stops = t(locale, "This game's record does not replay: {problem}", problem=broken)
        return ReplayPage(0, 0, _cut(f"{head}\n{stops}\n{check}"), [])
    at = min(max(step, 1), count)
    moment = moments[at - 1]
    where = steps_shown(moments, at, locale)
    lines = [head, t(locale, "{where}: {what}", where=where, what=moment.text)]
    if broken:
        lines.append(t(locale, "The replay stops after step {count}: {problem}", count=count, problem=broken))
    lines.append(check)
    title = t(locale, FACE_UP_TITLE)
    room = EMBED_TOTAL - len(moment.board) - len(title) - 10
    face_up = discord.Embed(
        title=title,
        description=_cut(moment.hidden, min(4096, room)),
        colour=discord.Colour.dark_grey(),
    )
    public = "\n".join([head, where, check])
    return ReplayPage(at, count, _cut("\n".join(lines)), [moment.board, face_up], _cut(public))


def steps_shown(moments: Sequence[Moment], page: int, locale: str) -> str:
    """Which of the record's steps page ``page`` shows, out of all of them: the same count the
    verdict gives ("all 140 steps"), where a page that holds steps that changed nothing shows
    their range. (Counting pages instead said "1 / 137" beside "all 140 steps".)"""
    last = moments[page - 1].step
    first = moments[page - 2].step + 1 if page > 1 else 1
    total = moments[-1].step
    if first == last:
        return t(locale, "Step **{step} / {count}**", step=last, count=total)
    return t(locale, "Steps **{first}–{step} / {count}**", first=first, step=last, count=total)


def verdict_line(verdict: Verdict, locale: str) -> str:
    """The shuffle's verdict in ``locale``: what was checked, said in full (in English it is
    ``verify``'s own line); a mismatch's own words stay English, as ``verify`` prints them (they
    name log entries, keys and values of the record, which no catalogue can list)."""
    if not verdict.checkable:
        # One sentence of its own, translated: no record's values to quote.
        return t(
            locale,
            "⚠️ Shuffle cannot be checked: this record carries no shuffle commitment, so nothing "
            "shows the seed was fixed before the deal.",
        )
    if not verdict.verified:
        return t(locale, "⚠️ Shuffle not verified: {problem}", problem=verdict.problem)
    fields = {"game": title_of(verdict.game, locale), "seed": verdict.seed, "cards": verdict.cards}
    if verdict.commitment is None:
        return tn(
            locale,
            "✅ Shuffle verified: {game}, seed {seed}: no commitment in this record (a simulated game); "
            "all {cards} cards were dealt as the seed deals them, and its {n} step replays through "
            "the engine and follows the rules",
            "✅ Shuffle verified: {game}, seed {seed}: no commitment in this record (a simulated game); "
            "all {cards} cards were dealt as the seed deals them, and all {n} steps replay through "
            "the engine and follow the rules",
            verdict.steps,
            **fields,
        )
    return tn(
        locale,
        "✅ Shuffle verified: {game}, seed {seed}: the commitment {commitment} is SHA-256 of "
        "{salt}:{seed}; all {cards} cards were dealt as the seed deals them, and its {n} step "
        "replays through the engine and follows the rules",
        "✅ Shuffle verified: {game}, seed {seed}: the commitment {commitment} is SHA-256 of "
        "{salt}:{seed}; all {cards} cards were dealt as the seed deals them, and all {n} steps "
        "replay through the engine and follow the rules",
        verdict.steps,
        commitment=verdict.commitment,
        salt=verdict.salt,
        **fields,
    )


def replay_moments(
    rec: Any, names: Sequence[str], game_key: str, locale: str = DEFAULT
) -> tuple[list[Moment], str]:
    """Every page of the replay, and why the replay stops early ("" if it does not). A step that
    changes neither board joins the next one that does (or the last page, at the end)."""
    kind = str(rec.get("game", "")) if isinstance(rec, dict) else ""
    moments: list[Moment] = []
    waiting: list[str] = []  # steps that changed nothing yet, said on the next page
    shown: tuple[dict[str, Any], str] | None = None
    broken = ""
    try:
        for number, (text, engine) in enumerate(steps(rec, names, locale), 1):
            board = public_board(kind, engine, names, game_key, locale).embed
            hidden = history(kind).hidden(engine, names, locale)
            now = (board.to_dict(), hidden)
            if now == shown:
                waiting.append(text)
                continue
            shown = now
            moments.append(Moment(" · ".join([*waiting, text]), board, hidden, number))
            waiting = []
    except ReplayError as error:
        broken = str(error)
    if waiting and moments:
        last = moments[-1]
        moments[-1] = Moment(
            " · ".join([last.text, *waiting]), last.board, last.hidden, last.step + len(waiting)
        )
    return moments, broken


def _cut(text: str, limit: int = CONTENT_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
