"""Each language's plural rule, as the project decided it: the extractor writes it into every
catalogue's ``Plural-Forms`` header and the loader compiles every catalogue with it.

A rule is CLDR's plural categories for whole counts (``babel.Locale(code).plural_form``), written
in gettext's syntax. It is written here rather than taken from ``Catalog(locale=code)``, because
that is whatever table the installed Babel carries: Babel 2.18 gave French ``nplurals=2; plural=(n
> 1);``, Babel 2.19 gives it three forms (CLDR's "many", for round millions), and a catalogue
written with three forms but translated with two fell back to English for every French plural.
The bot counts cards, tokens, rounds and games, never round millions, so French keeps CLDR's
"one" (0 and 1) and "other" (a test checks each rule against CLDR for every count up to 10,000).
"""

from __future__ import annotations

from babel.messages.catalog import Catalog

PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}


def plural_forms(code: str) -> str:
    """The ``Plural-Forms`` of a shipped language; a language without one must be given its rule
    here before its catalogue is written or read."""
    try:
        return PLURAL_FORMS[code]
    except KeyError:
        raise LookupError(
            f"no plural rule for {code!r}: add one to bot/i18n/plurals.py (docs/architecture.md, Languages)"
        ) from None


def with_plural_rule(catalog: Catalog, code: str) -> Catalog:
    """``catalog`` (as read, or new) stating the project's rule for ``code`` from now on."""
    catalog.mime_headers = [("Plural-Forms", plural_forms(code))]
    return catalog
