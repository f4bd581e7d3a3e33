"""Terminal injection (issue 31, item 7): nothing the CLI prints from stored data or from input moves the terminal.

Records whose names, event, site, other tags and comments hold ESC, OSC and CSI
sequences, BEL, backspace, DEL, C1's CSI (``\\x9b``) and a bidi override are
imported; then every command of ``tute`` that prints stored or typed text runs in
a subprocess, and its output must hold no raw control character (their escapes,
``\\x1b``, must show instead).  :data:`CASES` lists every command (a test fails
until a new one is listed, with its runs or the reason it has none).
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tutepgn.archive.download import csv_text
from tutepgn.cli.main import app
from tutepgn.errors import LimitError
from tutepgn.notation.inputs import read_line
from tutepgn.limits import max_line_bytes
from tutepgn.recording.recorder import Recorder
from tutepgn.visible import visible

ROOT = Path(__file__).resolve().parents[2]
TUTE = [sys.executable, "-m", "tutepgn.cli"]
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
"""A control character that a terminal would obey: C0 but for line breaks and tabs (and ``\\r\\n``), DEL, C1, the
bidi embeddings, overrides and isolates."""
OSC = "\x1b]2;PWNED\x07"
NAME = f"Bru{OSC}no\x1b[31m\x9b2J\x08X\u202eY"
SHOWN = "\\x1b]2;PWNED"
"""How the OSC sequence of :data:`NAME` shows once escaped."""
ESCAPED = re.compile(r"\\x1b|\\u001b")
"""An escape character shown escaped (JSON: as its JSON escape)."""


def hostile_records() -> str:
    """A valid deal with control characters in its players' names, event, site, other tags and comments."""
    text = (ROOT / "samples" / "torofun-3p.tpgn").read_text(encoding="utf-8")
    for plain, hostile in (("Bruno Alonso", NAME), ("Tute a Tres en la Plaza", "Ev\x1b[2Jent\x07"),
                           ("Diego Cuesta", "Die\x07go\x1b[1A\x7f"), ("Fiestas de San Roque", "Si\x9bte"),
                           ('[Round "2"]', '[Round "2"]\n[Annotator "An\x08\x08\x1bc\u2066"]'),
                           ("{Two players", "{Com\x1b]0;T\x07ment\x1b[8m Two players")):
        assert plain in text
        text = text.replace(plain, hostile)
    return text


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The hostile file, an archive holding it (and an unreadable JSON record with a raw CR in a name), the id of
    its valid deal."""
    folder = tmp_path_factory.mktemp("terminal")
    bad = folder / "bad.tpgn"
    bad.write_text(hostile_records(), encoding="utf-8")
    line = json.loads(subprocess.run([*TUTE, "convert", str(bad), "--to", "jsonl"], capture_output=True, text=True,
                                     check=True).stdout)
    line["tags"]["West"] = "Die\rgo\x1b[1A"
    (folder / "cr.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    db = folder / "a.duckdb"
    subprocess.run([*TUTE, "import", str(bad), str(folder / "cr.jsonl"), "--db", str(db), "--jobs", "1"],
                   capture_output=True, check=True)
    found = json.loads(subprocess.run([*TUTE, "search", "--db", str(db), "--json", "--valid"], capture_output=True,
                                      text=True, check=True).stdout)
    assert [row["north"] for row in found] == [NAME]
    return {"bad": str(bad), "db": str(db), "id": str(found[0]["id"]), "folder": str(folder)}


# command -> its runs (arguments after the command: {bad} the hostile file, {db} the archive, {id} its valid deal;
# and whether the hostile name must show, escaped), or why it has none.  Records written as data (tpgn) are
# checked on a terminal by test_records_are_escaped_on_a_terminal_and_intact_in_a_pipe.
CASES: dict[str, list[tuple[list[str], bool]] | str] = {
    "simulate": [(["--rules", NAME], True)],  # the error echoes the ruleset typed
    "rules": [([NAME], True)],
    "validate": [(["{bad}"], False), (["{bad}", "--explain"], False)],
    "convert": [(["{bad}", "--to", "jsonl"], True)],
    "replay": [(["{bad}", "--all"], True), (["{bad}", "--json"], True)],
    "puzzles": [([NAME, "--db", "{db}"], True), ([NAME, "--db", "{db}", "--format", "json"], True)],
    "record": "interactive: test_record_shows_a_typed_osc_escaped, test_record_refuses_a_60_mb_line_quickly",
    "play": [(["--rules", NAME], True)],  # the error echoes the ruleset typed (a deal itself: test_play_table)
    "arena": [(["random", "greedy", "--rules", NAME], True), ([NAME, "greedy"], True)],  # a bot's name echoed too
    "analyse": [(["{bad}", "--pimc", "0"], False)],  # a cartas vistas: the output is what is tested, not PIMC
    "import": [([f"{{folder}}/{NAME}.tpgn", "--db", "{db}"], True)],
    "search": [(["--db", "{db}"], True), (["--db", "{db}", "--format", "csv"], True),
               (["--db", "{db}", "--format", "jsonl"], True)],
    "show": [(["{id}", "--db", "{db}", "--json"], True)],
    "stats": [(["--db", "{db}"], True), (["--db", "{db}", "--json"], True)],
    "export": [(["--db", "{db}", "--format", "csv"], True), (["--db", "{db}", "--format", "json"], True)],
    "sql": [(["select north, west, event, site from deals", "--db", "{db}"], True),
            (["select north, west, event, site from deals", "--db", "{db}", "--format", "csv"], True)],
    "serve": "a server: prints its address, and the summary of the files given on its own command line",
    "archive verify": [(["--db", "{db}"], False)],
    "archive rebuild": [([f"--db={{folder}}/{NAME}.duckdb"], True)],  # the error echoes the path typed
    "archive analyse": [([f"--db={{folder}}/{NAME}.duckdb"], True)],
    "ratings": [(["--db", "{db}"], False), (["--db", "{db}", "--format", "csv"], False)],
    "event new": [(["Liga", "--rules", NAME, "--db", "{db}"], True)],  # the error echoes the ruleset typed
    "event add": [([NAME, "Ana/Bea", "--db", "{db}"], True)],  # no such event: the error names it
    "event pair": [([NAME, "--db", "{db}"], True)],
    "event result": [([NAME, "2-1", "--round", "1", "--table", "1", "--db", "{db}"], True)],
    "event standings": [([NAME, "--db", "{db}"], True), ([NAME, "--db", "{db}", "--format", "json"], True),
                        ([NAME, "--db", "{db}", "--output", "{folder}/s.pdf"], True)],
    "event crosstable": [([NAME, "--db", "{db}"], True)],
    "event history": [([NAME, "1", "--db", "{db}"], True)],
    "event sheets": [([NAME, "--url", "http://192.168.1.10:8000", "--db", "{db}"], True)],
    "event ratings": [(["--db", "{db}", "--pairs"], False)],
}


WRITERS = ("import", "event", "ratings")
"""The commands that may open ``{db}`` to write (the events' tables, an import, the stored ratings)."""


def registered(group: object, prefix: str = "") -> list[str]:
    """Every command of the app, as typed after ``tute`` (``archive verify``)."""
    names: list[str] = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        names.extend(registered(command, f"{prefix}{name} ") if hasattr(command, "commands") else [prefix + name])
    return names


def test_every_command_is_listed() -> None:
    import typer.main

    assert sorted(CASES) == sorted(registered(typer.main.get_command(app)))


def run(command: str, args: list[str], world: dict[str, str]) -> subprocess.CompletedProcess[str]:
    words = [arg.format(**world) for arg in args]
    env = {**os.environ, "COLUMNS": "300", "TUTEPGN_DB": world["db"]}
    return subprocess.run([*TUTE, *command.split(), *words], capture_output=True, text=True, encoding="utf-8",
                          env=env, stdin=subprocess.DEVNULL, timeout=120)


def test_no_command_prints_a_raw_control_character(world: dict[str, str]) -> None:
    runs = [(command, args, shows) for command, cases in CASES.items() if not isinstance(cases, str)
            for args, shows in cases]
    # the commands that open the archive to write run one at a time, after the readers: a DuckDB file takes one
    # writing process, and a reader running beside a writer is refused as "held by another process"
    writes = [case for case in runs if case[0].split()[0] in WRITERS]
    runs = [case for case in runs if case not in writes] + writes
    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda case: run(case[0], case[1], world), runs[:len(runs) - len(writes)]))
    results += [run(command, args, world) for command, args, _shows in writes]
    wrong = []
    for (command, args, shows), result in zip(runs, results):
        output = result.stdout + result.stderr
        raw = RAW.search(output)
        if raw is not None:
            wrong.append((command, args, repr(output[max(raw.start() - 60, 0):raw.end() + 60])))
        elif "Traceback" in output or shows and ESCAPED.search(output) is None:
            wrong.append((command, args, output[-2000:]))  # a crash, or the hostile text not shown (escaped)
    assert not wrong


def pty_run(args: list[str], world: dict[str, str]) -> str:
    """What ``tute ARGS`` writes to stdout when stdout is a terminal (a pseudo-terminal)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([*TUTE, *(arg.format(**world) for arg in args)], stdout=slave, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env={**os.environ, "TUTEPGN_DB": world["db"]})
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        try:
            chunk = os.read(master, 65536) if ready else b""
        except OSError:  # the child closed the terminal
            chunk = b""
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    proc.wait(timeout=60)
    assert proc.returncode == 0, proc.stderr.read()
    return b"".join(chunks).decode("utf-8")


@pytest.mark.parametrize("args", [["show", "{id}"], ["search", "--format", "tpgn"], ["export"],
                                  ["convert", "{bad}", "--to", "tpgn"]])
def test_records_are_escaped_on_a_terminal_and_intact_in_a_pipe(world: dict[str, str], args: list[str]) -> None:
    shown = pty_run(args, world)
    assert RAW.search(shown) is None and SHOWN in shown, shown
    piped = subprocess.run([*TUTE, *(arg.format(**world) for arg in args)], capture_output=True, text=True,
                           encoding="utf-8", env={**os.environ, "TUTEPGN_DB": world["db"]}, check=True).stdout
    assert f'[North "{NAME}"]' in piped  # the data, as stored: a file or a pipe gets it intact


def test_export_to_a_file_keeps_the_data(world: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "out.tpgn"
    subprocess.run([*TUTE, "export", "--db", world["db"], "-o", str(target)], capture_output=True, check=True)
    assert f'[North "{NAME}"]' in target.read_text(encoding="utf-8")


def test_visible_escapes_controls_and_keeps_spanish_names() -> None:
    for name in ("Iñaki Güell", "Ángel Núñez", "María-José O'Shea", "Sören, «el Pollo»"):
        assert visible(name) == visible(name, "lines") == name
    assert visible(NAME) == "Bru\\x1b]2;PWNED\\x07no\\x1b[31m\\x9b2J\\x08X\\u202eY"
    assert visible(visible(NAME)) == visible(NAME)
    assert visible("a\r\nb\tc\rd\ne", "lines") == "a\r\nb\tc\\x0dd\ne"
    assert visible("a\nb\tc") == "a\\x0ab\\x09c"
    text = json.dumps({"North": NAME}, ensure_ascii=False)
    assert RAW.search(visible(text, "json")) is None and json.loads(visible(text, "json")) == {"North": NAME}


def test_the_archive_csv_escapes_its_cells() -> None:
    """The CSV of ``tute export`` and of the service's ``/api/v1/deals.csv`` (both :func:`csv_text`)."""
    text = "".join(csv_text([{"id": 1, "north": NAME, "sides": ["N", "W\x1b"], "valid": True}]))
    assert RAW.search(text) is None and "Bru\\x1b]2;PWNED\\x07no" in text and "N W\\x1b" in text


# -- tute record: typed lines ----------------------------------------------------------------------------------


def record(tmp_path: Path, stdin: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*TUTE, "record", "--rules", "torofun-3p", "--players", "a,b,c", "--event", "e",
                             "--turned", "4B", "-o", str(tmp_path / "r.tpgn")], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env={**os.environ, "COLUMNS": "300"})


def test_record_shows_a_typed_osc_escaped(tmp_path: Path) -> None:
    proc = record(tmp_path, subprocess.PIPE)
    output = proc.communicate(f"N 40{OSC}\n1O{OSC}\x08\rX 3O\n".encode(), timeout=60)[0].decode("utf-8")
    assert RAW.search(output) is None and "\\x1b]2 is not a suit" in output, output  # it was echoed raw


def typed_into_record(tmp_path: Path, typed: Path) -> tuple[str, float, int]:
    """What ``tute record`` printed with ``typed`` as its input, how long it took, and its peak memory (KiB).

    The peak counts the test process too (Linux keeps the larger of the forked copy and the command after its
    exec), so it is compared with a run on no input, measured the same way."""
    with typed.open("rb") as stdin:
        start = time.monotonic()
        proc = record(tmp_path, stdin)
        output = io.BytesIO()
        while (chunk := proc.stdout.read(65536)):  # type: ignore[union-attr]
            output.write(chunk)
            assert time.monotonic() - start < 30 and output.tell() < 1_000_000, "the line is being shown"
        _pid, _status, usage = os.wait4(proc.pid, 0)
    return output.getvalue().decode("utf-8"), time.monotonic() - start, usage.ru_maxrss


def test_record_refuses_a_60_mb_line_quickly(tmp_path: Path) -> None:
    """A 60 MB line took ``input()`` 37.5 s and 3.1 GB, and was echoed whole; it is refused unread now."""
    typed = tmp_path / "typed.txt"
    with typed.open("wb") as fp:
        fp.write(b"?\n" + b"A" * 60_000_000 + b"\n?\n")
    text, elapsed, peak = typed_into_record(tmp_path, typed)
    _text, alone, usual = typed_into_record(tmp_path, Path(os.devnull))
    assert "TUTEPGN_MAX_LINE_BYTES" in text and "AAAA" not in text, text[-2000:]
    assert text.count("Trick 1: not led yet") == 3  # the ? before it and after it were both answered
    assert peak < usual + 30_000, (peak, usual)  # KiB: measured the same as with no input at all
    assert elapsed < alone + 5, (elapsed, alone)  # measured 0.5 s more than the command's start and end alone


def test_read_line_bounds_a_line_and_goes_on_with_the_next() -> None:
    limit = max_line_bytes()
    stream = io.BytesIO(b"x" * limit + b"\n" + b"y" * (limit + 1) + b"\nnext\r\n")
    assert read_line(stream) == "x" * limit
    with pytest.raises(LimitError, match="TUTEPGN_MAX_LINE_BYTES"):
        read_line(stream)
    assert read_line(stream) == "next"
    with pytest.raises(EOFError):
        read_line(stream)


def test_recorder_refuses_a_line_over_the_limit_unread() -> None:
    recorder = Recorder.start("torofun-3p", seed=1)
    start = time.monotonic()
    reply = recorder.enter("1O " * 20_000_000)
    assert reply.refused and "TUTEPGN_MAX_LINE_BYTES" in reply.message and len(reply.message) < 200
    assert time.monotonic() - start < 1 and recorder.saved <= 0
