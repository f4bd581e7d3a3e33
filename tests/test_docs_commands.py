"""Every shell command of the README and of docs/*.md runs as written, and exits as the docs say.

Each ```sh block runs in bash, in document order, in one scratch folder holding ``samples/``,
``docs/club-evening/`` (the deals docs/club.md's evening imports) and the files the docs make first
(``club.tpgn``); ``/tmp/`` and ``~/`` point into the scratch folder, and
``TUTEPGN_DB`` at its archive.  A command exits 0 unless its comment says ``exit N``.  A block that
talks to ``http://127.0.0.1:8000`` gets a real service (``tute serve``) on a free port, over the same
archive, with the key file the docs make.  A ```python or ```js block whose first line says it is
``saved as NAME`` is written to NAME in the scratch folder first, so that the command that runs it (``python
client.py``, ``node client.mjs``) finds it.  The commands not run are listed in :data:`NOT_RUN` with the
reason, and each must still be in the docs (so the list cannot rot).  A block whose commands are an earlier
block's, word for word (a translation's copy: only its comments differ), runs once, where it first appears.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from served import tute_serve

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(?:sh|bash)\n(.*?)^```", re.S | re.M)
SAVED = re.compile(r"^```(?:python|js)\n((?:#|//)[^\n]*\bsaved as (\S+)[^\n]*\n.*?)^```", re.S | re.M)
"""A program the docs tell the reader to save, and its file name."""
SERVICE = "127.0.0.1:8000"
KEY = "docs-commands-key"

NOT_RUN = {
    "make run": "the Quickstart itself: .ci/run and a fresh clone check it",
    "make test": "the Quickstart itself: .ci/run runs it",
    "make bench": "the benchmarks: minutes, run by hand (docs/performance.md)",
    ".venv/bin/python bench/run_all.py": "the benchmarks: minutes, run by hand (docs/performance.md)",
    "tute serve": "a service in the foreground never ends: tests/test_serve_cli.py starts it; here the test's "
                  "own service answers the blocks that talk to one",
    "TUTEPGN_API_KEYS_FILE=": "a service in the foreground or background: the test starts its own with this "
                              "key file",
    "uvicorn --factory": "a service in the foreground never ends: tests/test_serve_cli.py runs the factory",
    "tute record": "asks for each entry at the terminal: tests/test_record_table.py types whole deals into it",
    "tute play": "asks for each card at the terminal: tests/test_play_table.py plays a whole deal through it",
    "duckdb -readonly": "DuckDB's own command-line program is not a dependency",
    "curl -sN": "follows an event stream that never ends: tests/test_live_api.py reads it",
    "tute archive analyse": "minutes of CPU over every sample: tests/test_archive_analysis.py runs it",
    "pip install": "installs a package: `make test` installs the extras the tests need",
    "tute import big/ --to parquet /shared/tute --cluster tcp:": "needs a Dask scheduler at that address: "
                                                                 "tests/test_cluster.py runs a LocalCluster",
    "TUTEPGN_DASK_SCHEDULER=tcp:": "needs a Dask scheduler at that address: tests/test_cluster.py runs a "
                                   "LocalCluster",
}
"""Commands of the docs left out, by how they start, and why."""


def commands() -> list[tuple[str, list[str]]]:
    """Each block (where, its logical lines: continuations joined, comment-only lines dropped)."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            lines = m.group(1).replace("\\\n", " ").splitlines()
            found.append((where, [line for line in lines if line.strip() and not line.lstrip().startswith("#")]))
    return found


BLOCKS = commands()


def repeats(blocks: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Each block that repeats an earlier one's commands, by its place, and the place of the first."""
    first: dict[tuple[str, ...], str] = {}
    found = {}
    for where, lines in blocks:
        earlier = first.setdefault(tuple(lines), where)
        if earlier != where:
            found[where] = earlier
    return found


REPEATS = repeats(BLOCKS)


def skipped(line: str) -> str | None:
    """Why a command is not run, or None."""
    return next((why for start, why in NOT_RUN.items() if line.lstrip().startswith(start)), None)


def expected_status(line: str) -> int:
    """The exit status a command's comment promises (``# ... exit 2 ...``), else 0."""
    comment = line.partition("  #")[2]
    m = re.search(r"\bexit (\d)\b", comment)
    return int(m.group(1)) if m else 0


def script(lines: list[str], port: int) -> str:
    """The block as a bash script that stops at the first command whose status is not the promised one."""
    out = []
    for line in lines:
        if skipped(line):
            continue
        command = line.replace(SERVICE, f"127.0.0.1:{port}").rstrip()
        status = expected_status(line)
        said = shlex.quote(f"not exit {status}: {line.split('  #')[0].strip()}")
        out.append(f"{command}\nstatus=$?\nif [ $status -ne {status} ]; then echo exit $status, {said} >&2; exit 99; fi")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the commands run in: samples/, docs/club-evening/ (the tables recorded card by card in
    docs/club.md's evening), club.tpgn (docs/validate.md), a key file, and a home."""
    from test_docs_examples import club_record  # one copy of how the docs make club.tpgn

    folder = tmp_path_factory.mktemp("cmds")
    shutil.copytree(ROOT / "samples", folder / "samples")
    shutil.copytree(ROOT / "docs" / "club-evening", folder / "docs" / "club-evening")
    (folder / "club.tpgn").write_text(club_record(), encoding="utf-8")
    (folder / "more.tpgn").write_text((ROOT / "samples" / "tutes.tpgn").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    (folder / "tute-keys").write_text(KEY + "\n", encoding="utf-8")
    for path in DOCS:
        for program, name in SAVED.findall(path.read_text(encoding="utf-8")):
            (folder / name).write_text(program, encoding="utf-8")
    (folder / "home").mkdir()
    return folder


def environment(scratch: Path) -> dict[str, str]:
    """The commands' environment: this venv's tute and python first, the scratch archive, home and keys."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(scratch / "home"), "TUTEPGN_DB": str(scratch / "demo.duckdb"),
            "TUTEPGN_API_KEY": KEY, "COLUMNS": "120"}


@pytest.fixture(scope="module")
def service(scratch: Path) -> Iterator[int]:
    """A real ``tute serve --load samples/`` (as ``make run``) over the scratch archive, with the docs' key file,
    on a free port: started when the first block that talks to one runs."""
    env = {**environment(scratch), "TUTEPGN_API_KEYS_FILE": str(scratch / "tute-keys")}
    with tute_serve(["--load", "samples/"], scratch, env) as port:
        yield port


@pytest.mark.parametrize("where, lines", BLOCKS, ids=[w for w, _ in BLOCKS])
def test_doc_commands_run(where: str, lines: list[str], scratch: Path, request: pytest.FixtureRequest) -> None:
    if where in REPEATS:
        pytest.skip(f"the same commands as {REPEATS[where]}, run there")
    if all(skipped(line) for line in lines):
        pytest.skip("; ".join(sorted({skipped(line) or "" for line in lines})))
    talks = any(SERVICE in line or line.startswith(("make run &", "TUTEPGN_API_KEYS_FILE=")) for line in lines)
    port = request.getfixturevalue("service") if talks else 0
    body = script(lines, port).replace("/tmp/", f"{scratch}/").replace("~/", f"{scratch}/")
    run = subprocess.run(["bash", "-c", body], cwd=scratch, env=environment(scratch), capture_output=True,
                         text=True, timeout=600, check=False)
    assert run.returncode == 0, f"{where}: {run.stderr[-3000:]}"
    assert "Traceback" not in run.stderr and "Internal error" not in run.stdout, f"{where}: {run.stderr[-3000:]}"
    if not talks:
        return
    held = scratch / "demo.duckdb.service.json"
    assert held.exists(), "the service holds the archive while the blocks that talk to it run"


def test_the_readme_search_showcase_finds_deals(scratch: Path) -> None:
    """The README's own example of a search finds deals in samples/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("tute search --cante-by"))
    db = scratch / "showcase.duckdb"
    env = {**environment(scratch), "TUTEPGN_DB": str(db)}
    subprocess.run([sys.executable, "-m", "tutepgn.cli", "import", "samples/"], cwd=scratch, env=env, check=True,
                   capture_output=True)
    command = line.split("  #")[0].replace("tute ", f"{sys.executable} -m tutepgn.cli ", 1) + " --format nl"
    run = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True, text=True, check=True)
    assert len(run.stdout.splitlines()) >= 1


EVENING = "Tarde de San Martín"
"""The event docs/club.md's walkthrough plays (its archive: /tmp/tarde.duckdb, in the scratch folder)."""


def doc_rows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose heading row starts with ``header``."""
    start = text.index(header)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_club_evening_ends_as_its_tables_say(scratch: Path, request: pytest.FixtureRequest) -> None:
    """docs/club.md's final standings of the evening (both languages' tables) are what its commands give."""
    db = scratch / "tarde.duckdb"
    if not db.exists():  # this test run alone: the evening's block first
        where, lines = next((w, b) for w, b in BLOCKS if any(line.startswith(f'tute event new "{EVENING}"')
                                                            for line in b))
        test_doc_commands_run(where, lines, scratch, request)
    run = subprocess.run([sys.executable, "-m", "tutepgn.cli", "event", "standings", EVENING, "--format", "json",
                          "--db", str(db)], cwd=scratch, env=environment(scratch), capture_output=True, text=True,
                         check=True)
    given = [[str(line["place"]), line["name"], str(line["matches_won"]), f"{line['deals_difference']:+d}",
              f"{line['points_difference']:+d}"] for line in json.loads(run.stdout)]
    text = (ROOT / "docs" / "club.md").read_text(encoding="utf-8")
    for header in ("| puesto | pareja |", "| place | pair |"):
        assert [row[:5] for row in doc_rows(text, header)] == given, header


def test_every_command_left_out_is_still_in_the_docs() -> None:
    lines = [line for _where, block in BLOCKS for line in block]
    for start in NOT_RUN:
        assert any(line.lstrip().startswith(start) for line in lines), f"{start!r} is no longer in the docs"
