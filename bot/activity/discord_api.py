"""The few calls of Discord's HTTP API a page's sign-in makes, on its own aiohttp session.

discord.py has no helper for OAuth2's token exchange nor for Activity instances, so these are plain
HTTP calls. The API's base address is a setting (``DISCORD_API_BASE``): the tests point it at a
stand-in on this machine and run the whole sign-in against it. Nothing a call returns is logged:
an access token or a member's data is nobody's business but theirs.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=10)  # inside a page's patience, far above a healthy answer


class ApiError(Exception):
    """Discord answered with an error (``status``) or could not be reached (``status`` 0)."""

    def __init__(self, call: str, status: int) -> None:
        super().__init__(f"{call}: {status or 'unreachable'}")
        self.call = call
        self.status = status


class DiscordApi:
    def __init__(self, base: str, client_id: int, client_secret: str, bot_token: str | None) -> None:
        self.base = base.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def _call(self, call: str, method: str, path: str, **kwargs: Any) -> Any:
        try:
            async with self._session().request(method, self.base + path, **kwargs) as response:
                if response.status >= 400:
                    raise ApiError(call, response.status)
                return await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("Discord's API failed for %s: %s", call, type(error).__name__)
            raise ApiError(call, 0) from None

    async def exchange(self, code: str) -> str:
        """The access token for an ``authorize`` code (OAuth2's authorization-code grant)."""
        data = await self._call(
            "token",
            "POST",
            "/oauth2/token",
            data={
                "client_id": str(self.client_id),
                "client_secret": self._secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise ApiError("token", 502)
        return token

    async def me(self, access_token: str) -> dict[str, Any]:
        """The user an access token belongs to (``identify``)."""
        user = await self._call(
            "user", "GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"}
        )
        if not isinstance(user, dict) or "id" not in user:
            raise ApiError("user", 502)
        return user

    def _as_bot(self) -> dict[str, str]:
        return {"Authorization": f"Bot {self._bot_token}"}

    async def instance(self, instance_id: str) -> dict[str, Any] | None:
        """The Activity instance (its location and its users), or None when Discord knows none."""
        try:
            found = await self._call(
                "instance",
                "GET",
                f"/applications/{self.client_id}/activity-instances/{instance_id}",
                headers=self._as_bot(),
            )
        except ApiError as error:
            if error.status == 404:
                return None
            raise
        return found if isinstance(found, dict) else None

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is a member of the server ``guild_id``, asked with the bot's token."""
        try:
            await self._call("member", "GET", f"/guilds/{guild_id}/members/{user_id}", headers=self._as_bot())
        except ApiError as error:
            if error.status == 404:
                return False
            raise
        return True
