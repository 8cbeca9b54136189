"""Helpers (no tests) for the Death Over the Kingdom SimCord tests: open a game, find the board,
press what the engine allows, and look at the channel as a given member sees it."""

from __future__ import annotations

import copy
from typing import Any

from lobby_buttons import lobby_id
from shown import card

from bot.games.kingdom.board import POWERS, component_for
from bot.games.kingdom.cards import CHARACTERS, COPIES
from bot.games.kingdom.engine import KingdomEngine
from bot.glue.components import bound_id, button_id


def rigged(hands: list[int], deck: list[int] = ()) -> list[int]:
    """A whole 26-card deal: ``hands`` in play order, then ``deck`` from the top, then the rest
    (as in conftest's ``table``)."""
    left = [c for c in range(len(CHARACTERS)) for _ in range(COPIES)]
    for c in [*hands, *deck]:
        left.remove(c)
    return [*hands, *deck, *left]


def session_of(env: Any, channel: Any) -> Any:
    return env.bot.sessions.get(channel.id)


def engine_of(env: Any, channel: Any) -> KingdomEngine | None:
    session = session_of(env, channel)
    return session.engine if session is not None else None


def board_of(env: Any, channel: Any, viewer: Any) -> Any:
    """The current board message, as ``viewer`` sees the channel."""
    board_id = session_of(env, channel).board_message_id
    return next(m for m in channel.history(viewer=viewer) if m.id == board_id)


async def open_game(world: Any, players: int, **options: Any) -> list[Any]:
    """``/kingdom new`` by the first member, ``players - 1`` more join, Start. Returns the
    members in seat order."""
    members = world.members[:players]
    await members[0].slash(world.channel, "kingdom new", **options)
    lobby = world.channel.last_message
    # By their ids, not their labels: the lobby speaks the server's language.
    for member in members[1:]:
        await member.click(lobby, custom_id=lobby_id(world.env, world.channel, "join"))
    await members[0].click(lobby, custom_id=lobby_id(world.env, world.channel, "start"))
    return members


async def card_panel(env: Any, channel: Any, member: Any) -> Any:
    """``member`` presses My card; the private answer (their card panel)."""
    # By its id, not its label: the board may speak any language.
    my_card = bound(env, channel, button_id(channel.id, "card"))
    looked = await member.click(board_of(env, channel, member), custom_id=my_card)
    assert looked.ephemeral
    return looked.response


async def press(env: Any, channel: Any, member: Any, action: dict[str, Any]) -> Any:
    """Press the component for ``action`` (an entry of ``legal_actions``): on the board, or for
    a power on the member's card panel (opened first with My card). Returns once the board shows
    the press's outcome."""
    engine = engine_of(env, channel)
    kind, custom_id, value = component_for(action, engine.version, channel.id)
    custom_id = bound(env, channel, custom_id)
    if action["type"] in POWERS:
        message = await card_panel(env, channel, member)
    else:
        message = board_of(env, channel, member)
    if kind == "select":
        result = await member.select(message, [value], custom_id=custom_id)
    else:
        result = await member.click(message, custom_id=custom_id)
    await board_caught_up(env, channel)
    return result


async def board_caught_up(env: Any, channel: Any) -> None:
    """Let time pass until no board edit is waiting. Edits made by REST (after a power played on a
    card panel) take turns, 5 per 5 s in a channel, and SimCord's clock stands still between
    clicks: a quick run of powers would leave the board behind, as players' own time does not."""
    for _ in range(12):
        publisher = env.bot.publishers.get(channel.id)
        if publisher is None or publisher.waiting is None:
            return
        await env.advance_time(0.5)


def bound(env: Any, channel: Any, custom_id: str) -> str:
    """A component id as the session layer sends it: bound to the channel's game."""
    return bound_id(custom_id, session_of(env, channel).tag)


def stored(env: Any, message: Any) -> Any:
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    return env.backend.get_message(channel_id, message.id)


def snapshot_components(env: Any, message: Any) -> list[dict[str, Any]]:
    """A copy of the components Discord holds for the message: the whole V2 tree (the text above
    the card, the card's container, its sections and their controls, its action rows)."""
    return copy.deepcopy(stored(env, message).components)


def show_components(env: Any, message: Any, components: list[dict[str, Any]]) -> None:
    """Make a member's client show these components on the message (a stale or forged client)."""
    stored(env, message).components = copy.deepcopy(components)


def nested(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a snapshot's tree, in drawn order (a section's control after its
    line): the dicts themselves, so a forged client is made by changing them in place."""
    found = []
    for component in components:
        found.append(component)
        found += nested(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            found += nested([component["accessory"]])
    return found


def action_rows(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The action rows of a snapshot's tree (inside the card or not), in drawn order."""
    return [c for c in nested(components) if c.get("type") == 1]


def card_of(components: list[dict[str, Any]]) -> dict[str, Any]:
    """The card (the V2 container) of a snapshot's tree: where a forged client adds a row."""
    (container,) = [c for c in components if c.get("type") == 17]
    return container


CHARACTER_NAMES = tuple(c.name for c in CHARACTERS)


def now_ms(env: Any) -> int:
    return int(env.now().timestamp() * 1000)


async def rig(
    env: Any, channel: Any, member: Any, hands: list[int], deck: list[int] = (), **options: Any
) -> KingdomEngine:
    """Replace the live game's engine with a scripted deal (``hands`` in seat order, the dealer
    last unless a ``dealer`` option says otherwise) and post its board with `/board`. No timers
    unless ``turn_ms`` is given."""
    session = session_of(env, channel)
    players = len(session.players)
    opts = {
        "mode": "classic",
        "turn_ms": 0,
        "reveal_ms": 0,
        "decks": [rigged(hands, deck)],
        "dealer": players - 1,
    }
    opts.update(options)
    session.engine = KingdomEngine.new(players, 7, opts, now_ms(env))
    await member.slash(channel, "board")
    return session.engine


def face_down_seats(engine: KingdomEngine) -> list[int]:
    if engine.phase != "play":
        return []
    return [s for s, card in enumerate(engine.hands) if card is not None and card not in engine.face_up]


def seat_line(description: str, name: str) -> str:
    return next(line for line in description.splitlines() if "`" in line and f"**{name}**" in line)


def assert_public_secrecy(
    env: Any, channel: Any, viewer: Any, engine: KingdomEngine, names: list[str]
) -> None:
    """Nothing the channel shows ``viewer`` (a non-player) names a face-down card: no private
    card picture, and no character on the line of a seat whose card is face down."""
    messages = channel.history(viewer=viewer)
    for message in messages:
        assert not message.flags.ephemeral
        assert all(a.filename != "card.png" for a in message.attachments)
    if engine.is_over:
        return
    board = board_of(env, channel, viewer)
    description = card(board).description
    for seat in face_down_seats(engine):
        line = seat_line(description, names[seat])
        assert "face down" in line
        assert not any(name in line for name in CHARACTER_NAMES), line
