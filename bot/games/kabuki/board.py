"""The Kabuki board message, drawn from the engine's public view only.

Memory is the game, so nothing here may read the engine's stacks: every line of text, every
button label and the picture come from ``engine.view(None)``, which shows each stack's top and
height, and a buried card only inside ``reveal`` while a challenged stack is on show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.board import GAME_COLOUR, Board, Picture
from bot.components import GameButton
from bot.games.kabuki.engine import STACKS
from bot.games.kabuki.pictures import MASKS, board_image, encode, reveal_image, stacked
from bot.words import plural

PICTURE_NAME = "kabuki.png"
REVEAL_COLOUR = discord.Colour.from_rgb(230, 159, 0)
OVER_COLOUR = discord.Colour.dark_grey()

View = Mapping[str, Any]


def mask(card: int | None) -> str:
    return "actor (empty)" if card is None else MASKS[card]


def ts(ms: int, style: str = "R") -> str:
    """A Discord timestamp: every client renders (and counts down) it in its own time zone."""
    return f"<t:{ms // 1000}:{style}>"


# -- the picture ----------------------------------------------------------------------------------


def picture_key(view: View, *, with_reveal: bool = True) -> tuple[Any, ...]:
    """Exactly what the picture shows, so an unchanged picture is never uploaded again; it names
    the game, since pictures of every game are cached together by key (``bot.board.PICTURES``)."""
    window = view.get("stop_window")
    current = view["current"]
    key: tuple[Any, ...] = (
        "kabuki",
        tuple(s["top"] for s in view["stacks"]),
        tuple(s["height"] for s in view["stacks"]),
        None if current is None else current["card"],
        None if window is None else window["stack"],
    )
    reveal = view.get("reveal") if with_reveal else None
    if reveal is not None:
        key += (reveal["stack"], tuple(reveal["cards"]), tuple(reveal["matches"]))
    return key


def render_picture(key: tuple[Any, ...]) -> bytes:
    """The board picture; while a stack is revealed, the revealed stack is drawn under it."""
    board = board_image(*key[1:5])
    if len(key) == 5:
        return encode(board)
    stack, cards, matches = key[5:]
    return encode(stacked(board, reveal_image(cards, matches, stack)))


def picture(view: View, *, with_reveal: bool = True) -> Picture:
    key = picture_key(view, with_reveal=with_reveal)
    return Picture(key=key, render=lambda: render_picture(key), filename=PICTURE_NAME)


# -- text -----------------------------------------------------------------------------------------


def event_line(event: Mapping[str, Any] | None, names: Sequence[str]) -> str | None:
    """The last notable public event in words (the view already dropped any buried card)."""
    if event is None:
        return None
    kind, d = event["kind"], event["data"]
    if kind == "round_start":
        return f"🎬 Round {d['round']} begins: {plural(d['tokens'], 'token')} each; **{names[d['first']]}** starts."
    if kind == "placed":
        where = f"the **{MASKS[d['card']]}** on stack {d['stack'] + 1}"
        last = " It was the last card of the deck." if d["last"] else ""
        if d["auto"]:
            return f"⏰ **{names[d['seat']]}** ran out of time: the bot put {where} for them.{last}"
        return f"**{names[d['seat']]}** put {where}.{last}"
    if kind == "race_open":
        return f"✋ Someone pressed **Stop!** on stack {d['stack'] + 1}."
    if kind == "challenge":
        who, placer = names[d["challenger"]], names[d["placer"]]
        if d["k"]:
            return (
                f"🎭 **{who}** caught **{placer}** on stack {d['stack'] + 1}: "
                f"{plural(d['k'], 'matching mask')} below the top, "
                f"{plural(d['moved'], 'token')} to {who}."
            )
        return (
            f"🎭 **{who}** challenged **{placer}** on stack {d['stack'] + 1}: no match, "
            f"{who} returns 1 token to the box."
        )
    if kind == "round_end":
        how = "ran out of tokens" if d["reason"] == "zero_tokens" else "placed the last card"
        return f"🏁 Round {d['round']} is over: **{names[d['ended_by']]}** {how}."
    if kind == "game_over":
        return "🏆 The game is over."
    return None


def status_line(view: View, names: Sequence[str], live: bool = True) -> str:
    """What is happening now and what may be pressed; ``live=False`` (a replay) only what is
    happening, with no clock."""
    if view["phase"] == "over":
        winners = view["winners"] or []
        return f"🏆 Game over. Winner{'s' if len(winners) > 1 else ''}: " + ", ".join(
            f"**{names[s]}**" for s in winners
        )
    reveal = view["reveal"]
    if reveal is not None:
        nxt = "the next round starts" if view["phase"] == "between" else "play resumes"
        if not live:
            return f"🎭 Stack {reveal['stack'] + 1} is shown to everyone; then {nxt}."
        return f"🎭 Stack {reveal['stack'] + 1} is shown to everyone; {nxt} {ts(reveal['until'])}."
    if not live:
        return _replay_status(view, names)
    if view["race"] is not None:
        return "✋ **Stop!** was pressed: other presses still count for a moment; the earliest wins."
    window = view["stop_window"]
    current = view["current"]
    lines = []
    if current is not None:
        who = names[current["seat"]]
        card = f"the **{MASKS[current['card']]}** on a stack"
        if view["place_opens"] is not None:
            # Said only while it lies ahead ("in 3 seconds"); the board is redrawn when it passes.
            line = f"▶️ **{who}** can place {card} {ts(view['place_opens'])}"
        else:
            line = f"▶️ **{who}** places {card}"
        if view["turn_deadline"] is not None:
            line += f"; the bot places it for them {ts(view['turn_deadline'])}"
        lines.append(line + ".")
    if window is not None:
        until = "until the next card is placed"
        if window["closes_at"] is not None:
            until = f"until {ts(window['closes_at'])}, then the round ends"
        lines.append(
            f"✋ Think **{names[window['placer']]}** covered the same mask on stack "
            f"{window['stack'] + 1}? Press **Stop!** {until}."
        )
    return "\n".join(lines) or "…"


def _replay_status(view: View, names: Sequence[str]) -> str:
    lines = []
    if view["race"] is not None:
        lines.append("✋ **Stop!** was called; the earliest call wins.")
    current = view["current"]
    if current is not None:
        lines.append(f"▶️ **{names[current['seat']]}** places the **{MASKS[current['card']]}** next.")
    window = view["stop_window"]
    if window is not None and view["race"] is None:
        then = ", the last chance before the round ends" if window["closes_at"] is not None else ""
        lines.append(
            f"✋ **Stop!** is open on stack {window['stack'] + 1}{then}: did "
            f"**{names[window['placer']]}** cover the same mask?"
        )
    return "\n".join(lines) or "…"


def stacks_text(view: View) -> str:
    lines = []
    window = view["stop_window"]
    for s, stack in enumerate(view["stacks"]):
        mark = " ← last placed" if window is not None and window["stack"] == s else ""
        lines.append(f"**{s + 1}.** {mask(stack['top'])} · {plural(stack['height'], 'card')}{mark}")
    return "\n".join(lines)


def players_text(view: View, names: Sequence[str]) -> str:
    current = view["current"]
    active = current["seat"] if current is not None else None
    lines = []
    for seat, name in enumerate(names):
        marker = "▶️" if seat == active else "▫️"
        lines.append(
            f"{marker} **{name}** — {plural(view['tokens'][seat], 'token')} · {plural(view['totals'][seat], 'VP', 'VP')}"
        )
    return "\n".join(lines)


def reveal_text(reveal: Mapping[str, Any], names: Sequence[str]) -> str:
    cards = reveal["cards"]
    matches = set(reveal["matches"])
    shown = []
    for i, card in enumerate(cards):
        text = MASKS[card]
        if i == len(cards) - 1:
            text = f"**{text}** (top)"
        elif i in matches:
            text = f"**{text}** ✔"
        shown.append(text)
    k = reveal["k"]
    who, placer = names[reveal["challenger"]], names[reveal["placer"]]
    if k:
        verdict = (
            f"{plural(k, 'match', 'matches')} below the top: "
            f"{placer} gives {who} {plural(reveal['moved'], 'token')}."
        )
    else:
        verdict = f"No match: {who} returns 1 token to the box."
    return "Bottom → top: " + " · ".join(shown) + "\n" + verdict


def rounds_text(view: View, names: Sequence[str]) -> str | None:
    results = view["round_results"]
    if not results:
        return None
    lines = []
    for r in results:
        how = "out of tokens" if r["reason"] == "zero_tokens" else "deck out"
        scored = ", ".join(f"{names[s]} {t}" for s, t in enumerate(r["tokens"]))
        lines.append(f"Round {r['round']} ({how}, ended by {names[r['ended_by']]}): {scored}")
    return "\n".join(lines)


# -- the whole board ------------------------------------------------------------------------------


def buttons(channel_id: int, view: View) -> list[discord.ui.Item[Any]]:
    """Four stack buttons and Stop!. Everyone sees the same buttons: the engine decides who may
    press them, and the public turn counter in each custom_id spots a press on an old board."""
    turn = view["turn"]
    can_place = view["current"] is not None and view["placing_blocked"] is None
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            channel_id,
            "place",
            f"{s}-{turn}",
            label=f"{s + 1} · {mask(stack['top']) if stack['top'] is not None else 'actor'}",
            style=discord.ButtonStyle.primary,
            disabled=not can_place,
            row=0,
        )
        for s, stack in enumerate(view["stacks"])
    ]
    window = view["stop_window"]
    items.append(
        GameButton(
            channel_id,
            "stop",
            turn,
            label="Stop!",
            emoji="✋",
            style=discord.ButtonStyle.danger,
            disabled=window is None,
            row=1,
        )
    )
    return items


def render(
    view: View, names: Sequence[str], channel_id: int, *, final: bool = False, live: bool = True
) -> Board:
    """The board for a public view. ``final`` drops the reveal (a finished game's board stays in
    the channel for good, and must not keep buried cards) and the buttons. ``live=False`` is a
    replay's board: what was happening, with no clock and no call to press anything."""
    reveal = None if final else view["reveal"]
    colour = OVER_COLOUR if final else (REVEAL_COLOUR if reveal is not None else GAME_COLOUR)
    title = f"Kabuki — round {view['round']} of {view['rounds']}"
    if final:
        title = "Kabuki — final scores"
    embed = discord.Embed(title=title, description=status_line(view, names, live), colour=colour)
    if reveal is not None:
        embed.add_field(
            name=f"🎭 Stack {reveal['stack'] + 1} revealed", value=reveal_text(reveal, names), inline=False
        )
    embed.add_field(name="Stacks (top mask)", value=stacks_text(view), inline=True)
    embed.add_field(name="Players", value=players_text(view, names), inline=False)
    last = event_line(view["last_event"], names)
    if last is not None and not final:
        embed.add_field(name="Last event", value=last, inline=False)
    rounds = rounds_text(view, names)
    if rounds is not None:
        embed.add_field(name="Rounds", value=rounds, inline=False)
    embed.set_footer(
        text=f"Deck: {plural(view['deck_left'], 'card')} left · Box: {plural(view['box'], 'token')}"
        + (" · Remember what lies beneath!" if live else "")
    )
    items = [] if final else buttons(channel_id, view)
    return Board(embed=embed, items=items, picture=picture(view, with_reveal=not final))


__all__ = ["PICTURE_NAME", "STACKS", "event_line", "picture_key", "render", "render_picture"]
