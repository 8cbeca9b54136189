"""The private card message: the card's picture at full size, and a power its holder can no
longer use this round said to be out of reach."""

from __future__ import annotations

import sys
from pathlib import Path

from shown import card, components, walk

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord_support import board_of, card_panel, open_game, rig  # noqa: E402

from bot.games.kingdom.board import SPENT  # noqa: E402
from bot.games.kingdom.cards import BARD, DEATH, DRAGON, PRINCESS, THIEF, TRADER  # noqa: E402

THUMBNAIL = 11  # a V2 section's small picture beside its words


def shows_the_card_large(message) -> bool:
    """The card's picture in the card's gallery (full width), not a small one beside words."""
    url = card(message).image.url
    small = [c for c in walk(components(message)) if c.get("type") == THUMBNAIL]
    return url is not None and url.endswith("card.png") and small == []


async def test_a_card_taken_with_the_trader_says_its_power_cannot_be_used_this_round(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [TRADER, BARD, PRINCESS, DEATH], deck=[THIEF])
    panel = await card_panel(env, channel, alice)
    assert shows_the_card_large(panel) and SPENT not in card(panel).description
    used = await alice.click(panel, label="⚖️ Trader: swap with the deck's top card")
    embed = card(used.response)
    assert embed.title == "Your new card: Thief (3)"
    assert shows_the_card_large(used.response)
    assert SPENT in embed.description
    # My card says the same for the rest of the round...
    again = await card_panel(env, channel, alice)
    assert card(again).title == "Your card: Thief (3)" and SPENT in card(again).description
    # ...while bob, whose turn it is, may still use his Bard.
    bobs = await card_panel(env, channel, bob)
    assert card(bobs).title == "Your card: Bard (5)" and SPENT not in card(bobs).description


async def test_a_card_drawn_because_of_the_dragon_keeps_its_power_for_the_turn_to_come(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [DRAGON, DEATH, PRINCESS, BARD], deck=[THIEF])
    looked = await bob.click(board_of(env, channel, bob), label="My card")  # news can reach bob
    await alice.click(await card_panel(env, channel, alice), label="🐉 Dragon: bob discards and draws")
    (news,) = looked.followups
    assert news.ephemeral and card(news).title == "Your new card: Thief (3)"
    assert SPENT not in card(news).description and shows_the_card_large(news)
    bobs = await card_panel(env, channel, bob)
    assert card(bobs).title == "Your card: Thief (3)"
    assert SPENT not in card(bobs).description and shows_the_card_large(bobs)
