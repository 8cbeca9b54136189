"""Settings from the environment: the SQLite default, PostgreSQL, shards and metrics, and clear
refusals of settings the bot cannot run with."""

from __future__ import annotations

import pytest
from pg_cluster import free_port

from bot import __main__ as cli
from bot.app.config import HEALTH_LOG_S, Config, ConfigError, parse_shard_ids
from bot.storage import Shards, Storage, StorageUnavailable, redacted

SETTINGS = (
    "DATABASE_URL",
    "DATABASE_PATH",
    "SHARD_COUNT",
    "SHARD_IDS",
    "METRICS_PORT",
    "METRICS_HOST",
    "DISCORD_CLIENT_ID",
    "DISCORD_CLIENT_SECRET",
    "ACTIVITY_HOST",
    "ACTIVITY_PORT",
    "DISCORD_API_BASE",
    "ACTIVITY_TICKET_SECONDS",
    "PICTURE_PROCESSES",
)


@pytest.fixture
def env(monkeypatch):
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("bot.app.config.load_dotenv", lambda: None)

    def set_env(**values: str) -> Config:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        return Config.from_env()

    return set_env


def test_nothing_configured_means_sqlite_every_shard_and_a_health_line(env):
    config = env()
    assert config.database == "data/bot.db" and config.database_url is None
    assert config.shard_count is None and config.shards() is None  # Discord's count, all here
    assert config.metrics_port is None and config.health_log_s == HEALTH_LOG_S


def test_without_the_app_s_client_id_and_secret_there_is_no_activity(env):
    config = env()
    assert not config.activity and config.client_id is None
    assert config.discord_api == "https://discord.com/api/v10"


def test_the_activity_is_served_with_both_client_id_and_secret(env):
    config = env(DISCORD_CLIENT_ID="123456789012345678", DISCORD_CLIENT_SECRET="s3cret", ACTIVITY_PORT="9000")
    assert config.activity and (config.client_id, config.client_secret) == (123456789012345678, "s3cret")
    assert (config.activity_host, config.activity_port) == ("127.0.0.1", 9000)


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({"DISCORD_CLIENT_ID": "123"}, "needs both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET"),
        ({"DISCORD_CLIENT_SECRET": "s"}, "needs both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET"),
        (
            {"DISCORD_CLIENT_ID": "app", "DISCORD_CLIENT_SECRET": "s"},
            "DISCORD_CLIENT_ID must be a whole number",
        ),
        ({"DISCORD_API_BASE": "discord.com/api"}, "DISCORD_API_BASE must be an http"),
        ({"ACTIVITY_PORT": "70000"}, "ACTIVITY_PORT must be a whole number, 1–65535"),
        ({"ACTIVITY_TICKET_SECONDS": "5"}, "ACTIVITY_TICKET_SECONDS must be a whole number, 30–86400"),
    ],
)
def test_activity_settings_the_bot_cannot_run_with_are_refused(env, values, said):
    with pytest.raises(ConfigError, match=said):
        env(**values)


def test_a_postgresql_url_selects_postgresql(env):
    config = env(DATABASE_URL="postgresql://bot:secret@db:5432/cards", DATABASE_PATH="ignored.db")
    assert config.database == "postgresql://bot:secret@db:5432/cards"


def test_a_database_url_that_is_not_postgresql_is_refused(env):
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL address"):
        env(DATABASE_URL="mysql://db/cards")


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("4,5", (4, 5)), ("0-1, 6", (0, 1, 6)), ("2", (2,)), ("", None), (" , ", None)],
)
def test_shard_ids_are_numbers_and_ranges(text, ids):
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize("text", ["a", "3-1", "-2", "1-x"])
def test_shard_ids_that_are_not_numbers_or_ranges_are_refused(text):
    with pytest.raises(ConfigError, match="SHARD_IDS"):
        parse_shard_ids(text)


def test_a_process_serves_the_shards_it_is_given_out_of_the_count(env):
    config = env(SHARD_COUNT="8", SHARD_IDS="4-7")
    assert config.shard_count == 8 and config.shard_ids == (4, 5, 6, 7)
    assert config.shards() == Shards(8, frozenset({4, 5, 6, 7}))


def test_a_shard_count_alone_runs_every_shard_in_this_process(env):
    config = env(SHARD_COUNT="4")
    assert config.shard_count == 4 and config.shards() is None


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1-2"}, "SHARD_IDS go from 0 to SHARD_COUNT - 1"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"METRICS_PORT": "http"}, "METRICS_PORT must be a whole number"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT must be a whole number"),
    ],
)
def test_impossible_shard_and_metrics_settings_are_refused(env, settings, message):
    with pytest.raises(ConfigError, match=message):
        env(**settings)


def test_a_metrics_port_serves_metrics_instead_of_the_health_line(env):
    config = env(METRICS_PORT="9100", METRICS_HOST="127.0.0.1")
    assert (config.metrics_port, config.metrics_host, config.health_log_s) == (9100, "127.0.0.1", None)


def test_python_m_bot_refuses_a_bad_setting_in_one_line(env, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("SHARD_IDS", "0-3")
    assert cli.main([]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "SHARD_IDS needs SHARD_COUNT" in err


def test_a_database_address_loses_its_password_in_messages():
    assert redacted("postgresql://bot:s3cret@db:5432/cards") == "postgresql://bot@db:5432/cards"
    assert redacted("postgresql://db/cards") == "postgresql://db/cards"
    assert redacted("postgresql://db/cards?user=bot&password=s3cret&sslmode=require") == (
        "postgresql://db/cards?user=bot&sslmode=require"
    )


async def test_an_unreachable_postgresql_server_is_named_without_its_password():
    url = f"postgresql://bot:s3cret@127.0.0.1:{free_port()}/cards"
    with pytest.raises(StorageUnavailable) as refused:
        await Storage.open(url)
    assert "postgresql://bot@127.0.0.1" in str(refused.value) and "s3cret" not in str(refused.value)


@pytest.mark.parametrize(("cores", "workers"), [(1, 0), (2, 1), (4, 2), (None, 0)])
def test_picture_processes_default_to_one_per_core_beyond_the_loop_s_at_most_two(
    env, monkeypatch, cores, workers
):
    monkeypatch.setattr("bot.app.config.os.cpu_count", lambda: cores)
    assert env().picture_processes == workers


def test_picture_processes_are_a_count_the_operator_may_set(env):
    assert env(PICTURE_PROCESSES="0").picture_processes == 0
    assert env(PICTURE_PROCESSES="3").picture_processes == 3
    with pytest.raises(ConfigError, match="PICTURE_PROCESSES"):
        env(PICTURE_PROCESSES="many")
