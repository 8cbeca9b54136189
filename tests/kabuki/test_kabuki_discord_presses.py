"""Kabuki presses that must be refused, the turn timer, and a restart in the middle of a round."""

from __future__ import annotations

import copy
from typing import Any

from kabuki_tables import FAST, Table
from shown import button, card, controls
from simcord.actors import _component_interaction

FOX, MOON = 2, 1


def refusal(result: Any) -> str:
    assert result.ephemeral, "a refusal is private"
    return result.response.content


def snapshot(table: Table) -> Any:
    """The board as a member's client still shows it (before a later edit reaches them)."""
    return copy.deepcopy(table.env.backend.get_message(table.channel.id, table.session.board_message_id))


async def press_on(member: Any, stale: Any, custom_id: str) -> Any:
    """Press a button of an out-of-date copy of a message, as a lagging client would."""
    return await _component_interaction(member, stale, {"custom_id": custom_id, "component_type": 2})


async def test_presses_out_of_turn_by_the_placer_or_by_strangers_are_refused(open_game, world) -> None:
    table = await open_game(3)
    alice, bob, carol = table.players
    frank = world.members[5]
    table.script([FOX, MOON], first=0)
    before = table.engine.to_json()
    assert "not your turn" in refusal(await table.place(0, seat=1))
    assert "not playing" in refusal(await frank.click(table.message(), label="1 · actor"))
    assert table.engine.to_json() == before  # nothing changed
    await table.place(0)  # alice
    assert "you cannot stop yourself" in refusal(await table.stop(0))
    assert "not playing" in refusal(await frank.click(table.message(), label="Stop!"))
    await table.stop(2)  # carol
    assert "already pressed Stop" in refusal(await table.stop(2))
    await table.env.advance_time(FAST["race_window"] / 1000 + 0.1)
    # The race is settled and the stack is shown: no more Stop!, no placing until it is hidden.
    assert table.view()["reveal"] is not None
    stop = button(table.message(), "Stop!")
    places = [c for c in controls(table.message()) if c.beside is not None]  # each beside its stack
    assert stop.disabled and len(places) == 4 and all(b.disabled for b in places)


async def test_a_stale_board_is_refused(open_game, world) -> None:
    alice, bob, carol = world.members[:3]
    await alice.slash(world.channel, "kabuki new", **FAST)
    await bob.click(world.board(), label="Join")
    await carol.click(world.board(), label="Join")
    table = Table(world.env, world, [alice, bob, carol])
    lobby = snapshot(table)
    await alice.click(world.board(), label="Start")
    # A client still showing the lobby presses Join / Start on what is now the board.
    join = table.bound(f"pc:{world.channel.id}:join:")
    assert "already started" in refusal(await press_on(bob, lobby, join))
    table.script([FOX, MOON], first=0)
    old = snapshot(table)
    await table.place(0)
    # bob's client still shows turn 0's board (the Fox on show): that card is already placed.
    assert "already placed" in refusal(
        await press_on(bob, old, table.bound(f"pc:{world.channel.id}:place:1-0"))
    )
    before_moon = snapshot(table)
    await table.place(1)  # bob places the Moon: alice's Fox can no longer be challenged
    stop_fox = table.bound(f"pc:{world.channel.id}:stop:1")
    assert "no longer the last one" in refusal(await press_on(carol, before_moon, stop_fox))
    # /board posts a fresh board; the old message cannot be emptied (too old), so it keeps buttons.
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/*", status=400, code=30046)
    moved = await carol.slash(world.channel, "board")
    assert moved.ephemeral
    assert table.session.board_message_id != before_moon.id
    old_board = next(m for m in world.channel.history() if m.id == before_moon.id)
    assert "old board" in refusal(await carol.click(old_board, label="Stop!"))
    assert not (await carol.click(table.message(), label="Stop!")).ephemeral  # the new board works


async def test_the_turn_timer_places_for_an_idle_player_and_the_board_says_so(open_game) -> None:
    table = await open_game(3, turn_timer=10)
    table.script([FOX, MOON], first=1)
    await table.env.advance_time(9)
    assert table.view()["turn"] == 0
    await table.env.advance_time(1.1)
    place = table.engine.log[-1]
    assert place["e"] == "place" and place["auto"] and place["seat"] == 1 and place["card"] == FOX
    text = table.embed_text()
    assert f"**bob** ran out of time: the bot put the **Fox** on stack {place['stack'] + 1}" in text
    assert table.view()["current"]["seat"] == 2  # carol's turn now


async def test_a_restart_in_the_middle_of_a_round_changes_nothing(open_game, restart) -> None:
    table = await open_game(3, turn_timer=10)
    table.script([FOX, MOON, FOX, MOON], first=0)
    await table.place(0)
    await table.place(1)
    before = table.engine.to_json()
    await restart()
    assert table.engine is not None and table.engine.to_json() == before
    await table.place(0)  # the old board's buttons still work: carol covers alice's Fox
    await table.stop(1)  # bob, whose private news still reaches him
    await table.env.advance_time(FAST["race_window"] / 1000 + 0.1)
    assert table.view()["reveal"]["k"] == 1 and table.view()["tokens"] == [5, 6, 4]
    await table.env.advance_time(FAST["reveal"] + 0.1)
    await table.env.advance_time(10.1)  # the turn timer was re-armed after the restart
    assert table.engine.log[-1]["auto"] is True


async def test_the_rules_and_the_lobby_explain_the_discord_adaptation(world) -> None:
    alice = world.members[0]
    rules = await alice.slash(world.channel, "rules", game="kabuki")
    text = card(rules.response).description
    assert rules.ephemeral
    for words in ("Grace", "race window", "Reveal", "Turn timer", "earliest"):
        assert words in text
    await alice.slash(world.channel, "kabuki new", grace=5, race_window=400, reveal=10, turn_timer=90)
    options = card(world.board()).fields[1].value
    assert options == (
        "Grace: 5 s\nStop! race: the earliest press within 0.4 s of the first wins\n"
        "Reveal: 10 s\nTurn timer: 90 s"
    )
