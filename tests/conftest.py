"""Shared fixtures: a bot on a temporary database, and a server with a #games channel."""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import pkgutil
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pg_cluster import INSTALL_HINT, find_bindir, running  # noqa: E402
from simcord_clock import clock_held_still  # noqa: E402
from tapgame import TAP  # noqa: E402

from bot.app.client import GameBot, create_bot  # noqa: E402
from bot.app.config import Config  # noqa: E402

# The test-only games (tests/games) register themselves as they are imported: every test that loops
# over the registered games plays them too, and adding one needs no edit here.
for _game in pkgutil.iter_modules([str(Path(__file__).parent / "games")]):
    importlib.import_module(f"games.{_game.name}")


def pytest_terminal_summary(terminalreporter) -> None:
    """The chaos test's line per title and seed (tests/chaos), shown even under -q."""
    chaos = sys.modules.get("chaos.driver")
    if chaos is not None and chaos.SUMMARIES:
        terminalreporter.section("chaos")
        for line in chaos.SUMMARIES:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def collector_as_found():
    """Every bot tunes the process's garbage collector as it starts (``bot.ops.gc_tuning``); tests
    start hundreds of bots in one process, so each test leaves the collector as it found it."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway PostgreSQL server for the whole run, started when a test first needs it.
    Without one a local run skips those tests and says why; CI (CI=true) fails instead."""
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
    with running(bindir) as cluster:
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
            token=None,
            database_path=str(db_path),
            dev_guild_id=None,
            log_level="INFO",
            # SimCord needs a shard count; a real run may ask Discord for one.
            **{"shard_count": 1, **database, **settings},
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


@dataclass
class World:
    env: object
    guild: object
    channel: object
    members: list
    mod: object

    def board(self):
        """The newest message in the channel, as SimCord's server holds it."""
        return self.channel.last_message


def build_world(env, names=("alice", "bob", "carol", "dave", "erin", "frank"), guild_name="Friends") -> World:
    guild = env.create_guild(guild_name)
    channel = guild.create_text_channel("games")
    members = [
        guild.add_member(env.create_user(f"{name}-{guild_name}" if guild_name != "Friends" else name))
        for name in names
    ]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user(f"mod-{guild_name}"), roles=[mods])
    return World(env, guild, channel, members, mod)


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
