"""The project's modules import one another without a circle, counting every import: at the top,
inside a function and for types only (``if TYPE_CHECKING:``). A circle is what made the session
layer one knot around the bot class; the layers' protocols (``bot.session.host``) keep it out."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.games import registry

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs")


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(root: Path) -> dict[str, set[str]]:
    """Each module's project modules it imports (a name imported from a package that is itself
    a module counts as that module)."""
    known = modules(root)

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    kept = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*kept, base] if base else kept)
                targets |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
        edges[name] = {found for t in targets if (found := owner(t)) and found != name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(edges[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return groups


def test_no_import_circle_among_the_projects_modules():
    assert circles(imports(ROOT)) == []


def test_a_circle_through_a_type_only_import_is_found(tmp_path):
    (tmp_path / "bot" / "app").mkdir(parents=True)
    (tmp_path / "cogs").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "app" / "__init__.py").write_text("")
    (tmp_path / "bot" / "app" / "client.py").write_text("from cogs.general import GeneralCog\n")
    (tmp_path / "cogs" / "general.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app.client import GameBot\n"
    )
    assert circles(imports(tmp_path)) == [["bot.app.client", "cogs.general"]]


def test_the_bot_module_names_no_game_and_imports_no_cog():
    edges = imports(ROOT)["bot.app.client"]
    assert not [
        m for m in edges if m.startswith("cogs") or m.startswith("bot.games.") and m != "bot.games.registry"
    ]
    source = (ROOT / "bot" / "app" / "client.py").read_text(encoding="utf-8").lower()
    for game in registry.builtin().values():
        assert game.id not in source and game.title.lower() not in source
