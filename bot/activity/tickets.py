"""Short-lived tickets that open an Activity page's socket.

A page signs in once (``bot.activity.signin``) and is handed a ticket naming who it is and where
it plays; it opens its WebSocket with it (a query parameter: cookies in Discord's third-party
iframe are blocked). A ticket is a JSON Web Token (PyJWT, HS256) signed with a key derived from
the app's client secret, so every process of the bot and a restarted one read each other's
tickets, and nobody without the secret can make one. It expires after minutes: an open socket is
handed a fresh one before then (``bot.activity.server``), so a page that reconnects after a drop or
a restart still has a good one, while a ticket copied out of a closed page soon stops working.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

import jwt

from bot.i18n import N_

ALGORITHM = "HS256"
AUDIENCE = "party-cards-activity"
# Why a ticket failed, as the page is told (translated where it is shown).
EXPIRED = N_("This sign-in has expired. Close the Activity and open it again.")
FORGED = N_("This sign-in is not valid. Close the Activity and open it again.")


class TicketRefused(Exception):
    """A ticket that opens nothing; ``message`` is the English message id said to the page."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "expired" or "forged": the error frame's code
        self.message = message


@dataclass(frozen=True)
class Member:
    """Who a page is, as Discord told the server at sign-in (never as the page said)."""

    user_id: int
    name: str
    locale: str  # the member's Discord language, which their private words speak
    guild_id: int
    channel_id: int
    instance_id: str


def ticket_key(client_secret: str) -> bytes:
    """The signing key: derived from the client secret, so tickets are never signed with the
    secret itself (which also goes to Discord's token endpoint)."""
    return hmac.new(client_secret.encode(), b"party-cards activity tickets", hashlib.sha256).digest()


class Tickets:
    def __init__(self, client_secret: str, ttl_s: int) -> None:
        self._key = ticket_key(client_secret)
        self.ttl_s = ttl_s

    def issue(self, member: Member, now: float | None = None) -> str:
        issued = int(time.time() if now is None else now)
        claims = {
            "aud": AUDIENCE,
            "sub": str(member.user_id),
            "name": member.name,
            "locale": member.locale,
            "guild": str(member.guild_id),
            "channel": str(member.channel_id),
            "instance": member.instance_id,
            "iat": issued,
            "exp": issued + self.ttl_s,
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM)

    def read(self, ticket: str, now: float | None = None) -> Member:
        """The member a ticket was issued to; ``TicketRefused`` when it is expired, altered or
        signed with another key."""
        options = {"require": ["exp", "iat", "sub", "aud"]}
        try:
            if now is None:
                claims = jwt.decode(
                    ticket, self._key, algorithms=[ALGORITHM], audience=AUDIENCE, options=options
                )
            else:  # a test's clock: PyJWT reads the time itself, so the expiry is checked here
                claims = jwt.decode(
                    ticket,
                    self._key,
                    algorithms=[ALGORITHM],
                    audience=AUDIENCE,
                    options={**options, "verify_exp": False},
                )
                if claims["exp"] <= now:
                    raise jwt.ExpiredSignatureError
        except jwt.ExpiredSignatureError:
            raise TicketRefused("expired", EXPIRED) from None
        except jwt.InvalidTokenError:
            raise TicketRefused("forged", FORGED) from None
        try:
            return Member(
                user_id=int(claims["sub"]),
                name=str(claims["name"]),
                locale=str(claims["locale"]),
                guild_id=int(claims["guild"]),
                channel_id=int(claims["channel"]),
                instance_id=str(claims["instance"]),
            )
        except (KeyError, ValueError):
            raise TicketRefused("forged", FORGED) from None
