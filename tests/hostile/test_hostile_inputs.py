"""Hostile inputs (tests/hostile/generate.py) through every command and route that reads records:
no traceback, no 5xx, each bad record refused or stored flagged with a located error, the good records of
the same batch all imported, exit codes as documented (cli/output.py: 0 ok, 1 invalid records, 2 unreadable
input or usage)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from generate import GOOD, Case, batch, cases, json_cases  # noqa: E402

from tutepgn.api.app import Settings, create_app
from tutepgn.cli.main import app as cli
from tutepgn.notation import jsonform, read_record, split_records

CASES = cases()
KEY = "hostile-key"
GOOD_TEXTS = {read_record(t).tpgn() for t in GOOD}


def _file(tmp_path: Path, case: Case, suffix: str = ".tpgn") -> Path:
    path = tmp_path / f"case{suffix}"
    path.write_bytes(batch(case))
    return path


def _run(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"tute {' '.join(args)} raised {result.exception!r}") from result.exception
    return result


def _located(findings: list[dict[str, Any]]) -> bool:
    return any(f["severity"] == "error" and f["line"] is not None for f in findings)


MIXED = [c for c in CASES if not c.alone]
ALONE = [c for c in CASES if c.alone]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every case that is a record, each between good records, in one file: one run of each command."""
    path = tmp_path_factory.mktemp("mixed") / "mixed.tpgn"
    with path.open("wb") as out:
        for i, case in enumerate(MIXED):
            out.write((GOOD[i % 3] + "\n").encode() + case.data.rstrip(b"\n") + b"\n\n")
        out.write(GOOD[0].encode())
    return path


def test_validate_mixed(mixed: Path) -> None:
    text = _run("validate", str(mixed))
    result = _run("validate", "--json", str(mixed))
    assert text.exit_code == result.exit_code == 1
    reports = json.loads(result.stdout)["reports"]
    assert len(reports) == 2 * len(MIXED) + 1
    assert all(r["valid"] for r in reports[::2]), "a good record was hurt by its neighbour"
    for case, report in zip(MIXED, reports[1::2]):
        if case.bad:
            assert not report["valid"] and _located(report["findings"]), (case.name, report["findings"])


def test_convert_and_import_mixed(mixed: Path, tmp_path: Path) -> None:
    result = _run("convert", str(mixed), "--to", "json")
    assert result.exit_code == 1 and "records could not be read" in result.stderr
    written = {_tpgn(r) for r in json.loads(result.stdout)}
    assert GOOD_TEXTS <= written
    db = tmp_path / "archive.duckdb"
    result = _run("import", "--db", str(db), "--jobs", "1", str(mixed))
    assert result.exit_code == 0, result.stderr
    _check_archive(db, {2 * i + 1 for i, case in enumerate(MIXED) if case.bad})


def _check_archive(db: Path, bad: set[int] | None, alone: bool = False) -> None:
    """The good records all stored valid; each bad one (by record index; None: every other one) absent or
    stored flagged with a located error."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT id, source_index, text, valid FROM deals").fetchall()
        located = {d for d, in con.execute("SELECT deal_id FROM issues WHERE severity = 'error' AND line IS NOT NULL"
                                           ).fetchall()}
    finally:
        con.close()
    if not alone:
        assert GOOD_TEXTS <= {text for _, _, text, valid in rows if valid}, "a good record of the batch was lost"
    for deal, index, text, valid in rows:
        if text not in GOOD_TEXTS and (bad is None or index in bad):
            assert not valid and deal in located, (index, text[:300])


@pytest.mark.parametrize("case", MIXED, ids=[c.name for c in MIXED])
def test_replay(case: Case, mixed: Path) -> None:
    replay = _run("replay", str(mixed), "--record", str(2 * MIXED.index(case) + 2), "--all")
    assert replay.exit_code in (0, 2)
    if replay.exit_code == 2:
        assert replay.stderr.startswith("error:")


@pytest.mark.parametrize("case", ALONE, ids=[c.name for c in ALONE])
def test_whole_files(case: Case, tmp_path: Path) -> None:
    path = _file(tmp_path, case)
    result = _run("validate", "--json", str(path))
    reports = json.loads(result.stdout)["reports"]
    assert result.exit_code == (1 if case.bad else 0)
    if case.bad:
        assert any(_located(r["findings"]) for r in reports)
    assert _run("convert", str(path), "--to", "json").exit_code == (1 if case.bad else 0)
    assert _run("replay", str(path), "--all").exit_code in (0, 2)
    assert _run("import", "--db", str(tmp_path / "a.duckdb"), "--jobs", "1", str(path)).exit_code == 0
    _check_archive(tmp_path / "a.duckdb", None if case.bad else set(), alone=True)


def _tpgn(data: dict[str, Any]) -> str:
    return jsonform.from_json(json.dumps(data)).tpgn()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(Settings(db=tmp_path_factory.mktemp("api") / "archive.duckdb", api_keys=frozenset({KEY})))
    yield TestClient(app, raise_server_exceptions=False)
    app.state.archive.close()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_api(case: Case, client: TestClient) -> None:
    body = batch(case)
    r = client.post("/api/v1/validate", content=body)
    if len(body) > Settings().max_body_bytes:
        assert r.status_code == 413
        return
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        assert r.json()["errors"] and all(e["line"] is not None for e in r.json()["errors"]), r.text
    elif case.bad and not case.alone:
        assert not r.json()["reports"][1]["valid"]
    for to in ("json", "tpgn"):
        r = client.post(f"/api/v1/convert?to={to}", content=body)
        assert r.status_code in (200, 422), r.text
    r = client.post("/api/v1/import", content=body, headers={"X-API-Key": KEY})
    assert r.status_code in (200, 422), r.text
    if r.status_code == 200 and not case.alone:
        assert r.json()["records"] == 4


JSON_CASES = json_cases()


@pytest.mark.parametrize("case", JSON_CASES, ids=[c.name for c in JSON_CASES])
def test_json_inputs(case: Case, tmp_path: Path, client: TestClient) -> None:
    path = _file(tmp_path, case, ".jsonl" if case.name.startswith("jsonl") else ".json")
    result = _run("convert", str(path), "--to", "tpgn")
    assert result.exit_code in (1, 2) and result.stderr.count("\n") >= 1
    assert "line" in result.stderr or ":1:" in result.stderr or ":2:" in result.stderr
    r = client.post("/api/v1/convert?to=tpgn", content=case.data)
    assert r.status_code == 422, r.text
    assert r.json()["errors"] and r.json()["errors"][0]["line"] is not None


def test_no_traceback_in_a_real_process(tmp_path: Path) -> None:
    """The installed command on every case at once (one file each, in a folder, with a directory named
    x.tpgn among them): no traceback on stderr, exit 1 (invalid records), every case reported."""
    for i, case in enumerate(CASES):
        (tmp_path / f"{i:03d}.tpgn").write_bytes(batch(case))
    (tmp_path / "folder.tpgn").mkdir()
    (tmp_path / "folder.tpgn" / "inner.tpgn").write_text(GOOD[0], encoding="utf-8")
    tute = Path(sys.executable).with_name("tute")
    env = dict(os.environ, TUTEPGN_MAX_RECORD_BYTES="65536")
    for args in (["validate", "--jobs", "2", str(tmp_path)], ["import", "--db", str(tmp_path / "a.duckdb"), str(tmp_path)]):
        done = subprocess.run([str(tute), *args], capture_output=True, text=True, env=env, timeout=600)
        assert "Traceback" not in done.stderr, done.stderr[-3000:]
        assert done.returncode == (1 if args[0] == "validate" else 0), done.stderr[-2000:]


def test_devices_and_directories_say_what_they_are(tmp_path: Path) -> None:
    result = _run("validate", "/dev/zero")
    assert result.exit_code == 2 and "character device" in result.stderr
    odd = tmp_path / "x.tpgn"
    odd.mkdir()
    (odd / "a.tpgn").write_text(GOOD[0], encoding="utf-8")
    assert _run("validate", str(tmp_path)).exit_code == 0


def test_a_byte_that_is_not_utf8_is_placed_at_its_offset_in_the_file(tmp_path: Path) -> None:
    """Past the first block read (a mebibyte): the offset is the file's, not the block's; the rest is read."""
    good = (GOOD[0] + "\n").encode()
    head = good * ((3 << 20) // len(good))
    bad = GOOD[1].encode().replace(b'[Event "', b'[Event "\xff')
    path = tmp_path / "big.tpgn"
    path.write_bytes(head + bad + b"\n" + good)
    result = _run("validate", "--json", str(path))
    reports = json.loads(result.stdout)["reports"]
    refused = [r for r in reports if not r["valid"]]
    assert result.exit_code == 1 and len(refused) == 1 and len(reports) == head.count(b"[Rules ") + 2
    finding = refused[0]["findings"][0]
    assert f"offset {len(head) + 8:,} of the file" in finding["message"]
    assert (finding["line"], finding["column"]) == (head.count(b"\n") + 1, 9)


def test_a_record_over_the_limit_is_skipped_unread_and_the_count_of_lines_goes_on() -> None:
    big = GOOD[1].replace("\n1. ", "\n{" + "x\n" * 40_000 + "}\n1. ", 1)
    text = GOOD[0] + "\n" + big + "\n" + GOOD[2]
    records = list(split_records(iter([text[i:i + 4096] for i in range(0, len(text), 4096)]), max_bytes=8192))
    assert [type(t).__name__ for _, t in records] == ["str", "Unread", "str"]
    assert [line for line, _ in records] == [1, GOOD[0].count("\n") + 2, text.count("\n") - GOOD[2].count("\n") + 1]
    assert records[2][1] == GOOD[2] and "TUTEPGN_MAX_RECORD_BYTES" in records[1][1].error().message
