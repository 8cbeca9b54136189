"""The engine is pure: no Discord, event loop, wall clock or global random in its modules."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.games.kingdom as kingdom

PURE = ("cards.py", "engine.py", "resolution.py")
FORBIDDEN = {"discord", "asyncio", "time", "datetime", "random"}


def test_engine_modules_import_nothing_impure():
    root = Path(kingdom.__file__).parent
    for name in PURE:
        tree = ast.parse((root / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            assert not {m.split(".")[0] for m in modules} & FORBIDDEN, f"{name} imports {modules}"
