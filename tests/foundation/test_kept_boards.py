"""Boards drawn from what ``kept`` helpers kept (bot.i18n.kept: a mask's name, a player's line, a
footer) are the boards drawn afresh: over random games of every title, each board is drawn with
everything kept from the boards before it, in several languages in turn, then again with nothing
kept, and the two must be equal (embed, buttons, picture). A helper whose result depended on
something it was not handed would show here as a board of an earlier state or language."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from random_games import random_views

from bot.games.kabuki import board as kabuki_board
from bot.games.kabuki.engine import KabukiEngine
from bot.games.kingdom import board as kingdom_board
from bot.games.kingdom.engine import KingdomEngine
from bot.games.masks import board as masks_board
from bot.games.masks.engine import MasksEngine
from bot.glue.board import sign
from bot.i18n import catalogues

LANGUAGES = ("en", "de", "fr")
CHANNEL = 123456789012345678
COMMITMENT = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def shown(board: Any) -> Any:
    board.attach_picture()
    picture = board.picture.key if board.picture is not None else None
    return board.embed.to_dict(), [item.to_component_dict() for item in board.items], picture


def kabuki_boards(seed: int) -> Iterator[Callable[[str], Any]]:
    """Every state of a random Kabuki game (random legal presses and waits), as a drawing of its
    board in a language: live, then its final board."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    names = [f"player {seat}" for seat in range(players)]
    engine = KabukiEngine.new(players, seed, {"grace_ms": rng.choice((0, 1000)), "reveal_ms": 2000}, 0)
    now = 0
    while not engine.is_over:
        seat = rng.randrange(players)
        legal = engine.legal_actions(seat)
        if legal and rng.random() < 0.7:
            engine.apply(seat, rng.choice(legal), now)
        else:
            now = max(now + rng.choice((0, 300, 1200)), min(engine.next_deadline() or now, now + 5000))
            engine.advance(now)
        view = engine.view(None)
        live = rng.random() < 0.9  # a replay's board now and then
        yield lambda locale, view=view, live=live: sign(
            kabuki_board.render(view, names, CHANNEL, live=live, locale=locale), COMMITMENT, locale=locale
        )
    view = engine.view(None)
    yield lambda locale: kabuki_board.render(view, names, CHANNEL, final=True, locale=locale)


def masks_boards(seed: int) -> Iterator[Callable[[str], Any]]:
    """Every state of a random Monster Masks game (slaps, races, Mimes ending the guessing,
    timers), with a computer seat now and then: live, then its final board."""
    rng = random.Random(seed)
    players = rng.randint(3, 8)
    names = [f"player {seat}" for seat in range(players)]
    computers = [seat for seat in range(players) if rng.random() < 0.3]
    options = {
        "race_window_ms": 250,
        "reveal_ms": 2_000,
        "second_chance": rng.random() < 0.5,
        "mime_mode": rng.choice(("camera", "emoji")),
        "sounds": rng.random() < 0.5,
    }
    engine = MasksEngine.new(players, seed, options, 0)
    for view in random_views(engine, rng, players, most_ms=60):
        live = rng.random() < 0.9
        yield lambda locale, view=view, live=live: sign(
            masks_board.render(CHANNEL, view, names, computers, live=live, locale=locale),
            COMMITMENT,
            locale=locale,
        )
    view = engine.view(None)
    yield lambda locale: masks_board.render_final(view, names, locale)


def kingdom_boards(seed: int) -> Iterator[Callable[[str], Any]]:
    """Every state of a random Death Over the Kingdom game in each mode (moves, powers, reveals,
    timers), with a note on the board now and then: live, then its final board."""
    rng = random.Random(seed)
    mode = ("classic", "death-over-all", "only-one")[seed % 3]
    players = rng.randint(3, 7)
    names = [f"player {seat}" for seat in range(players)]
    engine = KingdomEngine.new(players, seed, {"mode": mode, "length": 6, "reveal_ms": 1000}, 0)
    for view in random_views(engine, rng, players, most_ms=2000):
        live = rng.random() < 0.9
        notes = [f"📬 **{names[0]}**, a note"] if rng.random() < 0.2 else []
        yield lambda locale, view=view, live=live, notes=notes: sign(
            kingdom_board.kingdom_board(view, names, CHANNEL, f"g{seed}", notes, live=live, locale=locale),
            COMMITMENT,
            locale=locale,
        )
    view, winners = engine.view(None), engine.result().winners
    yield lambda locale: kingdom_board.final_board(view, names, winners, f"g{seed}", locale=locale)


GAMES = {"kabuki": kabuki_boards, "masks": masks_boards, "kingdom": kingdom_boards}


@pytest.mark.parametrize("game", GAMES)
def test_boards_drawn_from_kept_words_are_the_boards_drawn_afresh(game):
    drawn = 0
    for seed in range(3):
        boards = list(GAMES[game](seed))
        rng = random.Random(seed)
        kept = []
        for draw in boards:  # everything the boards before it kept, in every language
            order = rng.sample(LANGUAGES, len(LANGUAGES))
            kept.append({locale: shown(draw(locale)) for locale in order})
        for draw, warm in zip(boards, kept, strict=True):
            for locale in LANGUAGES:
                catalogues._forget_lookups()
                assert shown(draw(locale)) == warm[locale]
                drawn += 1
    assert drawn > 300
