"""``tute serve``: what it refuses before it starts (status 2, one line saying why) and what it hands uvicorn.

uvicorn.run is replaced by a recorder, so these tests start no server; the
service itself is tested through its app (test_api.py) and a browser (test_browser.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import uvicorn
from typer.testing import CliRunner

from tutepgn.archive import Archive
from tutepgn.cli.main import app

runner = CliRunner()


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """What uvicorn.run was called with, instead of a server."""
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda target, **kwargs: calls.append((target, kwargs)))
    for name in ("TUTEPGN_DB", "TUTEPGN_READ_ONLY", "TUTEPGN_API_KEYS", "TUTEPGN_CONCURRENCY", "TUTEPGN_MAX_PAGE"):
        monkeypatch.setenv(name, "")  # recorded, so that what `tute serve` sets for its workers is undone after
        monkeypatch.delenv(name)
    return calls


@pytest.fixture()
def archive_file(tmp_path: Path) -> Path:
    db = tmp_path / "served.duckdb"
    with Archive(db) as archive:
        archive.import_sources([Path("samples/tutes.tpgn")])
    return db


def test_serves_the_archive_with_settings_from_the_environment(started: list[Any], archive_file: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTEPGN_CONCURRENCY", "3")
    monkeypatch.setenv("TUTEPGN_MAX_PAGE", "20")
    result = runner.invoke(app, ["serve", "--db", str(archive_file), "--read-only", "--port", "8123"])
    assert result.exit_code == 0, result.stderr
    (service, kwargs), = started
    settings = service.state.settings
    assert (settings.db, settings.read_only, settings.concurrency, settings.max_page) == (archive_file, True, 3, 20)
    assert kwargs["port"] == 8123
    assert service.state.service.closed  # once the server returns, the archive is checkpointed and closed
    with Archive(archive_file, read_only=True) as archive:
        assert archive.count() > 0


def test_several_workers_open_the_archive_each(started: list[Any], archive_file: Path) -> None:
    result = runner.invoke(app, ["serve", "--db", str(archive_file), "--read-only", "--workers", "2"])
    assert result.exit_code == 0, result.stderr
    (target, kwargs), = started
    assert (target, kwargs["factory"], kwargs["workers"]) == ("tutepgn.api.app:app_from_env", True, 2)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_archive_it_cannot_serve_stops_it_with_status_2(started: list[Any], tmp_path: Path, archive_file: Path,
                                                          workers: str) -> None:
    missing = runner.invoke(app, ["serve", "--db", str(tmp_path / "none.duckdb"), "--read-only", "--workers", workers])
    assert missing.exit_code == 2 and "no archive at" in missing.stderr
    with duckdb.connect(str(archive_file)) as con:
        con.execute("ALTER TABLE deals DROP COLUMN unsung")  # as a file from an older version would be
    old = runner.invoke(app, ["serve", "--db", str(archive_file), "--read-only", "--workers", workers])
    assert old.exit_code == 2 and "archive rebuild" in old.stderr
    not_duckdb = tmp_path / "notes.duckdb"
    not_duckdb.write_text("not a database\n")
    other = runner.invoke(app, ["serve", "--db", str(not_duckdb), "--read-only", "--workers", workers])
    assert other.exit_code == 2 and "error:" in other.stderr
    assert started == []  # no server was started for any of them


def test_refusals_before_starting(started: list[Any], archive_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writable = runner.invoke(app, ["serve", "--db", str(archive_file), "--workers", "2"])
    assert writable.exit_code == 2 and "--workers above 1 needs --read-only" in writable.stderr
    monkeypatch.setenv("TUTEPGN_MAX_PAGE", "zero")
    bad = runner.invoke(app, ["serve", "--db", str(archive_file), "--read-only"])
    assert bad.exit_code == 2 and "TUTEPGN_MAX_PAGE='zero'" in bad.stderr
    assert started == []


def test_load_imports_first(started: list[Any], tmp_path: Path) -> None:
    db = tmp_path / "loaded.duckdb"
    result = runner.invoke(app, ["serve", "--db", str(db), "--load", "samples/tutes.tpgn", "--load", "samples/simulated"])
    assert result.exit_code == 0, result.stderr
    assert f"{db}: " in result.stderr
    (service, _), = started
    assert service.state.service.closed
    with Archive(db, read_only=True) as archive:
        assert archive.count() > 0
    missing = runner.invoke(app, ["serve", "--db", str(db), "--load", str(tmp_path / "none.tpgn")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
