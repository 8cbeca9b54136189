"""A page's sign-in against a stand-in for Discord's API: a member is who Discord says, in the
channel Discord says, and every other case is refused with words the page can show."""

from __future__ import annotations

import pytest
from discord_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET

from bot.activity import signin
from bot.activity.discord_api import DiscordApi
from bot.activity.signin import SignInRefused, sign_in

GUILD = 4_000_000_000_000_000_004
CHANNEL = 5_000_000_000_000_000_005
ALICE, BOB, MALLORY = 6_000_000_000_000_000_001, 6_000_000_000_000_000_002, 6_000_000_000_000_000_003
INSTANCE = "i-1234-gc-4-5"


@pytest.fixture
async def api(discord_api):
    client = DiscordApi(discord_api.base, CLIENT_ID, CLIENT_SECRET, BOT_TOKEN)
    yield client
    await client.close()


def table(discord_api) -> dict[str, str]:
    """Alice and Bob in the Activity in the server's channel; Mallory a member who is not in it."""
    codes = {
        "alice": discord_api.add_user(ALICE, "alice", "de"),
        "bob": discord_api.add_user(BOB, "bob"),
        "mallory": discord_api.add_user(MALLORY, "mallory"),
    }
    discord_api.add_instance(INSTANCE, GUILD, CHANNEL, [ALICE, BOB])
    discord_api.members |= {(GUILD, ALICE), (GUILD, BOB), (GUILD, MALLORY)}
    return codes


async def refused(api, code, instance=INSTANCE) -> SignInRefused:
    with pytest.raises(SignInRefused) as refusal:
        await sign_in(api, code, instance)
    return refusal.value


async def test_a_participant_is_who_discord_says_in_the_instance_s_channel(discord_api, api):
    codes = table(discord_api)
    member = await sign_in(api, codes["alice"], INSTANCE)
    assert (member.user_id, member.name, member.locale) == (ALICE, "alice", "de")
    assert (member.guild_id, member.channel_id, member.instance_id) == (GUILD, CHANNEL, INSTANCE)
    assert discord_api.calls == {"token": 1, "user": 1, "instance": 1, "member": 1}


async def test_a_code_discord_never_gave_or_already_used_is_refused(discord_api, api):
    codes = table(discord_api)
    made_up = await refused(api, "made-up-code")
    assert (made_up.status, made_up.message) == (401, signin.CODE_REFUSED)
    await sign_in(api, codes["bob"], INSTANCE)
    again = await refused(api, codes["bob"])  # a code is good once
    assert again.message == signin.CODE_REFUSED


async def test_a_member_not_in_the_activity_is_refused(discord_api, api):
    codes = table(discord_api)
    outsider = await refused(api, codes["mallory"])
    assert (outsider.status, outsider.message) == (403, signin.NOT_IN_INSTANCE)


async def test_a_participant_no_longer_in_the_server_is_refused(discord_api, api):
    codes = table(discord_api)
    discord_api.members.discard((GUILD, BOB))
    gone = await refused(api, codes["bob"])
    assert (gone.status, gone.message) == (403, signin.NOT_IN_SERVER)


async def test_an_instance_discord_does_not_know_is_refused(discord_api, api):
    codes = table(discord_api)
    unknown = await refused(api, codes["alice"], instance="i-9999-gc-4-5")
    assert (unknown.status, unknown.message) == (403, signin.NO_INSTANCE)


async def test_an_activity_in_private_messages_is_refused(discord_api, api):
    code = discord_api.add_user(ALICE, "alice")
    discord_api.add_instance("i-dm", None, CHANNEL, [ALICE])
    private = await refused(api, code, instance="i-dm")
    assert (private.status, private.message) == (403, signin.NOT_IN_SERVER_CHANNEL)


async def test_what_the_page_sends_is_checked_before_anything_is_asked(discord_api, api):
    table(discord_api)
    for code, instance in [(None, INSTANCE), ("a code", INSTANCE), ("ok", "../users/@me"), ("ok", 5)]:
        bad = await refused(api, code, instance)
        assert (bad.status, bad.message) == (400, signin.BAD_REQUEST)
    assert not discord_api.calls  # nothing reached Discord


async def test_discord_down_is_said_as_such_and_signs_nobody_in(discord_api, api):
    codes = table(discord_api)
    discord_api.down = True
    down = await refused(api, codes["alice"])
    assert (down.status, down.message) == (503, signin.DISCORD_DOWN)


async def test_the_wrong_client_secret_signs_nobody_in(discord_api):
    codes = table(discord_api)
    wrong = DiscordApi(discord_api.base, CLIENT_ID, "not the secret", BOT_TOKEN)
    try:
        refusal = await refused(wrong, codes["alice"])
    finally:
        await wrong.close()
    assert refusal.message == signin.CODE_REFUSED
