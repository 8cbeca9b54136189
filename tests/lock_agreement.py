"""Whether ``uv.lock`` still fits ``pyproject.toml``, read from the two files alone.

uv's own ``uv lock --check --offline`` is the authority, but when the lock no longer fits it tries
to resolve again, and offline it can resolve only from what its cache happens to hold: on a fresh
machine it says "the network was disabled" and names no package. This reads what the lock
recorded for the project and what it pinned, so a disagreement is found, and named, the same way
on every machine."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version


def requirements(pyproject: dict[str, Any]) -> list[tuple[str | None, Requirement]]:
    """Each requirement of the project with the extra that asks for it (None: always)."""
    project = pyproject["project"]
    found = [(None, Requirement(text)) for text in project.get("dependencies", [])]
    for extra, texts in project.get("optional-dependencies", {}).items():
        found += [(extra, Requirement(text)) for text in texts]
    return found


Asked = tuple[str, SpecifierSet, frozenset[str], str | None]


def recorded(lock: dict[str, Any], project_name: str) -> list[Asked]:
    """What the lock says the project asked for when it was made: (name, specifier, its extras,
    the project's extra that asked)."""
    name = canonicalize_name(project_name)
    root = next(p for p in lock["package"] if canonicalize_name(p["name"]) == name)
    found = []
    for entry in root["metadata"]["requires-dist"]:
        marker = entry.get("marker", "")
        extra = marker.split("==")[1].strip().strip("'\"") if marker.startswith("extra ==") else None
        wanted = frozenset(entry.get("extras", []))
        found.append(
            (canonicalize_name(entry["name"]), SpecifierSet(entry.get("specifier", "")), wanted, extra)
        )
    return found


def disagreements(pyproject: dict[str, Any], lock: dict[str, Any]) -> list[str]:
    """One line per requirement the lock does not fit, naming the package; empty when it fits."""
    asked_before = recorded(lock, pyproject["project"]["name"])
    pinned: dict[str, list[Version]] = {}
    for package in lock["package"]:
        pinned.setdefault(canonicalize_name(package["name"]), []).append(Version(package["version"]))
    problems = []
    for extra, req in requirements(pyproject):
        name, spec = canonicalize_name(req.name), str(req.specifier)
        asked = f"{name}{spec}"
        where = f" (extra {extra!r})" if extra else ""
        versions = pinned.get(name)
        if not versions:
            problems.append(f"{name}: pyproject.toml asks for {asked}{where}; uv.lock has no {name} at all")
            continue
        outside = [str(v) for v in versions if not req.specifier.contains(v, prereleases=True)]
        if outside:
            problems.append(
                f"{name}: pyproject.toml asks for {asked}{where}; uv.lock pins {', '.join(outside)}"
            )
        elif (name, req.specifier, frozenset(req.extras), extra) not in asked_before:
            problems.append(
                f"{name}: pyproject.toml asks for {asked}{where}, which uv.lock was not made from"
            )
    return problems


def read(folder: Path) -> list[str]:
    """The disagreements of the two files in ``folder``."""
    pyproject = tomllib.loads((folder / "pyproject.toml").read_text())
    lock = tomllib.loads((folder / "uv.lock").read_text())
    return disagreements(pyproject, lock)
