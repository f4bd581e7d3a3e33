"""Type checkers and editors see what the package exports: every lazy export is also imported under
``TYPE_CHECKING`` (else ``from tutepgn import Deal`` is ``Any`` to them), and ``py.typed`` ships."""

from __future__ import annotations

import ast
import tomllib
from importlib.util import resolve_name
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lazy_packages() -> list[Path]:
    """Every module of the library that exports names through ``lazy_exports``."""
    return [path for path in sorted((ROOT / "tutepgn").rglob("*.py"))
            if path.name != "lazy.py" and "lazy_exports(" in path.read_text(encoding="utf-8")]


def exported(tree: ast.Module) -> dict[str, str]:
    """name -> module, from the ``lazy_exports(__name__, {...}, globals())`` call."""
    call = next(node for node in ast.walk(tree) if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name) and node.func.id == "lazy_exports")
    table: dict[str, tuple[str, ...]] = ast.literal_eval(call.args[1])
    return {name: module for module, names in table.items() for name in names}


def type_checking_imports(tree: ast.Module) -> dict[str, str]:
    """name -> module, of the imports under ``if TYPE_CHECKING:`` at the module's top level."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    module = "." * statement.level + (statement.module or "")
                    for alias in statement.names:
                        found[alias.asname or alias.name] = module
    return found


def test_every_lazy_export_is_imported_for_type_checkers() -> None:
    packages = lazy_packages()
    assert {path.relative_to(ROOT).as_posix() for path in packages} >= {
        "tutepgn/__init__.py", "tutepgn/notation/__init__.py", "tutepgn/archive/__init__.py", "tutepgn/errors.py"}
    for path in packages:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lazy, typed = exported(tree), type_checking_imports(tree)
        parts = path.relative_to(ROOT).with_suffix("").parts
        package = ".".join(parts[:-1])
        for name, module in lazy.items():
            assert name in typed, f"{path.relative_to(ROOT)}: {name} is exported lazily but not imported under " \
                                  f"TYPE_CHECKING, so type checkers see it as Any"
            assert resolve_name(typed[name], package) == resolve_name(module, package), \
                f"{path.relative_to(ROOT)}: {name} is exported from {module} but typed from {typed[name]}"


def test_py_typed_ships() -> None:
    assert (ROOT / "tutepgn" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["tutepgn"]


def test_typecheck_names_api_and_cli_as_installed() -> None:
    """mypy sees ``api/`` and ``cli/`` under the names they are imported by (``tutepgn.api``, ``tutepgn.cli``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "typecheck.py")
    assert spec is not None and spec.loader is not None
    typecheck = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(typecheck)
    dirs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    assert typecheck.installed_name(ROOT / "api" / "routes" / "deals.py", dirs) == "tutepgn.api.routes.deals"
    assert typecheck.installed_name(ROOT / "cli" / "__init__.py", dirs) == "tutepgn.cli"
    assert typecheck.installed_name(ROOT / "tutepgn" / "notation" / "tpgn.py", dirs) == "tutepgn.notation.tpgn"
