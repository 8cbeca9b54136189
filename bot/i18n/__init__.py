"""Languages: message catalogues, which language a message speaks, slash commands' translations.
The design and how to add a language: docs/languages.md."""

from bot.i18n.catalogues import (
    DEFAULT,
    N_,
    NN_,
    catalogue_locale,
    duration,
    kept,
    language_name,
    number,
    shipped,
    t,
    tn,
    translated,
)
from bot.i18n.commands import CommandTranslator, command_strings, fixed
from bot.i18n.french import Name
from bot.i18n.locales import ServerLanguages, private_locale, public_locale

__all__ = [
    "DEFAULT",
    "N_",
    "NN_",
    "Name",
    "CommandTranslator",
    "ServerLanguages",
    "catalogue_locale",
    "command_strings",
    "duration",
    "kept",
    "fixed",
    "language_name",
    "number",
    "private_locale",
    "public_locale",
    "shipped",
    "t",
    "tn",
    "translated",
]
