"""Game options of Island of Monster Masks and their validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULT_OPTIONS: dict[str, Any] = {
    "guess_ms": 60_000,
    "race_window_ms": 250,
    "reveal_ms": 5_000,
    "mime_mode": "camera",
    "sounds": False,
    # The cards' rule is one slap per turn, lost race or not; this keeps the older table rule
    # where a player who loses a race may slap another tile.
    "second_chance": False,
    # How well computer players read the Mime's emoji (bot.games.masks.players.SKILLS).
    "computer_skill": "normal",
}

# Inclusive bounds. A guess timer under 5 s leaves no time to mime, and one of up to a day lets a
# slow server mime by emoji; a race window above 2 s
# would make every slap feel laggy; a reveal pause above a minute stalls the table.
INT_RANGES: dict[str, tuple[int, int]] = {
    "guess_ms": (5_000, 86_400_000),
    "race_window_ms": (0, 2_000),
    "reveal_ms": (0, 60_000),
}

MIME_MODES = ("camera", "emoji")
COMPUTER_SKILLS = ("easy", "normal", "hard")


def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in and every value checked; raise ValueError with a readable message.

    Unknown keys are refused rather than ignored so a typo ("guess_s") is not silently lost.
    """
    given = dict(options or {})
    unknown = sorted(set(given) - set(DEFAULT_OPTIONS))
    if unknown:
        raise ValueError(f"Unknown option(s) for Island of Monster Masks: {', '.join(unknown)}.")
    out = {**DEFAULT_OPTIONS, **given}
    for key, (low, high) in INT_RANGES.items():
        value = out[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"Option {key} must be a whole number of milliseconds.")
        if not low <= value <= high:
            raise ValueError(f"Option {key} must be between {low} and {high} ms, not {value}.")
    if out["mime_mode"] not in MIME_MODES:
        raise ValueError(f"Option mime_mode must be one of {', '.join(MIME_MODES)}.")
    if out["computer_skill"] not in COMPUTER_SKILLS:
        raise ValueError(f"Option computer_skill must be one of {', '.join(COMPUTER_SKILLS)}.")
    for key in ("sounds", "second_chance"):
        if not isinstance(out[key], bool):
            raise ValueError(f"Option {key} must be true or false.")
    return out
