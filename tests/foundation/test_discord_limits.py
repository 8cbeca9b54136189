"""Every message a game shows stays inside Discord's limits at every size: each board of whole
simulated games (the fewest and the most seats each game takes, every mode of Death Over the
Kingdom), their final boards with Play again, and every private message their events make, in
English, German and French, with 32-character names, each checked by SimCord's validation of a
message as the bot sends it: one Components V2 card (``bot.glue.layout``; Discord's own limits:
40 components, 4,000 characters of text in all, 5 buttons to a row, a section's one accessory,
...), or words alone. The seeds are chosen, not drawn, so a failure repeats.

The cost of a game's steps is the engine's and the renderers' alone (no Discord in between)."""

from __future__ import annotations

import random

import pytest
from random_games import random_steps
from simcord.components import ComponentValidationError, validate_message_state

from bot.glue.components import bind
from bot.glue.layout import private
from bot.session.launcher import free_row, offer_table
from bot.session.rematch import with_play_again
from bot.session.sessions import PLAYING, Session

# Each game's table sizes and options: its fewest and most seats (Kingdom: each mode's).
TABLES = [
    ("kabuki", 2, {}),
    ("kabuki", 6, {}),
    ("masks", 3, {}),
    ("masks", 8, {}),
    ("kingdom", 3, {"mode": "classic", "length": 2}),
    ("kingdom", 16, {"mode": "classic", "length": 2}),
    ("kingdom", 16, {"mode": "death-over-all", "length": 2}),
    ("kingdom", 20, {"mode": "only-one"}),
]
LOCALES = ("en", "de", "fr")
SEEDS = (3, 11)  # chosen: with these, 16 seats of Death over all end with more than half the table lowest
STEPS = 4000  # a ceiling: every game here ends well before


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["kabuki", "masks", "kingdom"])


def names(count: int) -> dict[int, str]:
    """32-character names, each its own (Discord's longest display name)."""
    return {
        user: f"{user:02d} Maximilian-Änne Großéchelle"[:32].ljust(32, "x") for user in range(1, count + 1)
    }


V2 = 1 << 15  # a message's Components V2 flag


def check(message: dict, what: str) -> None:
    """``message`` (a private message as games draw it, or a board's) as the bot sends it to
    Discord and Discord would take it, or the test fails naming the message and the limit."""
    sent = private(message)
    view = sent.get("view")
    embed = sent.get("embed")
    components = view.to_components() if view is not None else []
    try:
        validate_message_state(
            components,
            flags=V2 if view is not None and view.has_components_v2() else 0,
            content=sent.get("content"),
            embeds=[embed.to_dict()] if embed is not None else [],
        )
    except ComponentValidationError as refused:
        pytest.fail(f"{what}: Discord would refuse it: {refused}")


def board_message(board, session) -> dict:
    """The board as the publisher sends it: Open the table offered, bound, its picture on."""
    board = offer_table(board, session.channel_id, session.locale)
    bind(board.items, session.tag)
    board.attach_picture()
    return {"view": board.layout()}


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda v: str(v))
async def test_every_message_of_whole_games_fits_discord_s_limits(simcord_env, kind, players, options):
    cog = simcord_env.bot.game_cogs[kind]
    options = {**cog.default_options(), **options}
    seated = names(players)
    for locale in LOCALES:
        for seed in SEEDS:
            engine = cog.engine_cls.new(players, seed, options, 0)
            session = Session(
                kind,
                1,
                7,
                1,
                options,
                seed,
                f"{seed:032x}",
                0,
                players=list(seated),
                names=seated,
                status=PLAYING,
                engine=engine,
                locale=locale,
                salt="5" * 32,
            )
            what = f"{kind}, {players} seats, {options}, {locale}, seed {seed}"
            check(board_message(cog.render_board(session), session), f"{what}: the first board")
            for steps, events in enumerate(random_steps(engine, random.Random(seed), players, most=STEPS), 1):
                for event in events:
                    for to in event.to or ():
                        private = cog.render_private(session, to, event)
                        if private is not None:
                            check(private, f"{what}: step {steps}, {event.kind} to seat {to}")
                if not engine.is_over:
                    board = cog.render_board(session)
                    check(board_message(board, session), f"{what}: step {steps}")
                    # Room for the Activity's Open the table (bot.session.launcher).
                    assert free_row(board.items) is not None, f"{what}: step {steps}: no row for the table"
            assert engine.is_over, f"{what}: not over after {STEPS} steps"
            final = with_play_again(cog.render_final(session, engine.result()), session.game_key, locale)
            check(board_message(final, session), f"{what}: the final board")


def test_a_list_too_long_for_its_field_says_how_many_it_leaves_out():
    from bot.glue.board import fitted

    names = [f"**{'n' * 30}{i:02d}**" for i in range(20)]  # 36 characters each
    cut = fitted(names, ", ", 200, "de")
    assert len(cut) <= 200 and cut.endswith("…und 16 weitere")
    assert cut == ", ".join([*names[:4], "…und 16 weitere"])  # five would not fit with the count
    assert fitted(names[:3], ", ", 200, "en") == ", ".join(names[:3])  # what fits is left whole
