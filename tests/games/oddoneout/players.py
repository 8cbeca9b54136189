"""Odd One Out's computer seats: a pick at random, after a person's moment of thought."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.computers import Action, Memory, Plan


def plan(
    view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Memory | None
) -> Plan | None:
    return (rng.randint(1000, 3000), rng.choice(list(legal))) if legal else None
