"""What each command line loads, in a fresh process as ``tute`` runs: ``tute --help`` and ``tute rules`` none of
the heavy libraries, and no command pyarrow unless it writes Arrow (an import).  The CPU time is measured by
``bench/cli_startup.py``, not here."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutepgn.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pyarrow", "numpy", "duckdb", "lark", "pydantic", "matplotlib", "fastapi", "uvicorn")
PROBE = """
import json, runpy, sys
sys.argv = ["tute", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("tutepgn.cli", run_name="__main__")
except SystemExit as exc:
    code = exc.code or 0
sys.stderr.write("\\n" + json.dumps({"code": code, "loaded": sorted(m for m in %r if m in sys.modules)}))
""" % (HEAVY,)


def loaded(*args: str) -> tuple[int, set[str], str]:
    """Run ``tute ARGS`` in a fresh process: its exit code, the heavy modules it imported, its stdout."""
    run = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    report = json.loads(run.stderr.rsplit("\n", 1)[-1])
    return report["code"], set(report["loaded"]), run.stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("startup") / "a.duckdb"
    code, modules, _ = loaded("import", str(ROOT / "samples" / "tutes.tpgn"), "--db", str(path), "--jobs", "1")
    assert code == 0 and "pyarrow" in modules  # an import writes Arrow batches
    return path


def test_help_loads_no_library_but_the_command_line_itself() -> None:
    code, modules, out = loaded("--help")
    assert code == 0 and modules == set()
    assert "search" in out and "show" in out and "<bool>" not in out


@pytest.mark.parametrize("args", [["rules"], ["rules", "ludoteka", "--json"], ["rules", "-f", "json"],
                                  ["--lang", "es", "rules", "playcard-2p match_target=5"]])
def test_rules_loads_the_rulesets_only(args: list[str]) -> None:
    """Not even pydantic: the rulesets are dataclasses, and the command line's words are taken as they are."""
    code, modules, out = loaded(*args)
    assert code == 0 and out
    assert modules == set()


def test_a_refused_choice_is_still_explained_by_typer() -> None:
    run = subprocess.run([sys.executable, "-m", "tutepgn.cli", "rules", "-f", "xml"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2 and "'xml' is not one of 'table', 'json'" in run.stderr


def test_the_listing_shows_each_commands_docstring_as_its_module_has_it() -> None:
    """``tute --help`` reads the docstrings from the sources (cli_main.docstring); they are the functions' own."""
    for spec in [*cli_main.COMMANDS.values(), *(s for subs, _help in cli_main.GROUPS.values() for s in subs.values())]:
        if spec:
            module, _sep, function = spec.partition(":")
            assert cli_main.docstring(module, function) == inspect.getdoc(cli_main.function_of(spec)), spec


@pytest.mark.parametrize("args", [
    ["search", "--player", "ana"], ["search", "--json"], ["stats"], ["export", "--format", "jsonl"],
    ["archive", "verify"], ["search", "--help"],
])
def test_no_archive_read_loads_pyarrow(db: Path, args: list[str]) -> None:
    code, modules, _ = loaded(*args, *([] if "--help" in args else ["--db", str(db)]))
    assert code == 0
    assert "pyarrow" not in modules and "numpy" not in modules


def test_show_loads_no_pyarrow(db: Path) -> None:
    code, _, out = loaded("search", "--db", str(db), "--json")
    deal = json.loads(out)[0]["id"]
    code, modules, out = loaded("show", str(deal), "--db", str(db))
    assert code == 0 and out.startswith("[Event ")
    assert "pyarrow" not in modules


@pytest.mark.parametrize("command", ["simulate", "validate", "convert", "replay", "record", "analyse", "import",
                                     "search", "show", "stats", "export", "sql", "serve"])
def test_each_commands_help_loads_no_pyarrow(command: str) -> None:
    code, modules, out = loaded(command, "--help")
    assert code == 0 and f"tute {command}" in out and "<bool>" not in out and "<list[" not in out
    assert "pyarrow" not in modules and "numpy" not in modules and "duckdb" not in modules
