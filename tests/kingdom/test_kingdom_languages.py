"""Death Over the Kingdom in every language: every board of simulated games (live, a replay's,
the final one), every card panel, the private news, the engine's refusals, the words the
pictures draw, the lobby's options, the turn ping's ask and the rules come from the catalogue
(nothing is left in English under the pseudo-locale), and every board fits Discord's limits in
every shipped language."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from language_checks import (
    COMMITMENT,
    EMBED_TOTAL,
    LABEL,
    LIMITS,
    assert_fits_discords_limits,
    board_text,
    drawn,
    embed_text,
    item_texts,
)

from bot.engine.protocol import IllegalAction
from bot.games.kingdom import board as kingdom_board
from bot.games.kingdom import pictures
from bot.games.kingdom.cards import CHARACTERS
from bot.games.kingdom.cog import PING_ACTIVE, RULES, KingdomCog
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.players import RandomPlayer
from bot.glue.board import sign
from bot.i18n import shipped, t
from bot.i18n.pseudo import untranslated

NAMES = [f"p{i}" for i in range(20)]
GAMES = [
    (1, 4, "classic"),
    (2, 7, "death-over-all"),
    (3, 5, "only-one"),
    (4, 16, "classic"),
    (5, 3, "only-one"),
]


def positions(seed: int, players: int, mode: str) -> Iterator[tuple[KingdomEngine, list[Any]]]:
    """Every state of a game of random legal moves, some of them timed out (a stand or a kept
    Thief by the clock), with the events that led to it; the last state is the game's end. The
    engine is the same object throughout: use each state before taking the next."""
    options = {"mode": mode, "length": 2, "turn_ms": 1000, "reveal_ms": 1000}
    engine = KingdomEngine.new(players, seed, options, 0)
    brain, rng = RandomPlayer(seed), random.Random(seed)
    events: list[Any] = list(engine.opening)
    now = 0
    for _ in range(3000):
        yield engine, events
        if engine.is_over:
            return
        if engine.phase == "reveal" or rng.random() < 0.1:
            now = engine.next_deadline() or now + 1
            events = engine.advance(now)
        else:
            now += 1
            events = engine.apply(engine.active, brain.choose(engine, engine.active), now)
    raise AssertionError("the game did not end")


@pytest.fixture
def games() -> Iterator[Iterator[tuple[KingdomEngine, list[Any]]]]:
    """Each simulated game, state by state (played afresh for each test: it takes milliseconds)."""
    return (positions(*game) for game in GAMES)


def boards(engine: KingdomEngine, names: list[str], locale: str) -> list[Any]:
    view = engine.view(None)
    live = sign(kingdom_board.kingdom_board(view, names, 1, "g", locale=locale), COMMITMENT, locale=locale)
    replayed = kingdom_board.kingdom_board(view, names, 1, "g", live=False, locale=locale)
    out = [live, replayed]
    if engine.is_over:
        final = kingdom_board.final_board(view, names, engine.result().winners, "g", locale=locale)
        out.append(sign(final, COMMITMENT, seed=123456789, salt=COMMITMENT[:32], locale=locale))
    return out


def panels(engine: KingdomEngine, names: list[str], locale: str) -> Iterator[str]:
    """Every seat's My card answer, with its power panel."""
    for seat in range(engine.players):
        message = kingdom_board.my_card_message(engine.view(seat), names, 1, locale)
        parts = [message.get("content") or ""]
        if "embed" in message:
            parts.append(embed_text(message["embed"]))
        if "view" in message:
            parts += item_texts(message["view"].children)
        yield "\n".join(parts)


def news(engine: KingdomEngine, events: list[Any], names: list[str], locale: str) -> Iterator[str]:
    for event in events:
        if event.kind == "card":
            message = kingdom_board.received_message(event.data, names, spent=True, locale=locale)
        elif event.kind == "peek":
            message = kingdom_board.peek_message(event.data, names, locale)
        else:
            continue
        yield message["content"] + "\n" + embed_text(message["embed"])


def _played(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Whether the engine would play ``action`` (as ``apply`` matches it), not refuse it."""
    if action["type"] in ("thief", "bard") and "target" not in action:
        return False
    if action["type"] == "stand" and {"type": "stand"} in legal:
        return True  # the player to act stands, whatever else the press says
    return any(
        a["type"] == action["type"] and ("target" not in action or action["target"] == a.get("target"))
        for a in legal
    )


def refusals(engine: KingdomEngine) -> Iterator[IllegalAction]:
    """What every seat (and a stranger) is told for presses the engine may refuse now."""
    actions = [
        {"type": kind, **({"target": target} if target is not None else {})}
        for kind in ("stand", "exchange", "cut", "trader", "thief", "bard", "dragon", "swap", "keep", "next")
        for target in (None, 0, engine.players - 1)
    ]
    for seat in [*range(engine.players), 99]:
        legal = engine.legal_actions(seat) if seat < engine.players else []
        for action in actions:
            if _played(action, legal):
                continue
            try:
                engine.apply(seat, action, 0)
            except IllegalAction as refusal:
                yield refusal
            else:
                raise AssertionError(f"{action} was played by seat {seat}")


def test_the_simulated_games_reach_every_kind_of_board(games):
    actions, effects, eliminated, deck_top = [], set(), False, False
    for game in games:
        for engine, _ in game:
            view = engine.view(None)
            actions += view["actions"]
            effects |= {e["effect"] for e in view["reveal"]["effects"]} if view["reveal"] else set()
            eliminated |= bool(view["eliminated"])
            deck_top |= view["deck_top"] is not None
    kinds = {a["type"] for a in actions}
    assert {"stand", "exchange", "cut", "trader", "thief", "swap", "keep", "bard", "dragon"} <= kinds
    assert any(a.get("timeout") for a in actions) and any(a.get("auto") == "king" for a in actions)
    assert {"turn", "monk", "dealer_monk", "king_returns"} <= effects
    assert eliminated and deck_top


def test_every_board_panel_news_and_refusal_speaks_the_pseudo_locale_only(games, pseudo_locale):
    refused: set[str] = set()
    for game in games:
        for i, (engine, events) in enumerate(game):
            names = NAMES[: engine.players]
            for board in boards(engine, names, pseudo_locale):
                text = board_text(board)
                assert untranslated(text, allowed=names) == [], text
            for text in [*panels(engine, names, pseudo_locale), *news(engine, events, names, pseudo_locale)]:
                assert untranslated(text, allowed=names) == [], text
            if i % 5 == 0 or engine.peek is not None:
                for refusal in refusals(engine):
                    refused.add(refusal.message)
                    text = t(pseudo_locale, refusal.message, **refusal.fields)
                    assert text.startswith("⟦") and untranslated(text) == [], refusal.reason
    assert len(refused) >= 14  # nearly every refusal the engine has was met


def test_the_pictures_draw_only_words_of_the_pseudo_locale(games, pseudo_locale):
    with drawn(pictures) as calls:
        for char in range(len(CHARACTERS)):
            pictures.card_png(char, pseudo_locale)
        for game in games:
            for i, (engine, _) in enumerate(game):
                if i % 9:
                    continue
                picture = kingdom_board.reveal_picture(
                    engine.view(None), NAMES[: engine.players], "g", pseudo_locale
                )
                if picture is not None:
                    picture.render()
        drawn_words = [text for text, _font in calls]
        words = [text for text in drawn_words if untranslated(text, allowed=NAMES)]
        assert drawn_words and words == [], words
        assert any("⟦ŔÓÚÑĐ" in text.upper() for text in drawn_words)  # "Round 3", accented
    # The language is part of the picture's key: the same table in another language is drawn anew.
    view = next(engine.view(None) for engine, _ in positions(*GAMES[0]) if engine.reveal)
    keys = {kingdom_board.reveal_picture(view, NAMES, "g", code).key for code in (*shipped(), pseudo_locale)}
    assert len(keys) == len(shipped()) + 1


def test_the_cards_names_fit_their_pictures_in_every_language():
    for locale in shipped():
        for character in CHARACTERS:
            assert pictures.card_png(character.value, locale)  # drawn smaller where long


def test_the_lobby_options_the_rules_the_ping_and_the_note_speak_the_pseudo_locale(pseudo_locale):
    from bot.session.sessions import Session

    cog = KingdomCog.__new__(KingdomCog)  # only its drawing methods, which need no bot
    texts = [t(pseudo_locale, RULES), t(pseudo_locale, PING_ACTIVE)]
    for mode in ("classic", "death-over-all", "only-one"):
        texts.append(cog.options_text({"mode": mode, "turn_ms": 5_400_000}, pseudo_locale))
    session = Session("kingdom", 1, 2, 3, {}, 4, "k", 0, players=[3, 5, 7], names={3: "p0", 5: "p1", 7: "p2"})
    session.locale = pseudo_locale
    session.engine = KingdomEngine.new(3, 1, {"mode": "classic", "turn_ms": 0}, 0)
    texts.append(board_text(cog.render_board(session)))
    texts += list(cog.awaited(session).values())
    for text in texts:
        assert untranslated(text, allowed=NAMES) == [], text


@pytest.mark.parametrize("locale", shipped())
def test_every_board_and_panel_fits_discords_limits_in_every_language(games, locale):
    long_names = [f"{name:_<32}" for name in NAMES]
    for game in games:
        for engine, _events in game:
            names = long_names[: engine.players]
            for board in boards(engine, names, locale):
                assert_fits_discords_limits(board)
            for seat in range(engine.players):
                message = kingdom_board.my_card_message(engine.view(seat), names, 1, locale)
                if "embed" in message:
                    assert len(message["embed"]) <= EMBED_TOTAL
                    assert len(message["embed"].description) <= LIMITS["description"]
                if "view" in message:
                    assert all(len(label) <= LABEL for label in item_texts(message["view"].children))
    cog = KingdomCog.__new__(KingdomCog)
    assert len(t(locale, RULES)) <= LIMITS["description"]  # /rules is one embed's description
    assert len(cog.options_text({"mode": "only-one", "turn_ms": 86_400_000}, locale)) <= LIMITS["field_value"]


@pytest.mark.parametrize("locale", ["de", "fr"])
def test_german_and_french_boards_read_in_their_language(games, locale):
    engine = next(engine for game in games for engine, _ in game if engine.phase == "reveal")
    names = NAMES[: engine.players]
    text = board_text(boards(engine, names, locale)[0])
    expected = {
        "de": [
            "Tod über dem Königreich — Runde",
            "aufgedeckt",
            "Rundenende",
            "Nachziehstapel",
            "Nächste Runde",
        ],
        "fr": ["La Mort sur le royaume — Manche", "révélée", "Fin de manche", "Pioche", "Manche suivante"],
    }[locale]
    for words in expected:
        assert words in text, (words, text)
    assert t(locale, "Classic") == {"de": "Klassisch", "fr": "Classique"}[locale]  # as /kingdom new's choice
    # A replay's board (live=False): no clock, no instruction to press anything.
    replayed = board_text(
        kingdom_board.kingdom_board(engine.view(None), names, 1, "g", live=False, locale=locale)
    )
    assert "<t:" not in replayed and {"de": "Kräfte:", "fr": "Pouvoirs :"}[locale] not in replayed
    cog = KingdomCog.__new__(KingdomCog)
    options = cog.options_text({"mode": "only-one", "turn_ms": 5_400_000}, locale)
    assert {"de": "Zugzeit: 1 Std. 30 Min.", "fr": "Minuteur de tour : 1 h 30 min"}[locale] in options
    assert {"de": "Es kann nur einen geben", "fr": "Il ne peut en rester qu'un"}[locale] in options


def test_the_final_boards_last_round_names_who_lost_it_in_words(games) -> None:
    """Not only in its picture: "Last round (6): No card changed value." said nothing of it."""
    for game in games:
        *_, (engine, _) = game
        view, names = engine.view(None), [f"P{seat}" for seat in range(engine.players)]
        final = kingdom_board.final_board(view, names, engine.result().winners, "g", locale="en")
        last = next(field for field in final.embed.fields if field.name.startswith("Last round"))
        losers = view["reveal"]["losers"]
        assert "Lowest: " in last.value
        assert all(f"**{names[seat]}** with " in last.value for seat in losers), last.value
