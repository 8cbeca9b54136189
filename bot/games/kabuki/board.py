"""The Kabuki board message, drawn from the engine's public view only.

Memory is the game, so nothing here may read the engine's stacks: every line of text, every
button label and the picture come from ``engine.view(None)``, which shows each stack's top and
height, and a buried card only inside ``reveal`` while a challenged stack is on show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.games.kabuki.engine import STACKS, KabukiEngine
from bot.games.kabuki.pictures import MASKS, board_image, encode, reveal_image, stacked
from bot.glue.board import Board, Picture, final_title, winners_line
from bot.glue.components import GameButton
from bot.i18n import DEFAULT, kept, t, tn

PICTURE_NAME = "kabuki.png"
# Kabuki's colour (vermilion, of the Okabe-Ito palette the masks are drawn in); a reveal in
# orange, a finished game in grey.
COLOUR = discord.Colour.from_rgb(213, 94, 0)
REVEAL_COLOUR = discord.Colour.from_rgb(230, 159, 0)
OVER_COLOUR = discord.Colour.dark_grey()

View = Mapping[str, Any]


# A board is drawn on every press, and most of its lines are the same as on the board before (a
# stack's line, a player's while their counts stand, the footer): those are ``kept`` per arguments
# and language (bot.i18n.kept), so a press draws only the lines its move changed.


def mask_name(card: int, locale: str = DEFAULT) -> str:
    return t(locale, MASKS[card])


def mask(card: int | None, locale: str = DEFAULT) -> str:
    return t(locale, "actor (empty)") if card is None else mask_name(card, locale)


def ts(ms: int, style: str = "R") -> str:
    """A Discord timestamp: every client renders (and counts down) it in its own time zone."""
    return f"<t:{ms // 1000}:{style}>"


def tokens(locale: str, n: int) -> str:
    return tn(locale, "{n} token", "{n} tokens", n)


def cards(locale: str, n: int) -> str:
    return tn(locale, "{n} card", "{n} cards", n)


# -- the picture ----------------------------------------------------------------------------------


def picture_key(view: View, *, with_reveal: bool = True, locale: str = DEFAULT) -> tuple[Any, ...]:
    """Exactly what the picture shows, so an unchanged picture is never uploaded again; it names
    the game, since pictures of every game are cached together by key (``bot.glue.board.PICTURES``),
    and the language of its words ("Stack 1", the masks' names)."""
    window = view.get("stop_window")
    current = view["current"]
    key: tuple[Any, ...] = (
        "kabuki",
        locale,
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
    locale = key[1]
    board = board_image(*key[2:6], locale=locale)
    if len(key) == 6:
        return encode(board)
    stack, shown, matches = key[6:]
    return encode(stacked(board, reveal_image(shown, matches, stack, locale=locale)))


def picture(view: View, *, with_reveal: bool = True, locale: str = DEFAULT) -> Picture:
    key = picture_key(view, with_reveal=with_reveal, locale=locale)
    return Picture(
        key=key, render=lambda: render_picture(key), filename=PICTURE_NAME, job=(render_picture, (key,))
    )


# -- text -----------------------------------------------------------------------------------------


def event_line(event: Mapping[str, Any] | None, names: Sequence[str], locale: str = DEFAULT) -> str | None:
    """The last notable public event in words (the view already dropped any buried card)."""
    if event is None:
        return None
    kind, d = event["kind"], event["data"]
    if kind == "round_start":
        return tn(
            locale,
            "🎬 Round {round} begins: {n} token each; **{name}** starts.",
            "🎬 Round {round} begins: {n} tokens each; **{name}** starts.",
            d["tokens"],
            round=d["round"],
            name=names[d["first"]],
        )
    if kind == "placed":
        fields = {"name": names[d["seat"]], "mask": mask_name(d["card"], locale), "stack": d["stack"] + 1}
        if d["auto"]:
            line = t(
                locale,
                "⏰ **{name}** ran out of time: the bot put the **{mask}** on stack {stack} for them.",
                **fields,
            )
        else:
            line = t(locale, "**{name}** put the **{mask}** on stack {stack}.", **fields)
        if d["last"]:
            line += " " + t(locale, "It was the last card of the deck.")
        return line
    if kind == "race_open":
        return t(locale, "✋ Someone pressed **Stop!** on stack {stack}.", stack=d["stack"] + 1)
    if kind == "challenge":
        who, placer = names[d["challenger"]], names[d["placer"]]
        if d["k"]:
            return t(
                locale,
                "🎭 **{challenger}** caught **{placer}** on stack {stack}: {masks} below the top, {tokens} to {challenger}.",
                challenger=who,
                placer=placer,
                stack=d["stack"] + 1,
                masks=tn(locale, "{n} matching mask", "{n} matching masks", d["k"]),
                tokens=tokens(locale, d["moved"]),
            )
        return t(
            locale,
            "🎭 **{challenger}** challenged **{placer}** on stack {stack}: no match, {challenger} returns 1 token to the box.",
            challenger=who,
            placer=placer,
            stack=d["stack"] + 1,
        )
    if kind == "round_end":
        fields = {"round": d["round"], "name": names[d["ended_by"]]}
        if d["reason"] == "zero_tokens":
            return t(locale, "🏁 Round {round} is over: **{name}** ran out of tokens.", **fields)
        return t(locale, "🏁 Round {round} is over: **{name}** placed the last card.", **fields)
    if kind == "game_over":
        return t(locale, "🏆 The game is over.")
    return None


def _turn_line(view: View, names: Sequence[str], locale: str) -> str:
    current = view["current"]
    fields = {
        "name": names[current["seat"]],
        "mask": mask_name(current["card"], locale),
        "opens": ts(view["place_opens"]) if view["place_opens"] is not None else "",
        "deadline": ts(view["turn_deadline"]) if view["turn_deadline"] is not None else "",
    }
    # Said only while it lies ahead ("in 3 seconds"); the board is redrawn when it passes.
    if view["place_opens"] is not None:
        if view["turn_deadline"] is not None:
            return t(
                locale,
                "▶️ **{name}** can place the **{mask}** on a stack {opens}; the bot places it for them {deadline}.",
                **fields,
            )
        return t(locale, "▶️ **{name}** can place the **{mask}** on a stack {opens}.", **fields)
    if view["turn_deadline"] is not None:
        return t(
            locale,
            "▶️ **{name}** places the **{mask}** on a stack; the bot places it for them {deadline}.",
            **fields,
        )
    return t(locale, "▶️ **{name}** places the **{mask}** on a stack.", **fields)


def status_line(view: View, names: Sequence[str], locale: str = DEFAULT, live: bool = True) -> str:
    """What is happening now and what may be pressed; ``live=False`` (a replay) only what is
    happening, with no clock."""
    if view["phase"] == "over":
        return winners_line(locale, [names[s] for s in view["winners"] or []])
    reveal = view["reveal"]
    if reveal is not None:
        stack = reveal["stack"] + 1
        if not live:
            if view["phase"] == "between":
                return t(
                    locale, "🎭 Stack {stack} is shown to everyone; then the next round starts.", stack=stack
                )
            return t(locale, "🎭 Stack {stack} is shown to everyone; then play resumes.", stack=stack)
        fields = {"stack": stack, "when": ts(reveal["until"])}
        if view["phase"] == "between":
            return t(locale, "🎭 Stack {stack} is shown to everyone; the next round starts {when}.", **fields)
        return t(locale, "🎭 Stack {stack} is shown to everyone; play resumes {when}.", **fields)
    if not live:
        return _replay_status(view, names, locale)
    if view["race"] is not None:
        return t(
            locale, "✋ **Stop!** was pressed: other presses still count for a moment; the earliest wins."
        )
    window = view["stop_window"]
    lines = []
    if view["current"] is not None:
        lines.append(_turn_line(view, names, locale))
    if window is not None:
        fields = {"placer": names[window["placer"]], "stack": window["stack"] + 1}
        if window["closes_at"] is not None:
            lines.append(
                t(
                    locale,
                    "✋ Think **{placer}** covered the same mask on stack {stack}? Press **Stop!** until {when}, then the round ends.",
                    when=ts(window["closes_at"]),
                    **fields,
                )
            )
        else:
            lines.append(
                t(
                    locale,
                    "✋ Think **{placer}** covered the same mask on stack {stack}? Press **Stop!** until the next card is placed.",
                    **fields,
                )
            )
    return "\n".join(lines) or "…"


def _replay_status(view: View, names: Sequence[str], locale: str) -> str:
    lines = []
    if view["race"] is not None:
        lines.append(t(locale, "✋ **Stop!** was called; the earliest call wins."))
    current = view["current"]
    if current is not None:
        lines.append(
            t(
                locale,
                "▶️ **{name}** places the **{mask}** next.",
                name=names[current["seat"]],
                mask=mask_name(current["card"], locale),
            )
        )
    window = view["stop_window"]
    if window is not None and view["race"] is None:
        fields = {"stack": window["stack"] + 1, "placer": names[window["placer"]]}
        if window["closes_at"] is not None:
            lines.append(
                t(
                    locale,
                    "✋ **Stop!** is open on stack {stack}, the last chance before the round ends: did **{placer}** cover the same mask?",
                    **fields,
                )
            )
        else:
            lines.append(
                t(
                    locale,
                    "✋ **Stop!** is open on stack {stack}: did **{placer}** cover the same mask?",
                    **fields,
                )
            )
    return "\n".join(lines) or "…"


def stacks_text(view: View, locale: str = DEFAULT) -> str:
    window = view["stop_window"]
    placed = window["stack"] if window is not None else None
    return "\n".join(
        [
            _stack_line(s, stack["top"], stack["height"], s == placed, locale)
            for s, stack in enumerate(view["stacks"])
        ]
    )


@kept
def _stack_line(s: int, top: int | None, height: int, placed: bool, locale: str) -> str:
    line = f"**{s + 1}.** {mask(top, locale)} · {cards(locale, height)}"
    if placed:
        line += " " + t(locale, "← last placed")
    return line


def players_text(view: View, names: Sequence[str], locale: str = DEFAULT) -> str:
    current = view["current"]
    active = current["seat"] if current is not None else None
    totals, held = view["totals"], view["tokens"]
    return "\n".join(
        [
            _player_line(name, seat == active, held[seat], totals[seat], locale)
            for seat, name in enumerate(names)
        ]
    )


@kept
def _player_line(name: str, active: bool, held: int, total: int, locale: str) -> str:
    marker = "▶️" if active else "▫️"
    vp = tn(locale, "{n} VP", "{n} VP", total)
    return f"{marker} **{name}** — {tokens(locale, held)} · {vp}"


def reveal_text(reveal: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT) -> str:
    shown_cards = reveal["cards"]
    matches = set(reveal["matches"])
    shown = []
    for i, card in enumerate(shown_cards):
        text = mask_name(card, locale)
        if i == len(shown_cards) - 1:
            text = t(locale, "**{mask}** (top)", mask=text)
        elif i in matches:
            text = f"**{text}** ✔"
        shown.append(text)
    k = reveal["k"]
    who, placer = names[reveal["challenger"]], names[reveal["placer"]]
    if k:
        verdict = t(
            locale,
            "{matches} below the top: {placer} gives {challenger} {tokens}.",
            matches=tn(locale, "{n} match", "{n} matches", k),
            placer=placer,
            challenger=who,
            tokens=tokens(locale, reveal["moved"]),
        )
    else:
        verdict = t(locale, "No match: {challenger} returns 1 token to the box.", challenger=who)
    return t(locale, "Bottom → top: {cards}", cards=" · ".join(shown)) + "\n" + verdict


def rounds_text(view: View, names: Sequence[str], locale: str = DEFAULT) -> str | None:
    results = view["round_results"]
    if not results:
        return None
    rounds = tuple((r["round"], r["ended_by"], r["reason"], tuple(r["tokens"])) for r in results)
    return _rounds_text(rounds, tuple(names), locale)


@kept
def _rounds_text(rounds: tuple[tuple[Any, ...], ...], names: tuple[str, ...], locale: str) -> str:
    """Each finished round's line: (round, who ended it, why, each seat's tokens)."""
    lines = []
    for number, ended_by, reason, held in rounds:
        fields = {
            "round": number,
            "name": names[ended_by],
            "scores": ", ".join(f"{names[s]} {n}" for s, n in enumerate(held)),
        }
        if reason == "zero_tokens":
            lines.append(t(locale, "Round {round} (out of tokens, ended by {name}): {scores}", **fields))
        else:
            lines.append(t(locale, "Round {round} (deck out, ended by {name}): {scores}", **fields))
    return "\n".join(lines)


# -- the whole board ------------------------------------------------------------------------------


def buttons(channel_id: int, view: View, locale: str = DEFAULT) -> list[discord.ui.Item[Any]]:
    """Four stack buttons and Stop!. Everyone sees the same buttons: the engine decides who may
    press them, and the public turn counter in each custom_id spots a press on an old board."""
    turn = view["turn"]
    can_place = view["current"] is not None and view["placing_blocked"] is None
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            channel_id,
            "place",
            f"{s}-{turn}",
            label=_stack_label(s, stack["top"], locale),
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
            label=t(locale, "Stop!"),
            emoji="✋",
            style=discord.ButtonStyle.danger,
            disabled=window is None,
            row=1,
        )
    )
    return items


def _stack_label(s: int, top: int | None, locale: str) -> str:
    return f"{s + 1} · {t(locale, 'actor') if top is None else mask_name(top, locale)}"


def render(
    view: View,
    names: Sequence[str],
    channel_id: int,
    *,
    final: bool = False,
    live: bool = True,
    locale: str = DEFAULT,
) -> Board:
    """The board for a public view, in ``locale`` (the game's public language). ``final`` drops
    the reveal (a finished game's board stays in the channel for good, and must not keep buried
    cards) and the buttons. ``live=False`` is a replay's board: what was happening, with no clock
    and no call to press anything."""
    reveal = None if final else view["reveal"]
    colour = OVER_COLOUR if final else (REVEAL_COLOUR if reveal is not None else COLOUR)
    embed = discord.Embed(
        title=_title(view["round"], view["rounds"], final, locale),
        description=status_line(view, names, locale, live),
        colour=colour,
    )
    if reveal is not None:
        embed.add_field(
            name=t(locale, "🎭 Stack {stack} revealed", stack=reveal["stack"] + 1),
            value=reveal_text(reveal, names, locale),
            inline=False,
        )
    stacks = stacks_text(view, locale)
    embed.add_field(name=t(locale, "Stacks (top mask)"), value=stacks, inline=True)
    embed.add_field(name=t(locale, "Players"), value=players_text(view, names, locale), inline=False)
    last = event_line(view["last_event"], names, locale)
    if last is not None and not final:
        embed.add_field(name=t(locale, "Last event"), value=last, inline=False)
    rounds = rounds_text(view, names, locale)
    if rounds is not None:
        embed.add_field(name=t(locale, "Rounds"), value=rounds, inline=False)
    embed.set_footer(text=_footer(view["deck_left"], view["box"], live and not final, locale))
    items = [] if final else buttons(channel_id, view, locale)
    # Each stack's Place button beside that stack's line.
    beside = list(zip(stacks.split("\n"), items[:4], strict=False)) if items else []
    return Board(
        embed=embed, items=items, picture=picture(view, with_reveal=not final, locale=locale), beside=beside
    )


@kept
def _title(round: int, rounds: int, final: bool, locale: str) -> str:
    if final:
        return final_title(locale, KabukiEngine.title)
    return t(locale, "Kabuki — round {round} of {rounds}", round=round, rounds=rounds)


@kept
def _footer(deck_left: int, box: int, call: bool, locale: str) -> str:
    counts = {"cards": cards(locale, deck_left), "tokens": tokens(locale, box)}
    if call:  # a call to remember has no place once nothing is left to play
        return t(locale, "Deck: {cards} left · Box: {tokens} · Remember what lies beneath!", **counts)
    return t(locale, "Deck: {cards} left · Box: {tokens}", **counts)


__all__ = ["PICTURE_NAME", "STACKS", "event_line", "picture_key", "render", "render_picture"]
