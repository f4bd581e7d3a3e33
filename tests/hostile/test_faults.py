"""Faults and recovery (issue 13): what the archive, the service and the CLI do when things go wrong.

Each test drives the real thing: a DuckDB file, the FastAPI app through its
TestClient, the ``tute`` command in a subprocess.
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import duckdb
import pytest

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from typer.testing import CliRunner

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.cli.main import app
from tutepgn.notation import iter_raw_records
from tutepgn.errors import ErrorItem

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
API = "/api/v1"
UNFINISHED = (SAMPLES / "unfinished-deal.tpgn").read_text(encoding="utf-8")
SYNTAX_ERROR = UNFINISHED.replace("1. N 7B", "1. N 13X", 1)
"""A record whose first trick has a card that is not one (line 15, column 6): stored flagged, never readable."""


# -- A stored record with a syntax error ------------------------------------------------------------

@pytest.fixture()
def flagged(tmp_path: Path) -> tuple[TestClient, int]:
    """A service over an archive holding one record with a syntax error (imported by the library)."""
    db = tmp_path / "flagged.duckdb"
    with Archive(db) as archive:
        summary = archive.import_sources([SAMPLES / "tutes.tpgn", io.StringIO(SYNTAX_ERROR)])
        assert summary.added == 4 and summary.invalid == 1
        (deal_id,) = archive.con.execute("SELECT id FROM deals WHERE NOT valid").fetchone()
    app = create_app(Settings(db=db))
    with TestClient(app) as client:
        yield client, deal_id
    app.state.archive.close()


def test_a_stored_record_with_a_syntax_error_is_served_as_its_text_and_located_errors(flagged) -> None:
    client, deal_id = flagged
    r = client.get(f"{API}/deals/{deal_id}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["state"] == "unreadable" and body["record"] is None
    assert body["text"] == SYNTAX_ERROR == client.get(f"{API}/deals/{deal_id}.tpgn").text
    (error,) = [ErrorItem.model_validate(e) for e in body["errors"]]
    assert (error.line, error.column, error.text) == (15, 6, "13X")
    assert error.message.startswith("'13X' is not a card of the Spanish pack") and error.expected.startswith("a card")
    assert body["summary"]["valid"] is False


def test_the_sheet_of_a_record_with_a_syntax_error_is_its_report(flagged) -> None:
    client, deal_id = flagged
    r = client.get(f"{API}/deals/{deal_id}/sheet")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["valid"] is False
    assert [(e["line"], e["column"]) for e in report["parse_errors"]] == [(15, 6)]
    assert any(f["code"] == "syntax" and f["line"] == 15 for f in report["findings"])


def test_the_page_of_a_record_with_a_syntax_error_marks_the_error_in_its_text(flagged) -> None:
    client, deal_id = flagged
    r = client.get(f"/deals/{deal_id}")
    assert r.status_code == 200, r.text
    page = r.text
    assert 'id="unreadable"' in page and 'id="replay"' not in page
    line = page.split('id="line-15"', 1)[1].split("</div>", 1)[0]
    assert "1. N 13X 11B 1B 4B" in line and "col 6:" in line and "is not a card of the Spanish pack" in line
    assert page.count('class="ln bad"') == 1


# -- Rebuilds --------------------------------------------------------------------------------------

def _results(db: Path) -> list[tuple]:
    """Each deal's validation result: its counts and its findings."""
    with Archive(db, read_only=True) as archive:
        return archive.con.execute("""
            SELECT d.id, d.valid, d.errors, d.warnings, list(i.code ORDER BY i.code) FILTER (WHERE i.code IS NOT NULL)
            FROM deals d LEFT JOIN issues i ON i.deal_id = d.id GROUP BY ALL ORDER BY d.id""").fetchall()


def test_a_rebuild_replays_each_import_as_it_was_a_match_in_two_runs(tmp_path: Path) -> None:
    deals = [text for *_, text in iter_raw_records([SAMPLES / "ludoteka-match.tpgn"])][:4]
    db = tmp_path / "match.duckdb"
    with Archive(db) as archive:  # two imports from streams: both count their records from 0
        archive.import_sources([io.StringIO("\n".join(deals[:2]))])
        archive.import_sources([io.StringIO("\n".join(deals[2:]))])
        runs = archive.con.execute("SELECT import_run, import_index FROM deals ORDER BY ALL").fetchall()
        assert runs == [(1, 0), (1, 1), (2, 0), (2, 1)]
        assert archive.con.execute("SELECT run, records, added FROM imports ORDER BY run").fetchall() == [
            (1, 2, 2), (2, 2, 2)]
    before = _results(db)
    assert [valid for _, valid, *_ in before] == [True] * 4
    assert sum("match_first_deal" in (codes or []) for *_, codes in before) == 1  # deal 3 starts its own run
    result = CliRunner().invoke(app, ["archive", "rebuild", "--db", str(db), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert _results(db) == before
    with Archive(db, read_only=True) as archive:
        assert archive.con.execute("SELECT import_run, import_index FROM deals ORDER BY ALL").fetchall() == runs


def test_a_rebuild_in_place_takes_in_the_write_ahead_log_first(tmp_path: Path) -> None:
    db = tmp_path / "wal.duckdb"
    first, second = SAMPLES / "tutes.tpgn", SAMPLES / "doubles.tpgn"
    child = f"""
import os, signal
from tutepgn.archive import Archive
archive = Archive({str(db)!r})
archive.import_sources([{str(first)!r}])
archive.con.execute("SET checkpoint_threshold = '1GB'")  # no automatic checkpoint: the commit stays in the log
archive.import_sources([{str(second)!r}], on_commit=lambda: os.kill(os.getpid(), signal.SIGKILL))
"""
    proc = subprocess.run([sys.executable, "-c", child], cwd=ROOT)
    assert proc.returncode == -signal.SIGKILL
    wal = db.with_name(db.name + ".wal")
    assert wal.exists() and wal.stat().st_size > 0
    with Archive(db, read_only=True) as archive:  # a reader replays the log in memory
        total = archive.count()
    assert total == 6
    result = CliRunner().invoke(app, ["archive", "rebuild", "--db", str(db), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    backup = db.with_name(db.name + ".bak")
    assert not wal.exists() and not backup.with_name(backup.name + ".wal").exists()
    with Archive(db) as archive:
        assert archive.count() == total and archive.verify() == []
    with Archive(backup, read_only=True) as archive:
        assert archive.count() == total


# -- Killed commands leave no process behind ------------------------------------------------------

def _group(pgid: int) -> dict[int, str]:
    """The live processes of a process group (zombies left out), with their command lines, from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        state, _, group = stat.rsplit(")", 1)[1].split()[:3]
        if int(group) == pgid and state != "Z":
            found[int(entry)] = command
    return found


@pytest.fixture(scope="module")
def many_records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough records to keep two workers busy for a while: the simulated samples, twenty times over."""
    path = tmp_path_factory.mktemp("many") / "many.tpgn"
    texts = [p.read_text(encoding="utf-8") for p in sorted((SAMPLES / "simulated").glob("*.tpgn"))]
    path.write_text("\n".join(texts * 20), encoding="utf-8")
    return path


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("command", ["validate", "import"])
def test_a_killed_command_leaves_no_worker_behind(command: str, many_records: Path, tmp_path: Path) -> None:
    words = [sys.executable, "-m", "tutepgn.cli", command, "--jobs", "2", str(many_records)]
    if command == "import":
        words += ["--db", str(tmp_path / "killed.duckdb"), "--batch-size", "500"]  # pieces for both workers
    proc = subprocess.Popen(words, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while sum("multiprocessing" in c and "resource_tracker" not in c  # both workers at work
                  for c in _group(proc.pid).values()) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        assert any("resource_tracker" in c for c in _group(proc.pid).values())
        proc.send_signal(signal.SIGKILL)
        assert proc.wait() == -signal.SIGKILL
        deadline = time.monotonic() + 5
        while _group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _group(proc.pid) == {}
    finally:
        for pid in _group(proc.pid):  # never leave one behind, even when the test fails
            os.kill(pid, signal.SIGKILL)


# -- The command line: closed pipes, full disks, bad records ------------------------------------

TUTE = [sys.executable, "-m", "tutepgn.cli"]


@pytest.fixture(scope="module")
def archive_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of the simulated samples: 275 deals, more than a pipe holds when written out."""
    db = tmp_path_factory.mktemp("pipes") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((SAMPLES / "simulated").glob("*.tpgn")))
    return db


@pytest.mark.parametrize("words", [["export"], ["export", "--format", "csv"], ["search"], ["search", "--json"],
                                   ["search", "--format", "tpgn", "--limit", "500"], ["stats"], ["stats", "--json"]],
                         ids=" ".join)
def test_a_closed_pipe_is_a_normal_end(words: list[str], archive_file: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: every write meets a closed pipe
    try:
        proc = subprocess.run([*TUTE, *words, "--db", str(archive_file)], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(write)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr


def test_export_into_head_ends_with_status_0(archive_file: Path) -> None:
    command = " ".join([*TUTE, "export", "--db", str(archive_file)]) + " | head -1; echo status ${PIPESTATUS[0]}"
    proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[0].startswith("[Event ")
    assert proc.stdout.splitlines()[-1] == "status 0" and "Traceback" not in proc.stderr


def test_export_to_a_full_device_is_a_problem(archive_file: Path) -> None:
    proc = subprocess.run([*TUTE, "export", "--db", str(archive_file), "-o", "/dev/full", "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    problem = json.loads(proc.stderr)
    assert problem["title"] == "Cannot write" and problem["status"] == 2 and "/dev/full" in problem["detail"]


def _file_size_limit(limit: int) -> None:
    """In the child: files may not grow past ``limit`` bytes, as on a full disk (Python ignores SIGXFSZ, so a
    write past it fails with EFBIG instead of killing the process)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def test_import_on_a_full_disk_is_a_located_problem(tmp_path: Path) -> None:
    """DuckDB 2.0.0 and 2.0.1 left a file they could not reopen ('Corrupt database file') when an import's commit
    failed on a full disk (issue 33's closing note); since every write also adds its row to ``archive_writes``
    (issue 37) the file reopens whole at every size limit tried (40 KB to 512 KB) on 2.0.1 too."""
    db = tmp_path / "full.duckdb"
    Archive(db).close()  # the empty archive; now its write-ahead log cannot grow past 64 KiB
    proc = subprocess.run([*TUTE, "import", str(SAMPLES / "simulated"), "--db", str(db), "--jobs", "1", "--json"],
                          capture_output=True, text=True, timeout=120, preexec_fn=lambda: _file_size_limit(65536))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "FatalException" not in proc.stderr
    problem = json.loads(proc.stderr)
    assert problem["title"] == "Error" and problem["instance"] == "tute import"
    (item,) = problem["errors"]
    assert item["source"] == str(db) and "could not be written" in item["message"]
    assert "0 records were committed" in item["message"]
    with Archive(db) as archive:  # with room again, the archive opens, unharmed, and takes the import
        assert archive.count() == 0
        summary = archive.import_sources(sorted((SAMPLES / "simulated").glob("*.tpgn")))
        assert summary.added == summary.records == archive.count() > 0


def test_serve_load_of_a_record_the_archive_cannot_store_exits_with_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tpgn"
    bad.write_text(UNFINISHED.replace('[Dealer "E"]', '[Dealer "E"]\n[DealNo "99999999999"]'), encoding="utf-8")
    db = tmp_path / "serve.duckdb"
    Archive(db).close()
    # --workers 2 without --read-only stops right after the load, however the load went
    proc = subprocess.run([*TUTE, "serve", "--db", str(db), "--load", str(bad), "--workers", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr


# -- The service after a full disk -----------------------------------------------------------------

FULL_DISK_SERVICE = """
import json, resource, sys, time, warnings
from pathlib import Path
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.notation import iter_raw_records

db, samples = Path(sys.argv[1]), Path(sys.argv[2])
with Archive(db) as archive:
    archive.import_sources([samples / "tutes.tpgn"])
texts = [t for *_, t in iter_raw_records([samples / "simulated" / "torofun-4p-50-deals.tpgn"])]
client = TestClient(create_app(Settings(db=db, api_keys=frozenset({"k"}))), raise_server_exceptions=False)
key = {"X-API-Key": "k"}

def note(step, r):
    print(json.dumps([step, r.status_code, r.json()]), flush=True)

note("before", client.get("/api/v1/health"))
hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
resource.setrlimit(resource.RLIMIT_FSIZE, (65536, hard))  # the disk is full: no file grows past 64 KiB
note("import 40", client.post("/api/v1/import", content="\\n".join(texts[:40]), headers=key))  # its log cannot grow
note("health", client.get("/api/v1/health"))
note("import 1", client.post("/api/v1/import", content=texts[45], headers=key))  # its log can: the checkpoint fails
note("search", client.get("/api/v1/deals", params={"limit": 500}))
resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))  # space is back
note("import 40 again", client.post("/api/v1/import", content="\\n".join(texts[:40]), headers=key))
note("after", client.get("/api/v1/health"))
"""


def test_the_service_recovers_from_a_full_disk_without_a_restart(tmp_path: Path) -> None:
    """The real thing: DuckDB on a full disk (a file size limit in a child process) invalidates its database
    at the checkpoint after a commit; the client of that import is told it succeeded, and the service opens
    the archive again by itself."""
    proc = subprocess.run([sys.executable, "-c", FULL_DISK_SERVICE, str(tmp_path / "full.duckdb"), str(SAMPLES)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    steps = {step: (status, body) for step, status, body in map(json.loads, proc.stdout.splitlines())}
    assert steps["before"] == (200, {"status": "ok", "deals": 3, "write_failure": None, "set_aside": 0})
    status, problem = steps["import 40"]  # failed before its commit: said so, with what was committed
    assert status == 503 and problem["title"] == "Service unavailable"
    assert "0 records were committed" in problem["detail"] and "full.duckdb" not in problem["detail"]
    status, health = steps["health"]
    assert status == 200 and health["deals"] == 3 and "TransactionException" in health["write_failure"]
    assert "database has been invalidated" in proc.stderr  # the real fault, met by the next step
    assert steps["import 1"] == (200, {**steps["import 1"][1], "records": 1, "added": 1})  # committed: a success
    status, page = steps["search"]
    assert status == 200 and len(page["items"]) == 4  # opened again: the committed deal is there
    assert steps["import 40 again"][0] == 200 and steps["import 40 again"][1]["added"] == 40
    assert steps["after"] == (200, {"status": "ok", "deals": 44, "write_failure": None, "set_aside": 0})


class _Invalidated:
    """A connection as DuckDB leaves it after a fatal error: every call fails the same way."""

    def __getattr__(self, name: str) -> object:
        def fail(*args: object, **kwargs: object) -> None:
            raise duckdb.FatalException("FATAL Error: Failed: database has been invalidated because of a previous "
                                        "fatal error. The database must be restarted prior to being used again.")
        return fail


def test_health_answers_503_until_the_archive_can_be_opened_again(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "health.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "tutes.tpgn"])
    app = create_app(Settings(db=db))
    service = app.state.service
    client = TestClient(app, raise_server_exceptions=False)
    assert client.get(f"{API}/health").json() == {"status": "ok", "deals": 3, "write_failure": None, "set_aside": 0}
    monkeypatch.setattr("tutepgn.api.deps.REOPEN_SECONDS", 0.0)
    reopen = Archive.reopen
    service.readers.reset()
    service.archive.con.close()
    service.archive.con = _Invalidated()  # a fatal error meanwhile, and the file cannot be opened yet

    def still_full(archive: Archive) -> None:
        raise duckdb.IOException('Could not write file "/secret/path.duckdb": No space left on device')

    monkeypatch.setattr(Archive, "reopen", still_full)
    for path in (f"{API}/health", f"{API}/deals", f"{API}/deals/1", f"{API}/stats", "/"):
        r = client.get(path)
        assert r.status_code == 503, (path, r.text)
        assert r.headers["content-type"] == "application/problem+json" and r.headers["retry-after"] == "1"
        assert "cannot be opened again yet: IOException" in r.json()["detail"] and "secret" not in r.text
    assert client.get(f"{API}/rules").status_code == 200  # what needs no archive still answers
    monkeypatch.setattr(Archive, "reopen", reopen)  # space is back
    assert client.get(f"{API}/health").json() == {"status": "ok", "deals": 3, "write_failure": None, "set_aside": 0}
    assert client.get(f"{API}/deals").json()["items"]
    app.state.archive.close()


def test_a_fatal_error_met_by_a_request_opens_the_archive_again(tmp_path: Path) -> None:
    db = tmp_path / "fatal.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "tutes.tpgn"])
    app = create_app(Settings(db=db))
    client = TestClient(app, raise_server_exceptions=False)
    service = app.state.service
    service.readers.reset()
    service.archive.con.close()
    service.archive.con = _Invalidated()
    r = client.get(f"{API}/deals")  # meets the fault: answered 503, and the archive is opened again
    assert r.status_code == 503 and r.json()["detail"] == "the archive failed and was opened again: try again"
    assert service.failure is None
    assert client.get(f"{API}/deals").status_code == 200
    app.state.archive.close()
