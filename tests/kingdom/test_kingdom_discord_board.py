"""The Discord board of Death Over the Kingdom, without Discord: what it offers, what it hides,
how presses are read and how standings are recorded."""

from __future__ import annotations

import random

import pytest

from bot.engine import IllegalAction, Result
from bot.games.kingdom.board import (
    POWERS,
    component_for,
    kingdom_board,
    my_card_message,
    parse_press,
    power_items,
    public_options,
)
from bot.games.kingdom.cards import BARD, DRAGON, KING, QUEEN, THIEF, TRADER
from bot.games.kingdom.cog import RULES, KingdomCog
from bot.games.kingdom.engine import KingdomEngine
from bot.games.kingdom.players import RandomPlayer

NAMES = [f"p{i}" for i in range(20)]


def positions(seed: int, players: int, mode: str = "classic", steps: int = 400):
    """Engines along a game of random legal moves (every intermediate state)."""
    engine = KingdomEngine.new(players, seed, {"mode": mode, "turn_ms": 0, "reveal_ms": 1000}, 0)
    brain = RandomPlayer(seed)
    for step in range(steps):
        if engine.is_over:
            return
        yield engine
        if engine.phase == "reveal":
            engine.apply(0, {"type": "next"}, step)
        else:
            engine.apply(engine.active, brain.choose(engine, engine.active), step)


def board_dict(engine: KingdomEngine, names=NAMES) -> tuple:
    board = kingdom_board(engine.view(None), names[: engine.players], 1, "game")
    ids = [item.custom_id for item in board.items]
    options = [[o.value for o in item.options] for item in board.items if hasattr(item, "options")]
    key = board.picture.key if board.picture else None
    return board.embed.to_dict(), ids, options, key


@pytest.mark.parametrize(
    "seed,players,mode", [(1, 3, "classic"), (2, 7, "death-over-all"), (3, 5, "only-one")]
)
def test_the_board_offers_everything_the_active_seat_may_do(seed, players, mode):
    for engine in positions(seed, players, mode):
        offered = public_options(engine.view(None))
        seat = engine.active if engine.phase == "play" else 0
        for action in engine.legal_actions(seat):
            assert action in offered
        for action in offered:  # and never a King holder as a target
            target = action.get("target")
            assert target is None or engine.char(target) != KING or action["type"] in ("swap", "keep")


@pytest.mark.parametrize("seed,players", [(4, 4), (5, 9)])
def test_the_board_does_not_depend_on_face_down_cards(seed, players):
    """Shuffle every face-down card among the seats holding one: the board must not change."""
    rng = random.Random(seed)
    for engine in positions(seed, players):
        hidden = [s for s, c in enumerate(engine.hands) if c is not None and c not in engine.face_up]
        if engine.phase != "play" or len(hidden) < 2:
            continue
        other = KingdomEngine.from_json(engine.to_json())
        cards = [other.hands[s] for s in hidden]
        rng.shuffle(cards)
        for s, c in zip(hidden, cards, strict=True):
            other.hands[s] = c
        assert board_dict(other) == board_dict(engine)


def test_the_first_board_shows_the_first_dealer_drawn_at_random():
    seed = next(seed for seed in range(100) if KingdomEngine.new(4, seed, {}, 0).view(None)["dealer"] == 1)
    engine = KingdomEngine.new(4, seed, {"turn_ms": 0}, 0)
    description = kingdom_board(engine.view(None), NAMES[:4], 1, "g").embed.description
    assert "🎲 **p1** was drawn at random to deal first." in description
    seat_lines = [line for line in description.splitlines() if "`" in line]
    assert "**p2**" in seat_lines[0] and "👉" in seat_lines[0]  # the dealer's right plays first
    assert "**p1**" in seat_lines[-1] and "🎴 dealer" in seat_lines[-1]
    while engine.round == 1:
        engine.apply(engine.active, {"type": "stand"}, 1)
    later = kingdom_board(engine.view(None), NAMES[:4], 1, "g").embed.description
    (dealer_line,) = [line for line in later.splitlines() if "🎴 dealer" in line]
    assert "drawn at random" not in later and "**p2**" in dealer_line


def test_buttons_are_capped_and_carry_the_version(table):
    engine = table([THIEF, BARD, QUEEN, KING, QUEEN, BARD])
    board = kingdom_board(engine.view(None), NAMES[:6], 42, "g")
    version = engine.version
    ids = [item.custom_id for item in board.items]
    assert ids == [f"pc:42:stand:{version}", f"pc:42:exchange:{version}.1", "pc:42:card:"]
    (powers,) = power_items(engine.view(0), NAMES[:6], 42)
    # Seat 3 holds a King: never offered.
    assert powers.custom_id == "ps:42:power"
    assert [o.value for o in powers.options] == [f"{version}.{t}" for t in (1, 2, 4, 5)]
    assert [o.label for o in powers.options][0] == "🕵️ Thief: look at p1's card"


def test_the_card_panel_offers_only_the_holders_power_on_its_turn(table):
    engine = table([TRADER, DRAGON, QUEEN, KING])
    (trader,) = power_items(engine.view(0), NAMES, 42)
    # Neither ids nor values name the card: only the label, in the holder's private panel, does.
    assert trader.custom_id == f"pc:42:power:{engine.version}" and "Trader" in trader.label
    assert power_items(engine.view(1), NAMES, 42) == []  # not p1's turn yet
    engine.apply(0, {"type": "stand"}, 1)
    (dragon,) = power_items(engine.view(1), NAMES, 42)
    assert dragon.custom_id == f"pc:42:power:{engine.version}.2" and "p2 discards" in dragon.label
    assert power_items(engine.view(0), NAMES, 42) == []


def test_presses_are_read_with_their_version():
    assert parse_press("stand", "12") == {"version": 12, "type": "stand"}
    assert parse_press("exchange", "12.3") == {"version": 12, "type": "exchange", "target": 3}
    assert parse_press("power", "", ("12.3",)) == {"version": 12, "type": "power", "target": 3}
    assert parse_press("power", "12") == {"version": 12, "type": "power"}
    assert parse_press("power", "12.3") == {"version": 12, "type": "power", "target": 3}
    assert parse_press("trader", "12") is None  # a card's name is never an id
    for bad in ("", "x", "1.", "1.x", "-1", "1.2.3"):
        assert parse_press("stand", bad) is None
    for bad in ((), ("12.bard.3",), ("12.x",), ("a.1",), ("1", "2")):
        assert parse_press("power", "", bad) is None
    assert parse_press("join", "12") is None


def test_a_twenty_seat_table_offers_every_target_in_one_panel_select(table):
    engine = table([THIEF], mode="only-one", players=20)
    board = kingdom_board(engine.view(None), NAMES, 42, "g")
    assert [item.custom_id.split(":")[2] for item in board.items] == ["stand", "exchange", "card"]
    (select,) = power_items(engine.view(0), NAMES, 42)
    targets = [a["target"] for a in engine.legal_actions(0) if a["type"] == "thief"]
    assert len(targets) == 19 and len(select.options) <= 25
    assert [o.value for o in select.options] == [f"{engine.version}.{t}" for t in targets]
    # Every legal power is where component_for says it is.
    for action in engine.legal_actions(0):
        kind, custom_id, value = component_for(action, engine.version, 42)
        if action["type"] in POWERS:
            assert (kind, custom_id) == ("select", "ps:42:power") and value in [
                o.value for o in select.options
            ]


def test_a_press_from_an_old_version_is_refused(table):
    from bot.glue.components import Press
    from bot.session.sessions import Session

    session = Session("kingdom", 1, 2, 3, {}, 0, "g", 0, players=[10, 11, 12])
    session.engine = table([QUEEN, BARD, KING])
    cog = KingdomCog.__new__(KingdomCog)
    version = session.engine.version
    assert cog.action_for(session, 0, Press(2, "exchange", f"{version}.1")) == {
        "type": "exchange",
        "target": 1,
    }
    # A panel press takes its power from the presser's card: seat 1 holds the Bard.
    assert cog.action_for(session, 1, Press(2, "power", "", (f"{version}.2",))) == {
        "type": "bard",
        "target": 2,
    }
    with pytest.raises(IllegalAction, match="no power"):
        cog.action_for(session, 0, Press(2, "power", "", (f"{version}.2",)))  # a Queen
    with pytest.raises(IllegalAction, match="out-of-date"):
        cog.action_for(session, 0, Press(2, "stand", str(version + 1)))
    with pytest.raises(IllegalAction):
        cog.action_for(session, 0, Press(2, "join", str(version)))


def test_my_card_says_what_the_card_can_do_now(table):
    engine = table([BARD, QUEEN, KING, THIEF])
    message = my_card_message(engine.view(0), NAMES, 42)
    text = message["embed"].description
    assert message["embed"].title == "Your card: Bard (5)"
    assert "use the **Bard** on p1" in text and "p2" not in text  # p2 holds a King
    assert "power is below" in text
    assert message["file"].filename == "card.png"
    bard, again = message["view"].children
    assert again.label == "My card" and again.custom_id == "pc:42:card:"  # the card held now, here
    assert [o.label for o in bard.options] == ["🎵 Bard: swap unseen with p1", "🎵 Bard: swap unseen with p3"]
    later = my_card_message(engine.view(3), NAMES, 42)
    assert "Not your turn: **p0** is playing" in later["embed"].description
    assert [item.label for item in later["view"].children] == ["My card"]  # no power off its turn


def test_only_one_records_tokens_lost_and_classic_tokens_taken():
    cog = KingdomCog.__new__(KingdomCog)
    only_one = Result((0, 3, 0), (1,), {"mode": "only-one"})
    assert cog.recorded_scores(None, only_one) == [5, 2, 5]
    classic = Result((4, 2, 3), (1,), {"mode": "classic"})
    assert cog.recorded_scores(None, classic) == [4, 2, 3]


def test_the_rules_summary_explains_the_discord_adaptation():
    assert "My card" in RULES and "timer" in RULES and "King" in RULES
    assert "first dealer is chosen randomly" in RULES
    assert len(RULES) <= 4096


@pytest.mark.parametrize(
    "mode,goal",
    [
        ("classic", "Lowest card takes a token; fewest tokens wins."),
        (
            "death-over-all",
            "Lowest value takes 3 tokens, second-lowest 2, third-lowest 1; a King gives one back; "
            "fewest tokens wins.",
        ),
        ("only-one", "Tokens are lives: lose them all and you are out."),
    ],
)
def test_the_footer_states_the_modes_own_scoring(mode, goal):
    """Death over all scores 3/2/1 tokens and a King gives one back: its board must not say the
    Classic rule (it once did)."""
    engine = next(positions(6, 5, mode))
    footer = kingdom_board(engine.view(None), NAMES[:5], 1, "game").embed.footer.text
    assert goal in footer
