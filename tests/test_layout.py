"""The code's shape rules (docs/architecture.md), checked so that they stay true.

* no module of the library, the service or the command line is over 600 lines;
* no private name (``_x``) is imported from another module, nor read off one (``module._x``),
  by the code, the tests or the benchmarks: they all use the public API;
* every public exception class is defined in ``tutepgn/errors.py`` and exported from ``tutepgn``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tutepgn

ROOT = Path(__file__).resolve().parent.parent
CODE = sorted(p for folder in ("tutepgn", "api", "cli") for p in (ROOT / folder).rglob("*.py"))
ALL = CODE + sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
MAX_LINES = 600


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", CODE, ids=_rel)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{_rel(path)} has {lines} lines: split it by concept"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_uses(tree: ast.AST) -> list[str]:
    """Private names taken from other modules: ``from m import _x`` and ``m._x`` on an imported module."""
    found: list[str] = []
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            found += [f"from {'.' * node.level}{node.module or ''} import {a.name}" for a in node.names
                      if _private(a.name)]
            modules.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in modules and node.value.id[:1].islower()):
            found.append(f"{node.value.id}.{node.attr} (line {node.lineno})")
    return found


@pytest.mark.parametrize("path", ALL, ids=_rel)
def test_no_private_name_crosses_a_module(path: Path) -> None:
    uses = _private_uses(ast.parse(path.read_text(encoding="utf-8")))
    assert not uses, f"{_rel(path)} reaches into other modules' private names: {uses}"


def test_every_public_exception_lives_in_errors_and_is_exported() -> None:
    misplaced = []
    for path in CODE:
        if path.name == "errors.py" and path.parent.name == "tutepgn":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.ClassDef) and not node.name.startswith("_")
                    and any(isinstance(b, ast.Name) and b.id.endswith(("Error", "Exception")) for b in node.bases)):
                misplaced.append(f"{_rel(path)}: {node.name}")
    assert not misplaced
    errors = ast.parse((ROOT / "tutepgn" / "errors.py").read_text(encoding="utf-8"))
    defined = {n.name for n in errors.body if isinstance(n, ast.ClassDef) and n.name.endswith("Error")}
    assert defined <= set(tutepgn.__all__)
