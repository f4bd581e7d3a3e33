"""The archive as a Parquet dataset on one machine: ``tute import --to parquet``, ``--dataset`` queries,
``tute export --format parquet``: the same rows as an archive file, each deal once, no half file ever read."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.analyses import AnalysisKey
from tutepgn.archive.columns import ROW_TABLES
from tutepgn.archive.dataset import Dataset, connect_dataset, dataset_archive, import_dataset
from tutepgn.cli.main import app
from tutepgn.notation.inputs import expand
from tutepgn.notation import iter_raw_records

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
runner = CliRunner()


def rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple]:
    """Every row of a table, in one order (lists and maps compared as values)."""
    return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()


def same_rows(archive: duckdb.DuckDBPyConnection, dataset: duckdb.DuckDBPyConnection) -> None:
    """Every table an import fills holds the same rows (ids, every column's value) in both."""
    for table in ROW_TABLES:
        expected = rows(archive, table)
        assert expected, table
        assert rows(dataset, table) == expected, table


@pytest.fixture(scope="module")
def archive_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("file") / "a.duckdb"
    result = runner.invoke(app, ["import", str(SAMPLES), "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("dataset") / "deals"
    result = runner.invoke(app, ["import", str(SAMPLES), "--to", "parquet", str(dest), "--jobs", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["added"] == 296
    return dest


def test_import_to_parquet_holds_the_rows_of_an_import_into_a_file(archive_file: Path, dataset: Path) -> None:
    with Archive(archive_file, read_only=True) as archive:
        same_rows(archive.con, connect_dataset(dataset))
    layout = {p.relative_to(dataset).parts[:2] for p in dataset.rglob("*.parquet")}
    assert ("deals", "year=2025") in layout and ("plays", "part-000001-000000.parquet") in layout
    assert not list((dataset / "_staging").rglob("*.parquet"))


def test_columns_and_types_are_the_archives(archive_file: Path, dataset: Path) -> None:
    with Archive(archive_file, read_only=True) as archive:
        for table in (*ROW_TABLES, "imports", "analyses"):
            expected = archive.con.execute(f"DESCRIBE {table}").fetchall()
            got = connect_dataset(dataset).execute(f"DESCRIBE {table}").fetchall()
            assert [r[:2] for r in got] == [r[:2] for r in expected], table


def test_a_second_import_adds_nothing(tmp_path: Path) -> None:
    dest = tmp_path / "d"
    sources = expand([str(SAMPLES)])
    first = import_dataset(dest, iter_raw_records(sources), [str(s) for s in sources])
    files = {p.relative_to(dest) for p in dest.rglob("*.parquet")}
    again = import_dataset(dest, iter_raw_records(sources), [str(s) for s in sources])
    assert (first.added, again.records, again.added) == (296, 296, 0)
    assert {p.relative_to(dest) for p in dest.rglob("*.parquet")} == files | {Path("imports/part-000002-999999.parquet")}
    con = connect_dataset(dest)
    assert con.execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone() == (296, 296)
    assert con.execute("SELECT run, records, added FROM imports ORDER BY run").fetchall() == [(1, 296, 296), (2, 296, 0)]


def test_duplicates_across_pieces_are_stored_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of 16 records, the samples twice: the second copies are left out of pieces already written."""
    import tutepgn.archive.dataset as module

    monkeypatch.setattr(module, "piece_size", lambda: 16)
    sources = expand([str(SAMPLES)]) * 2
    summary = import_dataset(tmp_path / "d", iter_raw_records(sources), [], jobs=1)
    assert (summary.records, summary.added) == (592, 296)
    con = connect_dataset(tmp_path / "d")
    assert con.execute("SELECT count(*), count(DISTINCT id), max(import_index) FROM deals").fetchone() == (296, 296, 295)
    assert con.execute("SELECT count(*) FROM (SELECT DISTINCT * FROM plays)").fetchone() == \
        con.execute("SELECT count(*) FROM plays").fetchone()


def deal_files(dest: Path) -> dict[str, list[str]]:
    """The deal files on disk by partition folder."""
    found: dict[str, list[str]] = {}
    for path in sorted((dest / "deals").rglob("*.parquet")):
        found.setdefault(path.parent.relative_to(dest).as_posix(), []).append(path.name)
    return found


def killed_import(dest: Path, sources: list[Path], dying: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    """An import whose commits go through ``dying`` (which raises KeyboardInterrupt at the point a test chose);
    the real commit is back afterwards."""
    real = Dataset.commit
    monkeypatch.setattr(Dataset, "commit", dying)
    with pytest.raises(KeyboardInterrupt):
        import_dataset(dest, iter_raw_records(sources), [], jobs=1)
    monkeypatch.setattr(Dataset, "commit", real)


def test_an_import_merges_each_partitions_small_deal_files_sorted_by_date(
        tmp_path: Path, archive_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of 40 records leave a few deals per partition and piece; the import ends with one file a partition,
    sorted by date (row groups a search by date can skip), and the same rows as an archive file."""
    import pyarrow.parquet as pq

    import tutepgn.archive.dataset as module

    monkeypatch.setattr(module, "piece_size", lambda: 40)
    dest = tmp_path / "d"
    sources = expand([str(SAMPLES)])
    import_dataset(dest, iter_raw_records(sources), [str(s) for s in sources], jobs=1)
    manifests = Dataset(dest).manifests()
    merges = [m for m in manifests if m.get("replaces")]
    assert merges and sum(len(m["replaces"]) for m in merges) > 2 * len(merges)
    files = deal_files(dest)
    assert all(len(names) == 1 for names in files.values()), files  # a partition's lone file is left as it is
    merged = [folder for folder, names in files.items() if names[0].startswith("compact-000001-")]
    assert len(merged) == len(merges) >= 2  # 2025 and 2026 (2024: one piece's file)
    for folder in merged:
        dates = pq.read_table(dest / folder / files[folder][0]).column("date").to_pylist()
        known = [d for d in dates if d is not None]
        assert known == sorted(known) and dates[:len(known)] == known
    with Archive(archive_file, read_only=True) as archive:
        same_rows(archive.con, connect_dataset(dest))


@pytest.mark.parametrize("dies", ["before", "after"])
def test_a_merge_killed_before_or_after_its_commit_loses_and_doubles_no_deal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dies: str) -> None:
    """Killed before the merge's manifest, the small files are read and the merged one is an orphan; killed
    after it, before the small files are deleted, they are replaced and not read.  Either way a reader sees
    each deal once, and the next import (adding nothing) leaves one file a partition."""
    import tutepgn.archive.dataset as module

    monkeypatch.setattr(module, "piece_size", lambda: 40)
    dest = tmp_path / "d"
    sources = expand([str(SAMPLES)])
    real = Dataset.commit

    def dying(self: Dataset, name: str, run: int, files: list[tuple[str, str]], **facts: object) -> None:
        if "compact" in name and dies == "after":
            real(self, name, run, files, **facts)
        if "compact" in name:
            raise KeyboardInterrupt
        real(self, name, run, files, **facts)

    killed_import(dest, sources, dying, monkeypatch)
    assert sum(len(names) for names in deal_files(dest).values()) > len(deal_files(dest))  # small files left
    assert connect_dataset(dest).execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone() == (296, 296)
    again = import_dataset(dest, iter_raw_records(sources), [], jobs=1)
    assert again.added == 0
    assert all(len(names) == 1 for names in deal_files(dest).values())
    assert connect_dataset(dest).execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone() == (296, 296)


def test_an_interrupted_import_leaves_no_half_file_read_and_a_rerun_no_duplicate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import dies after moving the third piece's parts into place, before its manifest: a reader sees the
    first two pieces only; the rerun deletes the orphans and stores every deal once."""
    import tutepgn.archive.dataset as module

    monkeypatch.setattr(module, "piece_size", lambda: 40)
    dest = tmp_path / "d"
    sources = expand([str(SAMPLES)])
    real = Dataset.commit
    count = 0

    def dying(self: Dataset, name: str, run: int, files: list[tuple[str, str]], **facts: object) -> None:
        nonlocal count
        count += 1
        if count == 3:
            for staged, final in files:  # moved into place, never committed
                (dest / final).parent.mkdir(parents=True, exist_ok=True)
                Path(staged).replace(dest / final)
            raise KeyboardInterrupt
        real(self, name, run, files, **facts)

    killed_import(dest, sources, dying, monkeypatch)
    committed = sum(m["added"] for m in Dataset(dest).manifests())
    assert 80 <= committed < 120  # two pieces of about 40 (a match is never cut)
    assert connect_dataset(dest).execute("SELECT count(*) FROM deals").fetchone() == (committed,)
    assert len(list(dest.rglob("part-000001-000002.parquet"))) > 0  # the orphans are there, unread
    summary = import_dataset(dest, iter_raw_records(sources), [], jobs=1)
    assert summary.added == 296 - committed and not list(dest.rglob("part-000001-000002.parquet"))
    con = connect_dataset(dest)
    assert con.execute("SELECT count(*), count(DISTINCT id) FROM deals").fetchone() == (296, 296)
    with Archive(tmp_path / "a.duckdb") as archive:
        archive.import_sources(sources)
        assert sorted(archive.con.execute("SELECT id FROM deals").fetchall()) == \
            sorted(con.execute("SELECT id FROM deals").fetchall())
        for table in ("plays", "hands", "issues", "declarations"):
            assert con.execute(f"SELECT count(*) FROM {table}").fetchone() == \
                archive.con.execute(f"SELECT count(*) FROM {table}").fetchone(), table


@pytest.mark.parametrize("args", [
    ["search", "--json", "--limit", "400"], ["search", "--json", "--rules", "torofun-3p", "--sort", "points"],
    ["search", "--format", "csv", "--limit", "400"], ["search", "--format", "tpgn", "--player", "Ana"],
    ["stats", "--json"], ["stats", "--json", "--rules", "ludoteka-pairs"],
    ["export", "--format", "jsonl"], ["export", "--format", "csv", "--tute"],
])
def test_queries_over_the_dataset_answer_as_over_the_file(archive_file: Path, dataset: Path, args: list[str]) -> None:
    over_file = runner.invoke(app, [*args, "--db", str(archive_file)])
    over_dataset = runner.invoke(app, [*args, "--dataset", str(dataset)])
    assert over_file.exit_code == over_dataset.exit_code == 0, over_dataset.output
    assert over_dataset.stdout == over_file.stdout and len(over_file.stdout) > 100


def test_show_over_the_dataset(archive_file: Path, dataset: Path) -> None:
    deal = str(connect_dataset(dataset).execute("SELECT max(id) FROM deals").fetchone()[0])
    shown = runner.invoke(app, ["show", deal, "--dataset", str(dataset)])
    assert shown.exit_code == 0 and shown.stdout == runner.invoke(app, ["show", deal, "--db", str(archive_file)]).stdout


def test_no_dataset_is_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["search", "--dataset", str(tmp_path / "none"), "--json"])
    assert result.exit_code == 2 and "no dataset at" in result.stderr


def test_export_of_an_archive_is_a_dataset_with_every_table(archive_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "exported"
    result = runner.invoke(app, ["export", "--db", str(archive_file), "--format", "parquet", "-o", str(out)])
    assert result.exit_code == 0 and "exported 296 deals" in result.stderr
    with Archive(archive_file, read_only=True) as archive, dataset_archive(out) as exported:
        same_rows(archive.con, exported.con)
        assert rows(exported.con, "imports") == rows(archive.con, "imports")
        assert exported.deal_page(SearchFilters(rules="torofun-3p"), limit=7) == \
            archive.deal_page(SearchFilters(rules="torofun-3p"), limit=7)
    again = runner.invoke(app, ["export", "--db", str(archive_file), "--format", "parquet", "-o", str(out)])
    assert "exported 0 deals" in again.stderr


def test_the_dataset_answers_read_only_and_reaches_no_other_file(dataset: Path, tmp_path: Path) -> None:
    con = connect_dataset(dataset, secure=True)
    assert con.execute("SELECT count(*) FROM deals").fetchone() == (296,)
    with pytest.raises(duckdb.Error):
        con.execute("SELECT * FROM read_csv('/etc/passwd')")
    with pytest.raises(duckdb.Error):
        con.execute("SET enable_external_access = true")


SQL = ["SELECT preset, year, count(*) AS n, sum(winner_points) AS points FROM deals GROUP BY ALL ORDER BY ALL",
       "SELECT * FROM players ORDER BY ALL",
       "SELECT d.preset, p.card, count(*) AS n FROM plays p JOIN deals d ON d.id = p.deal_id WHERE p.trick = 1 "
       "GROUP BY ALL ORDER BY ALL"]


@pytest.mark.parametrize("form", ["--json", "--nl", "--format=csv", "--format=table"])
def test_sql_over_the_dataset_answers_as_over_the_file(archive_file: Path, dataset: Path, form: str) -> None:
    for query in SQL:
        over_file = runner.invoke(app, ["sql", query, form, "--db", str(archive_file)])
        over_dataset = runner.invoke(app, ["sql", query, form, "--dataset", str(dataset)])
        assert over_file.exit_code == over_dataset.exit_code == 0, over_dataset.output
        assert over_dataset.stdout == over_file.stdout and len(over_file.stdout) > 100


def test_sql_over_the_dataset_cuts_rows_as_over_the_file(dataset: Path) -> None:
    result = runner.invoke(app, ["sql", "SELECT id FROM deals", "--dataset", str(dataset), "--json", "--max-rows", "7"])
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 7
    assert "only the first 7 rows" in result.stderr


@pytest.mark.parametrize("query", [
    "COPY (SELECT 1 AS x) TO '{dataset}/deals/x.parquet'",  # the one folder the views reach: refused all the same
    "EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '{dataset}/x.csv'",
    "CREATE TABLE t AS SELECT 1",
    "SELECT * FROM read_text('/etc/passwd')",
    "SET enable_external_access = true",
    "SELEC 1",
])
def test_sql_over_the_dataset_writes_nothing_and_reaches_no_other_file(dataset: Path, query: str) -> None:
    from tutepgn.errors import Problem

    before = sorted(p for p in dataset.rglob("*") if "_staging" not in p.parts)
    result = runner.invoke(app, ["sql", query.format(dataset=dataset), "--dataset", str(dataset), "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    problem = Problem.model_validate_json(result.stderr)
    assert problem.status == 2 and problem.instance == "tute sql" and problem.errors
    assert sorted(p for p in dataset.rglob("*") if "_staging" not in p.parts) == before


def test_sql_without_a_dataset_is_a_problem(tmp_path: Path) -> None:
    result = runner.invoke(app, ["sql", "SELECT 1", "--dataset", str(tmp_path / "none"), "--json"])
    assert result.exit_code == 2 and "no dataset at" in json.loads(result.stderr)["detail"]


def test_an_interrupted_analysis_keeps_its_committed_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis of a dataset's deals stops after its second batch of 2: a rerun analyses the rest, each
    deal's row once; the rows are those of an archive file's analysis (a cartas vistas alone: the batches are
    what is tested, not PIMC)."""
    import tutepgn.archive.dataset_analysis as module

    quick = AnalysisKey(worlds=0)

    monkeypatch.setattr(module, "WORK_SIZE", 2)
    sources = [SAMPLES / "tutes.tpgn", SAMPLES / "simulated" / "playcard-2p-3-matches.tpgn"]
    dest = tmp_path / "d"
    import_dataset(dest, iter_raw_records(sources), [], jobs=1)
    real, calls = module.commit, 0

    def dying(*args: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "commit", dying)
    with pytest.raises(KeyboardInterrupt):
        module.analyse_dataset(dest, quick, batch_size=2)
    monkeypatch.setattr(module, "commit", real)
    assert connect_dataset(dest).execute("SELECT count(*) FROM analyses").fetchone() == (4,)
    summary = module.analyse_dataset(dest, quick, batch_size=5)
    assert (summary.analysed, summary.skipped, summary.failed) == (12, 4, 0)
    with Archive(tmp_path / "a.duckdb") as archive:
        archive.import_sources(sources)
        archive.analyse(quick)
        assert rows(connect_dataset(dest), "analyses") == rows(archive.con, "analyses")
    assert not list((dest / "_staging").rglob("*.parquet"))


def test_analyse_without_a_dataset_is_a_problem(tmp_path: Path) -> None:
    result = runner.invoke(app, ["archive", "analyse", "--dataset", str(tmp_path / "none"), "--json"])
    assert result.exit_code == 2 and "no dataset at" in json.loads(result.stderr)["detail"]
