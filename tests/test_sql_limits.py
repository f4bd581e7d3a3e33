"""``tute sql`` and ``run_sql`` bounded in memory and time, even for queries DuckDB's own limits miss.

The two queries of issue 13 took 6 GB and 60 s (``repeat``) and 4.8 GB
(``list_concat``) through a 1 GB memory limit and a 5 s time limit.  Here they
run with a memory limit of 256 MiB: each must fail cleanly, quickly, with its
process gone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from tutepgn.archive import SQL_MEMORY_ENV, Archive, run_sql
from tutepgn.errors import LimitError, Problem

ROOT = Path(__file__).resolve().parent.parent
SMALL = 256 * 2**20
REPEAT = "SELECT max(length(repeat('x', 1000000000 + range))) FROM range(6)"
LISTS = "SELECT list_concat(range(200000000), range(200000000))"
FOREVER = "SELECT count(*) FROM range(1000000000000) a"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sql-limits") / "archive.duckdb"
    with Archive(path) as archive:
        archive.import_sources([ROOT / "samples" / "tutes.tpgn"])
    return path


def _sandboxes() -> Iterator[int]:
    """The query processes still running (children of this one or of its children: not those of other test runs
    on the same machine)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"sandbox.py" in command and _descends(int(entry)):
                yield int(entry)


def _descends(pid: int) -> bool:
    """Whether process ``pid`` descends from this one."""
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return False
        if pid == os.getpid():
            return True
    return False


@pytest.mark.parametrize("query", [REPEAT, LISTS], ids=["repeat", "list_concat"])
def test_a_query_past_the_memory_limit_fails_cleanly(db: Path, query: str) -> None:
    start = time.monotonic()
    with pytest.raises(LimitError, match="memory limit of 268,435,456 bytes"):
        run_sql(db, query, timeout=60, memory=SMALL)
    assert time.monotonic() - start < 30
    assert not list(_sandboxes())


def test_a_query_past_the_time_limit_is_killed(db: Path) -> None:
    start = time.monotonic()
    with pytest.raises(LimitError, match="ran over 1 s"):
        run_sql(db, FOREVER, timeout=1, memory=SMALL)
    assert time.monotonic() - start < 30
    assert not list(_sandboxes())


def test_the_lock_down_still_holds_in_the_query_process(db: Path, tmp_path: Path) -> None:
    assert run_sql(db, "SELECT count(*) AS n FROM deals")[0] == ["n"]
    for query in (f"COPY deals TO '{tmp_path / 'out.csv'}'", "SELECT * FROM read_text('/etc/passwd')",
                  "SET lock_configuration = false", "CREATE TABLE t (x INT)"):
        with pytest.raises(duckdb.Error):
            run_sql(db, query)
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("query", [REPEAT, LISTS], ids=["repeat", "list_concat"])
def test_tute_sql_answers_a_problem_with_status_2(db: Path, query: str) -> None:
    env = {**os.environ, SQL_MEMORY_ENV: str(SMALL)}
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "tutepgn.cli", "sql", "--db", str(db), query, "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert time.monotonic() - start < 60
    assert done.returncode == 2 and done.stdout == ""
    problem = Problem.model_validate(json.loads(done.stderr))
    assert problem.status == 2 and problem.instance == "tute sql" and "memory limit" in problem.detail
    assert not list(_sandboxes())


def test_tute_sql_refuses_a_memory_limit_too_small(db: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tutepgn.cli", "sql", "--db", str(db), "SELECT 1", "--memory", "1000"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--memory" in done.stderr
