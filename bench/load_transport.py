"""The load bench's ``--transport``: every request the bot makes also travels as in production.

SimCord serves the bot's REST calls and interaction answers in-process: it replaces discord.py's
``HTTPClient.request`` and its webhook adapter's ``request`` (which answers interactions), so the
bench never charged the bot for what production's loop thread does for each request: discord.py's
request code (rate-limit buckets and locks, the JSON body encoded, the multipart form built, the
answer's headers and JSON read), aiohttp's client, and TLS. A press and a bare acknowledge each
make about one request, so leaving it out leaves a cost out of both sides of the ratio.

With ``Transport`` installed, each request first runs through discord.py's own code, with a
real aiohttp session, over TLS on the loopback, to ``transport_sink.py`` (a process of its own,
answering as Discord does); then SimCord serves it as before, and its answer is the one the bot
reads. The bot's side of the real request is charged to the press's ``bot`` column as any of its
work is, and so is the reading of its answer, though that runs in the event loop's own callbacks
(TLS decryption and aiohttp's parser, from ``SSLProtocol.buffer_updated``): each connection is
charged to the press whose request last set it to read an answer (``set_response_params``). What
it leaves out: the socket's read itself (a system call before TLS, ~µs), and the gateway (each
event arriving over a websocket: ``load_gateway.py``, ``--gateway``).
"""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
import sys
import tempfile
import weakref
from asyncio import sslproto
from pathlib import Path
from typing import Any

import aiohttp
import discord
from aiohttp.client_proto import ResponseHandler
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

SINK = Path(__file__).with_name("transport_sink.py")


class Transport:
    def __init__(self) -> None:
        self.requests = 0
        self._originals: dict[type, Any] = {}
        self._read_originals: tuple[Any, ...] = ()

    async def start(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="transport-")
        cert, key = f"{self.dir}/cert.pem", f"{self.dir}/key.pem"
        openssl = await asyncio.create_subprocess_exec(
            *["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
            *["-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
            *["-keyout", key, "-out", cert],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, error = await openssl.communicate()
        if openssl.returncode:
            raise RuntimeError(f"openssl could not make the stand-in's certificate: {error.decode()}")
        self.sink = await asyncio.create_subprocess_exec(
            sys.executable,
            str(SINK),
            "--cert",
            cert,
            "--key",
            key,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.sink.stdout is not None
        port = int(await asyncio.wait_for(self.sink.stdout.readline(), 30))
        self.base = f"https://127.0.0.1:{port}/api/v10"
        context = ssl.create_default_context(cafile=cert)
        self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=context))
        # discord.py's own client, as ``static_login`` would fill it, on the session above.
        self.http = HTTPClient(asyncio.get_running_loop())
        self.http.token = "transport.bench.token"
        self.http._HTTPClient__session = self.session  # type: ignore[attr-defined]
        self.http._global_over = asyncio.Event()
        self.http._global_over.set()
        self.adapter = AsyncWebhookAdapter()

    def install(self, meter: Any) -> None:
        """``meter``: the load bench's CPU meter (``load_probe.Meter``), which the reading of an
        answer is charged through."""
        transport = self
        fake_rest, fake_answer = FakeHTTPClient.request, FakeWebhookAdapter.request
        self._originals = {FakeHTTPClient: fake_rest, FakeWebhookAdapter: fake_answer}
        self._read_by(meter)

        async def rest(
            client: Any, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
        ) -> Any:
            await transport.http.request(transport.route(route), files=files, form=form, **kwargs)
            transport.rewind(files)
            return await fake_rest(client, route, files=files, form=form, **kwargs)

        async def answer(adapter: Any, route: Any, session: Any, **kwargs: Any) -> Any:
            await transport.adapter.request(transport.route(route), transport.session, **kwargs)
            transport.rewind(kwargs.get("files"))
            return await fake_answer(adapter, route, session, **kwargs)

        FakeHTTPClient.request = rest  # type: ignore[method-assign]
        FakeWebhookAdapter.request = answer  # type: ignore[method-assign]

    def _read_by(self, meter: Any) -> None:
        """Charge the reading of each answer to the press whose request it answers."""
        readers: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        expect, received = ResponseHandler.set_response_params, sslproto.SSLProtocol.buffer_updated

        def set_response_params(protocol: Any, *args: Any, **kwargs: Any) -> None:
            readers[protocol] = meter.current()  # in the request's task: its press's bucket
            expect(protocol, *args, **kwargs)

        def buffer_updated(ssl: Any, nbytes: int) -> None:
            bucket = readers.get(ssl._app_protocol)
            if bucket is None:
                return received(ssl, nbytes)
            meter.enter(bucket, "bot")
            try:
                return received(ssl, nbytes)
            finally:
                meter.leave()

        ResponseHandler.set_response_params = set_response_params  # type: ignore[method-assign]
        sslproto.SSLProtocol.buffer_updated = buffer_updated  # type: ignore[method-assign]
        self._read_originals = (expect, received)

    def route(self, route: Route) -> Route:
        self.requests += 1
        sent = Route.__new__(Route)  # a copy, without ``copy.copy``'s dearer protocol
        sent.__dict__.update(route.__dict__)
        sent.url = self.base + route.url[len(Route.BASE) :]
        return sent

    @staticmethod
    def rewind(files: Any) -> None:
        """The real request read the files; SimCord reads them again from where they began."""
        for file in files or ():
            if isinstance(file, discord.File):
                file.reset(seek=True)

    def remove(self) -> None:
        for cls, original in self._originals.items():
            cls.request = original  # type: ignore[method-assign]
        self._originals = {}
        if self._read_originals:
            expect, received = self._read_originals
            ResponseHandler.set_response_params = expect  # type: ignore[method-assign]
            sslproto.SSLProtocol.buffer_updated = received  # type: ignore[method-assign]
            self._read_originals = ()

    async def close(self) -> None:
        self.remove()
        await self.session.close()
        if self.sink.stdin is not None:
            self.sink.stdin.close()
        try:
            await asyncio.wait_for(self.sink.wait(), 10)
        except TimeoutError:
            self.sink.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
