"""The publisher tells a redrawn board apart from the one on show by its description and fields
before it builds both embeds' dicts (``bot.session.publisher._texts_differ``): that shortcut may
only ever say "different" where the dicts differ, or an unchanged board would be sent again, or a
changed one kept back."""

from __future__ import annotations

import itertools

import discord

from bot.session.publisher import _texts_differ

DESCRIPTIONS = (None, "", "a", "b")
FIELDS = (None, (), (("x", "1"),), (("x", "2"),), (("x", "1"), ("y", "1")))


def embed(
    description: str | None, fields: tuple[tuple[str, str], ...] | None, footer: str = ""
) -> discord.Embed:
    made = discord.Embed(title="t", description=description)
    if fields is not None:
        made.add_field(name="n", value="v")
        made.clear_fields()  # the embed has had fields: its dict holds the list, empty or not
        for name, value in fields:
            made.add_field(name=name, value=value, inline=False)
    if footer:
        made.set_footer(text=footer)
    return made


def test_different_texts_are_said_only_where_the_dicts_differ():
    said = 0
    for (d1, f1, o1), (d2, f2, o2) in itertools.product(
        itertools.product(DESCRIPTIONS, FIELDS, ("", "f")), repeat=2
    ):
        a, b = embed(d1, f1, o1), embed(d2, f2, o2)
        if _texts_differ(a, b):
            said += 1
            assert a.to_dict() != b.to_dict(), (d1, f1, o1, d2, f2, o2)
        elif (d1 or None, f1) != (d2 or None, f2):
            raise AssertionError(f"missed a difference the shortcut is for: {(d1, f1, d2, f2)}")
    assert said > 100
