"""The front-ends beside the channel that watch a session: the Activity's pages.

The session layer publishes every board once (``bot.session.publisher``) and delivers every
private event once (``GameCog._deliver``); besides Discord, each goes to the watchers here, which
show it on their own front-end: the Activity's server sends the board to every page open on the
channel, and a member's private message to that member's pages alone. A watcher only queues what
it sends (a slow page must never hold the session's lock), and a bot with no Activity has none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.glue.board import Board
    from bot.session.sessions import Session


class Watcher(Protocol):
    def board(self, session: Session, board: Board) -> None:
        """``board`` is now the channel's board (bound to its game, its picture not yet attached)."""

    def private(self, session: Session, seat: int, message: dict[str, Any]) -> bool:
        """A private message (``GameCog.render_private``'s keyword arguments) for ``seat`` alone;
        whether one of the seat's pages was there to take it."""

    def reaches(self, session: Session, seat: int) -> bool:
        """Whether ``seat``'s member has a page open on the session's channel now: their private
        news reaches them there, with no Discord interaction of theirs to follow."""


class Tables:
    def __init__(self) -> None:
        self.watchers: list[Watcher] = []

    def watch(self, watcher: Watcher) -> None:
        self.watchers.append(watcher)

    def board(self, session: Session, board: Board) -> None:
        for watcher in self.watchers:
            watcher.board(session, board)

    def private(self, session: Session, seat: int, message: dict[str, Any]) -> bool:
        reached = False
        for watcher in self.watchers:
            reached |= watcher.private(session, seat, message)
        return reached

    def reaches(self, session: Session, seat: int) -> bool:
        return any(watcher.reaches(session, seat) for watcher in self.watchers)
