"""The message catalogues: gettext ``.po`` files read with Babel at start-up, several per
language, one per *area* of the code (``bot/i18n/areas.py``), merged into one catalogue each.

The ``.po`` files are read directly (compiled in memory), so a fresh ``pip install -e .`` needs no
build step and no compiled ``.mo`` file can fall out of date with its source. The English text is
the message id itself, so English needs no catalogue, and any message a catalogue lacks falls back
to English instead of failing.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from bot.i18n.french import Name, elided
from bot.i18n.plurals import with_plural_rule

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"
DEFAULT = "en"

# English is the messages' own text: a lookup in it needs no catalogue, nor the registry's games.
_ENGLISH = NullTranslations()
# Catalogues added while running (the tests' pseudo-locale); they take precedence over files.
_extra: dict[str, NullTranslations] = {}


@cache
def shipped() -> tuple[str, ...]:
    """The languages the bot speaks: English, then every catalogue in bot/locales, by code."""
    found = sorted({p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})
    return (DEFAULT, *found)


def po_files(code: str) -> list[Path]:
    """A language's catalogue files, one per area, by name: bot/locales', then each registered
    game's that ships its own (docs/adding-a-game.md)."""
    own = [path for _, path in game_catalogues(code) if path.exists()]
    return sorted((LOCALE_DIR / code / "LC_MESSAGES").glob("*.po")) + own


def game_catalogues(code: str | None = None) -> list[tuple[str, Path]]:
    """(area, file) of every registered game that keeps its catalogue in its own package: its
    template (``code`` None) or its ``code`` catalogue. Read from the registry when first needed,
    so importing the catalogues loads no game."""
    from bot.games import registry

    found = []
    for game in registry.games().values():
        where = game.catalogue_dir
        if where is not None:
            name = f"{game.id}.pot" if code is None else f"{code}/LC_MESSAGES/{game.id}.po"
            found.append((game.id, where / name))
    return found


_registry: Any = None  # bot.games.registry, once a lookup needed it (t() runs on every board)


def _games_changed() -> int:
    """How often games were registered: a game registered later (a test's, a plugin's) brings
    its catalogue, so the merged catalogues are read again."""
    global _registry
    if _registry is None:
        from bot.games import registry

        _registry = registry
    return _registry.changes


def compiled(catalog: Catalog, code: str, domain: str | None = None) -> Translations:
    """``catalog`` compiled in memory, counting by the project's plural rule for ``code``
    (bot/i18n/plurals.py) whatever its header or the installed Babel says: every area of a
    language then picks its plural forms alike."""
    out = io.BytesIO()
    write_mo(out, with_plural_rule(catalog, code))  # fuzzy entries are left out: a guess is not a translation
    out.seek(0)
    return Translations(out, domain=domain)


def _compiled(path: Path, code: str) -> Translations:
    with open(path, "rb") as po:
        return compiled(read_po(po, locale=code), code, domain=path.stem)


@cache
def _translations(code: str, games_changed: int = 0) -> NullTranslations:
    """One language's areas merged into one catalogue: a lookup never needs to know which
    area a message came from. An id in two areas should read the same in both (a test checks)."""
    if code == DEFAULT:
        return NullTranslations()
    merged: Translations | None = None
    for path in po_files(code):
        area = _compiled(path, code)
        merged = area if merged is None else merged.merge(area)
    return merged if merged is not None else NullTranslations()


def install(code: str, translations: NullTranslations) -> None:
    """Speak ``code`` from ``translations`` (built in memory), e.g. the tests' pseudo-locale."""
    _extra[code] = translations
    _forget_lookups()


def uninstall(code: str) -> None:
    _extra.pop(code, None)
    _forget_lookups()


# What ``t`` and ``tn`` found, kept: a board makes dozens of lookups (a Kabuki board ~35) on every
# press, each a catalogue found for a locale, a translation and its {fields} found by a regular
# expression. Kept per (locale, message): its text and the text split at its fields. Forgotten as
# soon as what they were found in changes (a catalogue installed or removed, a game registered with
# its own catalogue); bounded, since a message may be text handed in (a refusal's field).
_KEEP = 8192
_kept_at = -1  # the registry's count of changes (``_games_changed``) the kept lookups are from
_kept_catalogues: dict[object, NullTranslations] = {}
_kept_texts: dict[tuple[Any, ...], tuple[str, list[str]]] = {}
_kept_codes: dict[object, str] = {}  # ``catalogue_locale``'s answers
_kept_calls: list[dict[tuple[Any, ...], Any]] = []  # what each ``kept`` function gave, by arguments


def _forget_lookups() -> None:
    # New dicts rather than cleared ones: the pictures' thread looks words up too.
    global _kept_catalogues, _kept_texts, _kept_codes
    _kept_catalogues, _kept_texts, _kept_codes = {}, {}, {}
    for calls in _kept_calls:  # the board's helpers, called on the event loop only
        calls.clear()


def _lookups_current() -> None:
    """What was kept is forgotten if a game came or went since. Each lookup asks; it asks only
    ``_registry is None or _registry.changes != _kept_at`` itself first, which costs no call."""
    global _kept_at
    changes = _games_changed()
    if changes != _kept_at:
        _forget_lookups()
        _kept_at = changes


def catalogue(locale: str) -> NullTranslations:
    """The translations for a catalogue code, or for any Discord locale (by ``catalogue_locale``)."""
    if _registry is None or _registry.changes != _kept_at:
        _lookups_current()
    found = _kept_catalogues.get(locale)
    if found is None:
        found = _find_catalogue(locale)
        if len(_kept_catalogues) >= _KEEP:
            _forget_lookups()
        _kept_catalogues[locale] = found
    return found


def _find_catalogue(locale: str) -> NullTranslations:
    if locale in _extra:
        return _extra[locale]
    code = locale if locale in shipped() else catalogue_locale(locale)
    return _translations(code, _games_changed()) if code != DEFAULT else _ENGLISH


def catalogue_locale(locale: object) -> str:
    """The catalogue for a Discord locale code (``discord.Locale`` or its value: "de", "en-US",
    "es-ES", "pt-BR"): that exact code, else its language ("es-ES" → "es"), else English. Kept
    per code with the lookups (a press asks for its presser's, and again for its seat's)."""
    try:
        return _kept_codes[locale]
    except (KeyError, TypeError):  # not asked yet, or not hashable
        pass
    code = _catalogue_code(locale)
    try:
        if len(_kept_codes) >= _KEEP:
            _forget_lookups()
        _kept_codes[locale] = code
    except TypeError:
        pass
    return code


def _catalogue_code(locale: object) -> str:
    code = str(getattr(locale, "value", locale) or "")
    known = (*_extra, *shipped())
    if code in known:
        return code
    language = code.split("-")[0]
    return language if language in known else DEFAULT


def language_name(code: str) -> str:
    """A language's own name for itself, capitalised: "Deutsch", "Français"."""
    name = Locale.parse(code.replace("-", "_")).display_name or code
    return name[:1].upper() + name[1:]


_FIELD = re.compile(r"\{(\w+)\}")


def number(locale: str, value: float, pattern: str = "#,##0.0##") -> str:
    """A number written as the language writes it ("1.5" in English, "1,5" in German and
    French); a language CLDR does not know (the pseudo-locale) writes it as English does."""
    code = catalogue_locale(locale)
    try:
        return format_decimal(value, format=pattern, locale=Locale.parse(code.replace("-", "_")))
    except (ValueError, UnknownLocaleError):
        return format_decimal(value, format=pattern, locale=DEFAULT)


def duration(locale: str, ms: int) -> str:
    """A timer as members read it ("0.25 s", "90 s", "1 h 30 min", "24 h"; under an hour, a time
    that is no whole number of minutes stays in seconds), in the language's way ("0,25 s",
    "1 Std. 30 Min.")."""
    seconds = ms / 1000
    if seconds < 60 or (seconds < 3600 and seconds % 60):  # as the options take it
        return t(locale, "{n} s", n=number(locale, seconds, "#,##0.###"))
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        t(locale, "{n} h", n=hours) if hours else "",
        t(locale, "{n} min", n=minutes) if minutes else "",
        t(locale, "{n} s", n=secs) if secs else "",
    ]
    return " ".join(part for part in parts if part)


def _fill(found: tuple[str, list[str]], fields: dict[str, object], locale: str) -> str:
    # Only {name} fields are replaced, so a stray brace in a translation cannot raise; a {name}
    # not given stays as it is. A float (a refusal's "Wait {seconds} s") is written in the
    # language's own way. ``found``: the text, and the text split at its fields (``_FIELD.split``:
    # text, name, text, name, … text).
    # A ``Name`` field (a member's name) elides a French "de", "le" or "la" before it
    # (bot.i18n.french).
    text, parts = found
    if len(parts) == 1:
        return text
    out = parts[:]
    french = None
    for i in range(1, len(out), 2):
        name = out[i]
        if name in fields:
            field = fields[name]
            out[i] = number(locale, field) if isinstance(field, float) else str(field)
            if isinstance(field, Name):
                if french is None:
                    french = catalogue_locale(locale) == "fr"
                if french:
                    out[i - 1] = elided(out[i - 1], field)
        else:
            out[i] = "{" + name + "}"
    return "".join(out)


_T = TypeVar("_T")
_ABSENT = object()


def kept(function: Callable[..., _T]) -> Callable[..., _T]:
    """``function``, whose result follows from its arguments (hashable, given by position) and the
    catalogues alone, such as a board's line made of several lookups: kept per arguments as ``t``
    keeps a lookup, and forgotten with them (a catalogue or a game that comes or goes)."""

    calls: dict[tuple[Any, ...], Any] = {}  # its own: the arguments are the key as they come
    _kept_calls.append(calls)

    @functools.wraps(function)
    def keeping(*args: Any) -> _T:
        if _registry is None or _registry.changes != _kept_at:
            _lookups_current()
        found = calls.get(args, _ABSENT)
        if found is _ABSENT:
            found = function(*args)
            if len(calls) >= _KEEP:
                calls.clear()
            calls[args] = found
        return found  # type: ignore[no-any-return]

    return keeping


def _kept(key: tuple[Any, ...], text: str) -> tuple[str, list[str]]:
    found = (text, _FIELD.split(text))
    if len(_kept_texts) >= _KEEP:
        _forget_lookups()
    _kept_texts[key] = found
    return found


def t(locale: str, message: str, **fields: object) -> str:
    """``message`` (its English text) in the catalogue ``locale``, its ``{fields}`` filled in."""
    if _registry is None or _registry.changes != _kept_at:
        _lookups_current()
    found = _kept_texts.get((locale, message))
    if found is None:
        found = _kept((locale, message), catalogue(locale).gettext(message))
    return _fill(found, fields, locale) if fields else found[0]


def tn(locale: str, singular: str, plural: str, n: int, **fields: object) -> str:
    """A message that agrees with the number ``n`` (filled in as ``{n}``), by the language's own
    plural rule (CLDR's, as bot/i18n/plurals.py writes it): French says "1 partie", "0 partie",
    "2 parties"; English and German "0 games"."""
    if _registry is None or _registry.changes != _kept_at:
        _lookups_current()
    key = (locale, singular, plural, n)
    found = _kept_texts.get(key)
    if found is None:
        found = _kept(key, catalogue(locale).ngettext(singular, plural, n))
    return _fill(found, {"n": n, **fields}, locale)


def N_(message: str) -> str:
    """Marks a message to translate later (a module-level constant) for the extractor; returns it."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural to translate later (``tn(locale, *pair, n)``), as ``N_``
    marks one without: a game cog's ``score_counts``. Returns the pair."""
    return singular, plural


def translated(locale: str, message: str, context: str | None = None) -> str | None:
    """The catalogue's own translation of ``message`` (under ``context``), or None where it has
    none: unlike ``t``, this does not fall back to English."""
    key = message if context is None else f"{context}\x04{message}"
    found = getattr(catalogue(locale), "_catalog", {}).get(key)
    return found if isinstance(found, str) and found else None
