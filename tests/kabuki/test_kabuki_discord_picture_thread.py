"""The board picture is drawn in a worker thread, so a placement's drawing never holds up the
event loop that serves every other channel."""

from __future__ import annotations

import threading

from bot.games.kabuki import board as kabuki_board
from bot.glue import board as session_board
from bot.glue.picture_cache import ByteLRU

FOX, MOON = 2, 1


async def test_the_board_picture_is_drawn_off_the_event_loop(open_game, monkeypatch) -> None:
    drawn_on = []
    real_render = kabuki_board.render_picture

    def recording_render(key):
        drawn_on.append(threading.current_thread())
        return real_render(key)

    monkeypatch.setattr(kabuki_board, "render_picture", recording_render)
    monkeypatch.setattr(session_board, "PICTURES", ByteLRU(1 << 20))  # nothing drawn before counts
    table = await open_game(3)
    table.script([FOX, MOON, FOX], first=0)
    await table.place(0)
    await table.place(1)
    assert len(drawn_on) >= 2 and threading.main_thread() not in drawn_on
    (attachment,) = table.message().attachments
    shown = table.env.backend.cdn.get(attachment.url)
    assert shown == real_render(kabuki_board.picture_key(table.view()))
