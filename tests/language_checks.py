"""What the games' language tests check alike: the text a board shows, that it fits Discord's
limits, the words the pictures draw, and, through SimCord, a server in a language, its readers
of /rules and secrets no language may show. Imported as ``from language_checks import …``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import discord
from babel.messages.pofile import read_po
from PIL import ImageDraw
from shown import card, components, is_card, walk

from bot.games import registry
from bot.glue.layout import MAX_COMPONENTS, MAX_TEXT
from bot.i18n import t
from bot.i18n.catalogues import po_files

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
LIMITS = {"title": 256, "description": 4096, "field_name": 256, "field_value": 1024, "footer": 2048}
EMBED_TOTAL, LABEL = 6000, 80
COMMITMENT = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
LANGUAGES = ("en", "de", "fr")


def translated_games() -> list[str]:
    """Every registered game that has catalogues: the bot's own (bot/locales) and each one
    registered with its own (a test's game, in its folder). The language tests loop over these,
    so a game is checked by being registered."""
    return [id for id, game in registry.games().items() if id in registry.builtin() or game.catalogue_dir]


def embed_text(embed: discord.Embed) -> str:
    """An embed's title, description, footer and fields (each name, then its value)."""
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(parts)


def item_texts(items: list[Any]) -> list[str]:
    """Every word of a board's components: buttons' labels, selects' placeholders and options."""
    texts = []
    for item in items:
        texts.append(getattr(item, "label", None) or "")
        texts.append(getattr(item, "placeholder", None) or "")
        texts += [option.label for option in getattr(item, "options", [])]
    return texts


def board_text(board: Any) -> str:
    """All a ``bot.glue.board.Board`` shows in words: its embed's text, then its components'."""
    return "\n".join([embed_text(board.embed), *item_texts(board.items)])


def assert_fits_discords_limits(board: Any) -> None:
    """A board's embed fits each of Discord's limits (title, description, footer, every field's
    name and value, the whole embed) and every label of its components fits a button's."""
    embed: discord.Embed = board.embed
    assert len(embed.title) <= LIMITS["title"]
    assert len(embed.description) <= LIMITS["description"]
    assert len(embed.footer.text) <= LIMITS["footer"]
    for field in embed.fields:
        assert len(field.name) <= LIMITS["field_name"]
        assert len(field.value) <= LIMITS["field_value"], field.value
    assert len(embed) <= EMBED_TOTAL
    assert all(len(label) <= LABEL for label in item_texts(board.items))


def assert_card_fits(message: Any) -> bool:
    """If ``message`` is a card (Components V2), it fits Discord's limits on one: 4,000
    characters of text and 40 components in all, those inside others counted. Whether it is one:
    words alone (a refusal, a notice) are a plain message, which the caller checks."""
    if not is_card(message):
        return False
    parts = list(walk(components(message)))
    assert sum(len(part["content"]) for part in parts if part.get("type") == 10) <= MAX_TEXT
    assert len(parts) <= MAX_COMPONENTS
    return True


@contextmanager
def drawn(*modules: ModuleType, primed: Iterable[Any] = ()) -> Iterator[list[tuple[str, Any]]]:
    """Every (text, font) the pictures hand to Pillow meanwhile. The caches of ``modules`` are
    emptied first and afterwards, so everything is really drawn and no other test sees a picture
    drawn here; the cached functions in ``primed`` are called first and kept (what they draw,
    such as a palette's colour samples, is never shown)."""
    primed = list(primed)
    for function in primed:
        function()
    seen: list[tuple[str, Any]] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):
        seen.append((text, font))
        return original(self, xy, text, fill, font, *args, **kwargs)

    def clear() -> None:
        for module in modules:
            for value in vars(module).values():
                if hasattr(value, "cache_clear") and value not in primed:
                    value.cache_clear()

    clear()
    ImageDraw.ImageDraw.text = text
    try:
        yield seen
    finally:
        ImageDraw.ImageDraw.text = original
        clear()


def assert_shown_in_no_language(text: str, message_id: str, bold: bool = True) -> None:
    """``message_id`` (a secret card's name) appears in ``text`` in none of the shipped languages:
    in bold, as the games name a card, unless ``bold`` is False."""
    for locale in LANGUAGES:
        name = t(locale, message_id)
        assert (f"**{name}**" if bold else name) not in text, (locale, message_id)


@dataclass
class World:
    """A server in SimCord with one text channel, its members and (optionally) a moderator."""

    env: Any
    guild: Any
    channel: Any
    members: list[Any]
    mod: Any = None  # a member with Manage Server, who does not play

    def board(self) -> Any:
        return self.channel.last_message


def server(
    env: Any,
    guild: str,
    locale: str,
    channel: str,
    names: Iterable[str],
    mod: bool = False,
    **channel_options: Any,
) -> World:
    """A server whose preferred language is ``locale``, a channel, members named ``names`` and, if
    ``mod``, a moderator "chef" (Manage Server). Members' own languages are the test's to set."""
    made = env.create_guild(guild, preferred_locale=locale)
    text_channel = made.create_text_channel(channel, **channel_options)
    members = [made.add_member(env.create_user(name)) for name in names]
    moderator = None
    if mod:
        admins = made.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        moderator = made.add_member(env.create_user("chef"), roles=[admins])
    return World(env, made, text_channel, members, moderator)


async def rules_as_read(world: World, members: Iterable[Any], game: str) -> dict[Any, str]:
    """What each member reads for ``/rules game``: answered privately (asserted), by member."""
    read = {}
    for member in members:
        shown = await member.slash(world.channel, "rules", game=game)
        assert shown.ephemeral
        read[member] = card(shown.response).description
    return read


def english_phrases(code: str, *areas: str) -> set[str]:
    """The English of every message of ``areas`` that ``code`` says otherwise, cut at its fields
    and markup: the pieces of two words or more, which a screen in ``code`` must not show."""
    phrases: set[str] = set()
    for path in po_files(code):
        if path.stem not in areas:
            continue
        with open(path, "rb") as po:
            for message in read_po(po, locale=code):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if not message.id or message.context:
                    continue
                for english in ids:
                    for piece in re.split(r"\{\w+\}|\*\*|\n|<[^<>]*>", english):
                        piece = piece.strip(" .:;,!?—()")
                        # A piece the translation keeps as it is (a name) is no English left over.
                        if len(piece.split()) >= 2 and not any(piece in string for string in strings):
                            phrases.add(piece)
    return phrases
