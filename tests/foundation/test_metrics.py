"""Operations: the Prometheus endpoint after real presses through SimCord, the event-loop lag
sampler, and the health line written when there is no endpoint."""

from __future__ import annotations

import asyncio
import logging
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families


async def start_tap(world, target=5):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new", target=target)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample the endpoint serves, by name and labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def simcord_bot(make_bot, monkeypatch, request):
    """A bot with the endpoint on a free loopback port; "health": with the health line instead;
    "quiet": neither (no sampler thread either)."""
    monkeypatch.setattr("bot.ops.metrics.SAMPLE_EVERY_S", 0.02)
    variant = getattr(request, "param", "endpoint")
    if variant == "health":
        return make_bot(health_log_s=0.05)
    if variant == "quiet":
        return make_bot()
    return make_bot(metrics_port=0, metrics_host="127.0.0.1")  # port 0: any free one


async def test_the_endpoint_serves_presses_refusals_saves_and_open_games(world, simcord_env):
    alice, bob, carol = world.members[:3]
    await start_tap(world)  # Join and Start: two presses
    await alice.click(world.board(), label="Tap")
    await bob.click(world.board(), label="Tap")
    await bob.click(world.board(), label="Tap")  # not bob's turn: the engine refuses
    await carol.click(world.board(), label="Tap")  # not playing
    samples = scrape(simcord_env.bot.metrics.port)
    assert value(samples, "partycards_presses_total", kind="tap") == 6
    assert value(samples, "partycards_press_seconds_count", kind="tap") == 6
    assert 0 < value(samples, "partycards_press_seconds_sum", kind="tap") < 60
    assert value(samples, "partycards_refused_presses_total", kind="tap", reason="illegal") == 1
    assert value(samples, "partycards_refused_presses_total", kind="tap", reason="not_player") == 1
    assert value(samples, "partycards_late_answers_total", kind="tap") == 0
    # The lobby, Join, Start and two taps each saved the session.
    assert value(samples, "partycards_session_save_seconds_count") >= 5
    assert value(samples, "partycards_session_save_seconds_sum") > 0
    assert value(samples, "partycards_games_open", kind="tap", status="playing") == 1
    assert value(samples, "partycards_gc_frozen_objects") > 0  # start-up's at least (bot.ops.gc_tuning)
    await alice.slash(world.channel, "end")
    samples = scrape(simcord_env.bot.metrics.port)
    assert value(samples, "partycards_games_open", kind="tap", status="playing") == 0


async def test_a_press_left_unanswered_past_3_s_counts_as_late(world, simcord_env, monkeypatch):
    await start_tap(world)
    cog = simcord_env.bot.game_cogs["tap"]
    real_render = type(cog).render_board

    def slow_render(self, session):
        simcord_env.backend.advance_clock(3.5)
        return real_render(self, session)

    monkeypatch.setattr(type(cog), "render_board", slow_render)
    late = await world.members[0].click(world.board(), label="Tap")
    monkeypatch.undo()
    assert late.response is None
    samples = scrape(simcord_env.bot.metrics.port)
    assert value(samples, "partycards_late_answers_total", kind="tap") == 1


async def test_a_blocked_event_loop_shows_as_lag(world, simcord_env):
    time.sleep(0.3)  # noqa: ASYNC251 - blocking the loop is the point
    for _ in range(100):
        await asyncio.sleep(0)  # let the sampler's probe run
        samples = scrape(simcord_env.bot.metrics.port)
        if value(samples, "partycards_event_loop_lag_seconds_count") > value(
            samples, "partycards_event_loop_lag_seconds_bucket", le="0.1"
        ):
            break
        time.sleep(0.02)  # noqa: ASYNC251
    else:
        pytest.fail("no lag sample above 0.1 s after blocking the loop for 0.3 s")


@pytest.mark.parametrize("simcord_bot", ["quiet"], indirect=True)
async def test_the_health_line_tells_open_games_presses_and_lag(world, simcord_env):
    await start_tap(world)
    await world.members[0].click(world.board(), label="Tap")
    await world.members[2].click(world.board(), label="Tap")  # not playing: refused
    metrics = simcord_env.bot.metrics
    metrics.record_lag(0.004)
    line = metrics.health_line(60.0)
    assert line.startswith(
        "health: 1 open (tap 1); 4 presses in 60 s (0.07/s), 1 refused, 0 late, 0 too late to take, 0 answered first;"
    )
    assert line.endswith("loop lag max 4.0 ms, last 4.0 ms; database up, 0 waiting on it, 0 stuck")
    # Each line counts what happened since the one before.
    assert "0 presses" in metrics.health_line(60.0)


@pytest.mark.parametrize("simcord_bot", ["health"], indirect=True)
async def test_without_an_endpoint_the_health_line_is_logged_every_period(world, simcord_env, caplog):
    caplog.set_level(logging.INFO, logger="bot.ops.metrics")
    for _ in range(200):
        await asyncio.sleep(0)
        if any(record.getMessage().startswith("health: ") for record in caplog.records):
            break
        time.sleep(0.01)  # noqa: ASYNC251
    else:
        pytest.fail("no health line")
    assert simcord_env.bot.metrics.port is None


async def test_the_endpoint_shows_the_database_failing_games_waiting_on_it_and_none_stuck(world, simcord_env):
    from test_database_faults import Outage

    await start_tap(world)
    outage = Outage(simcord_env.bot.storage, "save_session")
    await world.members[0].click(world.board(), label="Tap")  # its save fails and waits
    samples = scrape(simcord_env.bot.metrics.port)
    assert value(samples, "partycards_database_up") == 0
    assert value(samples, "partycards_database_faults_total") == 1
    assert value(samples, "partycards_games_waiting_on_database") == 1
    assert value(samples, "partycards_games_stuck") == 0
    outage.end()
    await simcord_env.advance_time(6)
    samples = scrape(simcord_env.bot.metrics.port)
    assert value(samples, "partycards_database_up") == 1
    assert value(samples, "partycards_games_waiting_on_database") == 0


def test_a_game_whose_timer_is_a_minute_past_its_instant_counts_as_stuck():
    from types import SimpleNamespace

    from bot.ops.metrics import STUCK_AFTER_MS, stuck_games

    def game(due: int | None) -> SimpleNamespace:
        return SimpleNamespace(timer=SimpleNamespace(deadline=due))

    now = 10_000_000
    sessions = [game(now - STUCK_AFTER_MS - 1), game(now - 5_000), game(now + 30_000), game(None)]
    sessions.append(SimpleNamespace(timer=None))
    assert stuck_games(sessions, now) == 1
