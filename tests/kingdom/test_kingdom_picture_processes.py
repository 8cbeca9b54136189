"""Kingdom's revealed table drawn in a worker process (``bot.glue.picture_processes``), off the
event loop's interpreter lock: the same bytes as in the pictures' thread, and drawn elsewhere."""

from __future__ import annotations

from bot.games.kingdom import board
from bot.games.kingdom.pictures import reveal_png
from bot.glue.board import PICTURES

REVEAL = {
    "round": 3,
    "cards": [
        {"seat": 0, "char": 0, "value": 0, "turned": None, "loser": True},
        {"seat": 1, "char": 3, "value": 3, "turned": None, "loser": False},
        {"seat": 2, "char": 1, "value": 11, "turned": 11, "loser": False},
    ],
    "losers": [0],
}
NAMES = ("alice", "bob", "carol")


async def test_a_revealed_table_drawn_by_a_worker_is_the_one_the_thread_draws(picture_workers, monkeypatch):
    picture = board.reveal_picture({"reveal": REVEAL}, NAMES, "game-1", "fr")
    assert picture is not None and picture.job is not None
    PICTURES.clear()

    async def no_thread(render):  # the pictures' thread must not be asked
        raise AssertionError("drawn in the pictures' thread")

    monkeypatch.setattr("bot.glue.board.drawn", no_thread)
    png = await picture.png()
    assert png == reveal_png(REVEAL, NAMES, locale="fr")  # byte for byte, in the table's language
    assert png.startswith(b"\x89PNG")
