"""Chaos: whole games of every registered title played by several members pressing at random while Discord
fails in every way it does (see driver.py). Seeded, bounded in steps and virtual time; a longer
run by hand: ``python bench/chaos_soak.py`` (more seeds, longer games)."""

from __future__ import annotations

import os

import pytest
from chaos.database import DatabaseChaos
from chaos.driver import COGS, SETTLE_S, SUMMARIES, Chaos

FIRST = int(os.environ.get("CHAOS_FIRST_SEED", "0"))
SEEDS = range(FIRST, FIRST + int(os.environ.get("CHAOS_SEEDS", "2")))
STEPS = int(os.environ.get("CHAOS_STEPS", "150"))
# PostgreSQL's faults are real (a server stopped and started, each a second or two): one seed per
# title in the suite, with half the chaos steps, which keeps the whole chaos test near two minutes.
PG_SEEDS = range(FIRST, FIRST + int(os.environ.get("CHAOS_PG_SEEDS", "1")))
PG_STEPS = int(os.environ.get("CHAOS_PG_STEPS", str(STEPS // 2)))


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


@pytest.mark.parametrize("backend", ["postgres"])
@pytest.mark.parametrize("seed", PG_SEEDS)
@pytest.mark.parametrize("kind", COGS)
async def test_every_game_survives_postgresql_stopping_and_its_connections_lost(
    simcord_env, world, restart_bot, database, postgres_server, kind, seed
):
    dsn = database["database_url"]
    faults = DatabaseChaos(kind, seed, "postgres", cluster=postgres_server, dsn=dsn)
    chaos = Chaos(simcord_env, world, kind, seed, lambda: restart_bot(COGS), steps=PG_STEPS, database=faults)
    await chaos.play()
    SUMMARIES.append(chaos.summary())
    assert not chaos.failures, "\n".join([chaos.summary(), *chaos.failures[:30]])
