"""Island of Monster Masks: every slap is answered, privately, in its presser's language. Two members
slapping the same tile within the race window or just after: the later one is told who took it and
by how many ms, whether the press joined the race, reached the bot after the race had closed,
came on a tile already taken, or came after the turn ended. No interaction is left unanswered
(Discord's "This interaction failed"; the playground's "Action was not completed")."""

from __future__ import annotations

import pytest
from masks_tables import SETTLE_S
from shown import controls

from bot.games.masks.faces import MONSTERS
from bot.i18n import t

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)

WIDE = 2000  # ms: a race window that stays open across clicks whatever the wall clock does


def other_tile(card: int, *taken: int) -> int:
    return next(t for t in range(16) if t != card and t not in taken)


def answered(*presses) -> None:
    """Every press had its answer, the private one of the presser."""
    for press in presses:
        assert press.acknowledged, press
        assert press.ephemeral and press.response is not None and press.response.content, press


def told_late(press) -> str:
    """What a press that reached the bot over 1 s after it was made was told: it was answered
    first (a deferred update, before its move: bot.session.overload), then privately."""
    assert press.acknowledged and press.deferred, press
    (words,) = press.followups
    assert words.ephemeral and words.content, press
    return words.content


def tile_button(table, tile: int):
    return next(c for c in controls(table.board()) if (c.custom_id or "").endswith(f".{tile}"))


async def test_two_slaps_on_one_tile_within_the_race_window_the_later_is_told_by_how_much(
    open_table, simcord_env
):
    table = await open_table(4, race_window_ms=WIDE)
    _, bob, carol, _ = table.players
    tile = other_tile(table.card())
    bobs = await table.slap(bob, tile)
    await simcord_env.advance_time(0.11)
    carols = await table.slap(carol, tile)
    await simcord_env.advance_time(WIDE / 1000)
    answered(bobs, carols)
    assert table.view["held_by"][tile] == 1
    (lost,) = carols.followups
    assert lost.ephemeral
    assert lost.content == (
        f"⚡ **bob** slapped **{MONSTERS[tile]}** 110 ms before you. A slap can't be changed: you hold "
        "no tile this turn."
    )
    assert bobs.followups == []


async def test_a_slap_just_after_the_race_closed_is_told_who_took_the_tile_and_by_how_much(
    open_table, simcord_env
):
    """bob's slap took the tile; carol's board had not been redrawn yet, and she slapped it 0.11 s
    later: her press reaches the bot (the held tile's button still takes presses) and is told."""
    table = await open_table(4, race_window_ms=WIDE)
    _, bob, carol, dave = table.players
    tile = other_tile(table.card())
    bobs = await table.slap(bob, tile)
    await simcord_env.advance_time(WIDE / 1000)  # the race closes: bob holds the tile
    assert table.view["held_by"][tile] == 1
    button = tile_button(table, tile)
    assert button.label == f"{MONSTERS[tile]} · bob" and not button.disabled
    await simcord_env.advance_time(0.11)
    carols = await table.slap(carol, tile)
    answered(bobs, carols)
    assert carols.response.content == (
        f"⚡ **bob** slapped **{MONSTERS[tile]}** {WIDE + 110} ms before you. Your slap did not count: "
        "slap a free tile."
    )
    # It changed nothing: carol still has her slap, and takes another tile with it.
    assert table.view["held_by"][tile] == 1 and 2 in table.view["waiting"]
    second = other_tile(table.card(), tile)
    again = await table.slap(carol, second)
    answered(again)
    assert f"You slapped **{MONSTERS[second]}**" in again.response.content
    # The holder pressing their own tile again is told that, not who beat them.
    refused = await table.slap(bob, tile)
    answered(refused)
    assert refused.response.content == f"You already slapped {MONSTERS[tile]}; a slap can't be changed."


async def test_a_slap_made_in_the_window_that_reaches_the_bot_after_it_closed_is_told(
    open_table, simcord_env, monkeypatch
):
    """carol pressed 110 ms after bob, inside the window, but her press reached the bot after the
    race had closed (Discord delivers presses only roughly in order): the tile is bob's, and she is
    told by how much, in her language."""
    table = await open_table(4, race_window_ms=WIDE)
    _, bob, carol, _ = table.players
    tile = other_tile(table.card())
    bobs = await table.slap(bob, tile)
    await simcord_env.advance_time(0.11)
    bot = simcord_env.bot
    real = bot.on_interaction

    async def arrives_late(interaction):
        simcord_env.backend.advance_clock(WIDE / 1000)  # queued past the race's close
        await real(interaction)

    monkeypatch.setattr(bot, "on_interaction", arrives_late)
    carols = await table.slap(carol, tile)
    monkeypatch.undo()
    answered(bobs)
    assert told_late(carols) == (
        f"⚡ **bob** slapped **{MONSTERS[tile]}** 110 ms before you. Your slap did not count: slap a "
        "free tile."
    )


async def test_a_slap_that_reaches_the_bot_after_the_turn_ended_is_told_who_took_the_tile(
    open_table, simcord_env, monkeypatch, locales
):
    table = await open_table(4, race_window_ms=1000, guess_seconds=5)
    _, bob, carol, _ = table.players
    locales.members[carol.id] = "de"
    tile = other_tile(table.card())
    bobs = await table.slap(bob, tile)
    await simcord_env.advance_time(3.0)  # bob holds the tile; the guess timer runs out at 5 s
    bot = simcord_env.bot
    real = bot.on_interaction

    async def arrives_late(interaction):
        simcord_env.backend.advance_clock(2.2)  # past the guess timer
        await real(interaction)

    monkeypatch.setattr(bot, "on_interaction", arrives_late)
    carols = await table.slap(carol, tile)
    monkeypatch.undo()
    answered(bobs)
    said = told_late(carols)
    assert said == (
        f"⚡ **bob** hat **{t('de', MONSTERS[tile])}** 3000 ms vor dir geschlagen. Die Karte ist schon "
        "aufgedeckt; warte auf den nächsten Zug."
    )
    assert table.view["phase"] == "reveal" and table.view["held_by"][tile] == 1
