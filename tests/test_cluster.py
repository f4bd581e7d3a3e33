"""Imports on a Dask cluster (a ``LocalCluster`` of 2 worker processes): the same rows as on one machine, a worker
killed mid-import and an interrupted import run again leave no duplicate and no missing deal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutepgn.archive.columns import ROW_TABLES
from tutepgn.archive.dataset import Dataset, connect_dataset, import_dataset
from tutepgn.cli.main import app
from tutepgn.notation.inputs import expand
from tutepgn.notation import iter_raw_records

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SOURCES = expand([str(SAMPLES)])
NAMES = [str(s) for s in SOURCES]
SMALL = 12
"""Records per piece where a test needs many pieces."""
runner = CliRunner()


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as connected:
        yield connected


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of :data:`SMALL` records (the client cuts the pieces: the workers need not be patched)."""
    import tutepgn.archive.dataset as module

    monkeypatch.setattr(module, "piece_size", lambda: SMALL)


def rows(dest: Path, table: str) -> list[tuple]:
    return connect_dataset(dest).execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()


@pytest.fixture(scope="module")
def on_one_machine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("one") / "d"
    assert import_dataset(dest, iter_raw_records(SOURCES), NAMES, jobs=1).added == 296
    return dest


def test_the_cluster_import_has_the_rows_of_a_single_machine_import(
        client: distributed.Client, on_one_machine: Path, tmp_path: Path) -> None:
    dest = tmp_path / "d"
    address = client.scheduler.address
    result = runner.invoke(app, ["import", str(SAMPLES), "--to", "parquet", str(dest), "--cluster", address, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["added"] == 296
    for table in ROW_TABLES:
        assert rows(dest, table) == rows(on_one_machine, table), table
    again = runner.invoke(app, ["import", str(SAMPLES), "--to", "parquet", str(dest), "--json"],
                          env={"TUTEPGN_DASK_SCHEDULER": address})
    assert again.exit_code == 0 and json.loads(again.stdout)["added"] == 0
    assert connect_dataset(dest).execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone() == (296, 296)


def test_the_small_deal_files_are_merged_by_the_clusters_tasks(
        client: distributed.Client, small_pieces: None, on_one_machine: Path, tmp_path: Path) -> None:
    """Pieces of 12 records leave many small deal files a partition; the merges run as tasks of the cluster,
    and leave one file a partition holding the rows of an import on one machine."""
    from tutepgn.archive.cluster import import_cluster

    dest = tmp_path / "d"
    with distributed.get_task_stream(client) as stream:
        assert import_cluster(client, str(dest), iter_raw_records(SOURCES), NAMES).added == 296
    merges = [t for t in stream.data if t["key"].startswith("tute-merge-")]
    assert len(merges) == sum(1 for m in Dataset(dest).manifests() if m.get("replaces")) >= 2  # a year each
    folders = {p.parent for p in (dest / "deals").rglob("*.parquet")}
    assert len(list((dest / "deals").rglob("*.parquet"))) == len(folders)
    for table in ROW_TABLES:
        assert rows(dest, table) == rows(on_one_machine, table), table


def test_a_worker_killed_mid_import_leaves_no_duplicate_and_no_missing_deal(
        client: distributed.Client, small_pieces: None, tmp_path: Path) -> None:
    from tutepgn.archive.cluster import import_cluster

    expected = tmp_path / "one"
    import_dataset(expected, iter_raw_records(SOURCES), NAMES, jobs=1)  # the same small pieces
    pids = client.run(os.getpid)
    killed: list[int] = []

    def kill_one(records: int, added: int) -> None:  # at the first commit, tasks are running on both workers
        if not killed:
            victim = next(iter(pids.values()))
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    summary = import_cluster(client, str(tmp_path / "d"), iter_raw_records(SOURCES), NAMES, progress=kill_one)
    assert killed and summary.added == 296
    for table in ROW_TABLES:
        assert rows(tmp_path / "d", table) == rows(expected, table), table
    assert killed[0] not in client.run(os.getpid).values()  # the worker did die (its nanny starts another)


INTERRUPTED = """
import sys
import tutepgn.archive.dataset as module
from distributed import Client
from tutepgn.archive.cluster import import_cluster
from tutepgn.notation.inputs import expand
from tutepgn.notation import iter_raw_records
module.piece_size = lambda: %d
commit, commits = module.Dataset.commit, []


def held_after_three(self, *args, **facts):
    # commit, then wait after the third commit: the test kills this process there, between two commits,
    # however fast the machine (an import that finished first would test nothing)
    commit(self, *args, **facts)
    commits.append(args)
    if len(commits) == 3:
        import time
        time.sleep(300)


module.Dataset.commit = held_after_three
sources = expand([sys.argv[3]])
with Client(sys.argv[1]) as client:
    import_cluster(client, sys.argv[2], iter_raw_records(sources), [str(s) for s in sources])
""" % SMALL


def test_an_interrupted_cluster_import_run_again_leaves_no_duplicate_and_no_missing_deal(
        client: distributed.Client, small_pieces: None, tmp_path: Path) -> None:
    dest = tmp_path / "d"
    importing = subprocess.Popen([sys.executable, "-c", INTERRUPTED, client.scheduler.address, str(dest), str(SAMPLES)])
    deadline = time.monotonic() + 120
    while len(list((dest / "_manifests").glob("*.json"))) < 3 and importing.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    importing.send_signal(signal.SIGKILL)  # the client dies between two commits
    importing.wait()
    committed = connect_dataset(dest).execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone()
    assert committed[0] == committed[1] and 0 < committed[0] < 296
    from tutepgn.archive.cluster import import_cluster

    summary = import_cluster(client, str(dest), iter_raw_records(SOURCES), NAMES)
    assert summary.added == 296 - committed[0]
    con = connect_dataset(dest)
    assert con.execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone() == (296, 296)
    expected = tmp_path / "one"
    import_dataset(expected, iter_raw_records(SOURCES), NAMES, jobs=1)
    assert sorted(con.execute("SELECT id FROM deals").fetchall()) == sorted(rows(expected, "deals")[i][:1]
                                                                          for i in range(296))
    for table in ("plays", "declarations", "hands", "issues"):
        mine = con.execute(f"SELECT * EXCLUDE (deal_id), deal_id FROM {table} ORDER BY ALL").fetchall()
        assert len(mine) == len(rows(expected, table)), table
    named = set(Dataset.live(Dataset(dest).manifests()))
    assert {p.relative_to(dest).as_posix() for p in dest.rglob("*.parquet") if "_staging" not in p.parts} == named


def distributed_stream_levels() -> list[int]:
    import logging

    return [h.level for h in logging.getLogger("distributed").handlers]


def test_a_local_cluster_is_quietened_before_it_closes(client: distributed.Client) -> None:
    """The workers of a ``--cluster local`` print nothing once the work is done: a heartbeat caught by the
    scheduler's shutdown logged a traceback on the user's terminal (and failed a docs run)."""
    import logging

    from tutepgn.archive.cluster import quiet_worker_logs

    before = client.run(distributed_stream_levels)
    assert all(level < logging.ERROR for levels in before.values() for level in levels) and before
    client.run(quiet_worker_logs)
    after = client.run(distributed_stream_levels)
    assert all(levels and min(levels) > logging.CRITICAL for levels in after.values())


def test_without_dask_cluster_says_how_to_install_it(tmp_path: Path) -> None:
    blocked = "import sys; sys.modules['distributed'] = None; from tutepgn.cli.main import main; main()"
    run = subprocess.run([sys.executable, "-c", blocked, "import", str(SAMPLES / "doubles.tpgn"), "--to", "parquet",
                          str(tmp_path / "d"), "--cluster", "tcp://127.0.0.1:1", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    problem = json.loads(run.stderr)
    assert "pip install 'tutepgn[dask]'" in problem["detail"]


def analysed(args: list[str], worlds: int) -> list[dict]:
    result = runner.invoke(app, ["analyse", *args, "--json", "--pimc", str(worlds)])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


QUICK = [SAMPLES / name for name in ("tutes.tpgn", "playcard-exchange-and-late-cante.tpgn", "torofun-2p-italian-cards.tpgn",
                                     "torofun-3p.tpgn", "unfinished-deal.tpgn")]
"""Samples quick to analyse (2 and 3 players, an unfinished 4-player deal)."""
WITH_PIMC = [SAMPLES / name for name in ("hand-written.tpgn", "torofun-2p-italian-cards.tpgn", "torofun-4p-analysed.tpgn")]
"""Samples analysed on the cluster with PIMC too (2 worlds, seeded: 2 and 4 players, a few seconds each); the others
by the double-dummy search alone, the same analysis but for the PIMC values."""
HAND_WRITTEN = sorted(SAMPLES.glob("*.tpgn"))
SIMULATED = sorted((SAMPLES / "simulated").glob("*.tpgn"))


@pytest.mark.parametrize("path", [
    *HAND_WRITTEN, *(pytest.param(p, marks=pytest.mark.slow) for p in SIMULATED)], ids=lambda p: p.name)
def test_analyse_on_the_cluster_matches_one_machine(client: distributed.Client, path: Path) -> None:
    """The sample deals analysed on the cluster: the same analyses (the hand-written samples here, the
    simulated ones too under ``make test-slow``: the 294 sample deals in all)."""
    worlds = 2 if path in WITH_PIMC else 0
    on_cluster = analysed([str(path), "--cluster", client.scheduler.address], worlds)
    assert on_cluster == analysed([str(path), "--jobs", "1"], worlds) and on_cluster


def test_validate_on_the_cluster_matches_one_machine(client: distributed.Client) -> None:
    """Every sample validated on the cluster: the same reports, in the same order, and the same summary."""
    on_cluster = runner.invoke(app, ["validate", str(SAMPLES), "--json", "--cluster", client.scheduler.address])
    here = runner.invoke(app, ["validate", str(SAMPLES), "--json"])
    assert on_cluster.exit_code == here.exit_code
    mine, theirs = json.loads(on_cluster.stdout), json.loads(here.stdout)
    assert mine["summary"].pop("seconds") > 0 and theirs["summary"].pop("seconds") > 0  # the one difference
    assert mine == theirs and len(theirs["reports"]) == 296


SEARCHES = [["--blunders"], ["--no-blunders"], ["--mistakes"], ["--par-diff-max", "-10"], ["--max-cost", "5"],
            ["--analysed"], ["--no-analysed"]]


def test_analyses_on_the_cluster_are_stored_in_the_dataset_as_in_the_file(
        client: distributed.Client, tmp_path: Path) -> None:
    """``tute archive analyse --dataset DEST --cluster ADDRESS`` stores the rows one machine stores in a file
    (table analyses, joined to the deals by id), and the dataset's searches filter on them as the file's do;
    ``--cluster`` over a file stores the same rows too."""
    address = client.scheduler.address
    db, on_cluster_db, dest = tmp_path / "a.duckdb", tmp_path / "c.duckdb", tmp_path / "d"
    for target in (["--db", str(db)], ["--db", str(on_cluster_db)], ["--to", "parquet", str(dest)]):
        assert runner.invoke(app, ["import", *map(str, QUICK), *target, "--jobs", "1"]).exit_code == 0
    assert runner.invoke(app, ["archive", "analyse", "--db", str(db), "--jobs", "1", "--pimc", "2"]).exit_code == 0
    on_file = runner.invoke(app, ["archive", "analyse", "--db", str(on_cluster_db), "--cluster", address, "--json", "--pimc", "2"])
    result = runner.invoke(app, ["archive", "analyse", "--dataset", str(dest), "--cluster", address, "--json", "--pimc", "2"])
    assert on_file.exit_code == 0 and result.exit_code == 0, result.output
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con, duckdb.connect(str(on_cluster_db), read_only=True) as other:
        expected = con.execute("SELECT * FROM analyses ORDER BY ALL").fetchall()
        deals = con.execute("SELECT count(*) FROM deals").fetchone()[0]
        assert len(expected) == deals > 5 and other.execute("SELECT * FROM analyses ORDER BY ALL").fetchall() == expected
    summary = json.loads(result.stdout)
    assert summary["dataset"] == str(dest) and (summary["analysed"], summary["skipped"]) == (deals, 0)
    assert rows(dest, "analyses") == expected
    # every file of the table under analyses/ (with the empty file an import writes for a table it left empty)
    assert {p.relative_to(dest).parts[0] for p in dest.rglob("*.parquet") if "analyses" in p.parts} == {"analyses"}
    for filters in SEARCHES:
        over_file = runner.invoke(app, ["search", *filters, "--db", str(db), "--json", "--limit", "100"])
        over_dataset = runner.invoke(app, ["search", *filters, "--dataset", str(dest), "--json", "--limit", "100"])
        assert over_dataset.exit_code == 0 and over_dataset.stdout == over_file.stdout, filters
    assert any(len(json.loads(runner.invoke(app, ["search", *f, "--dataset", str(dest), "--json"]).stdout)) not in (0, deals)
               for f in SEARCHES)  # the filters do pick some of the deals
    again = runner.invoke(app, ["archive", "analyse", "--dataset", str(dest), "--json", "--pimc", "2"])
    assert (json.loads(again.stdout)["analysed"], json.loads(again.stdout)["skipped"]) == (0, deals)
