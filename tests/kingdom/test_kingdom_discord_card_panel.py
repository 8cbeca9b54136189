"""My card keeps one card panel per member on Discord, showing the card they hold now: a press on
the panel shows it in that same panel, a press on the board replaces the earlier panel, and a
panel whose card its member no longer holds is deleted. Never a pile of large cards, never a card
given away shown as held."""

from __future__ import annotations

import sys
from pathlib import Path

import discord
from shown import card, controls, is_card

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord_support import board_of, open_game, press, rig  # noqa: E402

from bot.games.kingdom.cards import BARD, CLOWN, DEATH, PRINCESS, QUEEN, THIEF  # noqa: E402


def card_panels(channel, member) -> list:
    """The private card panels ``member`` sees in the channel ("Your card: …"), oldest first."""
    return [
        m
        for m in channel.history(viewer=member)
        if m.flags.ephemeral and is_card(m) and (card(m).title or "").startswith("Your card: ")
    ]


def answered(*presses) -> None:
    """Each press was answered with a message only its presser sees (a new one, or the panel it
    was pressed on, edited)."""
    for result in presses:
        assert result.acknowledged and result.response is not None and result.response.ephemeral, result


async def test_my_card_pressed_again_and_again_leaves_one_panel_with_the_card_held_now(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [THIEF, CLOWN, PRINCESS, DEATH])
    looks = [await bob.click(board_of(env, channel, bob), label="My card") for _ in range(3)]
    # Each was answered with a panel; each newer one took the place of the one before.
    assert all(look.acknowledged for look in looks)
    answered(looks[-1])
    (panel,) = card_panels(channel, bob)
    assert panel.id == looks[-1].response.id and card(panel).title == "Your card: Clown (4)"
    assert [a.filename for a in panel.attachments] == ["card.png"]

    # Pressed on the panel itself: the same panel shows the card again, nothing is added.
    again = await bob.click(panel, label="My card")
    answered(again)
    (same,) = card_panels(channel, bob)
    assert same.id == panel.id and card(same).title == "Your card: Clown (4)"
    assert [a.filename for a in same.attachments] == ["card.png"]
    assert len([m for m in channel.history(viewer=bob) if m.flags.ephemeral]) == 1
    # Nobody else sees it.
    assert panel.id not in {m.id for m in channel.history(viewer=carol)}


async def test_a_card_given_away_is_not_left_on_a_panel_as_if_held(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [QUEEN, BARD, PRINCESS, DEATH])
    await bob.click(board_of(env, channel, bob), label="My card")
    assert [card(p).title for p in card_panels(channel, bob)] == ["Your card: Bard (5)"]

    # alice exchanges with bob: bob's panel showed the Bard he no longer holds, and is gone; his
    # news says what he holds now, and My card on it would show the same.
    await press(env, channel, alice, {"type": "exchange", "target": 1})
    assert card_panels(channel, bob) == []
    news = [m for m in channel.history(viewer=bob) if m.flags.ephemeral and is_card(m)]
    assert [card(m).title for m in news] == ["Your new card: Queen (11)"]
    looked = await bob.click(board_of(env, channel, bob), label="My card")
    assert card(looked.response).title == "Your card: Queen (11)"

    # The round ends: every panel shows a card of a hand dealt away, and none is left.
    for member in (bob, carol, dave):
        await press(env, channel, member, {"type": "stand"})
    engine = env.bot.sessions.get(channel.id).engine
    assert engine.round == 2
    assert card_panels(channel, bob) == []


async def test_a_panel_refreshed_in_place_shows_the_card_received_since(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [QUEEN, BARD, PRINCESS, DEATH])
    await carol.click(board_of(env, channel, carol), label="My card")
    (panel,) = card_panels(channel, carol)
    await press(env, channel, alice, {"type": "stand"})
    await press(env, channel, bob, {"type": "exchange", "target": 2})  # carol gets bob's Bard
    # The panel she opened showed the Princess she gave away: deleted, and her news came.
    assert card_panels(channel, carol) == []
    looked = await carol.click(board_of(env, channel, carol), label="My card")
    (panel,) = card_panels(channel, carol)
    assert card(panel).title == "Your card: Bard (5)"
    # Her turn now: the same panel offers the Bard, and My card on it keeps it one panel.
    refreshed = await carol.click(panel, label="My card")
    answered(looked, refreshed)
    (same,) = card_panels(channel, carol)
    assert same.id == panel.id and "Your turn" in card(same).description
    shown = controls(same)
    assert [c.label for c in shown if c.type == discord.ComponentType.button.value] == ["My card"]
    assert any(c.type == discord.ComponentType.string_select.value for c in shown)  # the Bard's targets
