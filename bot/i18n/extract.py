"""Bring the catalogues up to date with the code: ``python -m bot.i18n.extract``.

The template ``bot/locales/messages.pot`` holds every message to translate: what Babel's own
extractor finds in ``t(locale, "…")``, ``tn(locale, "…", "…", n)`` and ``N_("…")`` calls in
``bot/`` and ``cogs/``, plus every slash command string (read from the loaded command tree,
because the cogs' decorators hold them as plain English). Each language's ``.po`` is then
updated from the template as ``pybabel update`` does: new messages come in untranslated, changed
ones are kept as fuzzy guesses (never shown), vanished ones are kept as obsolete (``#~``).
``--check`` changes nothing and fails if the template is out of date (run it in CI).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalogues import DEFAULT, DOMAIN, LOCALE_DIR, shipped

ROOT = LOCALE_DIR.parent.parent
KEYWORDS = {"t": (2,), "tn": (2, 3), "N_": None}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


async def _command_strings() -> list[tuple[str, str]]:
    from bot.client import create_bot
    from bot.config import Config
    from bot.i18n.commands import command_strings

    config = Config(token=None, database_path=":memory:", dev_guild_id=None, log_level="INFO", shard_count=1)
    bot = create_bot(config)
    await bot.load_cogs()
    return await command_strings(bot.tree)


def code_messages() -> list[tuple[str | tuple[str, str], str]]:
    """(message or (singular, plural), where) of every t/tn/N_ call in bot/ and cogs/."""
    found = []
    for folder in ("bot", "cogs"):
        for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.append((message, f"{folder}/{filename}:{lineno}"))
    return found


def template() -> Catalog:
    """The catalogue of every message the bot speaks, English only (the .pot)."""
    catalog = Catalog(project="party-cards-bot", locale=None, charset="utf-8", fuzzy=False)
    for message, where in code_messages():
        path, line = where.rsplit(":", 1)
        catalog.add(message, locations=[(path, int(line))])
    for context, message in asyncio.run(_command_strings()):
        catalog.add(message, context=context, locations=[("slash-commands", None)])
    return catalog


def _po_text(catalog: Catalog, **options: bool) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, **options)
    return out.getvalue()


def _ids(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.extract", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if the template is stale")
    args = parser.parse_args(argv)
    fresh = template()
    with open(TEMPLATE, "rb") as f:
        stale = _ids(read_po(f)) != _ids(fresh)
    if args.check or not stale:  # nothing new: the files (and their dates) stay as they are
        print("out of date: run python -m bot.i18n.extract" if stale else "the catalogues are up to date")
        return int(stale and args.check)
    TEMPLATE.write_bytes(_po_text(fresh, ignore_obsolete=True, include_lineno=False))
    for code in shipped():
        if code == DEFAULT:
            continue
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        with open(path, "rb") as f:
            catalog = read_po(f, locale=code)
        catalog.update(fresh, update_header_comment=False)
        path.write_bytes(_po_text(catalog, include_lineno=False))
    print(
        f"{len(fresh)} messages; updated {TEMPLATE.relative_to(ROOT)} and {len(shipped()) - 1} catalogue(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
