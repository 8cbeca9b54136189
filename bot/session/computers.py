"""Computer players in empty seats: who they are, and what each does next.

A computer seat's user id is negative (-1, -2, ...; Discord ids are positive), so a session, its
JSON and every seat lookup need nothing new, and its name says what it is ("🤖 Robo 1").

What a computer does is its game's policy (the descriptor's ``computers``, e.g.
``bot.games.kabuki.players``): ``plan``, a pure function of the seat's own ``view`` and legal
actions (exactly what that seat's buttons and private messages could show a person, never the
engine's hidden state), what it remembers of the public events (the policy's ``observe``, Kabuki's
only) and a seeded generator, returning the action and how long a person would take to make it
(a think time on turns, a reaction time for races). The session layer keeps each plan
with the session, so a restart carries it over, and applies it through its timer as if pressed.

Besides pressing, a computer may say something at the table (a ``SAY`` action: a Monster Masks
Mime's emoji). The session layer posts it in the game channel instead of applying it to the
engine, and keeps what the Mime said this turn (``heard``, a person's emoji too) with the session,
where every computer's next plan reads it (``seen``): it is public, so any seat may.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from bot.engine.computers import SAY as SAY  # timers and tests read it from here
from bot.engine.computers import Action, Memory, Plan
from bot.engine.protocol import Event

COMPUTER_EMOJI = "🤖"
MIMED = "mimed"  # Session.extra key: {"turn": n, "texts": [...], "refused": n}, the Mime's posts this turn


def is_computer(user_id: int) -> bool:
    return user_id < 0


def next_computer_id(players: Sequence[int]) -> int:
    return min([0, *players]) - 1


def computer_name(user_id: int) -> str:
    return f"{COMPUTER_EMOJI} Robo {-user_id}"


# A game's computer policy is its descriptor's ``computers`` module (``bot.games.registry``), handed
# to its cog as the bot loads it (``GameCog.computer_policy``) and passed in from there: the
# session layer never looks a game up. None: the game has no computer players.


def plan(
    policy: ModuleType | None,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    rng: random.Random,
    memory: Memory | None = None,
) -> Plan | None:
    """What a computer does next by ``policy`` and after how long, or None to wait."""
    return policy.plan(view, legal, rng, memory) if policy is not None else None


def observe(session: Any, events: Sequence[Event], policy: ModuleType | None) -> None:
    """Computer seats that remember (their policy's ``observe``: Kabuki's) learn from the public
    events alone (what anyone at the table saw placed or revealed); kept with the session."""
    public = [event for event in events if event.to is None]
    remember = getattr(policy, "observe", None)
    if remember is None or not public:
        return
    for seat in session.computer_seats():
        seed = random.Random(f"{session.seed}:{seat}:seen:{session.planned}").getrandbits(64)
        session.memories[seat] = remember(seat, seed, session.memories.get(seat), public)


# ---------------------------------------------------------------------- plans kept in a session


def mimed(session: Any) -> list[str]:
    """What the Mime posted this turn (empty in a new turn: it is kept for one turn only)."""
    said = session.extra.get(MIMED)
    turn = getattr(session.engine, "turn", None)
    return list(said["texts"]) if said and said["turn"] == turn else []


def seen(session: Any, seat: int) -> dict[str, Any]:
    """A seat's view, with what anyone at the table saw said: the Mime's emoji this turn, and
    which seats are computers (their names say so)."""
    view = session.engine.view(seat)
    view["mimed"] = mimed(session)
    view["mime_refused"] = refusals(session)
    view["computer_seats"] = session.computer_seats()
    return view


def refusals(session: Any) -> int:
    """How many of a computer Mime's posts Discord refused this turn."""
    said = session.extra.get(MIMED)
    return said.get("refused", 0) if said and said["turn"] == getattr(session.engine, "turn", None) else 0


def heard(session: Any, text: str) -> None:
    """The Mime posted ``text`` this turn: keep it with the session, and let every computer
    that had planned from less think again (a plan it is still carrying out is redrawn)."""
    said = {"turn": session.engine.turn, "texts": [*mimed(session), text]}
    if refusals(session):  # kept for the turn: a Mime refused twice stays silent
        said["refused"] = refusals(session)
    session.extra[MIMED] = said
    for seat in session.computer_seats():
        session.plans.pop(seat, None)


def unheard(session: Any, text: str) -> None:
    """Discord refused to post a computer Mime's ``text``: nobody saw it, so no computer reads it
    (their plans are drawn again), and the Mime thinks again and posts once more this turn
    (``MIME_TRIES``); refused again, it stays silent and the turn runs on to its guess timer."""
    texts = mimed(session)
    if text in texts:
        texts.remove(text)
    refused = refusals(session) + 1
    session.extra[MIMED] = {"turn": session.engine.turn, "texts": texts, "refused": refused}
    for seat in session.computer_seats():
        session.plans.pop(seat, None)


def say(session: Any, seat: int, action: Action) -> list[Event]:
    """A computer's ``SAY`` plan coming due: kept as heard and announced (public event ``said``,
    which the game's cog posts), unless its turn is over."""
    legal = session.engine.legal_actions(seat)
    if not any(a.get("turn") == action["turn"] for a in legal):
        return []
    heard(session, action["text"])
    return [Event("said", {"seat": seat, "turn": action["turn"], "text": action["text"]})]


def _still_good(action: Action, legal: Sequence[Action]) -> bool:
    if action.get("type") == SAY:  # said while the seat may still act in that turn
        return any(a.get("turn") == action["turn"] for a in legal)
    return action in legal


def replan(session: Any, now: int, policy: ModuleType | None) -> None:
    """Give each computer seat of a running game its next move: a plan still legal is kept (a
    think already under way goes on), any other is drawn afresh from the seat's own view."""
    engine = session.engine
    for seat in session.computer_seats():
        legal = engine.legal_actions(seat)
        kept = session.plans.get(seat)
        if kept is not None and _still_good(kept["action"], legal):
            continue
        session.plans.pop(seat, None)
        if not legal:
            continue
        rng = random.Random(f"{session.seed}:{seat}:{session.planned}")
        session.planned += 1
        made = plan(policy, seen(session, seat), legal, rng, session.memories.get(seat))
        if made is not None:
            session.plans[seat] = {"at": now + made[0], "action": made[1]}


def next_move_at(session: Any) -> int | None:
    return min((p["at"] for p in session.plans.values()), default=None)


def due(session: Any, now: int) -> list[tuple[int, int, Action]]:
    """The plans due by ``now`` as (at, seat, action), earliest first, taken out of the session."""
    ready = sorted((p["at"], seat, p["action"]) for seat, p in session.plans.items() if p["at"] <= now)
    for _, seat, _ in ready:
        del session.plans[seat]
    return ready
