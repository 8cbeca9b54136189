"""Odd One Out's board: who has picked (never what), the scores, the last round face up, and the
three pick buttons. Drawn from the public view alone, in the game's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.glue.board import Board, final_title, game_title, winners_line
from bot.glue.components import GameButton
from bot.i18n import DEFAULT, t

from .engine import PICKS, ROUNDS, OddOneOutEngine, scored


def render(
    view: Mapping[str, Any],
    names: Sequence[str],
    channel_id: int,
    *,
    live: bool = True,
    locale: str = DEFAULT,
) -> Board:
    """``live=False``: a replay's board, with no deadline and no buttons."""
    if view["over"]:  # the session's final board, as every game's: title and winners line
        title = final_title(locale, OddOneOutEngine.title)
    else:
        title = t(
            locale,
            "{game} — round {round} of {rounds}",
            game=game_title(locale, OddOneOutEngine.title),
            round=view["round"] + 1,
            rounds=ROUNDS,
        )
    embed = discord.Embed(title=title, colour=discord.Colour.teal())
    if view["over"]:
        embed.description = winners_line(locale, [names[seat] for seat in view["winners"]])
    else:
        waiting = [name for name, done in zip(names, view["picked"], strict=True) if not done]
        embed.description = t(locale, "Pick 1, 2 or 3: a pick nobody else makes scores its value.")
        if live and view["deadline"] is not None:
            ends = t(locale, "The round ends {when}.", when=f"<t:{view['deadline'] // 1000}:R>")
            embed.description += " " + ends
        embed.add_field(
            name=t(locale, "Still picking"), value=", ".join(waiting) or t(locale, "nobody"), inline=False
        )
    embed.add_field(
        name=t(locale, "Scores"),
        value="\n".join(f"{name}: {score}" for name, score in zip(names, view["scores"], strict=True)),
    )
    if view["rounds"]:
        last = view["rounds"][-1]
        embed.add_field(
            name=t(locale, "Round {round}", round=len(view["rounds"])),
            value="\n".join(
                picked(locale, name, pick, points)
                for name, pick, points in zip(names, last, scored(last), strict=True)
            ),
        )
    items = (
        []
        if view["over"] or not live
        else [GameButton(channel_id, "pick", str(v), label=str(v)) for v in PICKS]
    )
    return Board(embed=embed, items=items)


def picked(locale: str, name: str, pick: int | None, points: int) -> str:
    if pick is None:
        return t(locale, "{name} picked nothing (+{points})", name=name, points=points)
    return t(locale, "{name} picked {pick} (+{points})", name=name, pick=pick, points=points)
