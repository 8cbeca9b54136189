"""Kabuki in every language: every board of simulated games, its picture's words, the engine's
refusals, the lobby's options and the rules come from the catalogue (nothing is left in English
under the pseudo-locale), and every board fits Discord's limits in every shipped language."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from language_checks import COMMITMENT, LIMITS, assert_fits_discords_limits, board_text, drawn

from bot.engine.protocol import IllegalAction
from bot.games.kabuki import board as kabuki_board
from bot.games.kabuki import pictures
from bot.games.kabuki.cog import PING_PLACER, RULES, KabukiCog
from bot.games.kabuki.engine import KabukiEngine
from bot.games.kabuki.history import rerun
from bot.games.kabuki.simulate import play_game, record
from bot.glue.board import sign
from bot.i18n import shipped, t
from bot.i18n.pseudo import untranslated

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def simulated_games() -> list[tuple[dict[str, Any], int]]:
    """Records of whole games that between them reach every kind of board: auto placements
    (idle players), challenges with and without a match (bluffs), races, reveals, every round."""
    games = [
        play_game(2, seed=3, idle=0.4),
        play_game(4, seed=5, memory=0.8, bluff=0.3),
        play_game(6, seed=8, memory=0.6, idle=0.1, bluff=0.2),
    ]
    return [(record(game, 1.0), game.engine.players) for game in games]


def every_view(records) -> Iterator[dict[str, Any]]:
    for rec, players in records:
        for _what, engine in rerun(rec, NAMES[:players]):
            yield engine.view(None)


def boards(view: dict[str, Any], names: list[str], locale: str) -> list[Any]:
    playing = sign(kabuki_board.render(view, names, 1, locale=locale), COMMITMENT, locale=locale)
    final = kabuki_board.render(view, names, 1, final=True, locale=locale)
    replayed = kabuki_board.render(view, names, 1, final=view["phase"] == "over", live=False, locale=locale)
    return [playing, sign(final, COMMITMENT, seed=123456789, salt=COMMITMENT[:32], locale=locale), replayed]


def presses(engine: KabukiEngine) -> Iterator[IllegalAction | KabukiEngine]:
    """Every press any seat might make now, each on a copy of the engine: the refusal it gets,
    or the engine after it (a Stop! race open, which a finished game's log no longer shows)."""
    turn = engine.turn
    actions = [
        {"type": "place", "stack": 0, "turn": turn},
        {"type": "place", "stack": 0, "turn": turn + 1},
        {"type": "place", "stack": 7, "turn": turn},
        {"type": "stop", "turn": turn},
        {"type": "stop", "turn": turn - 1},
        {"type": "dance"},
    ]
    for seat, action in itertools.product([*range(engine.players), 99], actions):
        copy = KabukiEngine.from_json(engine.to_json())
        try:
            copy.apply(seat, action, engine.clock)
        except IllegalAction as refusal:
            yield refusal
        else:
            yield copy


@pytest.fixture(scope="module")
def records():
    return simulated_games()


def test_the_simulated_games_reach_every_kind_of_board(records):
    kinds = {view["last_event"]["kind"] for view in every_view(records) if view["last_event"]}
    assert {"round_start", "placed", "challenge", "round_end", "game_over"} <= kinds
    events = [view["last_event"]["data"] for view in every_view(records) if view["last_event"]]
    assert any(d.get("auto") for d in events) and any(d.get("k") == 0 for d in events)
    assert any(d.get("k") for d in events)
    assert any(view["reveal"] for view in every_view(records))


def test_every_board_of_simulated_games_speaks_the_pseudo_locale_only(records, pseudo_locale):
    refused, raced = set(), False
    for rec, players in records:
        names = NAMES[:players]
        for _what, engine in rerun(rec, names):
            view = engine.view(None)
            for board in boards(view, names, pseudo_locale):
                text = board_text(board)
                assert untranslated(text, allowed=names) == [], text
            for outcome in presses(engine):
                if isinstance(outcome, KabukiEngine):
                    for board in boards(outcome.view(None), names, pseudo_locale):
                        raced |= outcome.race is not None
                        assert untranslated(board_text(board), allowed=names) == []
                    continue
                refused.add(outcome.message)
                text = t(pseudo_locale, outcome.message, **outcome.fields)
                assert text.startswith("⟦") and untranslated(text) == [], outcome.reason
    assert raced and len(refused) >= 12  # a race was on, and most of the engine's refusals met


def test_the_pictures_draw_only_words_of_the_pseudo_locale(records, pseudo_locale):
    # The palette's sample text is colours only, never shown: it is drawn before recording.
    with drawn(pictures, primed=[pictures._palette]) as calls:
        for view in itertools.islice(every_view(records), 0, None, 7):
            for board in boards(view, NAMES[: len(view["tokens"])], pseudo_locale):
                kabuki_board.render_picture(board.picture.key)
        for mask in range(len(pictures.MASKS)):
            pictures.mask_card(mask, locale=pseudo_locale)
    drawn_words = [text for text, _font in calls]
    words = [text for text in drawn_words if untranslated(text)]
    assert drawn_words and words == [], words
    assert any("⟦Šťáçķ" in text for text in drawn_words)  # "Stack 1", accented
    # The language is part of the picture's key: the same board in another language is drawn anew.
    view = next(every_view(records))
    keys = {kabuki_board.picture_key(view, locale=code) for code in (*shipped(), pseudo_locale)}
    assert len(keys) == len(shipped()) + 1


def test_private_news_the_lobby_options_and_the_rules_speak_the_pseudo_locale(pseudo_locale):
    from bot.engine import Event
    from bot.session.sessions import Session

    session = Session("kabuki", 1, 2, 3, {}, 4, "k", 0, players=[3, 5], names={3: "alice", 5: "bob"})
    session.locale = pseudo_locale
    cog = KabukiCog.__new__(KabukiCog)  # only its drawing methods, which need no bot
    news = [
        cog.render_private(session, 1, Event("stop_received", {"opened": False}, (1,))),
        cog.render_private(session, 1, Event("race_lost", {"winner": 0, "by_ms": 40}, (1,))),
    ]
    texts = [message["content"] for message in news]
    texts += [cog.options_text({}, pseudo_locale), t(pseudo_locale, RULES)]
    texts += [cog.options_text({"turn_ms": 5_400_000}, pseudo_locale), t(pseudo_locale, PING_PLACER)]
    for text in texts:
        assert untranslated(text, allowed=["alice"]) == [], text


@pytest.mark.parametrize("locale", [code for code in shipped()])
def test_every_board_fits_discords_limits_in_every_language(records, locale):
    # The longest names Discord allows (32 characters), so nothing a server does can overflow.
    long_names = [f"{name:_<32}" for name in NAMES]
    for view in every_view(records):
        for board in boards(view, long_names[: len(view["tokens"])], locale):
            assert_fits_discords_limits(board)
    cog = KabukiCog.__new__(KabukiCog)
    assert len(t(locale, RULES)) <= LIMITS["description"]  # /rules is one embed's description
    assert len(cog.options_text({}, locale)) <= LIMITS["field_value"]


@pytest.mark.parametrize("locale", ["de", "fr"])
def test_german_and_french_boards_read_in_their_language(records, locale):
    view = next(v for v in every_view(records) if v["reveal"] and v["reveal"]["k"])
    text = board_text(boards(view, NAMES[: len(view["tokens"])], locale)[0])
    expected = {
        "de": [
            "Kabuki — Runde",
            "aufgedeckt",
            "Unten → oben",
            "Stapel (oberste Maske)",
            "Festlegung der Mischung",
        ],
        "fr": [
            "Kabuki — manche",
            "révélée",
            "Du bas vers le haut",
            "Piles (masque du dessus)",
            "Engagement du mélange",
        ],
    }[locale]
    for words in expected:
        assert words in text, (words, text)
    # A replay's board (live=False): what was happening, in the language, with no clock.
    replayed = board_text(
        kabuki_board.render(view, NAMES[: len(view["tokens"])], 1, live=False, locale=locale)
    )
    then = {"de": "; danach ", "fr": " ; ensuite, "}[locale]
    assert then in replayed and "<t:" not in replayed
    assert {"de": "Merk dir", "fr": "Souvenez-vous"}[locale] not in replayed
    # Timers up to a day, written as the language writes them.
    options = KabukiCog.__new__(KabukiCog).options_text({"turn_ms": 5_400_000, "race_window_ms": 250}, locale)
    assert {"de": "Zugzeit: 1 Std. 30 Min.", "fr": "Minuteur de tour : 1 h 30 min"}[locale] in options
    assert "0,25 s" in options
    assert t(
        locale, "Wait {seconds} s: the others still get a chance to press Stop.", seconds=1.5
    ).startswith({"de": "Warte 1,5 s", "fr": "Attendez 1,5 s"}[locale])
