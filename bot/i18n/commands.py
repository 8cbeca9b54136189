"""Slash commands in each member's language: discord.py hands every command, group, option and
choice string to the tree's translator (as a ``locale_str`` holding the English text written in
the cogs) for every Discord locale when it syncs, and Discord shows each member the localization
of their own language.

Names (of commands, groups and options) live in the catalogues under the context "command
name", because Discord restricts them (lowercase, no spaces, at most 32 characters); their
descriptions and the options' choices under "command".
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.catalogues import DEFAULT, catalogue_locale, translated

NAME_CONTEXT = "command name"
TEXT_CONTEXT = "command"
_NAMES = {Where.command_name, Where.group_name, Where.parameter_name}


def context_of(location: Where) -> str:
    return NAME_CONTEXT if location in _NAMES else TEXT_CONTEXT


def fixed(text: str) -> app_commands.locale_str:
    """A command string that is the same in every language (a language's own name in
    ``/settings language:``); it needs no catalogue entry."""
    return app_commands.locale_str(text, fixed=True)


class CommandTranslator(app_commands.Translator):
    """Translates from the message catalogues; None (Discord shows the English) where a
    language has no catalogue or its catalogue no entry."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if string.extras.get("fixed"):
            return None
        code = catalogue_locale(locale)
        if code == DEFAULT:
            return None
        return translated(code, string.message, context_of(context.location))


class _Recorder(app_commands.Translator):
    def __init__(self) -> None:
        self.strings: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> None:
        if locale is discord.Locale.german and not string.extras.get("fixed"):
            self.strings[(context_of(context.location), string.message)] = None


async def command_strings(tree: app_commands.CommandTree) -> list[tuple[str, str]]:
    """Every (context, English text) the translator is asked for when ``tree`` syncs, in order:
    exactly what a catalogue must translate for the slash commands."""
    recorder = _Recorder()
    for command in tree._get_all_commands():
        await command.get_translated_payload(tree, recorder)
    return list(recorder.strings)
