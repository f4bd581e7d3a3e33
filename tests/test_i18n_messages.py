"""Spanish and English for what a person reads outside the pages: the validator's findings, the engine's refusals,
the reader's located errors, the CLI's messages and help, and ``tute rules``' explanations (docs/i18n.md).

Two kinds of test: an AST check that no message a person reads is written as a bare literal or an f-string
(it would never reach the catalogue), and real runs of the CLI and the service in Spanish and in English.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import create_app
from tutepgn.api.settings import Settings
from tutepgn.archive import Archive
from tutepgn.i18n import speaking
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records
from tutepgn.check.validate import validate_text

ROOT = Path(__file__).resolve().parent.parent
ERROR_CLASSES = frozenset(node.name for node in ast.parse((ROOT / "tutepgn" / "errors.py").read_text()).body
                          if isinstance(node, ast.ClassDef))
"""The exceptions of tutepgn/errors.py: their first argument is a message a person reads."""
LIBRARY = sorted(str(p.relative_to(ROOT)) for folder in ("tutepgn", "api") for p in (ROOT / folder).rglob("*.py"))
"""Every module of the library and of the service: findings, refusals, located errors, sheets, frames, settings."""
NOT_FOR_PEOPLE = {
    ("tutepgn/analysis/solve.py", "ValueError(): f'card {only} is not a legal play in this position'"):
        "a caller's mistake: the analysis forces only legal cards, and the message names the card's number",
}
"""Messages no person reads (a bug if one is seen), by module and the check's own words for them: why each is
left in English."""
CLI = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "cli").glob("*.py"))
PRINTERS = frozenset({"echo", "secho", "print", "BadParameter", "ValueError", "OSError", "FileNotFoundError"})
"""Functions (``typer.echo``, ``out.print``, ``err.print`` ...) whose first argument a person reads."""
FOR_PEOPLE_IN_LIBRARY = frozenset({"ValueError", "FileExistsError", "Reply"})
"""Besides the errors of tutepgn/errors.py and ``Finding``: calls of the library whose message a person reads."""


def untranslated(node: ast.expr) -> bool:
    """A message written so that the catalogue never sees it: a literal with words, an f-string, or text built
    from them (``+``, ``%``, ``.format``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return untranslated(node.left) or untranslated(node.right)
    if isinstance(node, ast.IfExp):
        return untranslated(node.body) or untranslated(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return untranslated(node.func.value)
    if isinstance(node, ast.Call) and called(node) == "Text" and node.args:  # rich's Text("...") printed
        return untranslated(node.args[0])
    return False


def called(node: ast.Call) -> str:
    """The name a call is made by: ``Finding``, ``echo`` (of ``typer.echo``), ``print`` (of ``out.print``)."""
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def message_literals(source: str, *, cli: bool) -> list[tuple[int, str]]:
    """(line, what) for each message a person reads that is a bare literal or an f-string.

    Messages are: the first argument of an exception of tutepgn/errors.py; the third of ``Finding(severity,
    code, message)``; in the library the first of ``ValueError``, ``FileExistsError`` (its second, after the
    errno) and ``Reply``; in ``cli/`` the first of ``typer.echo``/``secho``, ``print`` (any console's),
    ``BadParameter``, ``ValueError`` and ``OSError`` (raised through ``fail``), and an f-string or built text as ``help=`` (a literal ``help=`` is a message: cli/main.py
    translates it as the help is written, and ``tests/i18ncheck.py`` finds it for the catalogue).
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = called(node)
        args = list(node.args)
        if name in ERROR_CLASSES or (not cli and name in FOR_PEOPLE_IN_LIBRARY) or (cli and name in PRINTERS):
            message = args[1] if name == "FileExistsError" and len(args) > 1 else args[0] if args else None
        elif name == "Finding":
            message = args[2] if len(args) > 2 else None
        else:
            message = None
        if message is not None and untranslated(message):
            found.append((node.lineno, f"{name}(): {ast.unparse(message)[:60]}"))
        for keyword in node.keywords:
            if keyword.arg in ("message", "help") and isinstance(keyword.value, (ast.JoinedStr, ast.BinOp)) \
                    and untranslated(keyword.value):
                found.append((node.lineno, f"{name}({keyword.arg}=...): {ast.unparse(keyword.value)[:60]}"))
    return found


def test_the_check_finds_literal_and_fstring_messages() -> None:
    source = ('Finding("error", "x", f"{seat} must follow")\nraise IllegalPlay("not held", rule="x")\n'
              'raise NotationError(_("fine"), line=1, column=1)\ntyper.echo("Done " + name)\nerr.print(_("ok"))\n'
              'typer.Option(help=f"One of {x}.")\ntyper.Option(help="A literal: translated when written.")\n'
              'raise ValueError(msg)\nReply(_("x {y}", y=1))\nraise ValueError("a" if x else _("b"))\n')
    assert [line for line, _what in message_literals(source, cli=True)] == [1, 2, 4, 6, 10]
    assert [line for line, _what in message_literals(source, cli=False)] == [1, 2, 6, 10]


@pytest.mark.parametrize("module", LIBRARY)
def test_no_library_message_is_a_bare_literal(module: str) -> None:
    found = message_literals((ROOT / module).read_text(encoding="utf-8"), cli=False)
    assert [(line, what) for line, what in found
            if not any(module == where and what.startswith(words) for where, words in NOT_FOR_PEOPLE)] == []


def test_every_exempted_message_is_still_there() -> None:
    """An exemption outlives its message only by mistake: each names a message the check still finds."""
    for module, words in NOT_FOR_PEOPLE:
        assert any(what.startswith(words) for _line, what in
                   message_literals((ROOT / module).read_text(encoding="utf-8"), cli=False)), (module, words)


@pytest.mark.parametrize("module", CLI)
def test_no_cli_message_is_a_bare_literal(module: str) -> None:
    assert message_literals((ROOT / module).read_text(encoding="utf-8"), cli=True) == []


def illegal_record() -> str:
    """A simulated torofun-4p deal with two cards of one seat swapped between tricks, so that a play breaks a
    play duty (the first seed and swap that do, found by the validator itself)."""
    for seed in range(1, 40):
        text = next(iter(deal_records(preset("torofun-4p"), 1, seed=seed))).tpgn()
        lines = text.split("\n")
        tricks = [i for i, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
        for a in tricks[3:6]:
            for b in tricks[6:]:
                first, second = lines[a].split(), lines[b].split()
                if first[1] != second[1]:
                    continue
                first[3], second[3] = second[3], first[3]  # the second card of each trick: the same seat
                changed = list(lines)
                changed[a], changed[b] = " ".join(first), " ".join(second)
                candidate = "\n".join(changed)
                reports, _summary, _errors = validate_text(candidate)
                if any(f["code"].startswith("must_") for f in reports[0]["findings"]):
                    return candidate
    raise AssertionError("no swap breaks a play duty")


def tute(*args: str, lang: str | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``tute`` command, run as a user would, in the language asked (None: English)."""
    env = {**os.environ, "TUTEPGN_LANG": lang or "en", "COLUMNS": "400"}  # rich folds no sentence
    return subprocess.run([str(Path(sys.executable).parent / "tute"), *args], capture_output=True, text=True, env=env,
                          input=stdin, check=False)


def test_validate_prints_a_finding_in_spanish_and_in_english(tmp_path: Path) -> None:
    path = tmp_path / "illegal.tpgn"
    path.write_text(illegal_record(), encoding="utf-8")
    spanish = tute("--lang", "es", "validate", str(path))
    english = tute("validate", str(path))
    assert spanish.returncode == english.returncode == 1
    duty = next(line for line in english.stdout.splitlines() if "[must_" in line)
    code = duty[duty.index("[must_"):]
    assert "error trick" in duty and ("must follow suit" in duty or "must beat" in duty or "must play a trump" in duty)
    spanish_duty = next(line for line in spanish.stdout.splitlines() if code.split(" ")[0] in line)
    assert "error baza" in spanish_duty and "lo incumple (puede jugar" in spanish_duty
    assert any(word in spanish_duty for word in ("debe asistir", "debe montar", "debe fallar", "debe echar"))
    assert "1 registro. Válidos: 0; no válidos: 1" in spanish.stderr and "1 record: 0 valid, 1 invalid" in english.stderr


def test_a_syntax_error_is_located_in_spanish(tmp_path: Path) -> None:
    run = tute("--lang", "es", "validate", "--strict", "-", stdin='[Rules "playcard-2p"]\n1. N 13O 2O\n*\n')
    assert run.returncode == 2
    assert "'13O' no es una carta de la baraja española" in run.stderr and "se esperaba una carta" in run.stderr


def test_rules_explained_in_spanish() -> None:
    spanish = tute("--lang", "es", "rules", "torofun-4p")
    assert spanish.returncode == 0
    for words in ("Reglamento torofun-4p", "significado", "Número de", "Quien no tiene del palo que salió",
                  "Decisiones que toma el motor", "Un juego empatado es para el bando"):
        assert words in spanish.stdout, words
    assert "4 manlalaro" in spanish.stdout  # the quoted source sentence stays in its own language
    english = tute("rules", "torofun-4p")
    assert "Number of players." in english.stdout and "significado" not in english.stdout


def test_help_in_spanish_from_the_environment() -> None:
    root = tute("--help", lang="es")
    assert root.returncode == 0
    for words in ("Uso: tute", "Opciones:", "Órdenes:", "Muestra esta ayuda y termina.",
                  "Reproduce cada registro con sus reglas", "El idioma de los mensajes y la ayuda"):
        assert words in root.stdout, words
    command = tute("validate", "--help", lang="es")
    assert "Argumentos:" in command.stdout and "Procesos de trabajo" in command.stdout
    assert "Usage: tute validate" in tute("validate", "--help").stdout


def test_the_service_answers_findings_in_the_language_asked(tmp_path: Path) -> None:
    text = illegal_record()
    with TestClient(create_app(Settings(db=tmp_path / "a.duckdb"))) as client:
        answers = {lang: client.post("/api/v1/validate", content=text.encode(), headers={
            "Content-Type": "text/plain", "Accept-Language": lang}) for lang in ("es", "en")}
    assert answers["es"].status_code == answers["en"].status_code == 200
    findings = {lang: answer.json()["reports"][0]["findings"] for lang, answer in answers.items()}
    assert [f["code"] for f in findings["es"]] == [f["code"] for f in findings["en"]]
    duty = next(i for i, f in enumerate(findings["en"]) if f["code"].startswith("must_"))
    assert "breaks it" in findings["en"][duty]["message"]
    assert "lo incumple" in findings["es"][duty]["message"]


def test_the_archive_stores_findings_in_english_whatever_is_spoken(tmp_path: Path) -> None:
    path = tmp_path / "illegal.tpgn"
    path.write_text(illegal_record(), encoding="utf-8")
    archive = Archive(tmp_path / "a.duckdb")
    try:
        with speaking("es"):
            archive.import_sources([path])
        messages = [row[0] for row in archive.con.execute(
            "SELECT message FROM issues WHERE code LIKE 'must_%'").fetchall()]
    finally:
        archive.close()
    assert messages and all("breaks it" in m for m in messages)
