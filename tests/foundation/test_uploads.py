"""A picture's upload in one write (``bot.glue.uploads``): the same bytes aiohttp would send, in
one piece when every part is in memory, and a server reads the same form."""

from __future__ import annotations

import io

import aiohttp
import discord
from aiohttp import web
from aiohttp.multipart import MultipartWriter
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.glue import uploads

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40  # any bytes: nothing decodes them


class Recorder:
    """A stream writer that keeps what it is given, write by write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    async def write(self, chunk: bytes) -> None:
        self.writes.append(bytes(chunk))


def answer_params(fp: io.IOBase) -> MultipartParameters:
    """A board answer with its picture, as discord.py lays it out for a request."""
    embed = discord.Embed(title="Kabuki", description="Alice placed a mask.")
    embed.set_image(url="attachment://kabuki.png")
    return handle_message_parameters(embed=embed, file=discord.File(fp, filename="kabuki.png"))


def answer_form(fp: io.IOBase) -> aiohttp.FormData:
    """A board answer's body as discord.py's webhook adapter builds it: the message's JSON, then
    the picture."""
    form = aiohttp.FormData(quote_fields=False)
    for field in answer_params(fp).multipart:
        form.add_field(**field)
    return form


async def test_a_picture_answer_is_written_in_one_piece_with_aiohttp_s_own_bytes():
    uploads.install()
    body = answer_form(io.BytesIO(PNG))()
    theirs, ours = Recorder(), Recorder()
    await uploads._aiohttp_write(body, theirs)
    await body.write(ours)
    assert len(theirs.writes) == 9  # boundary, headers, content, line end for each part; the end
    assert ours.writes == [b"".join(theirs.writes)]
    assert len(ours.writes[0]) == body.size  # the Content-Length aiohttp sends
    assert PNG in ours.writes[0]


async def test_a_file_on_disk_is_written_as_aiohttp_writes_it(tmp_path):
    uploads.install()
    path = tmp_path / "kabuki.png"
    path.write_bytes(PNG)
    with path.open("rb") as on_disk:
        body = answer_form(on_disk)()
        assert not uploads.in_one_piece(body)
        theirs, ours = Recorder(), Recorder()
        await uploads._aiohttp_write(body, theirs)
        await body.write(ours)
    assert ours.writes == theirs.writes and len(ours.writes) > 1


async def test_a_server_reads_the_answer_discord_py_sends_in_one_piece():
    """The production path: discord.py's webhook adapter posts a press's answer (as
    ``bot.glue.answer._answer`` does) through aiohttp to a real server, which parses the form."""
    uploads.install()
    received: dict[str, object] = {}

    async def handle(request: web.Request) -> web.Response:
        form = await request.post()
        received["json"] = form["payload_json"]
        received["file"] = form["files[0]"].file.read()
        received["filename"] = form["files[0]"].filename
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    params = answer_params(io.BytesIO(PNG))
    route = Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="t"
    )
    route.url = f"http://127.0.0.1:{port}/api/v10" + route.url[len(Route.BASE) :]
    try:
        async with aiohttp.ClientSession() as session:
            await AsyncWebhookAdapter().request(
                route, session, files=params.files, multipart=params.multipart
            )
    finally:
        await runner.cleanup()
    assert received["file"] == PNG and received["filename"] == "kabuki.png"
    assert '"title":"Kabuki"' in str(received["json"]) and "attachment://kabuki.png" in str(received["json"])


async def test_the_bot_sends_its_uploads_in_one_piece(simcord_env):
    assert simcord_env.bot is not None
    assert MultipartWriter.write is uploads._write
