"""The Discord board of Island of Monster Masks: embed, 4×4 tile buttons and the tiles picture.

Everything here is drawn from the engine's *public* view (``view(None)``), so nothing on the
board can carry the Mime's card. Open races are left out on purpose: a slap alone then leaves the
board as it was, so the cog answers it privately without editing the board, and the board
changes when the race settles a quarter second later. The card reaches the Mime only through
``card_message``, which the cog sends as an ephemeral reply. Button ``custom_id``s hold the public turn number
(``slap:<turn>.<tile>``), so a press from an earlier turn is refused by the engine.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.board import GAME_COLOUR, Board, Picture
from bot.components import GameButton
from bot.games.masks.pictures import board_png, face_png
from bot.words import duration, plural

SLAP = "slap"
CARD = "card"
END = "end"

NAME_CUT = 20  # a holder's name on a button label; labels stay short enough for a phone
MODES = {
    "camera": "🎥 camera: watch the Mime in your voice/video channel",
    "emoji": "😀 emoji: the Mime posts only emoji in this channel",
}
SECOND_CHANCE = "Second chance: a player who loses a race may slap another tile"
REASONS = {
    "all_slapped": "every guesser slapped a tile",
    "timer": "the guess timer ran out",
    "mime": "the Mime ended the guessing",
}


def short(name: str, cut: int = NAME_CUT) -> str:
    return name if len(name) <= cut else name[: cut - 1] + "…"


def slap_arg(turn: int, tile: int) -> str:
    return f"{turn}.{tile}"


def parse_slap_arg(arg: str) -> tuple[int, int] | None:
    """(turn, tile) from a tile button's public argument, or None if it is not one."""
    turn, dot, tile = arg.partition(".")
    if not dot or not turn.isdigit() or not tile.isdigit():
        return None
    return int(turn), int(tile)


def options_text(options: dict[str, Any]) -> str:
    guess = duration(options.get("guess_ms", 60_000))
    mode = MODES.get(options.get("mime_mode", "camera"), options.get("mime_mode", "camera"))
    sounds = "allowed (no words)" if options.get("sounds") else "no: silent miming"
    again = (
        f"{SECOND_CHANCE}: **on**" if options.get("second_chance") else "One slap each: a lost race is final"
    )
    return f"Guess timer: **{guess}**\nMime: {mode}\nMaking sounds: {sounds}\n{again}"


def picture(view: dict[str, Any]) -> Picture:
    """The 16 faces, the revealed card ringed only once it is public. Who holds which tile is on
    the buttons and in the players' list, so a slap leaves the picture as it is."""
    highlight = None
    if view["phase"] != "guessing" and view["last_reveal"] is not None:
        highlight = view["last_reveal"]["card"]
    return Picture(key=("masks", highlight), render=lambda: board_png(highlight), filename="tiles.png")


def board_state(view: dict[str, Any], names: Sequence[str], computers: Sequence[int] = ()) -> tuple[Any, ...]:
    """Every part of the public view ``render`` draws from, and nothing else: a slap that joins
    or opens a race changes the view (its races) but not this, so the board is not drawn again
    (``GameCog.board_state``). A test checks that equal states draw equal boards."""
    return (
        tuple(names),
        tuple(computers),
        view["turn"],
        view["turns"],
        view["phase"],
        view["mime"],
        view["guess_deadline"],
        view["reveal_until"],
        tuple(view["held_by"]),
        tuple(view["lost"]),
        tuple(view["piles"]),
        view["deck"],
        view["removed"],
        view["last_reveal"],
        view["options"],
    )


def _status_lines(view: dict[str, Any], names: Sequence[str]) -> str:
    tile_of = {seat: tile for tile, seat in enumerate(view["held_by"]) if seat is not None}
    lines = []
    for seat, name in enumerate(names):
        if seat == view["mime"]:
            status = "🎭 Mime"
        elif seat in tile_of:
            status = f"✋ {view['tile_names'][tile_of[seat]]}"
        elif seat in view["lost"]:
            status = "⚡ lost a race: no tile this turn"
        elif view["phase"] == "guessing":
            status = "🤔 thinking…"
        else:
            status = "— no tile"
        lines.append(f"**{short(name)}** · {status} · {view['piles'][seat]} 🃏")
    return "\n".join(lines)


def _reveal_text(reveal: dict[str, Any], names: Sequence[str]) -> str:
    scorer = reveal["scorer"]
    why = REASONS.get(reveal["reason"], reveal["reason"])
    if scorer is None:
        result = "Nobody guessed it: both cards leave the game."
    else:
        result = f"**{names[scorer]}** guessed it: +1 card for them and +1 for **{names[reveal['mime']]}**."
    return f"Turn {reveal['turn']}: the card was **{reveal['name']}** ({why}). {result}"


def render(
    channel_id: int,
    view: dict[str, Any],
    names: Sequence[str],
    computers: Sequence[int] = (),
    *,
    live: bool = True,
) -> Board:
    """The board during play, from the public view only; ``computers`` are the computer seats.
    ``live=False`` is a replay's board: it says what was going on, with no clock and nothing to
    press."""
    mime = names[view["mime"]]
    embed = discord.Embed(
        title=f"Island of Monster Masks — turn {view['turn']}/{view['turns']}", colour=GAME_COLOUR
    )
    if view["phase"] == "guessing":
        deadline = view["guess_deadline"] // 1000
        rule = (
            "lose a race and you may slap another."
            if view["options"]["second_chance"]
            else "a slap is final, even if you lose the race."
        )
        acting = (
            f"🎭 **{mime}** is the Mime: it acts out its card in emoji here, in a moment.\n"
            if view["mime"] in computers
            else f"🎭 **{mime}** is the Mime. **{mime}**: press **My card** to see your secret card "
            f"(only you can), then act it out!\n"
        )
        embed.description = (
            f"{acting}Everyone else: slap **one** tile below. First slap wins the tile; {rule} "
            f"Time's up <t:{deadline}:R>."
            if live
            else f"🎭 **{mime}** mimes the secret card; the others each slap the tile they guess. "
            f"First slap wins the tile; {rule}"
        )
    else:
        text = _reveal_text(view["last_reveal"], names)
        if view["reveal_until"] is not None and live:
            text += f"\nNext Mime draws <t:{view['reveal_until'] // 1000}:R>."
        embed.description = text
    embed.add_field(name="Players", value=_status_lines(view, names), inline=False)
    if view["phase"] == "guessing" and view["last_reveal"] is not None:
        embed.add_field(name="Last turn", value=_reveal_text(view["last_reveal"], names), inline=False)
    embed.set_footer(
        text=f"Deck: {plural(view['deck'], 'card')} · out of the game: {view['removed']} · "
        f"Mime: {view['options']['mime_mode']} · sounds: {'yes' if view['options']['sounds'] else 'no'} · "
        f"second chance: {'yes' if view['options']['second_chance'] else 'no'}"
    )
    return Board(embed=embed, items=buttons(channel_id, view, names), picture=picture(view))


def buttons(channel_id: int, view: dict[str, Any], names: Sequence[str]) -> list[GameButton]:
    guessing = view["phase"] == "guessing"
    reveal = view["last_reveal"] if not guessing else None
    items: list[GameButton] = []
    for tile, name in enumerate(view["tile_names"]):
        holder = view["held_by"][tile]
        style = discord.ButtonStyle.primary
        label = name
        if holder is not None:
            label = f"{name} · {short(names[holder])}"
            style = discord.ButtonStyle.secondary
        if reveal is not None and tile == reveal["card"]:
            style = discord.ButtonStyle.success
        items.append(
            GameButton(
                channel_id,
                SLAP,
                slap_arg(view["turn"], tile),
                label=label,
                style=style,
                disabled=not guessing or holder is not None,
                row=tile // 4,
            )
        )
    items.append(
        GameButton(channel_id, CARD, view["turn"], label="My card", emoji="🃏", disabled=not guessing, row=4)
    )
    items.append(
        GameButton(
            channel_id,
            END,
            view["turn"],
            label="End guessing",
            emoji="⏹️",
            style=discord.ButtonStyle.danger,
            disabled=not guessing,
            row=4,
        )
    )
    return items


def render_final(view: dict[str, Any], names: Sequence[str]) -> Board:
    scores = view["piles"]
    winners = set(view["winners"] or ())
    order = sorted(range(len(names)), key=lambda seat: (-scores[seat], seat))
    lines = [
        f"{'🏆' if seat in winners else '▫️'} **{names[seat]}** — {plural(scores[seat], 'card')}"
        for seat in order
    ]
    embed = discord.Embed(title="Island of Monster Masks — game over", colour=GAME_COLOUR)
    who = ", ".join(names[seat] for seat in sorted(winners))
    embed.description = f"Winner{'s' if len(winners) > 1 else ''}: **{who}**"
    embed.add_field(name="Cards collected", value="\n".join(lines), inline=False)
    if view["last_reveal"] is not None:
        embed.add_field(name="Last turn", value=_reveal_text(view["last_reveal"], names), inline=False)
    embed.set_footer(
        text=f"{plural(view['turns'], 'turn')} · {plural(view['removed'], 'card')} left the game"
    )
    return Board(embed=embed, picture=picture(view))


def card_message(card: int, name: str, turn: int) -> dict[str, Any]:
    """The Mime's secret card, for an ephemeral message only."""
    return {
        "content": f"🤫 Turn {turn}: your secret card is **{name}**. Act out this face — no words!",
        "file": discord.File(io.BytesIO(face_png(card)), filename="card.png"),
    }
