"""Chaos: whole games of every registered title played by several members pressing at random while Discord
fails in every way it does (see driver.py). Seeded, bounded in steps and virtual time; a longer
run by hand: ``python bench/chaos_soak.py`` (more seeds, longer games)."""

from __future__ import annotations

import os

import pytest
from chaos.driver import COGS, SETTLE_S, SUMMARIES, Chaos

FIRST = int(os.environ.get("CHAOS_FIRST_SEED", "0"))
SEEDS = range(FIRST, FIRST + int(os.environ.get("CHAOS_SEEDS", "2")))
STEPS = int(os.environ.get("CHAOS_STEPS", "150"))


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(COGS)


pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", COGS)
async def test_every_game_survives_discord_s_faults(simcord_env, world, restart_bot, kind, seed):
    chaos = Chaos(simcord_env, world, kind, seed, lambda: restart_bot(COGS), steps=STEPS)
    await chaos.play()
    SUMMARIES.append(chaos.summary())
    assert not chaos.failures, "\n".join([chaos.summary(), *chaos.failures[:30]])
