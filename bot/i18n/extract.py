"""Bring the catalogues up to date with the code: ``python -m bot.i18n.extract``.

One template per area (``bot/locales/<area>.pot``, the areas in ``bot/i18n/areas.py``) holds
every message of that part of the code: the literal messages of the ``t(locale, "…")``,
``tn(locale, "…", "…", n)`` and ``N_("…")`` calls (an engine's refusals are ``N_``-marked ids,
bot/engine/protocol.py) in ``bot/`` and ``cogs/``, found by Babel's extractor with the calls read
from Python's syntax tree (``bot/i18n/calls.py``: a subscript or a variable named ``t`` is no
message); the ``commands`` template holds every slash command string (read from the loaded
command tree, because the cogs' decorators hold them as plain English). Each language's
``<area>.po`` is then updated from its template as ``pybabel update`` does: new messages come in
untranslated, changed ones are kept as fuzzy guesses (never shown) from the message they replace
only (``updated``: never another message's translation), vanished ones are kept as obsolete
(``#~``); a language without an area's file yet gets one. Every language's file states
the project's plural rule (``bot/i18n/plurals.py``), never the installed Babel's. Only the areas
whose messages changed are written, so helpers converting different areas do not touch each
other's files.
``--check`` changes nothing and fails if a template is out of date, a catalogue states another
plural rule, or a shipped language has no file of an area (it would show that area in English;
the extractor writes the file, untranslated): run it in CI.

A registered game that ships its own catalogue (its descriptor's ``locales``, a game outside
``bot/``: docs/adding-a-game.md) is one more area, kept in its own folder: its package's messages
and its slash commands' strings the bot's own commands do not already have. ``--game MODULE``
imports MODULE first, so the games it registers are covered (``--game tests.games.oddoneout``);
the tests, which import their games, cover them by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.i18n.areas import COMMANDS, SOURCES, area_of, areas
from bot.i18n.calls import extract_calls
from bot.i18n.catalogues import DEFAULT, LOCALE_DIR, game_catalogues, shipped
from bot.i18n.plurals import plural_forms, with_plural_rule

if TYPE_CHECKING:
    from bot.games.registry import GameDescriptor

ROOT = LOCALE_DIR.parent.parent
# t(locale, message, **fields), tn(locale, singular, plural, n, **fields), N_(message),
# NN_(singular, plural)
KEYWORDS = {"t": (2,), "tn": (2, 3), "N_": None, "NN_": (1, 2)}


def own_games() -> dict[str, GameDescriptor]:
    """The registered games that keep their catalogue in their own package, by id (their area)."""
    from bot.games import registry

    return {id: game for id, game in registry.games().items() if game.catalogue_dir is not None}


def all_areas() -> tuple[str, ...]:
    """bot/locales' areas, then the games' that ship their own catalogue."""
    return (*areas(), *(area for area, _ in game_catalogues()))


def _folder(area: str) -> Path:
    """Where an area's files live: bot/locales, or its game's own catalogue folder."""
    return next((path.parent for name, path in game_catalogues() if name == area), LOCALE_DIR)


def template_path(area: str) -> Path:
    return _folder(area) / f"{area}.pot"


def templates() -> list[Path]:
    return [template_path(area) for area in all_areas() if template_path(area).exists()]


async def _command_strings(games: list[GameDescriptor] | None = None) -> list[tuple[str, str]]:
    from bot.app.client import create_bot
    from bot.app.config import Config
    from bot.games import registry
    from bot.i18n.commands import command_strings

    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    # The bot's own games by default: a game registered from elsewhere carries its own catalogue.
    bot = create_bot(config, games=[*registry.builtin().values(), *(games or [])])
    await bot.load_cogs()
    return await command_strings(bot.tree)


async def _all_command_strings() -> dict[str, list[tuple[str, str]]]:
    """The slash command strings of each area: the bot's own in ``commands``; what a game with its
    own catalogue adds (its group, its ``new`` command's options, its title in ``game:``
    choices), in its own area, so a string the bot already has is translated in one place."""
    own = {COMMANDS: await _command_strings()}
    known = set(own[COMMANDS])
    for area, game in own_games().items():
        own[area] = [found for found in await _command_strings([game]) if found not in known]
    return own


def file_messages(path: Path) -> list[tuple[str | tuple[str, str], int]]:
    """(message or (singular, plural), line) of every marked call in one source file."""
    extracted = extract_from_file(extract_calls, path, keywords=KEYWORDS)
    return [(message, lineno) for lineno, message, _comments, _context in extracted]


def _game_sources(game: GameDescriptor) -> list[Path]:
    """A game's own files whose messages are its area's: its package, without its tests."""
    files = sorted(game.folder.rglob("*.py"))
    return [path for path in files if not path.name.startswith("test_") and path.name != "conftest.py"]


def _shown(path: Path) -> str:
    """A source file's name in a catalogue: relative to the repository where it is in it."""
    return (path.relative_to(ROOT) if path.is_relative_to(ROOT) else Path(path.name)).as_posix()


def code_messages() -> list[tuple[str, str | tuple[str, str], str, int]]:
    """(area, message or (singular, plural), path, line) of every marked call in bot/ and cogs/,
    and in the packages of the games that ship their own catalogue."""
    found = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            found += [(area_of(relative), message, relative, line) for message, line in file_messages(path)]
    for area, game in own_games().items():
        for path in _game_sources(game):
            found += [(area, message, _shown(path), line) for message, line in file_messages(path)]
    return found


def _empty(locale: str | None = None) -> Catalog:
    return Catalog(project="party-cards-bot", locale=locale, charset="utf-8", fuzzy=False)


def _po_path(code: str, area: str) -> Path:
    return _folder(area) / code / "LC_MESSAGES" / f"{area}.po"


def _plural_drift(area: str) -> list[str]:
    """The languages whose file of ``area`` states another plural rule than the project's."""
    drift = []
    for code in shipped():
        path = _po_path(code, area)
        if code != DEFAULT and path.exists():
            with open(path, "rb") as f:
                if read_po(f, locale=code).plural_forms != plural_forms(code):
                    drift.append(code)
    return drift


def _lacking(area: str) -> list[tuple[str, Path]]:
    """(language, file) of each shipped language without a file of ``area``: the loader reads
    the files there are, so that language would show the area's messages in English, silently."""
    return [
        (code, _po_path(code, area))
        for code in shipped()
        if code != DEFAULT and not _po_path(code, area).exists()
    ]


def fresh_templates() -> dict[str, Catalog]:
    """Every area's catalogue of the messages the bot speaks, English only (the .pot files)."""
    catalogs = {area: _empty() for area in all_areas()}
    for area, message, path, line in code_messages():
        catalogs[area].add(message, locations=[(path, line)])
    for area, strings in asyncio.run(_all_command_strings()).items():
        for context, message in strings:
            catalogs[area].add(message, context=context, locations=[("slash-commands", None)])
    return catalogs


def template() -> Catalog:
    """Every area's messages in one catalogue (what the tests check the languages against)."""
    merged = _empty()
    for catalog in fresh_templates().values():
        for message in catalog:
            if message.id:
                merged.add(message.id, context=message.context, locations=message.locations)
    return merged


def _po_text(catalog: Catalog, **options: bool) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, **options)
    return out.getvalue()


def _ids(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def _stale(area: str, fresh: Catalog) -> bool:
    path = template_path(area)
    if not path.exists():
        return bool(_ids(fresh))
    with open(path, "rb") as f:
        return _ids(read_po(f)) != _ids(fresh) or bool(_plural_drift(area))


def _key(message: Message) -> tuple[str, str | None]:
    return (message.id[0] if isinstance(message.id, tuple) else message.id, message.context)


def updated(catalog: Catalog, fresh: Catalog, code: str) -> Catalog:
    """``catalog`` (one language's file of an area) brought up to its template ``fresh``, as
    ``pybabel update`` does, but a new message is given a fuzzy guess only from a message that
    vanished in this update (a reworded one, whose old translation helps its translator), never
    from one still in use: that is another message's translation, and Babel's own matching gave
    a new game's "Open a Ring the Bell lobby in this channel" the German of Kabuki's ("Eine
    Kabuki-Lobby …"), marked fuzzy, so it did not look new. Those come in untranslated."""
    before = {_key(message) for message in catalog if message.id}
    obsolete_before = set(catalog.obsolete)
    catalog.update(fresh, no_fuzzy_matching=True, update_header_comment=False)
    vanished = {key: message for key, message in catalog.obsolete.items() if key not in obsolete_before}
    new = [message for message in catalog if message.id and _key(message) not in before]
    if not vanished or not new:
        return catalog
    # Babel's matching, with the vanished messages as its only candidates.
    guesses = with_plural_rule(_empty(code), code)
    for message in vanished.values():
        guesses[message.id] = message.clone()
    asked = _empty()
    for message in new:
        asked.add(message.id, context=message.context)
    guesses.update(asked, update_header_comment=False)
    for message in new:
        guess = guesses.get(message.id, message.context)
        if guess is not None and "fuzzy" in guess.flags:
            message.string, message.previous_id = guess.string, guess.previous_id
            message.flags |= {"fuzzy"}
    for key in set(vanished) - set(guesses.obsolete):  # taken for a guess: no longer obsolete
        del catalog.obsolete[key]
    return catalog


def _update(area: str, fresh: Catalog) -> None:
    template_path(area).parent.mkdir(parents=True, exist_ok=True)  # a game's first catalogue
    template_path(area).write_bytes(_po_text(fresh, ignore_obsolete=True, include_lineno=False))
    for code in shipped():
        if code == DEFAULT:
            continue
        path = _po_path(code, area)
        if path.exists():
            with open(path, "rb") as f:
                catalog = read_po(f, locale=code)
        else:
            catalog = _empty(code)
        # Before the update: it fits each plural entry's forms to the catalogue's count.
        updated(with_plural_rule(catalog, code), fresh, code)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_po_text(catalog, include_lineno=False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.extract", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if a template is stale")
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first: the games it registers with their own catalogue are covered too",
    )
    args = parser.parse_args(argv)
    for module in args.game:
        importlib.import_module(module)
    fresh = fresh_templates()
    lacking = {area: found for area, catalog in fresh.items() if _ids(catalog) and (found := _lacking(area))}
    stale = [area for area, catalog in fresh.items() if _stale(area, catalog) or area in lacking]
    if args.check or not stale:  # nothing new: the files (and their dates) stay as they are
        for area, found in lacking.items():
            for code, path in found:
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                print(
                    f"the area {area!r} has no {code} catalogue ({where}): its messages would show "
                    f"in English to {code} members; run python -m bot.i18n.extract, then translate it"
                )
        if stale:
            print(f"out of date ({', '.join(stale)}): run python -m bot.i18n.extract")
        else:
            print("the catalogues are up to date")
        return int(bool(stale) and args.check)
    for area in stale:
        _update(area, fresh[area])
    where = sorted({_shown(_folder(area)) for area in stale})
    print(f"updated the area(s) {', '.join(stale)} in {', '.join(where)} ({len(shipped()) - 1} language(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
