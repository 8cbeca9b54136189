"""Odd One Out's board: who has picked (never what), the scores, the last round face up, and the
three pick buttons. Drawn from the public view alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.glue.board import Board
from bot.glue.components import GameButton

from .engine import PICKS, ROUNDS, scored


def render(view: Mapping[str, Any], names: Sequence[str], channel_id: int, *, live: bool = True) -> Board:
    """``live=False``: a replay's board, with no deadline and no buttons."""
    title = (
        "Odd One Out — game over" if view["over"] else f"Odd One Out — round {view['round'] + 1} of {ROUNDS}"
    )
    embed = discord.Embed(title=title, colour=discord.Colour.teal())
    if not view["over"]:
        waiting = [name for name, done in zip(names, view["picked"], strict=True) if not done]
        embed.description = "Pick 1, 2 or 3: a pick nobody else makes scores its value."
        if live and view["deadline"] is not None:
            embed.description += f" The round ends <t:{view['deadline'] // 1000}:R>."
        embed.add_field(name="Still picking", value=", ".join(waiting) or "nobody", inline=False)
    embed.add_field(
        name="Scores",
        value="\n".join(f"{name}: {score}" for name, score in zip(names, view["scores"], strict=True)),
    )
    if view["rounds"]:
        last = view["rounds"][-1]
        points = scored(last)
        embed.add_field(
            name=f"Round {len(view['rounds'])}",
            value="\n".join(
                f"{name} picked {pick if pick is not None else 'nothing'} (+{p})"
                for name, pick, p in zip(names, last, points, strict=True)
            ),
        )
    items = (
        []
        if view["over"] or not live
        else [GameButton(channel_id, "pick", str(v), label=str(v)) for v in PICKS]
    )
    return Board(embed=embed, items=items)
