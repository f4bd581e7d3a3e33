"""The archive commands beside a running ``tute serve``, which holds the DuckDB file (one writer, or many readers).

A real service runs over a temporary archive; ``tute search``, ``stats`` and
``export`` run as processes of their own and must print what they print over
the file itself (the service answers them), ``tute import`` must reach the
service with an API key (and say how without one), and what only the file can
answer (``tute sql``, a JSON export) must name the service that holds it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from test_live_api import KEY
from test_live_crash import TUTE, Served
from tutepgn.archive import Archive, running_service, service_file
from tutepgn.errors import ArchiveHeldError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
READS = [["search", "--json", "--player", "Ana"], ["search", "--limit", "5", "--offset", "3"],
         ["search", "--format", "tpgn", "--limit", "7"], ["search", "--format", "csv", "--winner", "NS"],
         ["search", "--nl", "--cante", "40", "--no-tute"], ["stats", "--json"], ["stats"],
         ["export"], ["export", "--format", "csv", "--rules", "ludoteka-pairs"],
         ["search", "--player", "Ana", "--cante-by", "Nadie"]]
"""Reads the service answers: each must print exactly what it prints over the file (stdout and stderr: the
count of an export, why a search found nothing)."""


def tute(db: Path, *words: str, **env_vars: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TUTEPGN_API_KEY"}
    env.update({"TUTEPGN_DB": str(db), "COLUMNS": "200", **env_vars})
    done = subprocess.run([str(TUTE), *words], env=env, capture_output=True, timeout=120)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())  # bytes as sent: CSV's \r\n kept


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    """A service over an archive of the simulated samples, and what each read printed before it started."""
    db = tmp_path_factory.mktemp("held") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((SAMPLES / "simulated").glob("*.tpgn")))
        deal = str(archive.search(limit=1, columns=("id",))[0]["id"])
    before = {}
    for words in [*READS, ["show", deal], ["show", deal, "--json"]]:
        result = tute(db, *words)
        assert result.returncode == 0, result.stderr
        before[" ".join(words)] = result.stdout + result.stderr
    server = Served(db)
    server.start()
    yield server, before
    if server.process is not None and server.process.poll() is None:
        server.kill()


def test_the_service_says_where_it_listens_beside_the_archive(served: tuple[Served, dict[str, str]]) -> None:
    server, _ = served
    assert running_service(server.db) == {"url": server.url, "pid": server.process.pid, "read_only": False,  # type: ignore[union-attr]
                                          "db": str(server.db)}
    with pytest.raises(ArchiveHeldError, match=f"held by the tutepgn service at {server.url}"):
        Archive(server.db, read_only=True)  # the file itself is locked


@pytest.mark.parametrize("words", READS, ids=" ".join)
def test_reads_print_what_the_file_gives(served: tuple[Served, dict[str, str]], words: list[str]) -> None:
    server, before = served
    result = tute(server.db, *words)
    assert result.returncode == 0, result.stderr
    assert result.stdout and result.stdout + result.stderr == before[" ".join(words)]


def test_show_prints_the_deal_the_file_gives(served: tuple[Served, dict[str, str]]) -> None:
    server, before = served
    shown = [key for key in before if key.startswith("show ")]
    for key in shown:
        result = tute(server.db, *key.split())
        assert result.returncode == 0 and result.stdout + result.stderr == before[key]
    missing = tute(server.db, "show", "12345")
    assert missing.returncode == 2 and "no deal 12345" in missing.stderr


def test_an_export_to_a_file_through_the_service(served: tuple[Served, dict[str, str]], tmp_path: Path) -> None:
    server, before = served
    out = tmp_path / "ludoteka.csv"
    result = tute(server.db, "export", "--format", "csv", "--rules", "ludoteka-pairs", "-o", str(out))
    assert result.returncode == 0, result.stderr
    expected = before["export --format csv --rules ludoteka-pairs"].split("exported ")[0]  # stdout, then stderr
    assert out.read_bytes() == expected.encode("utf-8")
    rows = len(list(csv.reader(io.StringIO(expected)))) - 1
    assert rows > 0 and f"exported {rows:,} deals to {out}" in " ".join(result.stderr.split())


@pytest.mark.parametrize("words", [["sql", "SELECT count(*) FROM deals"], ["export", "--format", "json"],
                                   ["search", "--format", "jsonl"], ["archive", "verify"]])
def test_what_needs_the_file_names_the_service(served: tuple[Served, dict[str, str]], words: list[str]) -> None:
    server, _ = served
    result = tute(server.db, *words)
    assert result.returncode == 2
    message = " ".join(result.stderr.split())
    assert f"held by the tutepgn service at {server.url} (pid {server.process.pid})" in message  # type: ignore[union-attr]
    assert "stop it first" in message and "Conflicting lock" not in message


def test_import_goes_through_the_service_with_a_key(served: tuple[Served, dict[str, str]]) -> None:
    server, _ = served
    refused = tute(server.db, "import", str(SAMPLES / "tutes.tpgn"))
    assert refused.returncode == 2
    assert "TUTEPGN_API_KEY" in refused.stderr and server.url in refused.stderr
    wrong = tute(server.db, "import", str(SAMPLES / "tutes.tpgn"), TUTEPGN_API_KEY="not-a-key")
    assert wrong.returncode == 2 and "answered 403" in wrong.stderr
    deals = httpx.get(f"{server.url}/api/v1/health", timeout=10).json()["deals"]
    done = tute(server.db, "import", "--json", str(SAMPLES / "tutes.tpgn"), str(SAMPLES / "doubles.tpgn"),
                TUTEPGN_API_KEY=KEY)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["db"] == str(server.db) and summary["added"] > 0 and summary["records"] >= summary["added"]
    assert httpx.get(f"{server.url}/api/v1/health", timeout=10).json()["deals"] == deals + summary["added"]
    again = tute(server.db, "import", "--json", str(SAMPLES / "tutes.tpgn"), TUTEPGN_API_KEY=KEY)
    assert again.returncode == 0 and json.loads(again.stdout)["added"] == 0  # stored records are skipped
    count = tute(server.db, "search", "--json", "--limit", "1000")
    assert len(json.loads(count.stdout)) == deals + summary["added"]  # the reads see them at once


def test_a_stopped_service_leaves_the_file_to_the_commands(tmp_path: Path) -> None:
    db = tmp_path / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "tutes.tpgn"])
    server = Served(db)
    server.start()
    assert service_file(db).exists()
    server.process.send_signal(signal.SIGINT)  # type: ignore[union-attr]
    assert server.process.wait(timeout=30) == 0  # type: ignore[union-attr]
    assert not service_file(db).exists()
    result = tute(db, "sql", "--json", "SELECT count(*) AS n FROM deals")
    assert result.returncode == 0 and json.loads(result.stdout)[0]["n"] > 0


def test_a_lock_held_by_another_process_names_its_pid(tmp_path: Path) -> None:
    db = tmp_path / "archive.duckdb"
    Archive(db).close()
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb, sys; c = duckdb.connect({str(db)!r}); "
                               "print('open', flush=True); sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        for words in (["stats"], ["import", str(SAMPLES / "tutes.tpgn")], ["sql", "SELECT 1"]):
            result = tute(db, *words)
            assert result.returncode == 2
            assert f"locked by another process (pid {holder.pid})" in " ".join(result.stderr.split()), words
    finally:
        holder.kill()
        holder.wait()
