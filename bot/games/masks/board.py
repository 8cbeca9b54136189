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

from bot.games.masks.engine import MasksEngine
from bot.games.masks.pictures import board_png, face_png
from bot.glue.board import Board, Picture, final_title, winners_line
from bot.glue.components import GameButton
from bot.i18n import DEFAULT, N_, duration, kept, t, tn

# The island's colour (bluish green, of the Okabe-Ito palette): its lobby, board and cards.
COLOUR = discord.Colour.from_rgb(0, 158, 115)
SLAP = "slap"
CARD = "card"
END = "end"

NAME_CUT = 20  # a holder's name on a button label; labels stay short enough for a phone
MODES = {
    "camera": N_("🎥 camera: watch the Mime in your voice/video channel"),
    "emoji": N_("😀 emoji: the Mime posts only emoji in this channel"),
}
MODE_NAMES = {"camera": N_("camera"), "emoji": N_("emoji")}  # the footer's short form
SECOND_CHANCE = "Second chance: a player who loses a race may slap another tile"  # /masks new's option
REASONS = {
    "all_slapped": N_("every guesser slapped a tile"),
    "timer": N_("the guess timer ran out"),
    "mime": N_("the Mime ended the guessing"),
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


def monster(locale: str, name: str) -> str:
    """A monster's name (the engine's English id) in ``locale``."""
    return t(locale, name)


def options_text(options: dict[str, Any], locale: str = DEFAULT) -> str:
    mode_id = options.get("mime_mode", "camera")
    mode = t(locale, MODES[mode_id]) if mode_id in MODES else mode_id
    sounds = (
        t(locale, "Making sounds: allowed (no words)")
        if options.get("sounds")
        else t(locale, "Making sounds: no: silent miming")
    )
    again = (
        t(locale, "Second chance: a player who loses a race may slap another tile: **on**")
        if options.get("second_chance")
        else t(locale, "One slap each: a lost race is final")
    )
    guess = t(locale, "Guess timer: **{guess}**", guess=duration(locale, options.get("guess_ms", 60_000)))
    return "\n".join([guess, t(locale, "Mime: {mode}", mode=mode), sounds, again])


def picture(view: dict[str, Any], locale: str = DEFAULT) -> Picture:
    """The 16 faces, the revealed card ringed only once it is public. Who holds which tile is on
    the buttons and in the players' list, so a slap leaves the picture as it is. The names under
    the faces are in ``locale``, so the language is part of the key."""
    highlight = None
    if view["phase"] != "guessing" and view["last_reveal"] is not None:
        highlight = view["last_reveal"]["card"]
    return Picture(
        key=("masks", locale, highlight), render=lambda: board_png(highlight, locale), filename="tiles.png"
    )


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


# A board is drawn again whenever a race settles, several times a turn, and most of its text
# stands all turn (its title, what the Mime and the guessers do, the last turn, the footer) or
# changes for one seat only: those parts are ``kept`` per arguments and language (bot.i18n.kept).

# What a seat is doing, in a player's line; a seat holding a tile is its monster's name instead.
MIME, LOST, THINKING, NO_TILE = range(4)


def _status_lines(view: dict[str, Any], names: Sequence[str], locale: str) -> str:
    tile_of = {seat: tile for tile, seat in enumerate(view["held_by"]) if seat is not None}
    mime, lost, piles, tile_names = view["mime"], view["lost"], view["piles"], view["tile_names"]
    idle = THINKING if view["phase"] == "guessing" else NO_TILE
    lines = []
    for seat, name in enumerate(names):
        doing: int | str
        if seat == mime:
            doing = MIME
        elif seat in tile_of:
            doing = tile_names[tile_of[seat]]
        elif seat in lost:
            doing = LOST
        else:
            doing = idle
        lines.append(_status_line(name, doing, piles[seat], locale))
    return "\n".join(lines)


@kept
def _status_line(name: str, doing: int | str, pile: int, locale: str) -> str:
    if doing == MIME:
        status = t(locale, "🎭 Mime")
    elif doing == LOST:
        status = t(locale, "⚡ lost a race: no tile this turn")
    elif doing == THINKING:
        status = t(locale, "🤔 thinking…")
    elif doing == NO_TILE:
        status = t(locale, "— no tile")
    else:
        status = "✋ " + monster(locale, str(doing))
    return f"**{short(name)}** · {status} · {pile} 🃏"


def _reveal_text(reveal: dict[str, Any], names: Sequence[str], locale: str) -> str:
    scorer = reveal["scorer"]
    return _revealed(
        reveal["turn"],
        reveal["name"],
        reveal["reason"],
        None if scorer is None else names[scorer],
        names[reveal["mime"]],
        locale,
    )


@kept
def _revealed(turn: int, name: str, reason_id: str, scorer: str | None, mime: str, locale: str) -> str:
    reason = REASONS.get(reason_id)
    why = t(locale, reason) if reason else reason_id
    card = monster(locale, name)
    if scorer is None:
        return t(
            locale,
            "Turn {turn}: the card was **{card}** ({why}). Nobody guessed it: both cards leave the game.",
            turn=turn,
            card=card,
            why=why,
        )
    return t(
        locale,
        "Turn {turn}: the card was **{card}** ({why}). **{scorer}** guessed it: +1 card for them and "
        "+1 for **{mime}**.",
        turn=turn,
        card=card,
        why=why,
        scorer=scorer,
        mime=mime,
    )


def _yes_no(locale: str, value: bool) -> str:
    return t(locale, "yes") if value else t(locale, "no")


def render(
    channel_id: int,
    view: dict[str, Any],
    names: Sequence[str],
    computers: Sequence[int] = (),
    *,
    live: bool = True,
    locale: str = DEFAULT,
) -> Board:
    """The board during play, from the public view only; ``computers`` are the computer seats.
    ``live=False`` is a replay's board: it says what was going on, with no clock and nothing to
    press. Every word is in ``locale``."""
    mime = names[view["mime"]]
    embed = discord.Embed(title=_title(view["turn"], view["turns"], locale), colour=COLOUR)
    if view["phase"] == "guessing":
        embed.description = _guessing(
            mime,
            view["mime"] in computers,
            view["options"]["second_chance"],
            view["guess_deadline"] // 1000,
            live,
            locale,
        )
    else:
        text = _reveal_text(view["last_reveal"], names, locale)
        if view["reveal_until"] is not None and live:
            text += "\n" + t(locale, "Next Mime draws <t:{at}:R>.", at=view["reveal_until"] // 1000)
        embed.description = text
    embed.add_field(name=t(locale, "Players"), value=_status_lines(view, names, locale), inline=False)
    if view["phase"] == "guessing" and view["last_reveal"] is not None:
        embed.add_field(
            name=t(locale, "Last turn"), value=_reveal_text(view["last_reveal"], names, locale), inline=False
        )
    options = view["options"]
    embed.set_footer(
        text=_footer(
            view["deck"],
            view["removed"],
            options["mime_mode"],
            options["sounds"],
            options["second_chance"],
            locale,
        )
    )
    return Board(embed=embed, items=buttons(channel_id, view, names, locale), picture=picture(view, locale))


@kept
def _title(turn: int, turns: int, locale: str) -> str:
    return t(locale, "Island of Monster Masks — turn {turn}/{turns}", turn=turn, turns=turns)


@kept
def _guessing(mime: str, computer: bool, second: bool, deadline: int, live: bool, locale: str) -> str:
    """What the Mime and the guessers do this turn; ``computer``: the Mime is a computer."""
    if not live:
        if second:
            return t(
                locale,
                "🎭 **{mime}** mimes the secret card; the others each slap the tile they guess. "
                "First slap wins the tile; lose a race and you may slap another.",
                mime=mime,
            )
        return t(
            locale,
            "🎭 **{mime}** mimes the secret card; the others each slap the tile they guess. "
            "First slap wins the tile; a slap is final, even if you lose the race.",
            mime=mime,
        )
    acting = (
        t(
            locale,
            "🎭 **{mime}** is the Mime: it acts out its card in emoji here, in a moment.",
            mime=mime,
        )
        if computer
        else t(
            locale,
            "🎭 **{mime}** is the Mime. **{mime}**: your secret card comes to you privately "
            "(if it does not, press **My card**; only you can see it). Act it out!",
            mime=mime,
        )
    )
    slap = (
        t(
            locale,
            "Everyone else: slap **one** tile below. First slap wins the tile; lose a race and "
            "you may slap another. Time's up <t:{deadline}:R>.",
            deadline=deadline,
        )
        if second
        else t(
            locale,
            "Everyone else: slap **one** tile below. First slap wins the tile; a slap is final, "
            "even if you lose the race. Time's up <t:{deadline}:R>.",
            deadline=deadline,
        )
    )
    return acting + "\n" + slap


@kept
def _footer(deck: int, removed: int, mode: str, sounds: bool, second: bool, locale: str) -> str:
    return t(
        locale,
        "Deck: {deck} · out of the game: {removed} · Mime: {mode} · sounds: {sounds} · "
        "second chance: {again}",
        deck=tn(locale, "{n} card", "{n} cards", deck),
        removed=removed,
        mode=t(locale, MODE_NAMES[mode]) if mode in MODE_NAMES else mode,
        sounds=_yes_no(locale, sounds),
        again=_yes_no(locale, second),
    )


def buttons(
    channel_id: int, view: dict[str, Any], names: Sequence[str], locale: str = DEFAULT
) -> list[GameButton]:
    guessing = view["phase"] == "guessing"
    reveal = view["last_reveal"] if not guessing else None
    items: list[GameButton] = []
    for tile, name in enumerate(view["tile_names"]):
        holder = view["held_by"][tile]
        style = discord.ButtonStyle.primary
        label = monster(locale, name)
        if holder is not None:
            label = f"{label} · {short(names[holder])}"
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
                # A held tile stays pressable while the turn runs: a slap on it from a board not
                # yet redrawn (someone took it a moment before) reaches the bot and is told who
                # took it and by how much. Discord refuses a press on a disabled button itself,
                # and its presser would be told nothing ("This interaction failed").
                disabled=not guessing,
                row=tile // 4,
            )
        )
    items.append(
        GameButton(
            channel_id,
            CARD,
            view["turn"],
            label=t(locale, "My card"),
            emoji="🃏",
            disabled=not guessing,
            row=4,
        )
    )
    items.append(
        GameButton(
            channel_id,
            END,
            view["turn"],
            label=t(locale, "End guessing"),
            emoji="⏹️",
            style=discord.ButtonStyle.danger,
            disabled=not guessing,
            row=4,
        )
    )
    return items


def render_final(view: dict[str, Any], names: Sequence[str], locale: str = DEFAULT) -> Board:
    scores = view["piles"]
    winners = set(view["winners"] or ())
    order = sorted(range(len(names)), key=lambda seat: (-scores[seat], seat))
    lines = [
        f"{'🏆' if seat in winners else '▫️'} **{names[seat]}** — "
        + tn(locale, "{n} card", "{n} cards", scores[seat])
        for seat in order
    ]
    embed = discord.Embed(title=final_title(locale, MasksEngine.title), colour=COLOUR)
    embed.description = winners_line(locale, [names[seat] for seat in sorted(winners)])
    embed.add_field(name=t(locale, "Cards collected"), value="\n".join(lines), inline=False)
    if view["last_reveal"] is not None:
        embed.add_field(
            name=t(locale, "Last turn"), value=_reveal_text(view["last_reveal"], names, locale), inline=False
        )
    embed.set_footer(
        text=t(
            locale,
            "{turns} · {removed} left the game",
            turns=tn(locale, "{n} turn", "{n} turns", view["turns"]),
            removed=tn(locale, "{n} card", "{n} cards", view["removed"]),
        )
    )
    return Board(embed=embed, picture=picture(view, locale))


def card_message(card: int, name: str, turn: int, locale: str = DEFAULT) -> dict[str, Any]:
    """The Mime's secret card, for an ephemeral message only, in the Mime's ``locale``."""
    return {
        "content": t(
            locale,
            "🤫 Turn {turn}: your secret card is **{card}**. Act out this face — no words!",
            turn=turn,
            card=monster(locale, name),
        ),
        "file": discord.File(io.BytesIO(face_png(card, locale)), filename="card.png"),
    }
