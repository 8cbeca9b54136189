"""The engine stays pure: no Discord, asyncio, wall clock or global random in its modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.games.masks as package

PURE = ["engine.py", "options.py", "faces.py"]
FORBIDDEN = {"discord", "asyncio", "time", "datetime", "random"}


@pytest.mark.parametrize("name", PURE)
def test_engine_modules_import_nothing_impure(name: str) -> None:
    tree = ast.parse((Path(package.__file__).parent / name).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN
