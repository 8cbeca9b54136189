"""The board's picture after a restart: the new process does not know what the message shows."""

from __future__ import annotations

from kabuki_tables import FAST
from shown import card

FOX = 2


async def test_end_after_a_restart_during_a_reveal_leaves_no_picture_on_the_board(open_game, restart) -> None:
    """The reveal draws the challenged stack, buried masks included; a game ended after a restart
    must not leave that picture on the ended message."""
    table = await open_game(3, reveal=30)  # longer than the restart's settling
    table.script([FOX, FOX], first=0)
    await table.place(0)
    await table.place(0)  # bob covers alice's Fox with a Fox
    await table.stop(2)
    await table.env.advance_time(FAST["race_window"] / 1000 + 0.1)
    assert table.view()["reveal"] is not None
    board_id = table.session.board_message_id
    assert len(table.message().attachments) == 1  # the revealed stack

    await restart()
    await table.players[0].slash(table.channel, "end")

    (ended,) = [m for m in table.channel.history() if m.id == board_id]
    assert "ended" in card(ended).title
    assert ended.attachments == []
