"""The private card message: the card's picture at full size, and a power its holder can no
longer use this round said to be out of reach."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord_support import board_of, card_panel, open_game, rig  # noqa: E402

from bot.games.kingdom.board import SPENT  # noqa: E402
from bot.games.kingdom.cards import BARD, DEATH, DRAGON, PRINCESS, THIEF, TRADER  # noqa: E402


def shows_the_card_large(embed) -> bool:
    return (
        embed.image.url is not None and embed.image.url.endswith("card.png") and embed.thumbnail.url is None
    )


async def test_a_card_taken_with_the_trader_says_its_power_cannot_be_used_this_round(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [TRADER, BARD, PRINCESS, DEATH], deck=[THIEF])
    panel = await card_panel(env, channel, alice)
    assert shows_the_card_large(panel.embeds[0]) and SPENT not in panel.embeds[0].description
    used = await alice.click(panel, label="⚖️ Trader: swap with the deck's top card")
    embed = used.response.embeds[0]
    assert embed.title == "Your new card: Thief (3)"
    assert shows_the_card_large(embed)
    assert SPENT in embed.description
    # My card says the same for the rest of the round...
    again = await card_panel(env, channel, alice)
    assert again.embeds[0].title == "Your card: Thief (3)" and SPENT in again.embeds[0].description
    # ...while bob, whose turn it is, may still use his Bard.
    bobs = await card_panel(env, channel, bob)
    assert bobs.embeds[0].title == "Your card: Bard (5)" and SPENT not in bobs.embeds[0].description


async def test_a_card_drawn_because_of_the_dragon_keeps_its_power_for_the_turn_to_come(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [DRAGON, DEATH, PRINCESS, BARD], deck=[THIEF])
    looked = await bob.click(board_of(env, channel, bob), label="My card")  # news can reach bob
    await alice.click(await card_panel(env, channel, alice), label="🐉 Dragon: bob discards and draws")
    (news,) = looked.followups
    assert news.ephemeral and news.embeds[0].title == "Your new card: Thief (3)"
    assert SPENT not in news.embeds[0].description and shows_the_card_large(news.embeds[0])
    bobs = await card_panel(env, channel, bob)
    assert bobs.embeds[0].title == "Your card: Thief (3)"
    assert SPENT not in bobs.embeds[0].description and shows_the_card_large(bobs.embeds[0])
