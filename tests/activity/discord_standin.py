"""A stand-in for the part of Discord's HTTP API a page's sign-in calls, on this machine.

It checks what Discord checks (the client secret at the token endpoint, an access token it issued,
the bot's token) and holds what a test sets: which codes are good and for whom, which Activity
instances run where and with whom, who is a member of which server. ``down`` makes every call fail
as Discord's outage would (HTTP 500). ``calls`` counts each route, so a test sees what was asked.
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

CLIENT_ID = 1_100_000_000_000_000_001
CLIENT_SECRET = "stand-in-client-secret"
BOT_TOKEN = "stand-in-bot-token"


@dataclass
class DiscordStandIn:
    codes: dict[str, int] = field(default_factory=dict)  # authorize code -> user id
    users: dict[int, dict[str, Any]] = field(default_factory=dict)
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    members: set[tuple[int, int]] = field(default_factory=set)  # (guild id, user id)
    down: bool = False
    calls: Counter = field(default_factory=Counter)
    tokens: dict[str, int] = field(default_factory=dict)  # access token -> user id
    base: str = ""

    def add_user(self, user_id: int, name: str, locale: str = "en-US") -> str:
        """A user and a fresh ``authorize`` code for them (good once, as Discord's)."""
        self.users[user_id] = {"id": str(user_id), "username": name, "global_name": name, "locale": locale}
        code = secrets.token_urlsafe(12)
        self.codes[code] = user_id
        return code

    def code_for(self, user_id: int) -> str:
        code = secrets.token_urlsafe(12)
        self.codes[code] = user_id
        return code

    def add_instance(self, instance_id: str, guild_id: int | None, channel_id: int, users: list[int]) -> None:
        location = {"id": f"gc-{guild_id}-{channel_id}", "kind": "gc", "channel_id": str(channel_id)}
        if guild_id is not None:
            location["guild_id"] = str(guild_id)
        self.instances[instance_id] = {
            "application_id": str(CLIENT_ID),
            "instance_id": instance_id,
            "launch_id": "1",
            "location": location,
            "users": [str(u) for u in users],
        }

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", self.instance)
        app.router.add_get("/api/v10/guilds/{guild}/members/{user}", self.member)
        return app

    def _outage(self, route: str) -> None:
        self.calls[route] += 1
        if self.down:
            raise web.HTTPInternalServerError

    async def token(self, request: web.Request) -> web.Response:
        self._outage("token")
        form = await request.post()
        if form.get("client_id") != str(CLIENT_ID) or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        user_id = self.codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or user_id is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_urlsafe(16)
        self.tokens[access] = user_id
        return web.json_response({"access_token": access, "token_type": "Bearer", "expires_in": 604800})

    async def me(self, request: web.Request) -> web.Response:
        self._outage("user")
        scheme, _, access = request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or access not in self.tokens:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(self.users[self.tokens[access]])

    def _as_bot(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {BOT_TOKEN}"

    async def instance(self, request: web.Request) -> web.Response:
        self._outage("instance")
        if not self._as_bot(request) or request.match_info["app"] != str(CLIENT_ID):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return web.json_response(found)

    async def member(self, request: web.Request) -> web.Response:
        self._outage("member")
        if not self._as_bot(request):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        key = (int(request.match_info["guild"]), int(request.match_info["user"]))
        if key not in self.members:
            return web.json_response({"message": "Unknown Member", "code": 10007}, status=404)
        user = self.users.get(key[1], {"id": str(key[1])})
        return web.json_response({"user": user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00"})
