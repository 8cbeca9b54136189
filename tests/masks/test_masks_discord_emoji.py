"""Emoji miming: during a turn the Mime may post only emoji in the game channel.

SimCord gives the bot a managed role with every permission but Administrator (as a typical bot
invite does), so in #games it can manage messages; a channel overwrite denying Manage Messages
to the bot user takes that away.
"""

from __future__ import annotations

import discord
import pytest
from masks_tables import SETTLE_S

from bot.games.masks.cog import NOTICE_SECONDS, is_emoji_only
from bot.games.masks.faces import MONSTERS

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)


def texts(channel) -> list[str]:
    return [m.content for m in channel.history()]


@pytest.mark.parametrize(
    "text",
    [
        "😭",
        "😭 😢  💧",
        "<:cry:123456789012345678>",
        "<a:dance:123456789012345678> 🎉",
        "1️⃣ #️⃣",
        "👍🏽",
        "🇫🇷",
        "👨‍👩‍👧",
        "❤️ ⭐ ⏰",
        "ℹ️",
    ],
)
def test_emoji_only_texts(text: str) -> None:
    assert is_emoji_only(text)


@pytest.mark.parametrize(
    "text", ["", "   ", "cry", "😭 cry", "it's Crybaby", "1", "#", ":cry:", "😭!", "<:cry:>"]
)
def test_texts_with_words_or_nothing_are_not_emoji_only(text: str) -> None:
    assert not is_emoji_only(text)


async def test_the_mimes_words_are_removed_and_emoji_kept(open_table, world, simcord_env):
    table = await open_table(3, mime_mode="emoji")
    alice, bob, _ = table.players
    name = MONSTERS[table.card()]
    await alice.send(world.channel, f"it's {name}, the one who cries")
    assert not any(name in text for text in texts(world.channel))
    notice = world.channel.history()[-1]
    assert notice.author.bot and alice.mention in notice.content and "only emoji" in notice.content
    assert name not in notice.content
    sent = next(
        r
        for r in simcord_env.http_requests
        if isinstance(r.json, dict) and "only emoji" in str(r.json.get("content"))
    )
    assert sent.json["allowed_mentions"]["parse"] == []  # named, not pinged

    await alice.send(world.channel, "😭 💧 <:tears:123456789012345678>")
    await bob.send(world.channel, "is it the crying one?")  # guessers may talk
    assert "😭 💧 <:tears:123456789012345678>" in texts(world.channel)
    assert "is it the crying one?" in texts(world.channel)

    await simcord_env.advance_time(NOTICE_SECONDS + 1)
    assert not any("only emoji" in text for text in texts(world.channel))  # the notice deleted itself

    await table.end_guessing(alice)  # between turns the Mime may talk again
    await alice.send(world.channel, "it was easy!")
    assert "it was easy!" in texts(world.channel)
    await simcord_env.advance_time(5)
    pressed = await table.slap(table.guessers()[0], 0)  # the board still works after all that chat
    assert pressed.ephemeral and "You slapped" in pressed.response.content


async def test_camera_mode_leaves_the_mime_alone(open_table, world):
    table = await open_table(3)
    await table.players[0].send(world.channel, "I'm in the call, look at me")
    assert "I'm in the call, look at me" in texts(world.channel)


async def test_without_manage_messages_the_game_says_emoji_only_cannot_be_enforced(world, simcord_env):
    locked = world.guild.create_text_channel(
        "no-mod", overwrites={simcord_env.bot.user: discord.PermissionOverwrite(manage_messages=False)}
    )
    alice, bob, carol = world.members[:3]
    await alice.slash(locked, "masks new", mime_mode="emoji")
    for member in (bob, carol):
        await member.click(locked.last_message, label="Join")
    await alice.click(locked.last_message, label="Start")
    notice = locked.history()[-1]
    assert "can't remove" in notice.content and "Manage Messages" in notice.content

    await alice.send(locked, "a face with tears")
    assert locked.history()[-1].content == "a face with tears"


async def test_with_manage_messages_there_is_no_warning(open_table, world):
    await open_table(3, mime_mode="emoji")
    assert not any("Manage Messages" in text for text in texts(world.channel))
