"""The final boards of the three games in German and French: every count of 0, 1 and 2 agrees
with its noun by the language's own rule (French: 0 and 1 singular; German: only 1), as the
cogs draw them (``render_final``'s board functions, in the session's language)."""

from __future__ import annotations

import pytest

from bot.games.kabuki import board as kabuki_board
from bot.games.kabuki.engine import KabukiEngine
from bot.games.kingdom import board as kingdom_board
from bot.games.kingdom.engine import KingdomEngine
from bot.games.masks import board as masks_board
from bot.games.masks.engine import MasksEngine

NAMES = ["ann", "ben", "cy"]  # holding 0, 1 and 2 of everything counted


def kabuki_final(locale: str, left: int) -> str:
    view = KabukiEngine.new(3, 5, {}, 0).view(None)
    view.update(tokens=[0, 1, 2], totals=[0, 1, 2], deck_left=left, box=left)
    embed = kabuki_board.render(view, NAMES, 1, final=True, locale=locale).embed
    return "\n".join([*(field.value for field in embed.fields), embed.footer.text])


def masks_final(locale: str, turns: int) -> str:
    view = MasksEngine.new(3, 5, {}, 0).view(None)
    view.update(piles=[0, 1, 2], winners=[2], turns=turns, removed=turns)
    embed = masks_board.render_final(view, NAMES, locale).embed
    return "\n".join([*(field.value for field in embed.fields), embed.footer.text])


def kingdom_final(locale: str, mode: str, rounds: int) -> str:
    view = KingdomEngine.new(3, 5, {"turn_ms": 0, "mode": mode}, 0).view(None)
    view.update(tokens=[0, 1, 2], reveal=None, round=rounds)
    embed = kingdom_board.final_board(view, NAMES, [0], "key", locale=locale).embed
    return "\n".join([embed.description, embed.footer.text])


KABUKI = {
    "fr": (
        ["**ann** — 0 jeton · 0 PV", "**ben** — 1 jeton · 1 PV", "**cy** — 2 jetons · 2 PV"],
        "acteur (nu) · 0 carte",
    ),
    "de": (
        ["**ann** — 0 Chips · 0 SP", "**ben** — 1 Chip · 1 SP", "**cy** — 2 Chips · 2 SP"],
        "Schauspieler (leer) · 0 Karten",
    ),
}
KABUKI_FOOTER = {
    "fr": [
        "Pioche : encore 0 carte · Boîte : 0 jeton",
        "Pioche : encore 1 carte · Boîte : 1 jeton",
        "Pioche : encore 2 cartes · Boîte : 2 jetons",
    ],
    "de": [
        "Nachziehstapel: noch 0 Karten · Schachtel: 0 Chips",
        "Nachziehstapel: noch 1 Karte · Schachtel: 1 Chip",
        "Nachziehstapel: noch 2 Karten · Schachtel: 2 Chips",
    ],
}
MASKS = {
    "fr": (
        ["**ann** — 0 carte", "**ben** — 1 carte", "**cy** — 2 cartes"],
        ["1 tour · 1 carte hors jeu", "2 tours · 2 cartes hors jeu"],
    ),
    "de": (
        ["**ann** — 0 Karten", "**ben** — 1 Karte", "**cy** — 2 Karten"],
        ["1 Zug · 1 Karte aus dem Spiel", "2 Züge · 2 Karten aus dem Spiel"],
    ),
}
KINGDOM_LEFT = {
    "fr": ["**ann** — 0 ❤️ restante", "**ben** — 1 ❤️ restante", "**cy** — 2 ❤️ restantes"],  # vies
    "de": ["**ann** — 0 ❤️ übrig", "**ben** — 1 ❤️ übrig", "**cy** — 2 ❤️ übrig"],
}
KINGDOM_ROUNDS = {"fr": [" · 1 manche · ", " · 2 manches · "], "de": [" · 1 Runde · ", " · 2 Runden · "]}


@pytest.mark.parametrize("locale", ["fr", "de"])
def test_kabukis_final_board_counts_tokens_points_and_cards_in_the_language(locale):
    players, stack = KABUKI[locale]
    for left, footer in zip((0, 1, 2), KABUKI_FOOTER[locale], strict=True):
        text = kabuki_final(locale, left)
        assert all(line in text for line in players), text
        assert stack in text
        assert footer in text


@pytest.mark.parametrize("locale", ["fr", "de"])
def test_monster_masks_final_board_counts_cards_and_turns_in_the_language(locale):
    piles, footers = MASKS[locale]
    for turns, footer in zip((1, 2), footers, strict=True):
        lines = masks_final(locale, turns).splitlines()
        assert all(any(line.endswith(pile) for line in lines) for pile in piles), lines
        assert lines[-1] == footer


@pytest.mark.parametrize("locale", ["fr", "de"])
def test_kingdoms_final_board_counts_hearts_left_and_rounds_in_the_language(locale):
    # French said "1 ❤️ restants" and "0 ❤️ restants": "{tokens} left" was no plural.
    for rounds, footer in zip((1, 2), KINGDOM_ROUNDS[locale], strict=True):
        text = kingdom_final(locale, "only-one", rounds)
        assert all(line in text for line in KINGDOM_LEFT[locale]), text
        assert footer in text
    classic = kingdom_final(locale, "classic", 2)
    assert all(f"**{name}** — {n} 🪙" in classic for n, name in enumerate(NAMES))


def test_kingdoms_french_only_one_board_counts_lives_left_and_lost_and_names_no_gender():
    # The board counts lives left (❤️, "Les jetons sont des vies"); the footer what the
    # leaderboard records of them, lives lost: one word, vies, for both. Who is out is "hors du
    # jeu", never "éliminé", which would give every member a masculine.
    view = KingdomEngine.new(3, 5, {"turn_ms": 0, "mode": "only-one"}, 0).view(None)
    view.update(tokens=[0, 1, 2], reveal=None, round=2, eliminated=[0])
    embed = kingdom_board.final_board(view, NAMES, [2], "key", locale="fr").embed
    assert "**ann** — 0 ❤️ restante · hors du jeu" in embed.description
    assert "**cy** — 2 ❤️ restantes 🏆" in embed.description
    assert embed.footer.text.endswith(
        "Compté au classement en vies perdues (chaque vie est un jeton ; moins, c'est mieux)."
    )
    assert [(field.name, field.value) for field in embed.fields][0] == (
        "Hors du jeu (dans l'ordre)",
        "**ann**",
    )
    assert "limin" not in "\n".join([embed.description, embed.footer.text, *(f.name for f in embed.fields)])
