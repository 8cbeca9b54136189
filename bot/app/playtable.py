"""The Activity in ``python -m bot play``: the games' table page for any playground member.

The Activity's sign-in asks Discord's HTTP API who a page is (``bot.activity.signin``). The
playground has no Discord, only SimCord's in-memory one, so ``PlaygroundDiscord`` answers those
four calls on this machine from the playground's own server: the page's SDK mock signs in as
``?user_id=`` with the code ``mock:<user id>``, which only a playground member's id opens, and
every member is in the one Activity instance, in #games. Nothing here is reachable from outside
this machine (it listens on 127.0.0.1) and nothing leaves it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

INSTANCE = "i-playground"
CLIENT_ID = 1
CLIENT_SECRET = secrets.token_hex(16)  # this run's own: nothing outside it signs a ticket


@dataclass
class PlaygroundDiscord:
    guild_id: int = 0
    channel_id: int = 0
    members: dict[int, dict[str, Any]] = field(default_factory=dict)  # id -> Discord's user object
    tokens: dict[str, int] = field(default_factory=dict)
    base: str = ""
    _runner: web.AppRunner | None = None

    def seat(self, guild_id: int, channel_id: int, members: Mapping[int, tuple[str, str]]) -> None:
        """The playground's server, its #games and its members (id -> name, Discord language)."""
        self.guild_id, self.channel_id = guild_id, channel_id
        self.members = {
            user: {"id": str(user), "username": name.lower(), "global_name": name, "locale": locale}
            for user, (name, locale) in members.items()
        }

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", self.instance)
        app.router.add_get("/api/v10/guilds/{guild}/members/{user}", self.member)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base = f"http://{host}:{port}/api/v10"
        return self.base

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        code = str(form.get("code", ""))
        user = int(code.removeprefix("mock:")) if code.startswith("mock:") and code[5:].isdigit() else 0
        if form.get("client_secret") != CLIENT_SECRET or user not in self.members:
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_urlsafe(16)
        self.tokens[access] = user
        return web.json_response({"access_token": access, "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        access = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user = self.tokens.get(access)
        if user is None:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response(self.members[user])

    async def instance(self, request: web.Request) -> web.Response:
        if request.match_info["instance"] != INSTANCE:
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        location = {
            "id": "playground",
            "kind": "gc",
            "guild_id": str(self.guild_id),
            "channel_id": str(self.channel_id),
        }
        return web.json_response(
            {"instance_id": INSTANCE, "location": location, "users": [str(user) for user in self.members]}
        )

    async def member(self, request: web.Request) -> web.Response:
        user = int(request.match_info["user"]) if request.match_info["user"].isdigit() else 0
        if int(request.match_info["guild"]) != self.guild_id or user not in self.members:
            return web.json_response({"message": "Unknown Member"}, status=404)
        return web.json_response({"user": self.members[user], "roles": []})


def page_address(table: Any, guild_id: int, channel_id: int, user_id: int) -> str:
    host, port = table.address
    return (
        f"http://{host}:{port}/?user_id={user_id}&instance_id={INSTANCE}"
        f"&guild_id={guild_id}&channel_id={channel_id}"
    )
