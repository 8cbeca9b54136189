"""Command line: ``python -m bot`` runs the bot, ``play`` the local playground, ``simulate`` a game."""

from __future__ import annotations

import importlib
import sys

SIMULATORS = {
    "kabuki": "bot.games.kabuki.simulate",
    "masks": "bot.games.masks.simulate",
    "kingdom": "bot.games.kingdom.simulate",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "simulate":
        if len(args) < 2 or args[1] not in SIMULATORS:
            print(f"usage: python -m bot simulate {{{','.join(SIMULATORS)}}} [options]", file=sys.stderr)
            return 2
        return importlib.import_module(SIMULATORS[args[1]]).main(args[2:])
    print("usage: python -m bot [play | simulate GAME ...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
