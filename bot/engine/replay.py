"""What the three games' ``simulate --json`` records share: the format version, the header check
and the error a replay raises. Each game's ``check_log`` replays its own rules on top."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

LOG_FORMAT = 2  # version of every game's --json record; bump it when a field changes meaning
# The channel a replay's board is drawn for: none, so the board's own buttons press nothing (a
# replay has only its navigation buttons).
NO_CHANNEL = 0
# A record's "source", where its game was played: a simulator's ``--json`` says "simulated"
# (``simulated``), a game played on Discord says "discord" and carries its shuffle commitment
# (``bot.community.replays.log_record``). ``verify`` reads a record without a commitment as a
# simulated game's only when it says so: deleting fields never makes a played game's record one.
SIMULATED = "simulated"


def simulated(rec: Mapping[str, Any]) -> dict[str, Any]:
    """A simulator's record as its ``--json`` prints it: marked as a simulated game's, so
    ``verify`` checks its deal with no commitment to open (docs/records.md)."""
    return {**rec, "source": SIMULATED}


class ReplayError(ValueError):
    """A record the rules would not have produced (or not a record at all)."""


def check_header(rec: Mapping[str, Any], game: str, title: str) -> None:
    """``format`` and ``game`` come first, so a reader knows what it holds before reading on."""
    if list(rec)[:2] != ["format", "game"] or rec["format"] != LOG_FORMAT or rec["game"] != game:
        raise ReplayError(
            f"not a format {LOG_FORMAT} {title} record: {rec.get('format')!r}, {rec.get('game')!r}"
        )


def replaying(check: Callable[[Mapping[str, Any]], None], rec: Mapping[str, Any]) -> None:
    """Run ``check`` on ``rec``; a record too malformed to read is a ReplayError too."""
    try:
        check(rec)
    except ReplayError:
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
        raise ReplayError(f"malformed record: {type(error).__name__}: {error}") from error


def malformed(error: Exception) -> str:
    """A record the game's code could not read, in words rather than as a Python exception."""
    if isinstance(error, KeyError):
        return f"the record is incomplete: it has no {error.args[0]!r} where the game needs one"
    if isinstance(error, IndexError):
        return "the record is incomplete: a list in it is shorter than the game needs"
    if isinstance(error, ValueError):
        return f"the record has a value the game refuses: {error}"
    return f"the record has a value of the wrong kind ({error})"


def commitment(seed: int, salt: str) -> str:
    """What a game's first board shows before any card is dealt: SHA-256 of ``"<salt>:<seed>"``
    (UTF-8, no newline), so ``printf '%s' 'SALT:SEED' | sha256sum`` checks it by hand. The
    48-bit seed alone could be found from its hash by trying them all; the 128-bit secret salt,
    shown only on the final board with the seed, makes that hopeless (docs/records.md)."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()
