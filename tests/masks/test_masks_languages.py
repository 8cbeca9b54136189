"""Island of Monster Masks in every language: every board of simulated games (playing, final, a
replay's), its picture's words and the Mime's card, the engine's refusals (with the monster named
in them), private news, the lobby's options and notes, the turn ping's asks and the rules come
from the catalogue (nothing is left in English under the pseudo-locale), and every board fits
Discord's limits in every shipped language."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from language_checks import COMMITMENT, LIMITS, assert_fits_discords_limits, board_text, drawn

from bot.engine import Event
from bot.engine.protocol import IllegalAction
from bot.games.masks import board as masks_board
from bot.games.masks import pictures
from bot.games.masks.cog import PING_GUESSERS, PING_MIME, RULES, MasksCog
from bot.games.masks.engine import MasksEngine
from bot.games.masks.faces import FACES, MONSTERS
from bot.games.masks.history import log_record, rerun
from bot.games.masks.players import play_game
from bot.glue.board import sign
from bot.i18n import shipped, t
from bot.i18n.pseudo import untranslated
from bot.session.sessions import Session

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hugo"]


def simulated_games() -> list[dict[str, Any]]:
    """Records that between them reach every kind of board: every reason a turn ends (all
    slapped, the timer, the Mime), races lost, nobody guessing, second chances, both modes."""
    games = [
        play_game(3, 1, skill=0.3, idle=0.5),
        play_game(
            5, 2, skill=0.7, reaction_ms=300, idle=0.4, patience_ms=400, options={"mime_mode": "emoji"}
        ),
        play_game(
            8, 3, reaction_ms=200, options={"second_chance": True, "sounds": True, "race_window_ms": 800}
        ),
    ]
    return [log_record(engine, seed) for seed, (engine, _stats) in enumerate(games, 1)]


def every_engine(records) -> Iterator[tuple[MasksEngine, list[str]]]:
    for rec in records:
        names = NAMES[: rec["players"]]
        for _what, engine in rerun(rec, names):
            yield engine, names


def boards(view: dict[str, Any], names: list[str], locale: str, computers=()) -> list[Any]:
    playing = sign(masks_board.render(1, view, names, computers, locale=locale), COMMITMENT, locale=locale)
    replayed = masks_board.render(1, view, names, live=False, locale=locale)
    found = [playing, replayed]
    if view["phase"] == "over":
        final = masks_board.render_final(view, names, locale)
        found.append(sign(final, COMMITMENT, seed=123456789, salt=COMMITMENT[:32], locale=locale))
    return found


def presses(engine: MasksEngine) -> Iterator[IllegalAction | MasksEngine]:
    """Every press any seat might make now, each on a copy of the engine: the refusal it gets,
    or the engine after it (a race open, or a tile held mid-turn)."""
    turn, now = engine.turn, engine.log[-1]["now"]
    actions = [{"type": "slap", "tile": tile, "turn": turn} for tile in (*range(FACES), 16)] + [
        {"type": "slap", "tile": 0, "turn": turn - 1},
        {"type": "end_guessing", "turn": turn},
        {"type": "dance"},
    ]
    # The copies leave out the log and the finished turns: a press reads neither (the board's
    # words come from the current turn, the piles and the scores), and deep-copying a late game's
    # whole past for each of ~150 presses a step was nine tenths of this file's time (past
    # pytest-timeout's 120 s on a busy machine).
    state = {**engine.to_save(), "history_from": 0, "log": []}
    for seat, action in itertools.product([*range(engine.players), 99], actions):
        copy = MasksEngine.from_json(state)
        try:
            copy.apply(seat, action, now)
            copy.apply(seat, action, now)  # the same slap again: "already slapped/racing"
        except IllegalAction as refusal:
            yield refusal
        yield copy


def refusal_text(locale: str, refusal: IllegalAction) -> str:
    """As GameCog shows a refusal: a text field (a monster's name) is a message id too."""
    fields = {k: t(locale, v) if isinstance(v, str) else v for k, v in refusal.fields.items()}
    return t(locale, refusal.message, **fields)


@pytest.fixture(scope="module")
def records():
    return simulated_games()


def test_the_simulated_games_reach_every_kind_of_board(records):
    reasons, lost, nobody, second = set(), False, False, False
    for engine, _names in every_engine(records):
        view = engine.view(None)
        lost |= bool(view["lost"])
        if view["last_reveal"]:
            reasons.add(view["last_reveal"]["reason"])
            nobody |= view["last_reveal"]["scorer"] is None
        second |= view["options"]["second_chance"]
    assert reasons == {"all_slapped", "timer", "mime"} and lost and nobody and second


@pytest.mark.slow
def test_every_board_of_simulated_games_speaks_the_pseudo_locale_only(records, pseudo_locale):
    refused = set()
    for step, (engine, names) in enumerate(every_engine(records)):
        for board in boards(engine.view(None), names, pseudo_locale, computers=[1]):
            text = board_text(board)
            assert untranslated(text, allowed=names) == [], text
        if engine.phase != "guessing" or step % 9:  # every board, and every press on some
            continue
        for outcome in presses(engine):
            if isinstance(outcome, MasksEngine):
                for board in boards(outcome.view(None), names, pseudo_locale):
                    assert untranslated(board_text(board), allowed=names) == []
                continue
            refused.add(outcome.message)
            text = refusal_text(pseudo_locale, outcome)
            assert text.startswith("⟦") and untranslated(text) == [], outcome.reason
    assert len(refused) >= 11  # nearly every refusal the engine has was met, monsters named in them


def test_the_pictures_draw_only_words_of_the_pseudo_locale(pseudo_locale):
    with drawn(pictures) as calls:
        pictures.board_png(None, pseudo_locale)
        pictures.board_png(5, pseudo_locale)
        for face in range(FACES):
            pictures.face_png(face, pseudo_locale)
    drawn_words = [text for text, _font in calls]
    words = [text for text in drawn_words if untranslated(text)]
    assert drawn_words and words == [], words
    assert "1. ⟦Ĝŕúɱƥý⟧" in drawn_words  # the first tile's name, accented
    # The language is part of the picture's key: the same board in another language is drawn anew.
    view = MasksEngine.new(3, 1, {}, 0).view(None)
    keys = {masks_board.picture(view, code).key for code in (*shipped(), pseudo_locale)}
    assert len(keys) == len(shipped()) + 1


def session_at(locale: str, players=(3, 5, 7), computers: bool = False, **options: Any) -> Session:
    seats = [*players, -1] if computers else list(players)
    names = dict(zip(players, NAMES, strict=False))
    session = Session("masks", 1, 2, 3, options, 4, "k", 0, players=seats, names=names)
    session.locale = locale
    return session


def private_and_lobby_texts(locale: str) -> list[str]:
    cog = MasksCog.__new__(MasksCog)  # only its drawing methods, which need no bot
    session = session_at(locale)
    news = [
        cog.render_private(
            session, 1, Event("secret_card", {"card": 3, "name": MONSTERS[3], "turn": 2}, (1,))
        ),
        cog.render_private(
            session,
            1,
            Event("race_lost", {"winner": 0, "name": MONSTERS[7], "by_ms": 40, "again": True}, (1,)),
        ),
        cog.render_private(
            session,
            1,
            Event("race_lost", {"winner": 0, "name": MONSTERS[7], "by_ms": 40, "again": False}, (1,)),
        ),
        cog.render_private(session, 2, Event("slapped", {"name": MONSTERS[9]}, (2,))),
    ]
    texts = [message["content"] for message in news]
    texts += [cog.options_text({}, locale), t(locale, RULES), t(locale, PING_MIME), t(locale, PING_GUESSERS)]
    texts += [
        cog.options_text(
            {"guess_ms": 5_400_000, "mime_mode": "emoji", "sounds": True, "second_chance": True}, locale
        )
    ]
    for skill in ("easy", "normal", "hard"):
        texts += cog.lobby_notes(session_at(locale, computers=True, computer_skill=skill))
    return texts


def test_private_news_lobby_notes_options_pings_and_rules_speak_the_pseudo_locale(pseudo_locale):
    texts = private_and_lobby_texts(pseudo_locale)
    assert len(texts) == 15  # 4 private news, options twice, rules, 2 asks, 3 × 2 lobby notes
    for text in texts:
        assert untranslated(text, allowed=["alice"]) == [], text


@pytest.mark.parametrize("locale", list(shipped()))
def test_every_board_fits_discords_limits_in_every_language(records, locale):
    long_names = [f"{name:_<32}" for name in NAMES]
    for engine, names in every_engine(records):
        for board in boards(engine.view(None), long_names[: len(names)], locale):
            assert_fits_discords_limits(board)
    assert len(t(locale, RULES)) <= LIMITS["description"]  # /rules is one embed's description
    cog = MasksCog.__new__(MasksCog)
    assert len(cog.options_text({"second_chance": True, "sounds": True}, locale)) <= LIMITS["field_value"]
    assert all(len(t(locale, name)) <= 20 for name in MONSTERS)  # a tile's label stays short for a phone


@pytest.mark.parametrize("locale", ["de", "fr"])
def test_german_and_french_boards_read_in_their_language(records, locale):
    engine, names = next(
        (e, n) for e, n in every_engine(records) if e.phase == "guessing" and e.view(None)["last_reveal"]
    )
    text = board_text(boards(engine.view(None), names, locale)[0])
    expected = {
        "de": [
            "Insel der Monstermasken — Zug",
            "Spieler",
            "Letzter Zug",
            "Meine Karte",
            "Raten beenden",
            "Grummel",
        ],
        "fr": ["L'Île des masques de monstres — tour", "Joueurs", "Dernier tour", "Ma carte", "Grognon"],
    }[locale]
    for words in expected:
        assert words in text, (words, text)
    replayed = board_text(boards(engine.view(None), names, locale)[1])
    assert (
        "<t:" not in replayed
        and {"de": "spielt die geheime Karte vor", "fr": "mime la carte secrète"}[locale] in replayed
    )
    options = MasksCog.__new__(MasksCog).options_text({"guess_ms": 5_400_000}, locale)
    assert {"de": "Ratezeit: **1 Std. 30 Min.**", "fr": "Temps pour deviner : **1 h 30 min**"}[
        locale
    ] in options
    # A refusal names the monster in the language too.
    refusal = IllegalAction("{monster} is already taken.", monster=MONSTERS[0])
    assert (
        refusal_text(locale, refusal)
        == {"de": "Grummel ist schon vergeben.", "fr": "La tuile Grognon est déjà prise."}[locale]
    )
