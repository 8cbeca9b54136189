"""What a board message is made of, and the lobby board every game shares."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from bot.glue import picture_processes
from bot.glue.components import Component, GameButton
from bot.glue.layout import Layout, layout
from bot.glue.picture_cache import ByteLRU
from bot.glue.queue_trip import RecentWait
from bot.i18n import DEFAULT, N_, kept, t, tn, translated

GAME_COLOUR = discord.Colour.from_rgb(88, 101, 242)

# The lobby's buttons, named again in its texts ("Press **Join**…"), so both read the same.
# An embed field's value holds at most this many characters (Discord refuses a longer one).
FIELD_VALUE = 1024
JOIN = N_("Join")
LEAVE = N_("Leave")
START = N_("Start")
CANCEL = N_("Cancel")


# Encoded pictures by key, shared by every game. The session layer asks for a picture only when
# its key differs from the one on the message, so what comes back is a picture shown in several
# channels (Monster Masks' 17 boards, Kabuki's opening boards) or a board posted anew; 2 MiB
# holds all of those and keeps what stays after the games end small.
PICTURES = ByteLRU(2 * 1024 * 1024)
# How long the last picture drawn took to come back (its queue and its drawing): while that is
# long, a press's own picture is watched against its answer's deadline (``bot.session.publisher``).
PICTURE_WAIT = RecentWait()

# One thread draws every picture. More would not draw faster (the event loop needs a core too),
# and each thread that allocates gets a malloc arena of its own: with asyncio's default pool (6
# threads here) 10 open Kabuki games held ~15 MB more than with this one thread.
_DRAWER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
T = TypeVar("T")


async def drawn(render: Callable[[], T]) -> T:
    """``render()``, run in the pictures' thread while the event loop goes on."""
    return await asyncio.get_running_loop().run_in_executor(_DRAWER, render)


@dataclass
class Picture:
    """A PNG for the board. ``key`` identifies its content, in every game and channel: an
    unchanged key is not re-uploaded, and an encoded picture is kept by its key in ``PICTURES``.
    ``render`` runs in the pictures' thread (a picture takes milliseconds, tens of them for a big
    one, and the event loop goes on serving every other channel meanwhile), so it must be
    thread-safe."""

    key: Any
    render: Callable[[], bytes]
    filename: str = "board.png"
    # The same drawing as a module-level function and picklable arguments, for a game whose
    # picture may be drawn in a worker process (``bot.glue.picture_processes``), off this
    # process's interpreter lock; None: always in the pictures' thread.
    job: tuple[Callable[..., bytes], tuple[Any, ...]] | None = None

    async def png(self) -> bytes:
        data = PICTURES.get(self.key)
        if data is None:
            loop = asyncio.get_running_loop()
            asked = loop.time()
            if self.job is not None:
                data = await picture_processes.draw(self.job)
            if data is None:
                data = await drawn(self.render)
            came = loop.time()
            PICTURE_WAIT.note(came - asked, came)
            PICTURES.put(self.key, data)
        return data

    async def file(self) -> discord.File:
        return discord.File(io.BytesIO(await self.png()), filename=self.filename)


@dataclass
class Board:
    embed: discord.Embed
    items: Sequence[Component] = field(default_factory=list)
    picture: Picture | None = None
    content: str | None = None
    # The public state it was drawn from, when its game can say (``GameCog.board_state``): a
    # board for an equal state is this one again, and is not drawn.
    state: Any = None
    # (a line of a field, one of ``items``): that control acts on that line, and is drawn beside
    # it (a Kabuki stack's Place button, a Kingdom seat's Exchange), not in the rows below.
    beside: Sequence[tuple[str, Component]] = ()

    def layout(self) -> Layout:
        """The board as Discord shows it: one card (``bot.glue.layout``)."""
        return layout(self.embed, self.items, content=self.content, beside=self.beside)

    def attach_picture(self) -> None:
        if self.picture is not None:
            self.embed.set_image(url=f"attachment://{self.picture.filename}")


def fitted(items: Sequence[str], separator: str, budget: int, locale: str) -> str:
    """``items`` joined by ``separator``: as many as fit ``budget`` characters (a limit of
    Discord's, ``FIELD_VALUE``), then how many were left out, in ``locale``."""
    joined = separator.join(items)
    if len(joined) <= budget:
        return joined
    kept: list[str] = []
    for count, item in enumerate(items):
        more = tn(locale, "…and {n} more", "…and {n} more", len(items) - count)
        if len(separator.join([*kept, item, more])) > budget:
            return separator.join([*kept, more])
        kept.append(item)
    return joined


def player_list(names: Sequence[str], *, marks: dict[int, str] | None = None) -> str:
    marks = marks or {}
    lines = [f"{seat + 1}. {name}{marks.get(seat, '')}" for seat, name in enumerate(names)]
    return "\n".join(lines) or "—"


def game_title(locale: str, title: str) -> str:
    """A game's title in ``locale``: the name its slash command's choices give it (Insel der
    Monstermasken), so a board and a command never call a game two names."""
    return translated(locale, title, "command") or title


def final_title(locale: str, title: str) -> str:
    """A finished game's board title, the same in every game: "Kabuki — game over"."""
    return t(locale, "{game} — game over", game=game_title(locale, title))


def winners_line(locale: str, names: Sequence[str]) -> str:
    """A finished game's winners, the same line in every game: "🏆 Winner: **anna**", "🏆
    Winners: **anna**, **ben**" (the language's plural; "nobody" when no seat won)."""
    shown = ", ".join(f"**{name}**" for name in names) or t(locale, "nobody")
    return tn(locale, "🏆 Winner: {names}", "🏆 Winners: {names}", max(len(names), 1), names=shown)


def lobby_board(
    *,
    title: str,
    channel_id: int,
    host_name: str,
    names: Sequence[str],
    min_players: int,
    max_players: int,
    options_text: str,
    closes_at_s: int | None,
    computers: bool = False,
    notes: Sequence[str] = (),
    locale: str = DEFAULT,
    colour: discord.Colour = GAME_COLOUR,
) -> Board:
    """The lobby, in ``locale`` (the session's language), in the game's ``colour``."""
    seated = len(names)
    embed = discord.Embed(title=t(locale, "{game} — lobby", game=game_title(locale, title)), colour=colour)
    embed.description = t(
        locale,
        "Host: **{host}**\nPress **{join}** to take a seat. The host starts the game when "
        "{low}–{high} players are seated.",
        host=host_name,
        join=t(locale, JOIN),
        low=min_players,
        high=max_players,
    )
    embed.add_field(
        name=t(locale, "Players ({count})", count=f"{seated}/{max_players}"),
        value=player_list(names),
        inline=True,
    )
    embed.add_field(name=t(locale, "Options"), value=options_text or t(locale, "standard rules"), inline=True)
    if notes:  # what the seats mean for the game, said before Start
        embed.add_field(name=t(locale, "Before you start"), value="\n".join(notes), inline=False)
    if closes_at_s is not None:
        # Said once, as a countdown every client keeps current.
        embed.add_field(
            name=t(locale, "Closes"),
            value=t(locale, "{when} if nobody joins or leaves", when=f"<t:{closes_at_s}:R>"),
            inline=False,
        )
    items = [
        GameButton(channel_id, "join", label=t(locale, JOIN), style=discord.ButtonStyle.success),
        GameButton(channel_id, "leave", label=t(locale, LEAVE)),
        GameButton(
            channel_id,
            "start",
            label=t(locale, START),
            style=discord.ButtonStyle.primary,
            disabled=not min_players <= seated <= max_players,
        ),
        GameButton(channel_id, "cancel", label=t(locale, CANCEL), style=discord.ButtonStyle.danger),
    ]
    if computers:  # the host's: seats for computer players (bot/session/computers.py)
        items += [
            GameButton(channel_id, "add_computer", label=t(locale, "Add computer"), emoji="🤖", row=1),
            GameButton(channel_id, "remove_computer", label=t(locale, "Remove computer"), row=1),
        ]
    return Board(embed=embed, items=items)


def sign(
    board: Board,
    commitment: str | None,
    *,
    seed: int | None = None,
    salt: str = "",
    locale: str = DEFAULT,
) -> Board:
    """Put the shuffle commitment under a game's board: from its first board on, before any card
    is seen; the final board (``seed`` given) adds the seed and salt that open it. Every game's
    render path calls this, so the commitment is drawn where the board is, not where it is sent.
    In ``locale``, the board's language."""
    if commitment is None:
        return board
    line = _commitment_line(commitment, seed, salt, locale)
    old = board.embed.footer.text
    board.embed.set_footer(text=f"{old}\n{line}" if old else line)
    return board


@kept  # the same all game: kept rather than filled in again under every board
def _commitment_line(commitment: str, seed: int | None, salt: str, locale: str) -> str:
    if seed is None:
        return t(locale, "Shuffle commitment (SHA-256): {commitment}", commitment=commitment)
    return t(
        locale,
        "Shuffle: seed {seed}, salt {salt}. SHA-256 of {salt}:{seed} = {commitment}",
        seed=seed,
        salt=salt,
        commitment=commitment,
    )


def closed_board(title: str, text: str) -> Board:
    return Board(embed=discord.Embed(title=title, description=text, colour=discord.Colour.dark_grey()))
