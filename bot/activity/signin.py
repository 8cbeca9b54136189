"""A page's sign-in: from the ``authorize`` code and the instance it runs in to a ``Member``.

Nothing the page says about who it is counts. The code is exchanged for an access token with the
client secret, Discord says whose token it is, the bot's own token asks Discord where the Activity
instance runs and who is in it, and whether that user is a member of its server. Only then is
the member who Discord said, in the channel Discord said.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from bot.activity.discord_api import ApiError, DiscordApi
from bot.activity.tickets import Member
from bot.i18n import N_

# An instance id as Discord makes them ("i-1234…-gc-…-…"): also the path element of its look-up,
# so nothing else may pass.
log = logging.getLogger(__name__)

_INSTANCE = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
_CODE = re.compile(r"[A-Za-z0-9._~:\-]{1,256}")  # ":": the SDK mock's "mock:<id>"

BAD_REQUEST = N_("The Activity sent a sign-in I cannot read. Close it and open it again.")
CODE_REFUSED = N_("Discord did not accept this sign-in. Close the Activity and open it again.")
NO_INSTANCE = N_("Discord knows no running Activity here any more. Close it and open it again.")
NOT_IN_INSTANCE = N_("You are not in this Activity. Join it from the channel first.")
NOT_IN_SERVER = N_("Only members of this server can play here.")
NOT_IN_SERVER_CHANNEL = N_("The games are played in a server's channels, not in private messages.")
DISCORD_DOWN = N_("I could not reach Discord just now. Try again in a minute.")


class SignInRefused(Exception):
    """A sign-in that gives no ticket: ``status`` for the HTTP answer, ``message`` the English
    message id the page shows (in the member's language)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def display_name(user: dict[str, Any]) -> str:
    return str(user.get("global_name") or user.get("username") or user["id"])[:32]


async def sign_in(api: DiscordApi, code: Any, instance_id: Any) -> Member:
    if not (isinstance(code, str) and _CODE.fullmatch(code)):
        raise SignInRefused(400, BAD_REQUEST)
    if not (isinstance(instance_id, str) and _INSTANCE.fullmatch(instance_id)):
        raise SignInRefused(400, BAD_REQUEST)
    try:
        try:
            access_token = await api.exchange(code)
        except ApiError as error:
            if error.status == 401:  # the app's own credentials: the operator's to mend, said once per page
                log.error(
                    "Discord refused DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET: a page could not sign in"
                )
            if error.status in (400, 401):  # a code made up, used twice or for another app
                raise SignInRefused(401, CODE_REFUSED) from None
            raise
        user = await api.me(access_token)
        user_id = int(user["id"])
        instance = await api.instance(instance_id)
        if instance is None:
            raise SignInRefused(403, NO_INSTANCE)
        if str(user_id) not in {str(u) for u in instance.get("users", ())}:
            raise SignInRefused(403, NOT_IN_INSTANCE)
        location = instance.get("location") or {}
        guild, channel = location.get("guild_id"), location.get("channel_id")
        if not guild or not channel:
            raise SignInRefused(403, NOT_IN_SERVER_CHANNEL)
        guild_id, channel_id = int(guild), int(channel)
        if not await api.is_member(guild_id, user_id):
            raise SignInRefused(403, NOT_IN_SERVER)
    except ApiError:
        raise SignInRefused(503, DISCORD_DOWN) from None
    except (KeyError, TypeError, ValueError):  # an answer not shaped as documented
        raise SignInRefused(503, DISCORD_DOWN) from None
    return Member(
        user_id=user_id,
        name=display_name(user),
        locale=str(user.get("locale") or "en-US"),
        guild_id=guild_id,
        channel_id=channel_id,
        instance_id=instance_id,
    )
