"""Kabuki computer players remember the public placements and press Stop! on a match they saw."""

from __future__ import annotations

import pytest
from kabuki_tables import FAST, Table
from simcord_clock import clock_held_still

from bot.engine.protocol import Event
from bot.games.kabuki import players as kabuki_players
from bot.games.kabuki.engine import KabukiEngine
from bot.games.kabuki.players import UNKNOWN, Temper
from bot.session import computers
from bot.session.sessions import Session

# Every click here is made with the clock held still (a computer reacts in 400 ms at the soonest,
# and would otherwise fire on the wall clock during a settle), so a settle may take as long as a
# board picture takes on a busy machine: a 0.3 s settle once timed out on a loaded run.
pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def table_with_a_computer(world, simcord_env, monkeypatch) -> Table:
    # Perfect memory: whether it forgets the covered mask must not decide the test.
    monkeypatch.setattr(kabuki_players, "KABUKI_TEMPER", Temper(memory=1.0, reaction_ms=(400, 1200)))
    alice, bob = world.members[:2]
    with clock_held_still(simcord_env):
        await alice.slash(world.channel, "kabuki new", **{**FAST, "grace": 3})
        await bob.click(world.board(), label="Join")
        await alice.click(world.board(), label="Add computer")
        await alice.click(world.board(), label="Start")
    return Table(simcord_env, world, [alice, bob])


async def test_a_computer_presses_stop_when_a_mask_it_saw_placed_is_matched(world, simcord_env, monkeypatch):
    table = await table_with_a_computer(world, simcord_env, monkeypatch)
    assert table.session.players[2] == -1
    table.script([3, 3, 7], first=0)
    tokens = list(table.engine.tokens)
    with clock_held_still(simcord_env):
        await table.place(0)  # alice: mask 3 on stack 0
    await table.env.advance_time(3.1)  # the grace passes
    with clock_held_still(simcord_env):
        await table.place(0)  # bob: mask 3 on the same stack, right on the one everyone saw
    assert table.session.plans[2]["action"]["type"] == "stop"
    await table.env.advance_time(1.3)  # its reaction time
    assert table.view()["race"] is not None  # the computer's press opened a race
    await table.env.advance_time(FAST["race_window"] / 1000 + 0.1)
    stop = [entry for entry in table.engine.log if entry["e"] == "stop"]
    assert [(s["challenger"], s["placer"], s["cards"], s["k"]) for s in stop] == [(2, 1, [3, 3], 1)]
    assert table.engine.tokens[2] == tokens[2] + 1 and table.engine.tokens[1] == tokens[1] - 1
    assert "Robo 1" in table.embed_text()


async def test_a_computer_does_not_press_stop_without_a_match_it_saw(world, simcord_env, monkeypatch):
    table = await table_with_a_computer(world, simcord_env, monkeypatch)
    table.script([3, 4, 7], first=0)
    with clock_held_still(simcord_env):
        await table.place(0)
    await table.env.advance_time(3.1)
    with clock_held_still(simcord_env):
        await table.place(0)  # mask 4 on mask 3: nothing to challenge
    await table.env.advance_time(7.1)  # the grace, then its think time: it places mask 7
    assert table.engine.pos == 3
    assert not [entry for entry in table.engine.log if entry["e"] == "stop"]
    # It keeps mask 7 off any stack it remembers a 7 on, and remembers every placement.
    assert table.session.memories[2] == [list(s) for s in table.engine.stacks]


def test_a_computer_s_memory_holds_only_masks_it_saw_placed_or_revealed():
    """Whole games of two people (who never press, so the turn timer places for them) and two
    computers: at every step each remembered mask is one shown publicly at that very place this
    round, a private event never reaches the memory, and a computer's Stop! is always right."""
    computer_stops = 0
    for seed in range(12):
        engine = KabukiEngine.new(4, seed, {"turn_ms": 4000}, 0)
        session = Session("kabuki", 1, 1, 1, {}, seed, f"g{seed}", 0, players=[1, -1, 2, -2], engine=engine)
        seen: list[set[tuple[int, int]]] = [set() for _ in range(4)]  # per stack: (height, mask)
        now = 0
        for _ in range(3000):
            if engine.is_over:
                break
            computers.replan(session, now, kabuki_players)
            moves = [computers.next_move_at(session), engine.next_deadline()]
            now = max(now, min(m for m in moves if m is not None))
            events: list[Event] = []
            for at, seat, action in computers.due(session, now):
                events += engine.advance(at)
                if action in engine.legal_actions(seat):
                    events += engine.apply(seat, action, at)
            events += engine.advance(now)
            for event in events:
                if event.kind == "round_start":
                    seen = [set() for _ in range(4)]
                elif event.kind == "placed":
                    seen[event.data["stack"]].add((event.data["height"] - 1, event.data["card"]))
                elif event.kind == "challenge":
                    seen[event.data["stack"]].update(enumerate(event.data["cards"]))
                    computer_stops += event.data["challenger"] in (1, 3)
                    if event.data["challenger"] in (1, 3):
                        assert event.data["k"] >= 1  # it only presses on a match it remembers
            # A private event (here a made-up one, as if leaked) teaches nothing.
            events.append(Event("placed", {"stack": 0, "card": 9, "height": 1}, to=1))
            computers.observe(session, events, kabuki_players)
            for seat in (1, 3):
                for s, stack in enumerate(session.memories.get(seat, [[]] * 4)):
                    assert len(stack) == len(engine.stacks[s])
                    known = {(i, card) for i, card in enumerate(stack) if card != UNKNOWN}
                    assert known <= seen[s]
        assert engine.is_over
    assert computer_stops > 0
