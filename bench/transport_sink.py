"""Discord's HTTPS API as far as the load bench's ``--transport`` needs it: a process of its own.

It takes every request the bot makes (over TLS, on the loopback) and answers as Discord does,
so the bot's side of each request runs as in production: an interaction's callback 204 No
Content, or 200 with the callback's answer when it asks for one (``?with_response=1``); a message written (a REST edit or post, a followup) 200 with the message as JSON; a
delete 204; the rate-limit headers and cookies Discord sends, with requests to spare, so
discord.py never waits for a bucket (aiohttp's cookie jar reads the cookies and, as they come
from an IP address, does not keep them: production sends Discord's back, a few µs a request). What it answers is thrown away: SimCord serves the request
as well and its answer is the one the bot reads (``load_transport``). Prints its port, then
serves until its standard input closes.

    python bench/transport_sink.py --cert CERT --key KEY
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import ssl
import sys
import time
from typing import Any

from aiohttp import web

_ids = itertools.count(1_300_000_000_000_000_000)
AUTHOR = {
    "id": "1200000000000000001",
    "username": "Bot",
    "avatar": None,
    "discriminator": "0000",
    "public_flags": 524288,
    "flags": 524288,
    "bot": True,
    "banner": None,
    "accent_color": None,
    "global_name": None,
    "avatar_decoration_data": None,
    "collectibles": None,
    "banner_color": None,
    "clan": None,
    "primary_guild": None,
}


def headers(request: web.Request) -> dict[str, str]:
    reset = time.time() + 5
    return {
        "X-RateLimit-Bucket": f"{abs(hash(request.path.rsplit('/', 1)[0])):016x}",
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "4",
        "X-RateLimit-Reset": f"{reset:.3f}",
        "X-RateLimit-Reset-After": "5.000",
        "Via": "1.1 google",
        "Alt-Svc": 'h3=":443"; ma=86400',
        "CF-Cache-Status": "DYNAMIC",
        "CF-Ray": f"{next(_ids) % 16**16:016x}-FRA",
        "Server": "cloudflare",
        "Strict-Transport-Security": "max-age=31536000; includeSubDomains; preload",
        "X-Content-Type-Options": "nosniff",
        "Set-Cookie": "__cfruid=4b1c0d2e3f; path=/; domain=.discord.com; HttpOnly; Secure; SameSite=None",
    }


async def payload_of(request: web.Request) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The request's JSON (alone, or a multipart's ``payload_json``) and its files' sizes."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files = []
        reader = await request.multipart()
        async for part in reader:
            data = await part.read()  # type: ignore[union-attr]
            if part.name == "payload_json":  # type: ignore[union-attr]
                payload = json.loads(data)
            else:
                files.append({"filename": part.filename, "size": len(data)})  # type: ignore[union-attr]
        return payload, files
    body = await request.read()
    return (json.loads(body) if body else {}), []


def message(request: web.Request, payload: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
    ids = [int(part) for part in request.path.split("/") if part.isdigit()]
    attachments = [
        {
            "id": str(next(_ids)),
            "filename": f["filename"],
            "size": f["size"],
            "url": f"https://cdn.discordapp.com/attachments/1/2/{f['filename']}?ex=1&is=2&hm=3&",
            "proxy_url": f"https://media.discordapp.net/attachments/1/2/{f['filename']}?ex=1&is=2&hm=3&",
            "width": 960,
            "height": 540,
            "content_type": "image/png",
            "content_scan_version": 2,
            "placeholder": "q/cFBQAYh3iId4d3d4eHd3gHeHh3",
            "placeholder_version": 1,
        }
        for f in files
    ]
    return {
        "type": 0,
        "content": payload.get("content") or "",
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": payload.get("embeds") or [],
        "timestamp": "2026-11-27T12:00:00.000000+00:00",
        "edited_timestamp": "2026-11-27T12:00:01.000000+00:00" if request.method == "PATCH" else None,
        "flags": payload.get("flags") or 0,
        "components": payload.get("components") or [],
        "id": str(ids[-1] if request.method == "PATCH" and ids else next(_ids)),
        "channel_id": str(ids[0] if ids else next(_ids)),
        "author": AUTHOR,
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
    }


def callback(request: web.Request, payload: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
    """An interaction callback's answer when asked for (``?with_response=1``, as discord.py's own
    answers ask): the interaction, and the message it wrote if it wrote one."""
    kind = payload.get("type")
    resource: dict[str, Any] = {"type": kind}
    if kind in (4, 7):
        resource["message"] = message(request, payload.get("data") or {}, files)
    interaction = {
        "id": request.path.split("/")[-3],
        "type": 3,
        "response_message_id": str(next(_ids)),
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool((payload.get("data") or {}).get("flags", 0) & 64),
    }
    return {"interaction": interaction, "resource": resource}


async def answer(request: web.Request) -> web.Response:
    payload, files = await payload_of(request)
    if request.path.endswith("/callback"):
        if request.query.get("with_response") not in ("1", "true"):
            return web.Response(status=204, headers=headers(request))
        body = json.dumps(callback(request, payload, files), separators=(",", ":"))
    elif request.method == "DELETE":
        return web.Response(status=204, headers=headers(request))
    else:
        body = json.dumps(message(request, payload, files), separators=(",", ":"))
    return web.Response(status=200, text=body, content_type="application/json", headers=headers(request))


async def serve(cert: str, key: str) -> None:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    app = web.Application(client_max_size=32 * 1024 * 1024)
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print(port, flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the bench closes the pipe
    await runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    args = parser.parse_args()
    asyncio.run(serve(args.cert, args.key))
