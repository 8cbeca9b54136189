"""Miming in emoji: a computer Mime's emoji fit its card better than any other tile, a guesser
reads the emoji people post too, and the computers' skill sets how often they read right."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.masks import hints
from bot.games.masks.cog import is_emoji_only
from bot.games.masks.engine import MasksEngine
from bot.games.masks.faces import FACES, MONSTERS
from bot.games.masks.players import SKILLS, guess, mime_hint


@pytest.mark.parametrize("face", range(FACES))
def test_a_computer_mime_s_emoji_fit_its_card_better_than_any_other_face(face: int) -> None:
    for seed in range(8):
        text = hints.hint(face, random.Random(seed))
        assert is_emoji_only(text)  # what emoji mode lets a Mime post: no name, no tile number
        assert not any(name.lower() in text.lower() for name in MONSTERS)
        read = hints.read([text])
        fit = hints.score(read, face)
        assert all(fit > hints.score(read, other) for other in range(FACES) if other != face)


@pytest.mark.parametrize(
    ("texts", "face"),
    [
        (["😴"], "Sleepy"),
        (["😭"], "Crybaby"),
        (["🐡"], "Puffer"),
        (["😬", "💦"], "Nervous"),  # two messages read together
        (["😘 💕"], "Kissy"),
        (["🌀😵\u200d💫"], "Dizzy"),
        (["👀 😑"], "Shifty"),
        (["<:x:123456789012345678> 🦫"], "Bucky"),
    ],
)
def test_a_guesser_reads_the_emoji_people_post(texts: list[str], face: str) -> None:
    assert hints.ranked(hints.read(texts), range(FACES), random.Random(0))[0] == MONSTERS.index(face)


def test_words_say_nothing_to_a_computer() -> None:
    assert hints.read(["Sleepy", "it's the one who cries", "<:sleepy:123456789012345678>"]) == set()


def guesser_view(engine: MasksEngine, seat: int, mimed: list[str]) -> dict:
    return {**engine.view(seat), "mimed": mimed, "computer_seats": [1, 2]}


@pytest.mark.parametrize("skill", sorted(SKILLS))
def test_the_skill_sets_how_often_the_best_fit_is_slapped_and_how_soon(skill: str) -> None:
    engine = MasksEngine.new(3, 1, {"computer_skill": skill, "mime_mode": "emoji"}, 0)
    text = hints.hint(MONSTERS.index("Roar"), random.Random(0))
    view = guesser_view(engine, 1, [text])
    assert "card" not in view  # a guesser's view never holds the Mime's card
    tiles: Counter[int] = Counter()
    for seed in range(400):
        made = guess(view, engine.legal_actions(1), random.Random(seed))
        assert made is not None
        delay, action = made
        low, high = SKILLS[skill].reaction_ms
        assert low <= delay <= high
        tiles[action["tile"]] += 1
    right = tiles[MONSTERS.index("Roar")] / 400
    assert abs(right - SKILLS[skill].accuracy) < 0.07
    # A misreading is a near miss: the next best fit (Grumpy shares the horns and the brows).
    assert set(tiles) <= {MONSTERS.index("Roar"), MONSTERS.index("Grumpy")}


def test_without_emoji_a_guesser_waits_unless_a_person_mimes_on_camera() -> None:
    emoji = MasksEngine.new(3, 1, {"mime_mode": "emoji"}, 0)
    assert guess(guesser_view(emoji, 1, []), emoji.legal_actions(1), random.Random(0)) is None
    assert guess(guesser_view(emoji, 1, ["Sleepy!"]), emoji.legal_actions(1), random.Random(0)) is None
    camera = MasksEngine.new(3, 1, {}, 0)  # seat 0, a person, mimes on camera: nothing to read
    blind = guess(
        {**camera.view(1), "mimed": [], "computer_seats": [1, 2]}, camera.legal_actions(1), random.Random(0)
    )
    assert blind is not None and 1200 <= blind[0] <= 3500
    # A computer Mime will post emoji: its guessers wait for them, in camera mode too.
    computer_mime = {**camera.view(1), "mimed": [], "computer_seats": [0, 1, 2]}
    assert guess(computer_mime, camera.legal_actions(1), random.Random(0)) is None


def test_a_computer_mime_posts_once_a_turn_after_a_moment() -> None:
    engine = MasksEngine.new(3, 1, {}, 0)
    mime = {**engine.view(0), "mimed": []}
    delay, text = mime_hint(mime, random.Random(0))
    assert (
        2000 <= delay <= 5000
        and hints.ranked(hints.read([text]), range(FACES), random.Random(0))[0] == mime["card"]
    )
    assert mime_hint({**mime, "mimed": [text]}, random.Random(0)) is None


def hints_for(face: int, seeds: range) -> list[str]:
    return [hints.hint(face, random.Random(f"{seed}:{face}")) for seed in seeds]


@pytest.mark.parametrize("face", range(FACES))
def test_a_computer_mime_mimes_one_card_in_many_ways_from_its_features(face: int) -> None:
    said = hints_for(face, range(20))
    assert len(set(said)) >= 8  # not the same string each time, nor only its order shuffled
    assert len({frozenset(text.split()) for text in said}) >= 6
    shown = {emoji for feature in hints.FEATURES[face] for emoji in hints.SHOWN.get(feature, ())}
    for text in said:  # every emoji is one a person reads as one of this face's features
        assert set(text.split()) <= shown, text
    assert said == hints_for(face, range(20))  # the same seed mimes the same way: games replay


def test_hints_use_emoji_a_person_reads_as_the_feature() -> None:
    said = " ".join(text for face in range(FACES) for text in hints_for(face, range(30)))
    assert (
        "🐭" not in said and "📡" not in said and "🩸" not in said
    )  # read by nobody as round ears, antennae, fangs
    assert {"🐻", "🐼", "🐨"} & set(said.split()) and "🧛" in said and "🐜" in said


def test_when_no_varied_hint_tells_the_card_the_first_features_do(monkeypatch) -> None:
    monkeypatch.setattr(hints, "HINT_TRIES", 0)
    for face in range(FACES):
        read = hints.read([hints.hint(face, random.Random(0))])
        assert all(
            hints.score(read, face) > hints.score(read, other) for other in range(FACES) if other != face
        )
