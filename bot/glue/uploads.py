"""A picture's upload written to the connection in one piece.

A board whose picture changed is answered with a multipart body (the message's JSON, then the
PNG), and aiohttp writes a multipart body piece by piece: each part's boundary, its headers, its
content and its line end, then the closing boundary, nine writes for one picture. Over TLS each
write is a record of its own and a system call, made on the event loop's thread; a JSON body goes
out with its headers in one. Kabuki uploads a picture with every placement, so here a multipart
body whose parts are all in memory (text, bytes, ``io.BytesIO``: how discord.py sends the bot's
JSON and pictures) is written as the one piece aiohttp itself renders for ``as_bytes``: the same
bytes, in one write. Any other body (a file on disk, a part with a content or transfer encoding)
is written as aiohttp writes it. Figures: bench/README.md, *A picture's upload in one write*.
"""

from __future__ import annotations

from typing import Any

from aiohttp.abc import AbstractStreamWriter
from aiohttp.multipart import MultipartWriter
from aiohttp.payload import BytesIOPayload, BytesPayload

_IN_MEMORY = (BytesPayload, BytesIOPayload)  # aiohttp's StringPayload is a BytesPayload
_aiohttp_write = MultipartWriter.write


def in_one_piece(body: MultipartWriter) -> bool:
    """Whether ``body`` is written whole: every part in memory, none encoded on the way. An aiohttp
    that keeps its parts otherwise (``_parts`` is its own) writes them its own way."""
    try:
        return all(isinstance(part, _IN_MEMORY) and not enc and not te for part, enc, te in body._parts)
    except (AttributeError, TypeError, ValueError):
        return False


async def _write(self: MultipartWriter, writer: AbstractStreamWriter, close_boundary: bool = True) -> Any:
    if close_boundary and in_one_piece(self):
        await writer.write(await self.as_bytes())
        return
    await _aiohttp_write(self, writer, close_boundary)


def install() -> None:
    """From now on, aiohttp writes an in-memory multipart body in one piece (idempotent)."""
    if hasattr(MultipartWriter, "as_bytes"):
        MultipartWriter.write = _write  # type: ignore[method-assign]
