"""The message catalogues: complete in every language, up to date with the code, within
Discord's limits; plurals by each language's own rules; the pseudo-locale test tool."""

from __future__ import annotations

import re
import shutil
from gettext import c2py
from pathlib import Path

import discord
import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from language_checks import translated_games

from bot.app.client import create_bot
from bot.app.config import Config
from bot.games import registry
from bot.i18n import DEFAULT, extract, shipped, t, tn
from bot.i18n.areas import area_of
from bot.i18n.catalogues import compiled, install, po_files, uninstall
from bot.i18n.commands import NAME_CONTEXT, CommandTranslator
from bot.i18n.extract import all_areas, main, template, templates
from bot.i18n.plurals import plural_forms
from bot.i18n.pseudo import PSEUDO, install_pseudo, pseudo_text, uninstall_pseudo, untranslated

LANGUAGES = [code for code in shipped() if code != DEFAULT]
FIELD = re.compile(r"\{\w+\}")
# Discord's rule for command and option names: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$,
# lowercase wherever a letter has a lowercase form.
NAME_CHARS = re.compile(r"^[-_'\w]{1,32}$")


def read_area(code: str, path: Path) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f, locale=code)


def read(code: str) -> Catalog:
    """A language's areas in one catalogue, as the bot merges them: bot/locales' and those of
    every registered game that ships its own."""
    merged = Catalog(locale=code)
    for path in po_files(code):
        for message in read_area(code, path):
            if message.id:
                merged[message.id] = message  # keeps context, string and flags
    return merged


@pytest.fixture(scope="module")
def everything() -> Catalog:
    return template()


async def loaded_bot():
    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    bot = create_bot(config, games=translated_games())
    await bot.load_cogs()
    return bot


def test_english_german_and_french_are_shipped():
    assert shipped() == ("en", "de", "fr")


def test_the_template_lists_every_message_of_the_code_and_the_slash_commands():
    # A message added to the code, or a slash command string added to a cog, without running
    # python -m bot.i18n.extract fails here (and in CI, which runs the same check).
    assert main(["--check"]) == 0


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_is_translated_in_every_catalogue(code, everything):
    catalogue = {(m.id, m.context): m for m in read(code) if m.id}
    for message in everything:
        if not message.id:
            continue
        where = f"{code}: {message.context or ''} {message.id!r}"
        found = catalogue.get((message.id, message.context))
        assert found is not None, f"missing in {where}"
        assert not found.fuzzy, f"only a fuzzy guess in {where}"
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        assert all(strings), f"untranslated in {where}"
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        for form in strings:
            # A translation fills in the same fields, or t() would leave {field} on the screen.
            assert set(FIELD.findall(form)) == set(FIELD.findall(english[-1])), where


def discord_refuses(code: str, context: str, english: str, text: str) -> str | None:
    """Why Discord would refuse a slash command string (``text``: ``english`` in ``code``), or
    None. It refuses the whole sync for one, so no command of the bot would update."""
    if context == NAME_CONTEXT:
        if NAME_CHARS.match(text) and text == text.lower():
            return None
        return (
            f"{code}: the name {english!r} is {text!r}: a slash command's or option's name is 1–32"
            " lowercase letters, digits, - or _ (Discord's rule)"
        )
    if 1 <= len(text) <= 100:
        return None
    return (
        f"{code}: {english!r} is {len(text)} characters, {text!r}: a slash command's or option's"
        " description, or a choice, is 1–100 characters (Discord's limit)"
    )


def test_a_string_discord_refuses_is_told_the_limit():
    long = ("Eine Ring-the-Bell-Lobby in diesem Kanal öffnen, " * 3)[:100]  # 100 characters: fits
    assert discord_refuses("de", "command", "Open a lobby", long + "!") == (
        f"de: 'Open a lobby' is 101 characters, {long + '!'!r}: a slash command's or option's"
        " description, or a choice, is 1–100 characters (Discord's limit)"
    )
    assert discord_refuses("en", "command", long, long) is None
    assert "1–32 lowercase letters" in discord_refuses("de", NAME_CONTEXT, "new", "Neu")


def test_every_slash_command_string_fits_discord_in_english(everything):
    for message in everything:
        if message.id and message.context is not None:
            said = discord_refuses(DEFAULT, message.context, message.id, message.id)
            assert said is None, said


@pytest.mark.parametrize("code", LANGUAGES)
def test_translated_command_names_and_descriptions_fit_discord(code):
    for message in read(code):
        if message.id and message.context is not None:
            said = discord_refuses(code, message.context, message.id, message.string)
            assert said is None, said


@pytest.mark.parametrize("code", LANGUAGES)
def test_slash_commands_named_in_a_translation_are_that_languages_names(code):
    # "/forget-me" in German text must be the name German members see: /vergiss-mich.
    names = {m.string for m in read(code) if m.context == NAME_CONTEXT}
    for message in read(code):
        if message.context is None and message.id:
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for name in re.findall(r"(?<![\w/:<])/([^\s`/]+)", "\n".join(forms)):
                assert name in names, f"{code}: /{name} is no {code} command name"


async def test_the_synced_commands_carry_german_and_french_names_and_descriptions():
    bot = await loaded_bot()
    assert isinstance(bot.tree.translator, CommandTranslator)
    payloads = [
        await c.get_translated_payload(bot.tree, bot.tree.translator) for c in bot.tree._get_all_commands()
    ]
    assert len(payloads) >= 15

    def check(item: dict, path: str) -> None:
        for field in ("name_localizations", "description_localizations"):
            if field == "description_localizations" and "description" not in item:
                continue
            assert set(item.get(field) or {}) == {"de", "fr"}, f"{path}: {field}"
        for choice in item.get("choices", []):
            if choice["name"] not in ("English", "Deutsch", "Français"):  # each language's own name
                assert set(choice["name_localizations"]) == {"de", "fr"}, f"{path} choice {choice['name']}"
        for option in item.get("options", []):
            check(option, f"{path} {option['name']}")

    for payload in payloads:
        check(payload, "/" + payload["name"])
    by_name = {p["name"]: p for p in payloads}
    assert by_name["forget-me"]["name_localizations"] == {"de": "vergiss-mich", "fr": "oublie-moi"}
    assert (
        by_name["leaderboard"]["description_localizations"]["fr"]
        == "Le classement de ce serveur pour un jeu."
    )
    for language in ("es-ES", "en-GB", "ja"):  # no catalogue: Discord shows the English
        assert language not in by_name["help"]["name_localizations"]


def test_a_discord_locale_falls_back_to_its_language_then_to_english():
    assert t("de", "Your data") == "Deine Daten"
    assert t(discord.Locale.french, "Your data") == "Vos données"
    assert t("en-US", "Your data") == t("es-ES", "Your data") == t("pt-BR", "Your data") == "Your data"
    assert t("de", "A message no catalogue has yet") == "A message no catalogue has yet"


def test_plurals_follow_each_languages_rules_from_the_catalogue():
    catalog = Catalog(locale="fr")
    catalog.add(("{n} game", "{n} games"), ("{n} partie", "{n} parties"))
    install("fr-CA", compiled(catalog, "fr"))
    try:
        # French counts 0 and 1 alike (CLDR: n < 2 is "one"); English does not.
        assert [tn("fr-CA", "{n} game", "{n} games", n) for n in (0, 1, 2)] == [
            "0 partie",
            "1 partie",
            "2 parties",
        ]
    finally:
        uninstall("fr-CA")
    assert [tn("fr", "{n} card", "{n} cards", n) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
    assert [tn("de", "{n} card", "{n} cards", n) for n in (0, 1, 2)] == ["0 Karten", "1 Karte", "2 Karten"]
    assert [tn("en", "{n} game", "{n} games", n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_catalogue_states_the_projects_plural_rule_and_fills_its_forms(code):
    # The project's rule, not the installed Babel's table (which gave French three forms in 2.19).
    for path in po_files(code):
        catalogue = read_area(code, path)
        assert catalogue.plural_forms == plural_forms(code), path.name
        for message in catalogue:
            if isinstance(message.id, tuple):
                assert len(message.string) == catalogue.num_plurals, (path.name, message.id)


def test_the_check_fails_when_a_catalogue_states_another_plural_rule(monkeypatch, capsys):
    # As if the project had decided on Babel 2.19's three French forms: every French file now
    # states the wrong rule, and CI's check says so (the extractor would rewrite the headers).
    three = "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"
    monkeypatch.setattr(
        "bot.i18n.extract.plural_forms", lambda code: three if code == "fr" else plural_forms(code)
    )
    assert main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().out


def test_the_check_fails_naming_the_area_and_language_whose_file_is_missing(monkeypatch, tmp_path, capsys):
    # A game's German file left out of a commit: the loader reads the files there are, so German
    # boards were English while the check said the catalogues were up to date. The extractor
    # writes the missing file (untranslated, for the translator), in the game's own folder here.
    copy = tmp_path / "locales"
    shutil.copytree(registry.get("oddoneout").catalogue_dir, copy)
    (copy / "de" / "LC_MESSAGES" / "oddoneout.po").unlink()
    real = extract._folder
    monkeypatch.setattr(extract, "_folder", lambda area: copy if area == "oddoneout" else real(area))
    assert main(["--check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"the area 'oddoneout' has no de catalogue ({copy / 'de' / 'LC_MESSAGES' / 'oddoneout.po'}): its"
        " messages would show in English to de members; run python -m bot.i18n.extract, then translate it",
        "out of date (oddoneout): run python -m bot.i18n.extract",
    ]
    assert main([]) == 0
    written = read_area("de", copy / "de" / "LC_MESSAGES" / "oddoneout.po")
    assert "Pick 1, 2 or 3." in written and not written["Pick 1, 2 or 3."].string
    assert main(["--check"]) == 0


@pytest.mark.parametrize("code", shipped())
def test_each_plural_rule_is_cldrs_for_every_count_the_bot_shows(code):
    # "one" in CLDR is the first form; every other category ("many": round millions in French)
    # is the plural, which the bot's counts never reach.
    rule = c2py(plural_forms(code).split("plural=")[1].rstrip(";"))
    cldr = Locale.parse(code).plural_form
    assert plural_forms(code).startswith("nplurals=2;")
    assert [n for n in range(10_001) if (rule(n) == 0) != (cldr(n) == "one")] == []


def test_the_pseudo_locale_accents_every_message_and_keeps_fields_and_markup():
    assert (
        pseudo_text("Hi {name}, see <t:{when}:R> at <@{user}>")
        == "⟦Ĥí {name}, šéé <t:{when}:R> áť <@{user}>⟧"
    )
    install_pseudo()
    try:
        assert t(PSEUDO, "Your data") == "⟦Ýóúŕ đáťá⟧"
        assert untranslated(t(PSEUDO, "Your data")) == []
    finally:
        uninstall_pseudo()


def test_untranslated_finds_english_but_not_names_mentions_or_digests():
    text = "⟦Ŵíñš: {name}⟧ alice <@123> <t:1700000000:R> <:mask:42> 9f86d081884c7d65 and Robo 1"
    assert untranslated(text, allowed=["alice", "Robo 1"]) == ["name", "and"]
    count = 0
    for path in templates():
        with open(path, "rb") as f:
            count += len([m for m in read_po(f) if m.id])
    assert count > 80


def test_each_area_has_its_own_file_in_every_language():
    # Helpers converting different parts of the bot edit different files.
    assert area_of("bot/games/kabuki/cog.py") == area_of("bot/games/kabuki/board.py") == "kabuki"
    assert (
        area_of("bot/games/masks/engine.py") == "masks" and area_of("bot/games/kingdom/cog.py") == "kingdom"
    )
    assert area_of("cogs/standings.py") == "general" and area_of("bot/session/lobby.py") == "session"
    names = {path.stem for path in templates()}
    # Every game with catalogues is an area: a registered game's own files are read too.
    assert {"commands", "general", "session", *translated_games()} <= names <= set(all_areas())
    for code in LANGUAGES:
        assert {path.stem for path in po_files(code)} == names, code


def two_meanings(code: str, paths: list[Path]) -> list[str]:
    """Each message that two of a language's area files translate differently, in words."""
    seen: dict[tuple[object, str | None], tuple[str, object]] = {}
    found = []
    for path in paths:
        for message in read_area(code, path):
            if not message.id:
                continue
            key = (message.id, message.context)
            if key in seen and seen[key][1] != message.string:
                found.append(
                    f"{code}: {message.id!r} is {seen[key][1]!r} in the area {seen[key][0]} and"
                    f" {message.string!r} in {path.stem}: a message in two areas (a test game's"
                    " included) must be translated the same in each, since a language's areas merge"
                    " into one catalogue and only one of the two would be shown"
                )
            seen.setdefault(key, (path.stem, message.string))
    return found


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_message_in_two_areas_reads_the_same_in_both(code):
    assert two_meanings(code, po_files(code)) == []


def test_a_message_translated_two_ways_is_told_the_rule(tmp_path):
    for area, german in (("ring", "Punkte"), ("session", "Zähler")):
        catalog = Catalog(locale="de")
        catalog.add("Scores", german)
        with open(tmp_path / f"{area}.po", "wb") as f:
            write_po(f, catalog)
    assert two_meanings("de", [tmp_path / "ring.po", tmp_path / "session.po"]) == [
        "de: 'Scores' is 'Punkte' in the area ring and 'Zähler' in session: a message in two areas"
        " (a test game's included) must be translated the same in each, since a language's areas"
        " merge into one catalogue and only one of the two would be shown"
    ]
