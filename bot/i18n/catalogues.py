"""The message catalogues: gettext ``.po`` files read with Babel at start-up, several per
language, one per *area* of the code (``bot/i18n/areas.py``), merged into one catalogue each.

The ``.po`` files are read directly (compiled in memory), so a fresh ``pip install -e .`` needs no
build step and no compiled ``.mo`` file can fall out of date with its source. The English text is
the message id itself, so English needs no catalogue, and any message a catalogue lacks falls back
to English instead of failing.
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from bot.i18n.plurals import with_plural_rule

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"
DEFAULT = "en"

# Catalogues added while running (the tests' pseudo-locale); they take precedence over files.
_extra: dict[str, NullTranslations] = {}


@cache
def shipped() -> tuple[str, ...]:
    """The languages the bot speaks: English, then every catalogue in bot/locales, by code."""
    found = sorted({p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})
    return (DEFAULT, *found)


def po_files(code: str) -> list[Path]:
    """A language's catalogue files, one per area, by name."""
    return sorted((LOCALE_DIR / code / "LC_MESSAGES").glob("*.po"))


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
def _translations(code: str) -> NullTranslations:
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


def uninstall(code: str) -> None:
    _extra.pop(code, None)


def catalogue(locale: str) -> NullTranslations:
    """The translations for a catalogue code, or for any Discord locale (by ``catalogue_locale``)."""
    if locale in _extra:
        return _extra[locale]
    return _translations(locale if locale in shipped() else catalogue_locale(locale))


def catalogue_locale(locale: object) -> str:
    """The catalogue for a Discord locale code (``discord.Locale`` or its value: "de", "en-US",
    "es-ES", "pt-BR"): that exact code, else its language ("es-ES" → "es"), else English."""
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


def _fill(text: str, fields: dict[str, object], locale: str) -> str:
    # Only {name} fields are replaced, so a stray brace in a translation cannot raise. A float
    # (a refusal's "Wait {seconds} s") is written in the language's own way.
    def value(name: str) -> str:
        field = fields[name]
        return number(locale, field) if isinstance(field, float) else str(field)

    return _FIELD.sub(lambda m: value(m[1]) if m[1] in fields else m[0], text) if fields else text


def t(locale: str, message: str, **fields: object) -> str:
    """``message`` (its English text) in the catalogue ``locale``, its ``{fields}`` filled in."""
    return _fill(catalogue(locale).gettext(message), fields, locale)


def tn(locale: str, singular: str, plural: str, n: int, **fields: object) -> str:
    """A message that agrees with the number ``n`` (filled in as ``{n}``), by the language's own
    plural rule (CLDR's, as bot/i18n/plurals.py writes it): French says "1 partie", "0 partie",
    "2 parties"; English and German "0 games"."""
    return _fill(catalogue(locale).ngettext(singular, plural, n), {"n": n, **fields}, locale)


def N_(message: str) -> str:
    """Marks a message to translate later (a module-level constant) for the extractor; returns it."""
    return message


def translated(locale: str, message: str, context: str | None = None) -> str | None:
    """The catalogue's own translation of ``message`` (under ``context``), or None where it has
    none: unlike ``t``, this does not fall back to English."""
    key = message if context is None else f"{context}\x04{message}"
    found = getattr(catalogue(locale), "_catalog", {}).get(key)
    return found if isinstance(found, str) and found else None
