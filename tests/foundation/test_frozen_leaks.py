"""Freezing what survives a full collection is safe only if nothing the bot keeps dies in a reference
cycle (``bot.ops.gc_tuning``): a frozen cycle is never freed. Here every game is played with
everything frozen at every interaction's arrival (the interaction in flight), at every request
the bot makes to Discord (what it sends, alive while it awaits the answer: a full collection run
by another channel's press meanwhile freezes it) and at every step of its timers, then thawed:
what the collector then finds unreachable is what freezing would have leaked, and none of it may
be the bot's or discord.py's. The human of each game also asks for their private panel (Kingdom's
*My card*, with its power's controls on their turn)."""

from __future__ import annotations

import gc
from collections import Counter
from types import CoroutineType, FunctionType

import pytest
from shown import is_card, labels
from simcord.http import router
from simcord_clock import clock_held_still
from test_computers import COGS, open_with_computers

from bot.ops.gc_tuning import freeze_survivors, tune_garbage_collector

OURS = ("bot.", "discord.")


def owner(thing: object) -> str | None:
    """The bot's or discord.py's name for a collected object; None for anything else (SimCord's
    simulated Discord, the test's own, plain containers nobody can be told of)."""
    if isinstance(thing, FunctionType | CoroutineType):
        module, name = getattr(thing, "__module__", "") or "", thing.__qualname__
    else:
        module, name = type(thing).__module__, type(thing).__qualname__
    return f"{module}.{name}" if module.startswith(OURS) else None


def frozen_cycles() -> Counter[str]:
    """What freezing leaked of the bot's or discord.py's, in cycles of their own: the collector's
    usual garbage freed first, then the frozen objects handed back and the collection's finds kept
    for a look. (An object of ours held only by SimCord's own cycles, its records of the callbacks
    it ran, is SimCord's leak in a test, and no object of a real process.)"""
    gc.collect()
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
    finally:
        gc.set_debug(0)
    garbage = {id(thing): thing for thing in gc.garbage}
    found = Counter(
        name for thing in gc.garbage if (name := owner(thing)) is not None and in_cycle(thing, garbage)
    )
    garbage.clear()
    gc.garbage.clear()
    return found


def in_cycle(start: object, garbage: dict[int, object]) -> bool:
    """Whether ``start`` can reach itself through the collected garbage."""
    seen, todo = {id(start)}, [start]
    while todo:
        for referent in gc.get_referents(todo.pop()):
            if referent is start:
                return True
            if id(referent) in garbage and id(referent) not in seen:
                seen.add(id(referent))
                todo.append(referent)
    return False


@pytest.fixture
def frozen_at_every_interaction(simcord_env, monkeypatch):
    bot = simcord_env.bot
    original = bot.on_interaction

    async def on_interaction(interaction):
        gc.freeze()  # the interaction, its message and member, mid-answer
        await original(interaction)

    dispatch = router.dispatch

    def frozen_dispatch(*args, **kwargs):
        gc.freeze()  # what the bot is sending (a message, its view), mid-request
        return dispatch(*args, **kwargs)

    bot.on_interaction = on_interaction  # discord.py looks the handler up on each event
    monkeypatch.setattr(router, "dispatch", frozen_dispatch)
    yield
    gc.unfreeze()


# The private panel a player may ask for in the middle of a game, by its button's label.
PANELS = {"kingdom": "My card"}


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(COGS)


@pytest.mark.parametrize("kind", COGS)
async def test_a_whole_game_frozen_at_every_step_leaves_no_cycle_of_the_bot_s(
    world, simcord_env, frozen_at_every_interaction, kind
):
    human = await open_with_computers(world, kind, 2)
    with clock_held_still(simcord_env):
        await human.click(world.board(), label="Start")
    for _ in range(2000):
        if simcord_env.bot.sessions.get(world.channel.id) is None:
            break
        gc.freeze()  # the game mid-play: its engine, board shown, timers, computers' plans
        if kind in PANELS and PANELS[kind] in labels(world.board()):
            with clock_held_still(simcord_env):  # the computers' timers run by the advance only
                await human.click(world.board(), label=PANELS[kind])
        await simcord_env.advance_time(3)
    assert simcord_env.bot.sessions.get(world.channel.id) is None  # played to its end
    await human.click([m for m in world.channel.history() if is_card(m)][-1], label="Play again")
    await human.slash(world.channel, "end")  # a rematch's lobby, closed: its objects go too
    assert frozen_cycles() == Counter()


async def test_full_collections_freeze_what_survives_them_and_free_young_cycles(simcord_env):
    assert freeze_survivors in gc.callbacks  # installed when the bot came up
    tune_garbage_collector()
    before = gc.get_freeze_count()
    kept = [[] for _ in range(100)]
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle  # young garbage: a full collection frees it before freezing what is left
    gc.collect()
    assert gc.get_freeze_count() >= before + len(kept)
    assert frozen_cycles() == Counter()
    gc.collect()
    assert gc.get_freeze_count() > 0  # frozen again: the bot is still up
