"""The layers hold: every import of ``tutepgn/``, ``api/`` and ``cli/`` against the rules of docs/architecture.md.

The rules are read from the doc's tables (section "The rules"), so the doc and this test cannot drift apart:
the layers and what each may import, the third-party modules a layer may not import, the modules only their
own layer may import, and the exceptions with their reasons.  Imports are read with ``ast``: top level, inside
functions, under ``TYPE_CHECKING``, relative ones resolved, a package's lazy export taken as the module that
defines it (``from tutepgn import Deal`` imports ``tutepgn.engine``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
SOURCES = {"tutepgn": ROOT / "tutepgn", "tutepgn.api": ROOT / "api", "tutepgn.cli": ROOT / "cli"}
"""Each installed package and the folder it comes from (pyproject.toml's package-dir)."""


@dataclass(frozen=True)
class Import:
    """One import: the importing module, the module imported (a name of it resolved), and where it is written."""

    importer: str
    target: str
    where: str


def module_files() -> dict[str, Path]:
    """Every Python module of the three folders by its dotted name (a package by its own name)."""
    found = {}
    for package, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            if package == "tutepgn" and path.parts[len(folder.parts)] in ("api", "cli"):
                continue
            parts = path.relative_to(folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            found[name] = path
    return found


def lazy_names(path: Path, package: str) -> dict[str, str]:
    """A package's lazy exports (``lazy_exports(__name__, {".engine": ("Deal",)}, ...)``): name -> module."""
    names: dict[str, str] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_exports":
            for module, exported in ast.literal_eval(node.args[1]).items():
                target = module if not module.startswith(".") else resolve(package, True, module.count(".") - (module == "."), module.lstrip("."))
                for name in exported:
                    names[name] = f"{target}.{name}" if module == "." else target
    return names


def resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a relative import's module."""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, name] if name else base)


def imports() -> list[Import]:
    """Every import the three folders hold."""
    files = module_files()
    lazy = {name: lazy_names(path, name) for name, path in files.items() if path.name == "__init__.py"}
    found = []
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                found += [Import(module, alias.name, where) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = resolve(module, is_package, node.level, node.module) if node.level else node.module or ""
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    if target not in files:
                        target = lazy.get(base, {}).get(alias.name, base)
                    found.append(Import(module, target, where))
    return found


def table(header: str) -> list[list[str]]:
    """The rows of the doc's table whose header row is ``header``, as cells."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def names(cell: str) -> list[str]:
    """The names a cell lists: ``a``, ``b`` or a, b."""
    return [n.strip().strip("`") for n in cell.split(",") if n.strip()]


@dataclass(frozen=True)
class Rules:
    """The doc's tables: layers (name -> modules, may import, rule), third-party bans, private modules, exceptions."""

    layers: dict[str, tuple[list[str], set[str], str]]
    banned: list[tuple[str, set[str], list[str]]]
    private: list[tuple[str, list[str], set[str]]]
    exceptions: set[tuple[str, str]]

    def layer_of(self, module: str) -> str | None:
        """The layer a module of ours belongs to (the longest package named), None for a third-party module."""
        best = max(((p, layer) for layer, (packages, _, _) in self.layers.items() for p in packages
                    if module == p or module.startswith(p + ".")), default=None, key=lambda x: len(x[0]))
        return best[1] if best else None


def rules() -> Rules:
    """The rules as the doc states them."""
    layers = {row[0]: (names(row[1]), set(names(row[2])), row[3])
              for row in table("| layer | modules | may import | rule |")}
    banned = [(row[0], set(names(row[1])), names(row[2])) for row in table("| rule | layers | may not import |")]
    private = [(row[0], names(row[1]), set(names(row[2]))) for row in table("| rule | modules | only from |")]
    exceptions = {(row[0].strip("`"), row[1].strip("`")) for row in table("| importer | imports | why |")}
    return Rules(layers, banned, private, exceptions)


def broken(found: list[Import], law: Rules) -> list[str]:
    """Each import that breaks a rule, with the rule's sentence."""
    out = []
    for imp in found:
        if (imp.importer, imp.target) in law.exceptions:
            continue
        mine, theirs = law.layer_of(imp.importer), law.layer_of(imp.target)
        if theirs is not None and theirs != mine and theirs not in law.layers[mine][1]:
            out.append(f"{imp.where}: {imp.importer} imports {imp.target} ({theirs}): {law.layers[mine][2]}")
        for rule, where, modules in law.banned:
            top = imp.target.split(".")[0]
            if mine in where and top in modules:
                out.append(f"{imp.where}: {imp.importer} imports {imp.target}: {rule}")
        for rule, modules, allowed in law.private:
            if mine not in allowed and any(imp.target == m or imp.target.startswith(m + ".") for m in modules):
                out.append(f"{imp.where}: {imp.importer} imports {imp.target}: {rule}")
    return out


def test_no_import_breaks_a_rule_of_the_architecture() -> None:
    """Every import of the library, the service and the command line obeys the doc's tables."""
    problems = broken(imports(), rules())
    assert not problems, "\n".join(problems)


def test_the_rules_name_what_exists() -> None:
    """Every layer, package and exception the doc names is real: a rule about nothing would hold by itself."""
    law, files = rules(), module_files()
    assert set(law.layers) >= {"game", "notation", "check", "analysis", "recording", "tournament", "archive",
                               "service", "command line"}
    packages = [p for packages, _, _ in law.layers.values() for p in packages]
    assert all(p in files or (ROOT / p.replace(".", "/")).is_dir() for p in packages), packages
    for _, allowed, _ in law.layers.values():
        assert allowed <= set(law.layers)
    for _, where, _ in law.banned:
        assert where <= set(law.layers)
    for _, modules, allowed in law.private:
        assert set(modules) <= set(files) and allowed <= set(law.layers)
    found = {(imp.importer, imp.target) for imp in imports()}
    assert law.exceptions <= found, law.exceptions - found  # an exception no longer needed goes from the doc
    assert {law.layer_of(m) for m in files} >= set(law.layers) - {"native"} and None not in {
        law.layer_of(m) for m in files}


@pytest.mark.parametrize(("importer", "line", "rule"), [
    ("tutepgn.engine", "from .notation import read_record", "The game imports nothing of the other layers"),
    ("tutepgn.engine", "from .check.replay import replay", "The game imports nothing of the other layers"),
    ("tutepgn.notation.tags", "from ..check import validate", "The notation knows the game"),
    ("tutepgn.check.validate", "from ..analysis import Solver", "Nothing but analysis/ loads the solver"),
    ("tutepgn.check.validate", "import duckdb", "Formats and validation know no database."),
    ("tutepgn.check.report", "from ..archive.store import Archive", "Validation knows the game and the notation"),
    ("tutepgn.archive.store", "from rich.text import Text", "The library knows no screen and no HTTP server"),
    ("tutepgn.recording.live", "import fastapi", "The library knows no screen and no HTTP server"),
    ("tutepgn.api.app", "from tutepgn.cli.main import app", "The service imports the library, never the command line."),
    ("tutepgn.cli.validate", "from tutepgn.api.deps import Service", "The command line imports the library, never"),
    ("tutepgn.tournament.standings", "from ..archive.store import Archive", "Club events are pure logic"),
    ("tutepgn.tournament.event", "import duckdb", "Formats and validation know no database."),
    ("tutepgn.analysis.solve", "from ..tournament import standings", "Nothing but analysis/ loads the solver"),
])
def test_a_forbidden_import_fails_with_its_rule(importer: str, line: str, rule: str) -> None:
    """A forbidden import added to a module (inside a function, as a late import would be) is found, with its rule."""
    path = module_files()[importer]
    tree = ast.parse(f"def late():\n    {line}\n")
    node = tree.body[0].body[0]  # type: ignore[attr-defined]
    found = []
    if isinstance(node, ast.Import):
        found = [Import(importer, alias.name, "added") for alias in node.names]
    else:
        is_package = path.name == "__init__.py"
        base = resolve(importer, is_package, node.level, node.module) if node.level else node.module
        lazy = {"tutepgn.analysis": lazy_names(ROOT / "tutepgn/analysis/__init__.py", "tutepgn.analysis")}
        files = module_files()
        for alias in node.names:
            target = f"{base}.{alias.name}"
            found.append(Import(importer, target if target in files else lazy.get(base, {}).get(alias.name, base),
                                "added"))
    problems = broken(found, rules())
    assert problems and any(rule in p for p in problems), problems
    assert re.search(r"added: ", problems[0])
