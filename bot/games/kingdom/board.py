"""Discord rendering of Death Over the Kingdom: the public board, the final standings and the
private card messages.

The board is drawn from ``engine.view(None)`` only, so it cannot show a face-down card. Its
buttons are the moves open to any holder of a card (stand, exchange, the dealer's cut, the
Thief's take or keep, next round), taken from the public options of the active seat
(``public_options``). Powers are not on the board: a board offering "Use the Bard" only when the
active player holds the Bard would give the card away, and one offering every power to
everybody is a long menu that mostly does not apply. The active player finds the powers of the
card they hold under "My card", privately (``power_items``).

Every custom_id and select value carries the engine's public ``version``, so a press made on an
out-of-date board or card panel is refused (see ``parse_press``).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.board import Board, Picture
from bot.components import GameButton, GameSelect, button_id, make_view, select_id
from bot.games.kingdom.cards import CHARACTERS, POWER_CARDS
from bot.games.kingdom.pictures import card_png, reveal_png
from bot.words import plural

COLOUR = discord.Colour.from_rgb(120, 40, 60)
MODE_NAMES = {
    "classic": "Classic",
    "death-over-all": "Death over all players",
    "only-one": "There can be only one",
}
EMOJI = ("💀", "🍺", "⚖️", "🕵️", "🤡", "🎵", "🕯️", "🪄", "🐉", "⚔️", "👸", "👑", "🤴")
BUTTONS = frozenset({"stand", "exchange", "cut", "swap", "keep", "next"})
POWERS = frozenset(POWER_CARDS)  # the turn-power actions
# A card panel's button (Trader, Dragon) and select (Thief or Bard targets: at most 19 later
# players, within a select's 25) are both named "power", and their ids and values carry only the
# version and the target: the cog reads which power from the card the presser holds, so no
# custom id ever names a card.
POWER = "power"
PANEL_PRESSES = frozenset({POWER})
LOG_BUDGET = 1000  # an embed field holds 1024 characters


def card_label(card: Mapping[str, Any]) -> str:
    return f"{EMOJI[card['char']]} **{card['name']}** ({card['char']})"


def version_arg(version: int, target: int | None = None) -> str:
    return str(version) if target is None else f"{version}.{target}"


def parse_press(name: str, arg: str, values: Sequence[str] = ()) -> dict[str, Any] | None:
    """A board or card-panel press → ``{"version", "type", "target"?}``, or None if it is not one
    of ours. Buttons: name = type, arg ``"12"`` or ``"12.3"``; the panel's select: name
    ``"power"``, value ``"12.3"``. A panel press has type ``"power"``: which power is the
    presser's card's business."""
    if name == POWER and values:
        if len(values) != 1:
            return None
        arg = values[0]
    elif name not in BUTTONS and name != POWER:
        return None
    parts = arg.split(".")
    if len(parts) not in (1, 2):
        return None
    version, kind, target = parts[0], name, parts[1:]
    if not version.isdigit() or not all(t.isdigit() for t in target):
        return None
    out: dict[str, Any] = {"version": int(version), "type": kind}
    if target:
        out["target"] = int(target[0])
    return out


# ------------------------------------------------------------------ what the board offers
def public_options(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every action the active seat could have, whatever its hidden card: a superset of its
    ``legal_actions`` computed from public facts only (Kings are face up, the deck size and the
    play order are public)."""
    if view["phase"] == "reveal":
        return [{"type": "next"}]
    seat = view["turn"]
    if view["phase"] != "play" or seat is None:
        return []
    if view["choosing"] is not None:
        target = view["peek_target"]
        return [{"type": "swap", "target": target}, {"type": "keep", "target": target}]
    seats = view["seats"]
    order = view["order"]
    rest = order[order.index(seat) + 1 :]
    free = [t for t in rest if not _king(seats[t])]
    right = rest[0] if rest else None
    deck = view["deck_size"] > 0
    options: list[dict[str, Any]] = [{"type": "stand"}]
    if right is None:
        if deck:
            options.append({"type": "cut"})
    elif right in free:
        options.append({"type": "exchange", "target": right})
    if deck:
        options.append({"type": "trader"})
    if right is not None and right in free and deck:
        options.append({"type": "dragon", "target": right})
    options += [{"type": "thief", "target": t} for t in free]
    options += [{"type": "bard", "target": t} for t in free]
    return options


def _king(seat: Mapping[str, Any]) -> bool:
    shown = seat["shown"]
    return shown is not None and shown["char"] == 12


def _power_label(kind: str, target: int | None, names: Sequence[str]) -> str:
    victim = names[target] if target is not None else ""
    return {
        "trader": f"{EMOJI[2]} Trader: swap with the deck's top card",
        "dragon": f"{EMOJI[8]} Dragon: {victim} discards and draws",
        "thief": f"{EMOJI[3]} Thief: look at {victim}'s card",
        "bard": f"{EMOJI[5]} Bard: swap unseen with {victim}",
    }[kind][:80]


def _items(view: Mapping[str, Any], names: Sequence[str], channel_id: int) -> list[Any]:
    """Buttons for the moves any holder may make, and My card (where the powers are)."""
    version = view["version"]
    items: list[Any] = []
    for option in public_options(view):
        kind, target = option["type"], option.get("target")
        if kind in POWERS:
            continue
        if kind == "stand":
            label, emoji, style = "Stand", "✋", discord.ButtonStyle.primary
        elif kind == "cut":
            label, emoji, style = "Cut the deck", "✂️", discord.ButtonStyle.secondary
        elif kind == "next":
            label, emoji, style = "Next round", "▶️", discord.ButtonStyle.success
        elif kind == "exchange":
            label, emoji, style = f"Exchange with {names[target]}", "🔁", discord.ButtonStyle.secondary
        elif kind == "swap":
            label, emoji, style = f"Take {names[target]}'s card", "🤝", discord.ButtonStyle.primary
        else:  # keep
            label, emoji, style = "Keep the Thief", EMOJI[3], discord.ButtonStyle.secondary
        arg = version_arg(version, target if kind == "exchange" else None)
        items.append(GameButton(channel_id, kind, arg, label=label[:80], emoji=emoji, style=style, row=0))
    items.append(
        GameButton(channel_id, "card", label="My card", emoji="🃏", style=discord.ButtonStyle.success, row=0)
    )
    return items


def power_items(view: Mapping[str, Any], names: Sequence[str], channel_id: int) -> list[Any]:
    """The controls of a card panel, for ``view = engine.view(seat)``: the powers this seat's own
    card offers now (only on its turn, only legal targets), or nothing."""
    version = view["version"]
    buttons: list[Any] = []
    targets: list[discord.SelectOption] = []
    for action in view["me"]["legal"]:
        kind, target = action["type"], action.get("target")
        if kind not in POWERS:
            continue
        arg, label = version_arg(version, target), _power_label(kind, target, names)
        if kind in ("trader", "dragon"):
            buttons.append(GameButton(channel_id, POWER, arg, label=label, style=discord.ButtonStyle.primary))
        else:
            targets.append(discord.SelectOption(label=label, value=arg))
    if targets:
        buttons.append(GameSelect(channel_id, POWER, targets, placeholder="Use your card's power on…"))
    return buttons


def component_for(action: Mapping[str, Any], version: int, channel_id: int) -> tuple[str, str, str | None]:
    """Where ``action`` is: ("button", custom_id, None) or ("select", custom_id, value), on the
    board, or for a power (``kind in POWERS``) on the acting player's card panel."""
    kind, target = action["type"], action.get("target")
    if kind in ("thief", "bard"):
        return "select", select_id(channel_id, POWER), version_arg(version, target)
    arg = version_arg(version, target if kind in ("exchange", "dragon") else None)
    return "button", button_id(channel_id, POWER if kind in POWERS else kind, arg), None


# ------------------------------------------------------------------ words
def describe(action: Mapping[str, Any], names: Sequence[str]) -> str:
    """One public action record in words."""
    kind = action["type"]
    who = f"**{names[action['seat']]}**"
    target = f"**{names[action['target']]}**" if action.get("target") is not None else ""
    if kind == "stand":
        if action.get("auto") == "king":
            return f"👑 {who} holds the King and stands"
        if action.get("timeout"):
            return f"⏰ {who} ran out of time and stands"
        return f"✋ {who} stands"
    if kind == "exchange":
        return f"🔁 {who} exchanged cards with {target}"
    if kind == "cut":
        return f"✂️ {who} discarded {card_label(action['discarded'])} and cut the deck"
    if kind == "trader":
        return f"{EMOJI[2]} {who} used the Trader: it now lies face up on the deck"
    if kind == "thief":
        return f"{EMOJI[3]} {who} used the Thief to look at {target}'s card"
    if kind == "swap":
        return f"{EMOJI[3]} {who} took {target}'s card; {target} now holds the Thief"
    if kind == "keep":
        if action.get("timeout"):
            return f"⏰ {who} ran out of time and keeps the Thief"
        return f"{EMOJI[3]} {who} kept the Thief"
    if kind == "bard":
        return f"{EMOJI[5]} {who} used the Bard: swapped cards with {target}, unseen"
    if kind == "dragon":
        return (
            f"{EMOJI[8]} {who} used the Dragon: {target} discarded {card_label(action['discarded'])} "
            "and drew from the deck"
        )
    return f"{who}: {kind}"


def _log(lines: Sequence[str]) -> str:
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > LOG_BUDGET:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join(reversed(kept)) or "Nobody has played yet."


def _tokens(mode: str, count: int) -> str:
    if mode == "only-one":
        return f"{count} ❤️"
    return f"{count} 🪙"


def _seat_lines(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    seats = view["seats"]
    mode = view["mode"]
    revealed = view["phase"] != "play"
    final = {c["seat"]: c for c in view["reveal"]["cards"]} if revealed and view["reveal"] else {}
    lines = []
    for position, s in enumerate(view["order"], start=1):
        seat = seats[s]
        marker = "👉" if s == view["turn"] else ("✔️" if seat["acted"] and not revealed else "▫️")
        tags = " · 🎴 dealer" if seat["dealer"] else ""
        if s in final:
            c = final[s]
            how = " turned" if c["turned"] else (" copied" if c["copied_from"] is not None else "")
            card = f"{card_label(c)} →{how} **{c['value']}**"
            if c["loser"] or c["delta"]:
                sign = "+" if c["delta"] > 0 else ""
                card += f" · {'**LOSES**' if c['loser'] else ''} {sign}{c['delta']}".rstrip()
        elif seat["shown"] is not None:
            card = f"face up: {card_label(seat['shown'])}"
        else:
            card = "🂠 face down"
        lines.append(
            f"{marker} `{position}.` **{names[s]}** — {_tokens(mode, seat['tokens'])} · {card}{tags}"
        )
    out = [s for s in view["eliminated"]]
    if out:
        lines.append("💀 Out: " + ", ".join(f"**{names[s]}**" for s in out))
    return lines


def _header(view: Mapping[str, Any], names: Sequence[str], live: bool = True) -> str:
    """What is happening now; ``live`` adds the running clocks and the Next round button, which
    a replay of a finished game has none of."""
    if view["phase"] == "reveal":
        reveal = view["reveal"]
        losers = ", ".join(f"**{names[s]}**" for s in reveal["losers"]) or "nobody"
        text = f"🌅 **Round {reveal['round']} revealed.** Lowest card: {losers}."
        if reveal["eliminated"]:
            text += " Out of the game: " + ", ".join(f"**{names[s]}**" for s in reveal["eliminated"]) + "."
        deadline = view["deadline"] if live else None
        text += f"\n**{names[view['next_dealer']]}** deals next"
        text += (
            f" — the round starts <t:{deadline // 1000}:R> or when a player presses **Next round**."
            if deadline
            else "."
        )
        return text
    seat = view["turn"]
    if seat is None:
        return "The game is over."
    deadline = view["deadline"] if live else None
    clock = f" — time runs out <t:{deadline // 1000}:R>" if deadline else ""
    if view["choosing"] is not None:
        return (
            f"{EMOJI[3]} **{names[seat]}** looked at **{names[view['peek_target']]}**'s card: "
            f"take it or keep the Thief{clock}."
        )
    return f"👉 **{names[seat]}**'s turn{clock}."


def _effects(reveal: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = []
    for effect in reveal["effects"]:
        who = f"**{names[effect['seat']]}**"
        kind = effect["effect"]
        if kind == "turn":
            lines.append(
                f"🔃 {who}'s {CHARACTERS[effect['char']].name} turned ({CHARACTERS[effect['because']].name} in play) → {effect['value']}"
            )
        elif kind == "monk":
            lines.append(f"{EMOJI[6]} {who}'s Monk copied **{names[effect['from']]}** → {effect['value']}")
        elif kind == "dealer_monk":
            lines.append(f"{EMOJI[6]} {who}'s Monk is the dealer's: it stays 6")
        elif kind == "king_returns":
            lines.append(f"👑 {who} returned a token for holding the King")
    if reveal["death"]:
        lines.append(f"{EMOJI[0]} Death: " + ", ".join(f"**{names[s]}**" for s in reveal["death"]))
    return _log(lines) if lines else "No card changed value."


def reveal_picture(view: Mapping[str, Any], names: Sequence[str], game_key: str) -> Picture | None:
    reveal = view["reveal"]
    if reveal is None:
        return None
    names = tuple(names)
    return Picture(("kingdom", game_key, reveal["round"]), lambda: reveal_png(reveal, names), "reveal.png")


def _footer(view: Mapping[str, Any], live: bool = True) -> str:
    mode = view["mode"]
    rounds = f"Round {view['round']}/{view['rounds']}" if view["rounds"] else f"Round {view['round']}"
    goal = (
        "Tokens are lives: lose them all and you are out"
        if mode == "only-one"
        else "Lowest card takes a token; fewest tokens wins"
    )
    how = " Powers: on your turn, under My card." if live else ""
    return f"{MODE_NAMES[mode]} · {rounds} · {goal}.{how}"


def kingdom_board(
    view: Mapping[str, Any],
    names: Sequence[str],
    channel_id: int,
    game_key: str,
    notes: Sequence[str] = (),
    *,
    live: bool = True,
) -> Board:
    """The public board for ``view = engine.view(None)``. ``notes`` are extra public lines
    (e.g. "press My card"). ``live=False`` is a replay's board: no clock, no instructions."""
    rounds = f"Round {view['round']}/{view['rounds']}" if view["rounds"] else f"Round {view['round']}"
    embed = discord.Embed(title=f"Death Over the Kingdom — {rounds}", colour=COLOUR)
    parts = [_header(view, names, live)]
    if view["round"] == 1 and view["phase"] == "play":
        # Later deals follow from the first ("the deal passes to the right"), so only it is news.
        parts.append(f"🎲 **{names[view['dealer']]}** was drawn at random to deal first.")
    parts += ["", *_seat_lines(view, names)]
    if notes:
        parts += ["", *notes]
    embed.description = "\n".join(parts)
    embed.add_field(
        name="This round", value=_log([describe(a, names) for a in view["actions"]]), inline=False
    )
    deck = plural(view["deck_size"], "card")
    if view["deck_top"] is not None:
        deck += f", top face up: {card_label(view['deck_top'])}"
    embed.add_field(name="Deck", value=deck, inline=True)
    if view["discards"]:
        embed.add_field(
            name="Discarded", value=", ".join(card_label(c) for c in view["discards"]), inline=True
        )
    reveal = view["reveal"]
    if reveal is not None:
        if view["phase"] == "reveal":
            embed.add_field(name="End of round", value=_effects(reveal, names), inline=False)
        else:
            cards = {c["seat"]: c for c in reveal["cards"]}
            losers = ", ".join(
                f"**{names[s]}** with {card_label(cards[s])} → {cards[s]['value']}" for s in reveal["losers"]
            )
            embed.add_field(
                name=f"Last round ({reveal['round']})", value=f"Lowest: {losers or 'nobody'}", inline=False
            )
    embed.set_footer(text=_footer(view, live))
    return Board(
        embed=embed,
        items=_items(view, names, channel_id),
        # The picture is shown while the table looks at the reveal. During play the last round
        # is a line of text: an image on the board made every edit cost about 1 ms more.
        picture=reveal_picture(view, names, game_key) if view["phase"] == "reveal" else None,
    )


# ------------------------------------------------------------------ the end
def standings_lines(view: Mapping[str, Any], names: Sequence[str], winners: Sequence[int]) -> list[str]:
    """Every seat with its tokens, best first: fewest taken, or in only-one most left (then who
    lasted longest)."""
    tokens = view["tokens"]
    if view["mode"] == "only-one":
        out_round = {s: i for i, s in enumerate(view["eliminated"])}
        rank = sorted(
            range(len(tokens)), key=lambda s: (s not in winners, -out_round.get(s, 10**6), -tokens[s])
        )
    else:
        rank = sorted(range(len(tokens)), key=lambda s: (tokens[s], s))
    lines = []
    for place, s in enumerate(rank, start=1):
        crown = " 🏆" if s in winners else ""
        left = " left" if view["mode"] == "only-one" else ""
        gone = " · out" if s in view["eliminated"] and s not in winners else ""
        lines.append(f"`{place}.` **{names[s]}** — {_tokens(view['mode'], tokens[s])}{left}{gone}{crown}")
    return lines


def final_board(
    view: Mapping[str, Any], names: Sequence[str], winners: Sequence[int], game_key: str
) -> Board:
    embed = discord.Embed(title="Death Over the Kingdom — game over", colour=COLOUR)
    who = ", ".join(f"**{names[s]}**" for s in winners) or "nobody"
    played = view["reveal"]["round"] if view["reveal"] else view["round"]
    embed.description = "\n".join(
        [f"🏆 Winner{'s' if len(winners) > 1 else ''}: {who}", "", *standings_lines(view, names, winners)]
    )
    if view["eliminated"]:
        embed.add_field(
            name="Eliminated (in order)",
            value=", ".join(f"**{names[s]}**" for s in view["eliminated"]),
            inline=False,
        )
    if view["reveal"] is not None:
        embed.add_field(name=f"Last round ({played})", value=_effects(view["reveal"], names), inline=False)
    score = (
        "Recorded for the leaderboard as tokens lost (fewer is better)."
        if view["mode"] == "only-one"
        else "Recorded for the leaderboard as tokens taken (fewer is better)."
    )
    embed.set_footer(text=f"{MODE_NAMES[view['mode']]} · {plural(played, 'round')} · {score}")
    return Board(embed=embed, items=[], picture=reveal_picture(view, names, game_key))


# ------------------------------------------------------------------ private messages
HOW = {
    "exchange": "🔁 Exchange with **{other}**",
    "thief": f"{EMOJI[3]} Thief swap with **{{other}}**",
    "bard": f"{EMOJI[5]} Bard swap with **{{other}}**",
    "dragon": f"{EMOJI[8]} The Dragon made you discard; you drew from the deck",
    "cut": "✂️ You cut the deck",
    "trader": f"{EMOJI[2]} You took the deck's top card",
    "deal": "🎴 Dealt to you",
}


def card_file(char: int) -> discord.File:
    return discord.File(io.BytesIO(card_png(char)), filename="card.png")


SPENT = "You have had your turn this round, so you cannot use this power now: only the card's value counts."


def card_embed(
    card: Mapping[str, Any], title: str, lines: Sequence[str] = (), *, spent: bool = False
) -> discord.Embed:
    """The card's picture at full size, its power and ``lines``. ``spent``: its holder has had
    their turn this round, so a turn power on the card is said to be out of reach."""
    character = CHARACTERS[card["char"]]
    embed = discord.Embed(title=title, colour=COLOUR)
    power = [f"*{character.power}*"]
    if spent and character.timing == "turn":
        power.append(SPENT)
    embed.description = "\n".join([*power, *lines])
    embed.set_image(url="attachment://card.png")
    return embed


def turn_spent(view: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat`` has had its turn this round (or the round is over)."""
    return view["phase"] != "play" or view["seats"][seat]["acted"]


def received_message(
    event: Mapping[str, Any], names: Sequence[str], *, spent: bool = False
) -> dict[str, Any]:
    """An ephemeral message for a private ``card`` event; ``spent`` as in ``card_embed``."""
    other = names[event["from"]] if event.get("from") is not None else ""
    how = HOW.get(event["how"], "🎴 New card").format(other=other)
    title = f"Your new card: {CHARACTERS[event['char']].name} ({event['char']})"
    embed = card_embed(event, title, spent=spent)
    return {"content": how, "embed": embed, "file": card_file(event["char"])}


def peek_message(event: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    target = names[event["target"]]
    title = f"{target} holds: {CHARACTERS[event['char']].name} ({event['char']})"
    lines = ["Only you saw it. On the board: **Take** their card, or **Keep the Thief**."]
    return {
        "content": f"{EMOJI[3]} You looked at **{target}**'s card.",
        "embed": card_embed(event, title, lines),
        "file": card_file(event["char"]),
    }


def what_you_can_do(me: Mapping[str, Any], view: Mapping[str, Any], names: Sequence[str]) -> str:
    legal = me["legal"]
    if view["phase"] == "reveal":
        return "The round is revealed: press **Next round** when the table is ready."
    if not legal:
        turn = view["turn"]
        return f"Not your turn: **{names[turn]}** is playing." if turn is not None else "Nothing to do now."
    parts: list[str] = []
    targets: dict[str, list[str]] = {}
    for action in legal:
        kind = action["type"]
        target = action.get("target")
        if kind in ("thief", "bard"):
            targets.setdefault(kind, []).append(names[target])
        elif kind == "stand":
            parts.append("**Stand**")
        elif kind == "exchange":
            parts.append(f"**Exchange** with {names[target]}")
        elif kind == "cut":
            parts.append("**Cut the deck** (discard yours face up, draw one)")
        elif kind == "trader":
            parts.append("use the **Trader** (swap with the deck's top card)")
        elif kind == "dragon":
            parts.append(f"use the **Dragon** on {names[target]}")
        elif kind == "swap":
            parts.append(f"**Take** {names[target]}'s card")
        elif kind == "keep":
            parts.append("**Keep the Thief**")
    if "thief" in targets:
        parts.append("use the **Thief** on " + " or ".join(targets["thief"]))
    if "bard" in targets:
        parts.append("use the **Bard** on " + " or ".join(targets["bard"]))
    text = "Your turn: you can " + ", ".join(parts) + "."
    if any(action["type"] in POWERS for action in legal):
        text += " Your card's power is below; the other moves are on the board."
    return text


def my_card_message(view: Mapping[str, Any], names: Sequence[str], channel_id: int) -> dict[str, Any]:
    """The ephemeral answer to "My card" for ``view = engine.view(seat)``: the card, what it can
    do now, and on the seat's turn the controls of its power (the card panel)."""
    me = view["me"]
    card = me["card"]
    if card is None:
        return {"content": "You are out of the game: you hold no card."}
    lines = ["", what_you_can_do(me, view, names)]
    if me["peek"] is not None:
        peek = me["peek"]
        lines.append(f"You looked at **{names[peek['target']]}**'s card: {card_label(peek)}.")
    title = f"Your card: {card['name']} ({card['char']})"
    embed = card_embed(card, title, lines, spent=turn_spent(view, me["seat"]))
    message = {"embed": embed, "file": card_file(card["char"])}
    controls = power_items(view, names, channel_id)
    if controls:
        message["view"] = make_view(controls)
    return message
