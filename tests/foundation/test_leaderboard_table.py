"""/leaderboard's page is a table in a code block: its columns line up whatever the names (32
characters, wide characters, emoji, a backtick), the name ends each line, cut with "…" where the
line would be too long, and every page stays inside Discord's limits in German and French."""

from __future__ import annotations

import pytest
from language_checks import EMBED_TOTAL, LIMITS
from shown import card

from bot.community import table
from bot.community.ratings import MIN_RATED_GAMES
from bot.storage import GameRecord, PlayerRecord
from cogs import general

GUILD_NAMES = (
    "Maximilian-Alexander Großkreutz-",  # 32 characters each
    "Jean-Baptiste de La Rochefoucaul",
    "李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷李雷",  # 32 wide characters: 64 columns
    "🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲 dice and more dice 🎲",
    "Zoë\u0301 with marks and a joiner\u200d!!",
    "ticks ``` that would close a code",
)


def test_a_wide_character_takes_two_columns_a_mark_none():
    assert table.columns("alice") == 5 and table.columns("李雷") == 4 and table.columns("🎲 d") == 4
    assert table.columns("e\u0301\u200d\ufe0f") == 1
    assert table.clipped("李雷李雷", 5) == "李雷…" and table.clipped("alice", 5) == "alice"
    assert table.clipped("alice bob", 7) == "alice…"
    assert table.plain("a`b\tc\nd") == "aˋb c d"


def test_columns_line_up_and_the_name_ends_the_line():
    shown = table.table(
        ["#", "Rating", "Name"],
        [["1", "1168 Silver", "李雷李雷李雷"], ["10", "964 Bronze", "bob"]],
        [True, False],
        8,
    )
    assert shown.splitlines() == [
        "```",
        " #  Rating       Name",
        " 1  1168 Silver  李雷李…",
        "10  964 Bronze   bob",
        "```",
    ]


async def record_members(storage, guild_id: int, names: list[str]) -> None:
    """Each member plays ``MIN_RATED_GAMES`` two-player games against the next one, so all are
    on the rating board."""
    for game in range(MIN_RATED_GAMES):
        for i, name in enumerate(names):
            other = (i + 1) % len(names)
            seats = [
                PlayerRecord(5000 + i, 0, 3, True, name, place=1),
                PlayerRecord(5000 + other, 1, 1, False, names[other], place=2),
            ]
            key = f"g{game}-{i}"
            await storage.record_game(GameRecord(key, guild_id, 5, "tap", {}, 1, 0, 1, "finished", seats))


def name_column(lines: list[str]) -> int:
    """Where the names start: the header's last column."""
    return len(lines[1]) - len(lines[1].split()[-1])


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("page_size", [10, 25])
async def test_25_members_with_32_character_names_fit_discord_on_every_page_and_sort(
    world, simcord_env, language, page_size, monkeypatch
):
    monkeypatch.setattr(general, "PAGE_SIZE", page_size)
    names = [GUILD_NAMES[i % len(GUILD_NAMES)][:31] + chr(ord("A") + i) for i in range(25)]
    assert all(len(name) == 32 for name in names)
    bot = simcord_env.bot
    await record_members(bot.storage, world.guild.id, names)
    bot.languages.remember(world.guild.id, language)
    for sort in ("rating", "wins", "score"):
        pages = -(-25 // page_size)
        for page in range(pages):
            embed, _ = await general.leaderboard_page(bot, world.guild.id, "tap", page, sort, None, language)
            assert len(embed.title) <= LIMITS["title"] and len(embed.footer.text) <= LIMITS["footer"]
            assert len(embed.description) <= LIMITS["description"] and len(embed) <= EMBED_TOTAL
            assert f"{page + 1}/{pages}" in embed.footer.text
            lines = embed.description.splitlines()
            assert lines[0] == lines[-1] == "```" and embed.description.count("```") == 2
            rows = lines[2:-1]
            assert len(rows) == min(page_size, 25 - page * page_size)
            start = name_column(lines)
            for row in rows:
                # Every column before the name holds one-column characters only, so the names
                # start at one column on every line, whatever they hold.
                before = row[:start]
                assert table.columns(before) == len(before) == start and before.endswith("  ")
                assert row[start] != " "
                name = row[start:]
                assert table.columns(name) <= general.NAME_COLUMNS[1]
                assert table.columns(row) <= max(general.LINE_COLUMNS, start + general.NAME_COLUMNS[0])
                assert name in names or name.endswith("…")
            # The header in the server's language.
            assert lines[1].split()[-1] == {"de": "Name", "fr": "Nom"}[language]


async def test_the_leaderboard_command_shows_the_table_in_the_servers_language(world, simcord_env):
    names = ["Maximilian-Alexander Großkreutz-A", "bob"]
    await record_members(simcord_env.bot.storage, world.guild.id, names)
    simcord_env.bot.languages.remember(world.guild.id, "de")
    shown = await world.members[0].slash(world.channel, "leaderboard", game="tap")
    lines = card(shown.response).description.splitlines()
    assert lines[1] == "#  Wertungszahl  Siege  Partien  Name"
    assert lines[2].startswith("1  ") and " Silber " in lines[2] or " Bronze " in lines[2]
