"""A placement whose board picture would come after Discord's 3 s: the press is acknowledged
while Discord still takes an answer, then its board goes by a REST edit, picture and all
(``bot.session.publisher``: ``_picture_in_time``; ``bot.session.overload.ANSWER_BY_MS``). The
move is never applied behind an answer Discord refuses because its picture was slow."""

from __future__ import annotations

import asyncio

import pytest
from kabuki_tables import FAST, SETTLE_S

from bot.games.kabuki import board
from bot.glue import board as glue_board
from bot.glue.board import PICTURES


def callbacks(env) -> list:
    return [r for r in env.http_requests if "/callback" in r.path]


def board_edits(env, message_id: int) -> list:
    return [
        r for r in env.http_requests if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}")
    ]


@pytest.mark.parametrize("slow_s, late", [(5.0, True), (0.5, False)])
@pytest.mark.simcord(settle_timeout=SETTLE_S)
async def test_a_placement_whose_picture_is_late_is_answered_first_then_shown(
    simcord_env, world, monkeypatch, slow_s, late
):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "kabuki new", **FAST)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    session = simcord_env.bot.sessions.get(world.channel.id)
    # What this test makes the pictures' last wait is put back afterwards (it is process-wide).
    monkeypatch.setattr(glue_board.PICTURE_WAIT, "seconds", 0.0)
    monkeypatch.setattr(glue_board.PICTURE_WAIT, "at", float("-inf"))
    real = glue_board.drawn
    took = [0.5]

    async def slow(render):
        await asyncio.sleep(took[0])
        return await real(render)

    monkeypatch.setattr(glue_board, "drawn", slow)
    PICTURES.clear()
    # A first placement whose picture takes 0.5 s: answered with its board (in time), and from
    # then on pictures count as slow (``PICTURE_WAIT``).
    placer = world.members[session.engine.view(None)["current"]["seat"]]
    first = len(callbacks(simcord_env))
    await placer.click(world.board(), label="1 · actor")
    assert [c.json["type"] for c in callbacks(simcord_env)[first:]] == [7]
    assert glue_board.PICTURE_WAIT.seconds == 0.5
    took[0] = slow_s
    before = len(callbacks(simcord_env))
    placer = world.members[session.engine.view(None)["current"]["seat"]]
    await placer.click(world.board(), label="2 · actor")
    await simcord_env.advance_time(6.0)
    await simcord_env.settle()
    answers = [c.json["type"] for c in callbacks(simcord_env)[before:]]
    assert session.engine.view(None)["turn"] == 2  # the placement counts either way
    key = board.picture_key(session.engine.view(None))
    stored = simcord_env.backend.messages[world.channel.id][session.board_message_id]
    (attachment,) = stored.attachments
    assert attachment["filename"] == board.PICTURE_NAME
    assert PICTURES.get(key) == board.render_picture(key)
    if late:
        # Acknowledged at 2 s of age, inside Discord's 3 s; the board with its new picture by REST.
        assert answers == [6]
        assert board_edits(simcord_env, session.board_message_id), "the board was not edited by REST"
    else:
        assert answers == [7]  # the picture in time: the board in the press's own answer
