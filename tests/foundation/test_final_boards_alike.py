"""Every game's final board reads alike in every language: titled "<game> — game over" (German
"— Spielende", French "— partie terminée") and opened by one winners line, "🏆 Winner: **anna**"
or "🏆 Winners: **anna**, **ben**" in the language's singular and plural, whatever game drew it:
the three games, the test-only Odd One Out (its own catalogue) and the session's default
(``GameCog.render_final``, the Tap game), live and as ``/replay`` shows it. The words are written
out here, not taken from the helpers the games share, so a game that draws its own again, or a
catalogue that words one game's differently, fails."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from tapgame import TAP

from bot.community.replay_board import public_board
from bot.glue.board import game_title
from bot.session.sessions import PLAYING, Session

TITLE = {"en": " — game over", "de": " — Spielende", "fr": " — partie terminée"}
# (one winner, several), each followed by the winners' names in bold, joined by ", ".
WINNERS = {
    "en": ("🏆 Winner: ", "🏆 Winners: "),
    "de": ("🏆 Gewonnen hat: ", "🏆 Gewonnen haben: "),
    "fr": ("🏆 Victoire : ", "🏆 Victoire partagée : "),
}
GAMES = [
    ("kabuki", 3, {}),
    ("masks", 3, {}),
    ("kingdom", 3, {"length": 2}),
    ("oddoneout", 3, {}),
    ("tap", 2, {}),
]
NAMES = {1: "anna", 2: "Émile", 3: "bob"}


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["kabuki", "masks", "kingdom", "oddoneout", TAP])


class SharedWin:
    """A finished engine as if seats 0 and 1 had shared the win (its view and its result say so),
    so every game's plural line is drawn, whatever the deal."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**self._engine.view(seat), "winners": [0, 1]}

    def result(self) -> Any:
        return dataclasses.replace(self._engine.result(), winners=(0, 1))


def finished(cog: Any, players: int, options: dict[str, Any], seed: int = 5) -> Any:
    """An engine of the cog's game played to its end by seats pressing at random."""
    engine = cog.engine_cls.new(players, seed, {**cog.default_options(), **options}, 0)
    rng, clock = random.Random(seed), 0
    for _ in range(20000):
        if engine.is_over:
            return engine
        seat = rng.randrange(players)
        clock += rng.randint(0, 2000)
        engine.advance(clock)
        legal = engine.legal_actions(seat)
        if legal and rng.random() < 0.8:
            engine.apply(seat, rng.choice(legal), clock)
        else:
            clock = max(clock, engine.next_deadline() or clock)
            engine.advance(clock)
    raise AssertionError(f"{cog.kind}: not over")


def expected_line(locale: str, names: list[str]) -> str:
    one, several = WINNERS[locale]
    return (one if len(names) == 1 else several) + ", ".join(f"**{name}**" for name in names)


def check(embed: Any, game: str, locale: str, winners: list[str], what: str) -> None:
    assert embed.title == game + TITLE[locale], what
    first = (embed.description or "").split("\n")[0]
    assert first == expected_line(locale, winners), what


@pytest.mark.parametrize(("kind", "players", "options"), GAMES, ids=[game[0] for game in GAMES])
@pytest.mark.parametrize("locale", ["en", "de", "fr"])
async def test_every_game_s_final_board_has_the_one_title_and_the_one_winners_line(
    simcord_env, kind, players, options, locale
):
    cog = simcord_env.bot.game_cogs[kind]
    engine = finished(cog, players, options)
    seated = dict(list(NAMES.items())[:players])
    names = list(seated.values())
    game = game_title(locale, cog.title)
    for drawn in (engine, SharedWin(engine)):
        session = Session(kind, 1, 7, 1, {**cog.default_options(), **options}, 5, "5" * 32, 0)
        session.players, session.names, session.status = list(seated), dict(seated), PLAYING
        session.engine, session.locale = drawn, locale
        winners = [names[seat] for seat in drawn.result().winners]
        final = cog.render_final(session, drawn.result())
        check(final.embed, game, locale, winners, f"{kind}'s final board, {winners} won")
        if kind != "tap":  # Tap keeps no record: it has no replay
            replayed = public_board(kind, drawn, names, "key", locale)
            check(replayed.embed, game, locale, winners, f"{kind}'s replay's last board, {winners} won")


def test_the_winners_line_in_each_language_and_with_no_winner():
    from bot.glue.board import winners_line

    assert winners_line("en", []) == "🏆 Winner: nobody"
    assert winners_line("de", ["anna"]) == "🏆 Gewonnen hat: **anna**"
    assert winners_line("fr", ["anna", "bob"]) == "🏆 Victoire partagée : **anna**, **bob**"
