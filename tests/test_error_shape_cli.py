"""One JSON error shape for every command (like Datasette's test_error_shape.py).

Every registered command must have a case here, so a new command cannot skip
it: driven into an error with JSON asked for (``--json``, ``--nl`` or
``--format json|nl``), it prints a :class:`tutepgn.errors.Problem` on stderr,
whose ``status`` is the exit code, ``instance`` the command, and ``errors`` items
:class:`tutepgn.errors.ErrorItem`.  A command with no JSON output (it writes
records or runs interactively) still answers a command line that asks for JSON
with a JSON usage error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from tutepgn.cli.main import app
from tutepgn.errors import ErrorItem, Problem

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "tutes.tpgn"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("shape") / "a.duckdb"
    result = runner.invoke(app, ["import", str(SAMPLE), "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return path


# command -> (arguments after the command, with {db} an archive and {missing} a path that is not there; exit code)
CASES: dict[str, tuple[list[str], int]] = {
    "simulate": (["--rules", "chinchon", "--format", "json"], 2),
    "rules": (["nonsense", "--json"], 2),
    "validate": (["{missing}", "--nl"], 2),
    "convert": ([str(SAMPLE), "--json"], 2),  # writes records (--to json is a file form): a usage error
    "replay": (["{missing}", "--json"], 2),
    "record": (["--rules", "playcard-2p", "--json"], 2),  # interactive: a usage error
    "play": (["--rules", "playcard-2p", "--json"], 2),  # interactive: a usage error
    "arena": (["heuristic", "minimax", "--json"], 2),
    "analyse": (["{missing}", "--json"], 2),
    "import": (["{missing}", "--db", "{db}", "--json"], 2),
    "search": (["--db", "{db}", "--seat", "N", "--format", "nl"], 2),
    "show": (["12345", "--db", "{db}", "--json"], 2),  # no such deal
    "stats": (["--db", "{missing}", "--json"], 2),
    "export": (["--db", "{missing}", "--format", "json"], 2),
    "sql": (["SELEC 1", "--db", "{db}", "--json"], 2),
    "puzzles": (["Nobody", "--archive", "{db}", "--json"], 2),  # no such player
    "ratings": (["--db", "{missing}", "--json"], 2),
    "serve": (["--json"], 2),  # a server: a usage error
    "archive verify": (["--db", "{missing}", "--json"], 2),
    "archive rebuild": (["--db", "{missing}", "--json"], 2),
    "archive analyse": (["--db", "{missing}", "--json"], 2),
    "event new": (["Liga", "--rules", "nonsense", "--db", "{db}", "--json"], 2),
    "event add": (["Nope", "Ana/Bea", "--db", "{db}", "--json"], 2),
    "event pair": (["Nope", "--db", "{db}", "--json"], 2),  # no such event
    "event result": (["Nope", "2-1", "--round", "1", "--table", "1", "--db", "{db}", "--json"], 2),
    "event standings": (["Nope", "--db", "{db}", "--json"], 2),
    "event crosstable": (["Nope", "--db", "{db}", "--json"], 2),
    "event history": (["Nope", "1", "--db", "{db}", "--json"], 2),
    "event sheets": (["Nope", "--url", "http://192.168.1.10:8000", "--db", "{db}", "--json"], 2),
    "event ratings": (["--db", "{missing}", "--json"], 2),
}


def registered(group: object, prefix: str = "") -> list[str]:
    """Every command of the app, as typed after ``tute`` (``archive verify``)."""
    names: list[str] = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        path = f"{prefix}{name}"
        names.extend(registered(command, path + " ") if hasattr(command, "commands") else [path])
    return names


def check_problem(stderr: str, status: int, command: str) -> Problem:
    """stderr is one Problem, nothing else: the exit code as status, the command as instance, ErrorItem items."""
    data = json.loads(stderr)
    assert set(data) == set(Problem.model_fields)
    problem = Problem.model_validate(data)
    assert problem.status == status and problem.instance == f"tute {command}".rstrip()
    assert problem.title and problem.detail and problem.errors
    for item in data["errors"]:
        assert set(item) == set(ErrorItem.model_fields)
        assert ErrorItem.model_validate(item).message
    return problem


def test_every_command_has_a_case() -> None:
    assert sorted(registered(typer.main.get_command(app))) == sorted(CASES)


@pytest.mark.parametrize("command", sorted(CASES))
def test_error_in_json_mode_is_a_problem(command: str, db: Path, tmp_path: Path) -> None:
    args, status = CASES[command]
    words = [a.format(db=db, missing=tmp_path / "missing.tpgn") for a in args]
    result = runner.invoke(app, [*command.split(), *words])
    assert result.exit_code == status, result.output
    check_problem(result.stderr, status, command)
    assert "Traceback" not in result.output


def test_a_syntax_error_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tpgn"
    bad.write_text(SAMPLE.read_text(encoding="utf-8").replace("\n1. ", "\n1. N 9Z\n2. ", 1), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--strict", "--json", str(bad)])
    problem = check_problem(result.stderr, 2, "validate")
    assert result.exit_code == 2 and problem.title == "Syntax error"
    [item] = problem.errors
    assert item.source == str(bad) and item.line and item.column and item.text == "9Z"


def test_each_bad_filter_is_an_item(db: Path) -> None:
    result = runner.invoke(app, ["search", "--db", str(db), "--trump", "X", "--cante", "30", "--json"])
    problem = check_problem(result.stderr, 2, "search")
    assert [item.message.split(":")[0] for item in problem.errors] == ["--trump", "--cante"]


@pytest.mark.parametrize(("args", "command"), [
    (["validate", "--json"], "validate"),  # a missing argument
    (["search", "--limit", "many", "-f", "json"], "search"),  # a bad value
    (["no-such-command", "--json"], ""),  # an unknown command
    (["archive", "verify", "--format=json", "--nope"], "archive verify"),  # an unknown option
])
def test_usage_errors_in_json_mode_are_problems_too(args: list[str], command: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert check_problem(result.stderr, 2, command).title == "Usage error"


def test_text_mode_keeps_the_readable_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path / "missing.tpgn")])
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'missing.tpgn'}: no such file or directory\n"
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 2 and not result.stderr.lstrip().startswith("{")
