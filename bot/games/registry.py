"""Every game the bot knows, one descriptor each, and where every other part of the bot finds it.

A game's package (``bot/games/<name>/__init__.py``) ends with ``GAME = GameDescriptor(...)``;
``games()`` finds those packages by scanning ``bot.games`` and adds any game ``register()``ed
from elsewhere (the tests' games, a plugin). Nothing else lists the games: the cog loader,
``/replay``, ``verify``, the replay board, the computers, ``simulate``, ``/rules``, ``/help`` and
the catalogues' areas all read them from here. How to add one: docs/adding-a-game.md.

A descriptor names its parts by module path ("bot.games.kabuki.history") rather than importing
them, so finding the games loads only their engines: ``verify`` never imports discord.py, and an
engine never loads its cog. ``check`` imports every part and refuses a game that lacks one, by
name, before the bot starts.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine.protocol import GameEngine

# What each part must hold; a part that names a module missing one is refused by ``check``.
HISTORY_FUNCTIONS = ("log_record", "rerun", "dealt_cards", "hidden", "replay_board")
REQUIRED = ("engine", "cog", "rules")
# Optional for a test's or a plugin's game, required of a game members play (under bot/games/):
# without ``history`` and ``checker`` (a pair: one without the other is refused) a game's finished
# games keep no record, so ``/replay`` and ``verify`` say they have none of it; without
# ``computers`` its lobby offers no Add computer; without ``simulator``, ``simulate`` says so. What
# members play must keep verifiable records, seat computers, and be simulated by the tests.
OPTIONAL = ("history", "checker", "computers", "simulator")
# What a game without an optional part goes without, as the start-up log says it (``goes_without``).
WITHOUT = {
    "history": "no record of its finished games (/replay and verify have none of it)",
    "computers": "no Add computer in its lobby",
    "simulator": "no simulator (python -m bot simulate {id} says so)",
}
# The rules documents are the repository's (docs/<game>.md), relative to it. Checked where the bot
# runs from a checkout, as README's setup does; an installed copy (a wheel holds bot/ and cogs/
# only) has no documents to check.
REPOSITORY = Path(__file__).resolve().parents[2]


class GameError(LookupError):
    """An unknown game, or one that lacks a part it needs: the message names the game and the part."""


@dataclass(frozen=True)
class GameDescriptor:
    """Everything the bot needs of one game. The id and title are the engine's ``kind`` and
    ``title`` (one place for each); every other part is a module path, imported when first used."""

    engine: type[GameEngine]
    cog: str  # a discord.py extension: the module ends with ``async def setup(bot)``
    rules: str  # the rules document, relative to the repository: "docs/kabuki.md"
    history: str | None = None  # a module with HISTORY_FUNCTIONS: the record, its replay and board
    checker: str | None = None  # "module:function": the rules read again from a record, for ``verify``
    computers: str | None = None  # a module with ``plan`` (and ``observe`` if a computer remembers)
    simulator: str | None = None  # a module with ``main(argv)``: ``python -m bot simulate <id>``
    sources: tuple[str, ...] = ()  # the catalogue area's files; default: the package's folder
    # The folder of the game's own catalogue files, relative to its package ("locales": its
    # ``<id>.pot`` and ``<lang>/LC_MESSAGES/<id>.po``); None: bot/locales, as the bot's games.
    locales: str | None = None

    @property
    def id(self) -> str:
        return self.engine.kind

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def package(self) -> str:
        """The game's package: where its area's messages live unless ``sources`` says otherwise."""
        return self.engine.__module__.rpartition(".")[0]

    @property
    def folder(self) -> Path:
        """The game's package folder, wherever it is imported from."""
        return Path(sys.modules[self.engine.__module__].__file__ or "").resolve().parent

    @property
    def catalogue_dir(self) -> Path | None:
        """Where the game's own catalogue files live; None for a game bot/locales translates."""
        return None if self.locales is None else self.folder / self.locales

    @property
    def area_sources(self) -> tuple[str, ...]:
        """The files whose messages go to this game's catalogue area (``bot.i18n.areas``)."""
        return self.sources or (self.package.replace(".", "/") + "/*",)

    def part(self, name: str) -> Any:
        """A part, imported: a module, or ``module:function``'s function."""
        where = getattr(self, name)
        if where is None:
            raise GameError(f"{self.title} ({self.id}) has no {name}")
        module, _, attribute = where.partition(":")
        # Imported already, as nearly always (a computer's policy is asked for on every press):
        # sys.modules is where import_module would find it, without its import machinery.
        loaded = sys.modules.get(module) or importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded


_EXTRA: dict[str, GameDescriptor] = {}
_KNOWN: dict[str, GameDescriptor] | None = None  # the scan's, then _EXTRA's: read on every press
# Counts register() and unregister(): the catalogues (bot.i18n.catalogues) merge a registered
# game's own catalogue files, and read this to know when theirs are out of date.
changes = 0


def _scan() -> dict[str, GameDescriptor]:
    import bot.games as package

    found: dict[str, GameDescriptor] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if not isinstance(game, GameDescriptor):
            raise GameError(f"bot.games.{info.name} is a game package without a GAME descriptor")
        found[game.id] = game
    return found


# The order members see the games in (/help, slash choices); a game not named here follows.
ORDER = ("kabuki", "masks", "kingdom")


def games() -> dict[str, GameDescriptor]:
    """Every game, by id: the packages under bot.games, then the ``register()``ed ones. The
    caller must not change it."""
    global _KNOWN
    if _KNOWN is None:
        _KNOWN = {**builtin(), **_EXTRA}
    return _KNOWN


@functools.cache
def builtin() -> dict[str, GameDescriptor]:
    """The games bot.games holds: what members play (a test's games are registered apart). The
    caller must not change it."""
    scanned = _scan()
    return {id: scanned[id] for id in sorted(scanned, key=_place)}


def _place(id: str) -> tuple[int, str]:
    return (ORDER.index(id) if id in ORDER else len(ORDER), id)


def register(game: GameDescriptor) -> GameDescriptor:
    """Add a game that lives outside bot.games (a test's, a plugin's); its id must be new."""
    known = games().get(game.id)
    if known is not None and known is not game:
        raise GameError(f"a second game registers the id {game.id!r} ({game.package}, {known.package})")
    _EXTRA[game.id] = game
    _forget()
    return game


def unregister(id: str) -> None:
    _EXTRA.pop(id, None)
    _forget()


def _forget() -> None:
    global _KNOWN, changes
    _KNOWN = None
    changes += 1


def get(id: str) -> GameDescriptor:
    """The game ``id``; an unknown id is an error naming the close matches."""
    known = games()
    if id in known:
        return known[id]
    close = difflib.get_close_matches(id, list(known), n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise GameError(f"no game {id!r} is registered (the games: {', '.join(known)}){hint}")


def members_play(game: GameDescriptor) -> bool:
    """Whether ``game`` is one members play: its package is under bot/games/ (found by the scan),
    not a test's or a plugin's (``register()``ed from elsewhere)."""
    return game.package.startswith(f"{__package__}.")


def missing(game: GameDescriptor) -> list[str]:
    """What ``game`` lacks, each said in a few words ("" parts are fine): empty when whole."""
    problems = [f"no {name}" for name in REQUIRED if not getattr(game, name)]
    absent = [name for name in OPTIONAL if getattr(game, name) is None]
    if absent and members_play(game):
        problems.append(
            f"no {' and no '.join(absent)}: a game under bot/games/ is played by members, so it needs "
            f"every one of {', '.join(OPTIONAL)} (they are optional only for a test's or a plugin's game)"
        )
    if game.rules and (REPOSITORY / "pyproject.toml").is_file() and not (REPOSITORY / game.rules).is_file():
        problems.append(
            f"its rules document {game.rules!r} does not exist (the path is relative to {REPOSITORY})"
        )
    if (game.history is None) != (game.checker is None):
        problems.append("a history without a checker, or a checker without a history (verify needs both)")
    for name in ("kind", "title", "min_players", "max_players"):
        if not getattr(game.engine, name, None):
            problems.append(f"its engine has no {name}")
    where = game.catalogue_dir
    if where is not None and not where.is_dir():  # the extractor fills it: it must only exist
        problems.append(f"its catalogue folder {game.locales!r} does not exist")
    for name in ("cog", "history", "checker", "computers", "simulator"):
        if getattr(game, name):
            try:
                loaded = game.part(name)
            except (ImportError, AttributeError) as error:
                problems.append(f"its {name} {getattr(game, name)!r} cannot be loaded ({error})")
                continue
            needs = {
                "cog": ("setup",),
                "history": HISTORY_FUNCTIONS,
                "computers": ("plan",),
                "simulator": ("main",),
            }.get(name, ())
            problems += [f"its {name} has no {need}()" for need in needs if not hasattr(loaded, need)]
    return problems


def goes_without(game: GameDescriptor) -> list[str]:
    """What a whole game lacking optional parts (a test's, a plugin's) goes without, in words:
    nothing refuses it, so the start-up log says it (``GameBot.load_cogs``)."""
    return [words.format(id=game.id) for name, words in WITHOUT.items() if getattr(game, name) is None]


def check(game: GameDescriptor) -> GameDescriptor:
    """``game`` if it has every part it needs; else a GameError naming it and what it lacks."""
    problems = missing(game)
    if problems:
        raise GameError(f"the game {game.id!r} ({game.package}) is incomplete: {'; '.join(problems)}")
    return game
