"""What a game's computer policy is (``GameDescriptor.computers``): the types of its ``plan`` and
the one action that is said rather than pressed. The session layer (``bot.session.computers``)
calls the plan and carries it out; the game's package holds what its computers think.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Action = dict[str, Any]
Plan = tuple[int, Action]  # (delay in ms, the action)
Memory = list[list[int]]  # what a computer seat remembers of the public events (Kabuki: its stacks)
# plan(view, legal, rng, memory): the seat's next move from its own view, or None to wait.
Policy = Callable[[Mapping[str, Any], Sequence[Action], random.Random, Memory | None], Plan | None]

SAY = "say"  # an action that is said in the game channel, not pressed: {"type", "turn", "text"}
