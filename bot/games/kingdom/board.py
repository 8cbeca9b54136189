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

from bot.games.kingdom.cards import CHARACTERS, POWER_CARDS
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.pictures import card_png, reveal_png
from bot.glue.board import FIELD_VALUE, Board, Picture, final_title, fitted, winners_line
from bot.glue.components import GameButton, GameSelect, button_id, make_view, select_id
from bot.glue.layout import MAX_TEXT
from bot.i18n import DEFAULT, N_, Name, kept, t, tn

COLOUR = discord.Colour.from_rgb(120, 40, 60)
# The same names as the slash command's choices (commands.po), translated where shown.
MODE_NAMES = {
    "classic": N_("Classic"),
    "death-over-all": N_("Death over all players"),
    "only-one": N_("There can be only one"),
}
EMOJI = ("💀", "🍺", "⚖️", "🕵️", "🤡", "🎵", "🕯️", "🪄", "🐉", "⚔️", "👸", "👑", "🤴")
BUTTONS = frozenset({"stand", "exchange", "cut", "swap", "keep", "next"})
POWERS = frozenset(POWER_CARDS)  # the turn-power actions
# A card panel's button (Trader, Dragon) and select (Thief or Bard targets: at most 19 later
# players, within a select's 25) are both named "power", and their ids and values carry only the
# version and the target: the cog reads which power from the card the presser holds, so no
# custom id ever names a card.
POWER = "power"
# My card is on the card panel too: pressed there, it shows the card held now in the same panel.
CARD = "card"
PANEL_PRESSES = frozenset({POWER, CARD})
# Room kept in a board's 4,000 characters for its headings and the short fields (the deck).
TEXT_MARGIN = 250
LOG_BUDGET = 1000  # an embed field holds 1024 characters

# A board is drawn on every move, and most of it reads as on the board before: each seat's line
# during play, the round's moves so far, the deck, the title and the footer. Those are ``kept``
# per arguments and language (bot.i18n.kept), so a move draws only what it changed.


def card_name(char: int, locale: str = DEFAULT) -> str:
    """A character's name in the language (views and events carry the English, as records do)."""
    return t(locale, CHARACTERS[char].name)


def card_label(card: Mapping[str, Any], locale: str = DEFAULT) -> str:
    return _card_label(card["char"], locale)


def _card_label(char: int, locale: str) -> str:
    return f"{EMOJI[char]} **{card_name(char, locale)}** ({char})"


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


POWER_LABELS = {
    "trader": (EMOJI[2], N_("Trader: swap with the deck's top card")),
    "dragon": (EMOJI[8], N_("Dragon: {name} discards and draws")),
    "thief": (EMOJI[3], N_("Thief: look at {name}'s card")),
    "bard": (EMOJI[5], N_("Bard: swap unseen with {name}")),
}


def _power_label(kind: str, target: int | None, names: Sequence[str], locale: str = DEFAULT) -> str:
    emoji, label = POWER_LABELS[kind]
    return (emoji + " " + t(locale, label, name=names[target] if target is not None else ""))[:80]


def _items(
    view: Mapping[str, Any], names: Sequence[str], channel_id: int, locale: str = DEFAULT
) -> tuple[list[Any], list[tuple[Any, int]]]:
    """Buttons for the moves any holder may make, and My card (where the powers are); and each
    button whose move is on another seat, with that seat."""
    version = view["version"]
    items: list[Any] = []
    targets: list[tuple[Any, int]] = []
    for option in public_options(view):
        kind, target = option["type"], option.get("target")
        if kind in POWERS:
            continue
        if kind == "stand":
            label, emoji, style = t(locale, "Stand"), "✋", discord.ButtonStyle.primary
        elif kind == "cut":
            label, emoji, style = t(locale, "Cut the deck"), "✂️", discord.ButtonStyle.secondary
        elif kind == "next":
            label, emoji, style = t(locale, "Next round"), "▶️", discord.ButtonStyle.success
        elif kind == "exchange":
            label = t(locale, "Exchange with {name}", name=names[target])
            emoji, style = "🔁", discord.ButtonStyle.secondary
        elif kind == "swap":
            label = t(locale, "Take {name}'s card", name=names[target])
            emoji, style = "🤝", discord.ButtonStyle.primary
        else:  # keep
            label, emoji, style = t(locale, "Keep the Thief"), EMOJI[3], discord.ButtonStyle.secondary
        arg = version_arg(version, target if kind == "exchange" else None)
        items.append(GameButton(channel_id, kind, arg, label=label[:80], emoji=emoji, style=style, row=0))
        if target is not None:
            targets.append((items[-1], target))
    items.append(my_card_button(channel_id, locale, discord.ButtonStyle.success, row=0))
    return items, targets


def my_card_button(
    channel_id: int, locale: str, style: discord.ButtonStyle, row: int | None = None
) -> GameButton:
    """🃏 My card: on the board, and on the card panel, where it shows the card held now in the
    same panel (``KingdomCog.handle_query``)."""
    return GameButton(channel_id, CARD, label=t(locale, "My card"), emoji="🃏", style=style, row=row)


def power_items(
    view: Mapping[str, Any], names: Sequence[str], channel_id: int, locale: str = DEFAULT
) -> list[Any]:
    """The controls of a card panel, for ``view = engine.view(seat)``: the powers this seat's own
    card offers now (only on its turn, only legal targets), or nothing."""
    version = view["version"]
    buttons: list[Any] = []
    targets: list[discord.SelectOption] = []
    for action in view["me"]["legal"]:
        kind, target = action["type"], action.get("target")
        if kind not in POWERS:
            continue
        arg, label = version_arg(version, target), _power_label(kind, target, names, locale)
        if kind in ("trader", "dragon"):
            buttons.append(GameButton(channel_id, POWER, arg, label=label, style=discord.ButtonStyle.primary))
        else:
            targets.append(discord.SelectOption(label=label, value=arg))
    if targets:
        buttons.append(
            GameSelect(channel_id, POWER, targets, placeholder=t(locale, "Use your card's power on…"))
        )
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
def describe(action: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT) -> str:
    """One public action record in words."""
    discarded = action.get("discarded")
    return _described(
        action["type"],
        names[action["seat"]],
        names[action["target"]] if action.get("target") is not None else None,
        action.get("auto"),
        action.get("timeout"),
        None if discarded is None else discarded["char"],
        locale,
    )


@kept
def _described(
    kind: str, seat: str, to: str | None, auto: Any, timeout: Any, discarded: int | None, locale: str
) -> str:
    who = Name(f"**{seat}**")  # French elides before it: "la carte d'**anna**"
    target = Name(f"**{to}**") if to is not None else ""
    if kind == "stand":
        if auto == "king":
            return "👑 " + t(locale, "{who} holds the King and stands", who=who)
        if timeout:
            return "⏰ " + t(locale, "{who} ran out of time and stands", who=who)
        return "✋ " + t(locale, "{who} stands", who=who)
    if kind == "exchange":
        return "🔁 " + t(locale, "{who} exchanged cards with {target}", who=who, target=target)
    if kind == "cut":
        card = _card_label(discarded, locale)
        return "✂️ " + t(locale, "{who} discarded {card} and cut the deck", who=who, card=card)
    if kind == "trader":
        return EMOJI[2] + " " + t(locale, "{who} used the Trader: it now lies face up on the deck", who=who)
    if kind == "thief":
        return (
            EMOJI[3]
            + " "
            + t(locale, "{who} used the Thief to look at {target}'s card", who=who, target=target)
        )
    if kind == "swap":
        return (
            EMOJI[3]
            + " "
            + t(locale, "{who} took {target}'s card; {target} now holds the Thief", who=who, target=target)
        )
    if kind == "keep":
        if timeout:
            return "⏰ " + t(locale, "{who} ran out of time and keeps the Thief", who=who)
        return EMOJI[3] + " " + t(locale, "{who} kept the Thief", who=who)
    if kind == "bard":
        return (
            EMOJI[5]
            + " "
            + t(locale, "{who} used the Bard: swapped cards with {target}, unseen", who=who, target=target)
        )
    if kind == "dragon":
        card = _card_label(discarded, locale)
        return (
            EMOJI[8]
            + " "
            + t(
                locale,
                "{who} used the Dragon: {target} discarded {card} and drew from the deck",
                who=who,
                target=target,
                card=card,
            )
        )
    return f"{who}: {kind}"


def _log(lines: Sequence[str], locale: str = DEFAULT, budget: int = LOG_BUDGET) -> str:
    """The latest lines that fit ``budget`` characters, "…" before them when some were left out."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > budget:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join(reversed(kept)) or t(locale, "Nobody has played yet.")


def _tokens(mode: str, count: int) -> str:
    if mode == "only-one":
        return f"{count} ❤️"
    return f"{count} 🪙"


def _names_list(seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"**{names[s]}**" for s in seats)


def _seat_lines(view: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT) -> list[str]:
    seats = view["seats"]
    mode = view["mode"]
    revealed = view["phase"] != "play"
    final = {c["seat"]: c for c in view["reveal"]["cards"]} if revealed and view["reveal"] else {}
    lines = []
    for position, s in enumerate(view["order"], start=1):
        seat = seats[s]
        marker = "👉" if s == view["turn"] else ("✔️" if seat["acted"] and not revealed else "▫️")
        if s not in final:
            shown = seat["shown"]
            lines.append(
                _seat_line(
                    marker,
                    position,
                    names[s],
                    _tokens(mode, seat["tokens"]),
                    None if shown is None else shown["char"],
                    seat["dealer"],
                    locale,
                )
            )
            continue
        tags = " · 🎴 " + t(locale, "dealer") if seat["dealer"] else ""
        card = _revealed_card(final[s], locale)
        lines.append(
            f"{marker} `{position}.` **{names[s]}** — {_tokens(mode, seat['tokens'])} · {card}{tags}"
        )
    out = list(view["eliminated"])
    if out:
        lines.append("💀 " + t(locale, "Out: {names}", names=_names_list(out, names)))
    return lines


def _revealed_card(c: Mapping[str, Any], locale: str) -> str:
    """A seat's card at a round's reveal: its final value, and what it lost."""
    label, value = card_label(c, locale), c["value"]
    if c["turned"]:
        card = t(locale, "{card} → turned **{value}**", card=label, value=value)
    elif c["copied_from"] is not None:
        card = t(locale, "{card} → copied **{value}**", card=label, value=value)
    else:
        card = t(locale, "{card} → **{value}**", card=label, value=value)
    if c["loser"] or c["delta"]:
        sign = "+" if c["delta"] > 0 else ""
        loses = t(locale, "**LOSES**") if c["loser"] else ""
        card += f" · {loses} {sign}{c['delta']}".rstrip()
    return card


@kept
def _seat_line(
    marker: str, position: int, name: str, tokens: str, shown: int | None, dealer: bool, locale: str
) -> str:
    """A seat's line while its card is not revealed: face up (``shown``, a character) or down."""
    tags = " · 🎴 " + t(locale, "dealer") if dealer else ""
    if shown is not None:
        card = t(locale, "face up: {card}", card=_card_label(shown, locale))
    else:
        card = "🂠 " + t(locale, "face down")
    return f"{marker} `{position}.` **{name}** — {tokens} · {card}{tags}"


def _header(view: Mapping[str, Any], names: Sequence[str], live: bool = True, locale: str = DEFAULT) -> str:
    """What is happening now; ``live`` adds the running clocks and the Next round button, which
    a replay of a finished game has none of."""
    if view["phase"] == "reveal":
        reveal = view["reveal"]
        losers = _names_list(reveal["losers"], names) or t(locale, "nobody")
        text = "🌅 " + t(
            locale, "**Round {round} revealed.** Lowest card: {losers}.", round=reveal["round"], losers=losers
        )
        if reveal["eliminated"]:
            text += " " + t(
                locale, "Out of the game: {names}.", names=_names_list(reveal["eliminated"], names)
            )
        deadline = view["deadline"] if live else None
        dealer = names[view["next_dealer"]]
        if deadline:
            text += "\n" + t(
                locale,
                "**{name}** deals next — the round starts {when} or when a player presses **Next round**.",
                name=dealer,
                when=f"<t:{deadline // 1000}:R>",
            )
        else:
            text += "\n" + t(locale, "**{name}** deals next.", name=dealer)
        return text
    seat = view["turn"]
    if seat is None:
        return t(locale, "The game is over.")
    deadline = view["deadline"] if live else None
    when = f"<t:{deadline // 1000}:R>" if deadline else ""
    if view["choosing"] is not None:
        fields = {"name": names[seat], "target": names[view["peek_target"]], "when": when}
        if deadline:
            text = t(
                locale,
                "**{name}** looked at **{target}**'s card: take it or keep the Thief — time runs out {when}.",
                **fields,
            )
        else:
            text = t(locale, "**{name}** looked at **{target}**'s card: take it or keep the Thief.", **fields)
        return EMOJI[3] + " " + text
    if deadline:
        return "👉 " + t(locale, "**{name}**'s turn — time runs out {when}.", name=names[seat], when=when)
    return "👉 " + t(locale, "**{name}**'s turn.", name=names[seat])


def _effects(
    reveal: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT, budget: int = LOG_BUDGET
) -> str:
    lines = []
    for effect in reveal["effects"]:
        who = Name(f"**{names[effect['seat']]}**")
        kind = effect["effect"]
        if kind == "turn":
            text = t(
                locale,
                "{who}'s {card} turned ({trigger} in play) → {value}",
                who=who,
                card=card_name(effect["char"], locale),
                trigger=card_name(effect["because"], locale),
                value=effect["value"],
            )
            lines.append("🔃 " + text)
        elif kind == "monk":
            text = t(
                locale,
                "{who}'s Monk copied **{other}** → {value}",
                who=who,
                other=names[effect["from"]],
                value=effect["value"],
            )
            lines.append(EMOJI[6] + " " + text)
        elif kind == "dealer_monk":
            lines.append(EMOJI[6] + " " + t(locale, "{who}'s Monk is the dealer's: it stays 6", who=who))
        elif kind == "king_returns":
            lines.append("👑 " + t(locale, "{who} returned a token for holding the King", who=who))
    if reveal["death"]:
        lines.append(EMOJI[0] + " " + t(locale, "Death: {names}", names=_names_list(reveal["death"], names)))
    return _log(lines, locale, budget) if lines else t(locale, "No card changed value.")


def _lowest(
    reveal: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT, budget: int = FIELD_VALUE
) -> str:
    """Who lost the revealed round, with their card and its final value, in ``budget`` characters
    (with Death over all most of a big table may lose: the standings above name them all)."""
    cards = {c["seat"]: c for c in reveal["cards"]}
    each = [
        t(
            locale,
            "**{name}** with {card} → {value}",
            name=names[s],
            card=card_label(cards[s], locale),
            value=cards[s]["value"],
        )
        for s in reveal["losers"]
    ]
    frame = len(t(locale, "Lowest: {losers}", losers=""))
    losers = fitted(each, ", ", budget - frame, locale)
    return t(locale, "Lowest: {losers}", losers=losers or t(locale, "nobody"))


def reveal_picture(
    view: Mapping[str, Any], names: Sequence[str], game_key: str, locale: str = DEFAULT
) -> Picture | None:
    """The revealed table; its words are drawn in the board's language, which is in its key."""
    reveal = view["reveal"]
    if reveal is None:
        return None
    names = tuple(names)
    return Picture(
        ("kingdom", locale, game_key, reveal["round"]),
        lambda: reveal_png(reveal, names, locale=locale),
        "reveal.png",
        # A round's end draws the whole table (tens of ms at 16 seats): in a worker process where
        # there are some (bot.glue.picture_processes), off this process's interpreter lock.
        job=(reveal_png, (reveal, names, locale)),
    )


def _round_of(round: int, rounds: int, locale: str) -> str:
    if rounds:
        return t(locale, "Round {round}/{rounds}", round=round, rounds=rounds)
    return t(locale, "Round {round}", round=round)


def _footer(view: Mapping[str, Any], live: bool = True, locale: str = DEFAULT) -> str:
    return _footer_of(view["mode"], view["round"], view["rounds"], live, locale)


@kept
def _footer_of(mode: str, round: int, rounds: int, live: bool, locale: str) -> str:
    if mode == "only-one":
        goal = t(locale, "Tokens are lives: lose them all and you are out.")
    elif mode == "death-over-all":
        goal = t(
            locale,
            "Lowest value takes 3 tokens, second-lowest 2, third-lowest 1; a King gives one back; "
            "fewest tokens wins.",
        )
    else:
        goal = t(locale, "Lowest card takes a token; fewest tokens wins.")
    how = " " + t(locale, "Powers: on your turn, under My card.") if live else ""
    return f"{t(locale, MODE_NAMES[mode])} · {_round_of(round, rounds, locale)} · {goal}{how}"


def kingdom_board(
    view: Mapping[str, Any],
    names: Sequence[str],
    channel_id: int,
    game_key: str,
    notes: Sequence[str] = (),
    *,
    live: bool = True,
    locale: str = DEFAULT,
) -> Board:
    """The public board for ``view = engine.view(None)``. ``notes`` are extra public lines
    (e.g. "press My card"). ``live=False`` is a replay's board: no clock, no instructions."""
    embed = discord.Embed(title=_title(view["round"], view["rounds"], locale), colour=COLOUR)
    parts = [_header(view, names, live, locale)]
    if view["round"] == 1 and view["phase"] == "play":
        # Later deals follow from the first ("the deal passes to the right"), so only it is news.
        parts.append(
            "🎲 " + t(locale, "**{name}** was drawn at random to deal first.", name=names[view["dealer"]])
        )
    seat_lines = _seat_lines(view, names, locale)
    parts += ["", *seat_lines]
    if notes:
        parts += ["", *notes]
    embed.description = "\n".join(parts)
    footer = _footer(view, live, locale)
    # Discord shows at most 4,000 characters in a message (``bot.glue.layout``): the seats and
    # the footer are whole, and the lists that grow (this round's moves, the discards, the end
    # of the round) share what is left.
    reveal = view["reveal"]
    growing = 1 + bool(view["discards"]) + (reveal is not None)
    share = max(200, (MAX_TEXT - TEXT_MARGIN - len(embed.description) - len(footer)) // growing)
    embed.add_field(
        name=t(locale, "This round"),
        value=_log([describe(a, names, locale) for a in view["actions"]], locale, min(LOG_BUDGET, share)),
        inline=False,
    )
    top = view["deck_top"]
    embed.add_field(
        name=t(locale, "Deck"),
        value=_deck(view["deck_size"], None if top is None else top["char"], locale),
        inline=True,
    )
    if view["discards"]:
        embed.add_field(
            name=t(locale, "Discarded"),
            value=fitted(
                [card_label(c, locale) for c in view["discards"]], ", ", min(FIELD_VALUE, share), locale
            ),
            inline=True,
        )
    if reveal is not None:
        if view["phase"] == "reveal":
            embed.add_field(
                name=t(locale, "End of round"),
                value=_effects(reveal, names, locale, min(LOG_BUDGET, share)),
                inline=False,
            )
        else:
            embed.add_field(
                name=t(locale, "Last round ({round})", round=reveal["round"]),
                value=_lowest(reveal, names, locale, min(FIELD_VALUE, share)),
                inline=False,
            )
    embed.set_footer(text=footer)
    items, targets = _items(view, names, channel_id, locale)
    # A move on another seat (Exchange, Take their card) beside that seat's line.
    line_of = dict(zip(view["order"], seat_lines, strict=False))
    return Board(
        embed=embed,
        items=items,
        beside=[(line_of[seat], item) for item, seat in targets if seat in line_of],
        # The picture is shown while the table looks at the reveal. During play the last round
        # is a line of text: an image on the board made every edit cost about 1 ms more.
        picture=reveal_picture(view, names, game_key, locale) if view["phase"] == "reveal" else None,
    )


@kept
def _title(round: int, rounds: int, locale: str) -> str:
    return t(locale, "Death Over the Kingdom") + " — " + _round_of(round, rounds, locale)


@kept
def _deck(size: int, top: int | None, locale: str) -> str:
    if top is not None:
        card = _card_label(top, locale)
        return tn(locale, "{n} card, top face up: {card}", "{n} cards, top face up: {card}", size, card=card)
    return tn(locale, "{n} card", "{n} cards", size)


# ------------------------------------------------------------------ the end
def standings_lines(
    view: Mapping[str, Any], names: Sequence[str], winners: Sequence[int], locale: str = DEFAULT
) -> list[str]:
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
        count = _tokens(view["mode"], tokens[s])
        if view["mode"] == "only-one":
            count = tn(locale, "{tokens} left", "{tokens} left", tokens[s], tokens=count)
        gone = " · " + t(locale, "out") if s in view["eliminated"] and s not in winners else ""
        lines.append(f"`{place}.` **{names[s]}** — {count}{gone}{crown}")
    return lines


def final_board(
    view: Mapping[str, Any],
    names: Sequence[str],
    winners: Sequence[int],
    game_key: str,
    *,
    locale: str = DEFAULT,
) -> Board:
    embed = discord.Embed(title=final_title(locale, KingdomEngine.title), colour=COLOUR)
    played = view["reveal"]["round"] if view["reveal"] else view["round"]
    won = winners_line(locale, [names[s] for s in winners])
    embed.description = "\n".join([won, "", *standings_lines(view, names, winners, locale)])
    if view["eliminated"]:
        embed.add_field(
            name=t(locale, "Eliminated (in order)"),
            value=_names_list(view["eliminated"], names),
            inline=False,
        )
    if view["reveal"] is not None:
        # Who lost it in words too: the picture is not read out by screen readers, nor always shown.
        # One field of 1,024 characters: who lost first gets up to half, what changed the rest.
        lowest = _lowest(view["reveal"], names, locale, FIELD_VALUE // 2)
        last = _effects(view["reveal"], names, locale, FIELD_VALUE - len(lowest) - 1) + "\n" + lowest
        embed.add_field(name=t(locale, "Last round ({round})", round=played), value=last, inline=False)
    if view["mode"] == "only-one":
        score = t(locale, "Recorded for the leaderboard as tokens lost (fewer is better).")
    else:
        score = t(locale, "Recorded for the leaderboard as tokens taken (fewer is better).")
    mode_name = MODE_NAMES[view["mode"]]
    mode = t(locale, mode_name)
    rounds = tn(locale, "{n} round", "{n} rounds", played)
    embed.set_footer(text=f"{mode} · {rounds} · {score}")
    return Board(embed=embed, items=[], picture=reveal_picture(view, names, game_key, locale))


# ------------------------------------------------------------------ private messages
HOW = {
    "exchange": ("🔁", N_("Exchange with **{other}**")),
    "thief": (EMOJI[3], N_("Thief swap with **{other}**")),
    "bard": (EMOJI[5], N_("Bard swap with **{other}**")),
    "dragon": (EMOJI[8], N_("The Dragon made you discard; you drew from the deck")),
    "cut": ("✂️", N_("You cut the deck")),
    "trader": (EMOJI[2], N_("You took the deck's top card")),
    "deal": ("🎴", N_("Dealt to you")),
}
NEW_CARD = ("🎴", N_("New card"))


def card_file(char: int, locale: str = DEFAULT) -> discord.File:
    """The card's picture, its words (name, timing) in ``locale``."""
    # Positional, as draw_all_cards fills the cache: lru_cache keys a keyword call apart.
    return discord.File(io.BytesIO(card_png(char, locale)), filename="card.png")


SPENT = N_(
    "You have had your turn this round, so you cannot use this power now: only the card's value counts."
)


def card_embed(
    card: Mapping[str, Any],
    title: str,
    lines: Sequence[str] = (),
    *,
    spent: bool = False,
    locale: str = DEFAULT,
) -> discord.Embed:
    """The card's picture at full size, its power and ``lines``. ``spent``: its holder has had their turn this round, so a turn power on the card
    is said to be out of reach."""
    character = CHARACTERS[card["char"]]
    embed = discord.Embed(title=title, colour=COLOUR)
    power = [f"*{t(locale, character.power)}*"]
    if spent and character.timing == "turn":
        power.append(t(locale, SPENT))
    embed.description = "\n".join([*power, *lines])
    embed.set_image(url="attachment://card.png")
    return embed


def turn_spent(view: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat`` has had its turn this round (or the round is over)."""
    return view["phase"] != "play" or view["seats"][seat]["acted"]


def received_message(
    event: Mapping[str, Any], names: Sequence[str], *, spent: bool = False, locale: str = DEFAULT
) -> dict[str, Any]:
    """An ephemeral message for a private ``card`` event; ``spent`` as in ``card_embed``."""
    other = names[event["from"]] if event.get("from") is not None else ""
    emoji, how = HOW.get(event["how"], NEW_CARD)
    char = event["char"]
    title = t(locale, "Your new card: {card} ({value})", card=card_name(char, locale), value=char)
    embed = card_embed(event, title, spent=spent, locale=locale)
    return {
        "content": emoji + " " + t(locale, how, other=other),
        "embed": embed,
        "file": card_file(char, locale),
    }


def peek_message(event: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT) -> dict[str, Any]:
    target, char = names[event["target"]], event["char"]
    title = t(locale, "{name} holds: {card} ({value})", name=target, card=card_name(char, locale), value=char)
    lines = [t(locale, "Only you saw it. On the board: **Take** their card, or **Keep the Thief**.")]
    return {
        "content": EMOJI[3] + " " + t(locale, "You looked at **{name}**'s card.", name=target),
        "embed": card_embed(event, title, lines, locale=locale),
        "file": card_file(char, locale),
    }


def _either(choices: Sequence[str], locale: str) -> str:
    text = choices[0]
    for other in choices[1:]:
        text = t(locale, "{first} or {second}", first=text, second=other)
    return text


def what_you_can_do(
    me: Mapping[str, Any], view: Mapping[str, Any], names: Sequence[str], locale: str = DEFAULT
) -> str:
    legal = me["legal"]
    if view["phase"] == "reveal":
        return t(locale, "The round is revealed: press **Next round** when the table is ready.")
    if not legal:
        turn = view["turn"]
        if turn is None:
            return t(locale, "Nothing to do now.")
        return t(locale, "Not your turn: **{name}** is playing.", name=names[turn])
    parts: list[str] = []
    targets: dict[str, list[str]] = {}
    for action in legal:
        kind = action["type"]
        target = action.get("target")
        name = names[target] if target is not None else ""
        if kind in ("thief", "bard"):
            targets.setdefault(kind, []).append(name)
        elif kind == "stand":
            parts.append(t(locale, "**Stand**"))
        elif kind == "exchange":
            parts.append(t(locale, "**Exchange** with {name}", name=name))
        elif kind == "cut":
            parts.append(t(locale, "**Cut the deck** (discard yours face up, draw one)"))
        elif kind == "trader":
            parts.append(t(locale, "use the **Trader** (swap with the deck's top card)"))
        elif kind == "dragon":
            parts.append(t(locale, "use the **Dragon** on {name}", name=name))
        elif kind == "swap":
            parts.append(t(locale, "**Take** {name}'s card", name=name))
        elif kind == "keep":
            parts.append(t(locale, "**Keep the Thief**"))
    if "thief" in targets:
        parts.append(t(locale, "use the **Thief** on {names}", names=_either(targets["thief"], locale)))
    if "bard" in targets:
        parts.append(t(locale, "use the **Bard** on {names}", names=_either(targets["bard"], locale)))
    text = t(locale, "Your turn: you can {moves}.", moves=", ".join(parts))
    if any(action["type"] in POWERS for action in legal):
        text += " " + t(locale, "Your card's power is below; the other moves are on the board.")
    return text


def my_card_message(
    view: Mapping[str, Any], names: Sequence[str], channel_id: int, locale: str = DEFAULT
) -> dict[str, Any]:
    """The ephemeral answer to "My card" for ``view = engine.view(seat)``: the card, what it can
    do now, on the seat's turn the controls of its power, and My card again, to see the card
    held now in this same panel (the card panel)."""
    me = view["me"]
    card = me["card"]
    if card is None:
        return {"content": t(locale, "You are out of the game: you hold no card.")}
    lines = ["", what_you_can_do(me, view, names, locale)]
    if me["peek"] is not None:
        peek = me["peek"]
        lines.append(
            t(
                locale,
                "You looked at **{name}**'s card: {card}.",
                name=names[peek["target"]],
                card=card_label(peek, locale),
            )
        )
    char = card["char"]
    title = t(locale, "Your card: {card} ({value})", card=card_name(char, locale), value=char)
    embed = card_embed(card, title, lines, spent=turn_spent(view, me["seat"]), locale=locale)
    message = {"embed": embed, "file": card_file(char, locale)}
    controls = [*power_items(view, names, channel_id, locale)]
    controls.append(my_card_button(channel_id, locale, discord.ButtonStyle.secondary))
    message["view"] = make_view(controls)
    return message
