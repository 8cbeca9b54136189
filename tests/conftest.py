"""Shared fixtures: a bot on a temporary database, and a server with a #games channel."""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import pkgutil
import re
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pg_cluster import INSTALL_HINT, find_bindir, new_home, running, stop_all  # noqa: E402
from simcord_clock import clock_held_still  # noqa: E402
from tapgame import TAP  # noqa: E402
from worlds import World, build_world  # noqa: E402

from bot.app.client import GameBot, create_bot  # noqa: E402
from bot.app.config import Config  # noqa: E402
from bot.glue import picture_processes  # noqa: E402
from bot.ops.gc_tuning import release_garbage_collector  # noqa: E402

# The test-only games (tests/games) register themselves as they are imported: every test that loops
# over the registered games plays them too, and adding one needs no edit here.
for _game in pkgutil.iter_modules([str(Path(__file__).parent / "games")]):
    importlib.import_module(f"games.{_game.name}")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config) -> None:
    """``python -m pytest`` runs on every core (pytest-xdist) unless told otherwise: ``-n 0`` or
    ``-p no:xdist`` runs in this process. Set here rather than in ``addopts``, where ``-n`` would
    be an unknown option to a run without the plugin."""
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("xdist"):
        return
    if config.option.numprocesses is None and not config.option.tx:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":
            config.option.dist = "load"
        # A worker takes its next test when it is nearly idle, rather than a long run of them at
        # once, so the slow tests sent first (below) spread over the workers.
        if config.option.maxschedchunk is None:
            config.option.maxschedchunk = 2


def pytest_collection_modifyitems(config, items: list[pytest.Item]) -> None:
    # Under xdist the slow tests start first, so that none of them is the last to end. Every
    # worker sorts its collection alike, as xdist requires.
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


PG_HOME = pytest.StashKey[Path]()
CHAOS_FROM_WORKERS = pytest.StashKey[list[str]]()


def pytest_configure(config) -> None:
    # The run's PostgreSQL clusters live in one directory owned by the process that outlives the
    # xdist workers, so that it can stop a cluster a crashed or interrupted worker left running.
    if not hasattr(config, "workerinput"):
        config.stash[PG_HOME] = new_home()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    node.workerinput["pg_home"] = str(node.config.stash[PG_HOME])


def pytest_unconfigure(config) -> None:
    home = config.stash.get(PG_HOME, None)
    if home is not None:
        stop_all(home)


def chaos_summaries() -> list[str]:
    chaos = sys.modules.get("chaos.driver")
    return list(chaos.SUMMARIES) if chaos is not None else []


def pytest_sessionfinish(session) -> None:
    # Nobody sees an xdist worker's terminal: its chaos lines travel back to the controller.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["chaos"] = chaos_summaries()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    lines = getattr(node, "workeroutput", {}).get("chaos", [])
    node.config.stash.setdefault(CHAOS_FROM_WORKERS, []).extend(lines)


def pytest_terminal_summary(terminalreporter, config) -> None:
    """The chaos test's line per title and seed (tests/chaos), shown even under -q."""
    lines = chaos_summaries() + config.stash.get(CHAOS_FROM_WORKERS, [])
    if lines:
        terminalreporter.section("chaos")
        # Workers finish in any order: the lines are sorted, seed 10 after seed 9.
        for line in sorted(lines, key=numbers_as_numbers):
            terminalreporter.write_line(line)


def numbers_as_numbers(line: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", line)]


@pytest.fixture(autouse=True)
def no_picture_workers_left():
    """A bot started with picture worker processes stops them when it closes, but SimCord may
    detach a bot without closing it: the workers would then draw the next tests' pictures (and
    refuse a test's stand-in drawing, which they cannot unpickle). Each test ends without any."""
    yield
    picture_processes.stop()


@pytest.fixture(autouse=True)
def collector_as_found():
    """Every bot tunes the process's garbage collector as it starts (``bot.ops.gc_tuning``); tests
    start hundreds of bots in one process, so each test leaves the collector as it found it."""
    thresholds = gc.get_threshold()
    yield
    release_garbage_collector()  # its freezing hook out, what it froze handed back
    gc.set_threshold(*thresholds)


@pytest.fixture
async def picture_workers():
    """One picture worker process (``bot.glue.picture_processes``) for the test, stopped after."""
    await picture_processes.start(1)
    yield
    picture_processes.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def cluster_home(config) -> Path | None:
    workerinput = getattr(config, "workerinput", {})
    if "pg_home" in workerinput:
        return Path(workerinput["pg_home"])
    return config.stash.get(PG_HOME, None)


@pytest.fixture(scope="session")
def postgres_server(request):
    """One throwaway PostgreSQL server for the whole run, started when a test first needs it.
    Without one a local run skips those tests and says why; CI (CI=true) fails instead.

    Each xdist worker starts its own (a couple of seconds, on all cores at once) rather than
    sharing one: no worker's test can then disturb another's server, its connections or its
    settings."""
    bindir = find_bindir()
    missing = None
    if bindir is None:
        missing = f"no PostgreSQL server found ({INSTALL_HINT})"
    elif importlib.util.find_spec("asyncpg") is None:
        missing = "asyncpg is not installed (uv sync --locked --extra test)"
    if missing is not None:
        if in_ci():
            pytest.fail(f"CI runs the PostgreSQL tests, but {missing}", pytrace=False)
        pytest.skip(f"PostgreSQL tests need a server: {missing}")
    with running(bindir, home=cluster_home(request.config)) as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the test server, dropped after the test."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    yield postgres_server.create_database(name)
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgres"])
def storage_target(request, tmp_path: Path) -> str:
    """Where a storage test's database lives: a SQLite file, or a fresh PostgreSQL database. A
    test that takes it runs on both backends."""
    if request.param == "postgres":
        return request.getfixturevalue("postgres_url")
    return str(tmp_path / "nested" / "bot.db")


@pytest.fixture
def backend() -> str:
    """The storage a test's bot runs on; a test parametrizes it to run on PostgreSQL as well."""
    return "sqlite"


@pytest.fixture
def database(backend: str, db_path: Path, request) -> dict[str, str]:
    if backend == "postgres":
        return {"database_url": request.getfixturevalue("postgres_url")}
    return {}


@pytest.fixture
async def make_bot(db_path: Path, database: dict[str, str]):
    """Builds a fresh bot on the test's database (a restart needs a new bot object). Keyword
    arguments override the configuration (shards, another database)."""
    made: list[GameBot] = []

    def make(games=None, **settings) -> GameBot:
        config = Config(
            **{
                "token": None,
                "database_path": str(db_path),
                "dev_guild_id": None,
                "log_level": "INFO",
                # SimCord needs a shard count; a real run may ask Discord for one.
                "shard_count": 1,
                **database,
                **settings,
            }
        )
        # The games it runs: ids of registered games or descriptors (the test-only Tap by default).
        bot = create_bot(config, games=[TAP] if games is None else games)
        made.append(bot)
        return bot

    yield make
    # SimCord detaches a bot without closing it; close its database so no worker thread outlives
    # the test's event loop.
    for bot in made:
        bot.metrics.stop()
        if bot.table_server is not None:  # the Activity's server and its client session
            await bot.table_server.stop()
        storage = getattr(bot, "storage", None)
        if storage is not None:
            await storage.close()


@pytest.fixture
def restart_bot(simcord_env, make_bot):
    """Restart as a process exit would: the old bot's timers never fire again and its database is
    closed, then a new bot comes up on the same database. SimCord alone only detaches the old bot,
    whose sleeping timers would wake later and write stale state over the new bot's. The new bot
    comes up at the instant the old one stopped: its restored games' timers wait for the test's
    next ``advance_time`` (``simcord_clock``), where SimCord's own restart lets them run on the
    wall clock."""

    async def restart(games=None, **settings) -> GameBot:
        old = simcord_env.bot
        for session in old.sessions:
            if session.timer is not None:
                session.timer.cancel()
        old.publishers.close()
        old.guard.close()
        await old.storage.close()
        new = make_bot(games, **settings)
        with clock_held_still(simcord_env):
            await simcord_env.restart_bot(new)
        return new

    return restart


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@pytest.fixture
def world(simcord_env) -> World:
    return build_world(simcord_env)


@dataclass
class Locales:
    """Each member's Discord language (``interaction.locale``), by user id; a server's is its
    ``preferred_locale`` (``env.create_guild(preferred_locale=…)``)."""

    members: dict


@pytest.fixture
def locales(monkeypatch) -> Locales:
    """SimCord 3.2 sends every interaction with locale and guild_locale "en-US"; Discord sends
    the member's own language and the server's. Set ``locales.members[member.id] = "de"``."""
    from simcord import interactions

    chosen = Locales({})
    original = interactions.base_payload

    def base_payload(backend, *, user_id, guild_id, **rest):
        record, payload = original(backend, user_id=user_id, guild_id=guild_id, **rest)
        payload["locale"] = chosen.members.get(user_id, "en-US")
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    return chosen


@pytest.fixture
def pseudo_locale(locales) -> str:
    """The pseudo-locale ("en-XA", bot/i18n/pseudo.py), spoken while the test runs."""
    from bot.i18n.pseudo import install_pseudo, uninstall_pseudo

    code = install_pseudo()
    yield code
    uninstall_pseudo()
