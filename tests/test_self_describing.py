"""Data that describes itself: the archive's schema version (in the file, in each Parquet file, checked on open
with the way out), its column comments, empty tables as empty Parquet files, the JSON exports' id and hash, and
``tute export --sort``/``--sample``."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.columns import PARQUET_KEY, SCHEMA_VERSION, TABLE_DOCS, TABLES, deal_id
from tutepgn.archive.search import Sample
from tutepgn.cli.main import app
from tutepgn.errors import SchemaVersionError

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SOURCES = sorted(SAMPLES.glob("*.tpgn"))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("describing") / "a.duckdb"
    with Archive(path) as archive:
        archive.import_sources(SOURCES)
    return path


def ids_of(text: str) -> list[int]:
    """The ids of a CSV export's rows."""
    return [int(line.split(",")[0]) for line in text.splitlines()[1:]]


def previous_schema(db: Path, tmp_path: Path, version: str | None = None) -> Path:
    """A copy of ``db`` as the previous tutepgn wrote it (the same tables, no stored version), or with another
    version stored."""
    old = tmp_path / "old.duckdb"
    shutil.copy(db, old)
    with duckdb.connect(str(old)) as con:
        if version is None:
            con.execute("DROP TABLE meta")
        else:
            con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [version])
    return old


# ---------------------------------------------------------------------------
# The schema version.

def test_a_new_archive_stores_its_schema_version(db: Path) -> None:
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT key, value FROM meta").fetchall() == [("schema_version", str(SCHEMA_VERSION))]


@pytest.mark.parametrize("version", [None, "1", str(SCHEMA_VERSION + 1)])
def test_an_archive_of_another_schema_is_refused_with_the_way_out(db: Path, tmp_path: Path,
                                                                   version: str | None) -> None:
    old = previous_schema(db, tmp_path, version)
    for read_only in (True, False):
        with pytest.raises(SchemaVersionError) as refused:
            Archive(old, read_only=read_only)
        assert refused.value.found == (None if version is None else int(version))
        assert refused.value.expected == SCHEMA_VERSION
        assert f"tute archive rebuild --db {old} -o NEW.duckdb" in str(refused.value)
    for args in (["search"], ["stats"], ["export", "--format", "csv"], ["archive", "verify"]):
        result = runner.invoke(app, [*args, "--db", str(old)])
        assert result.exit_code == 2 and f"tute archive rebuild --db {old}" in result.stderr, (args, result.stderr)
    problem = json.loads(runner.invoke(app, ["search", "--db", str(old), "--json"]).stderr)
    assert problem["status"] == 2 and "tute archive rebuild" in problem["detail"]


def test_the_service_refuses_an_archive_of_the_previous_schema(db: Path, tmp_path: Path) -> None:
    from tutepgn.api.app import create_app
    from tutepgn.api.settings import Settings

    old = previous_schema(db, tmp_path)
    for read_only in (True, False):
        with pytest.raises(SchemaVersionError, match="tute archive rebuild"):
            create_app(Settings(db=old, read_only=read_only))


def test_rebuild_brings_an_archive_of_the_previous_schema_up_to_date(db: Path, tmp_path: Path) -> None:
    old = previous_schema(db, tmp_path)
    new = tmp_path / "new.duckdb"
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(old), "-o", str(new), "--jobs", "1"])
    assert result.exit_code == 0, result.stderr
    with Archive(db, read_only=True) as first:
        texts = list(first.texts(sort="id"))
    assert len(texts) > 15
    with Archive(new, read_only=True) as rebuilt:
        assert list(rebuilt.texts(sort="id")) == texts
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(old), "--jobs", "1"])  # in place
    assert result.exit_code == 0, result.stderr
    with Archive(old, read_only=True) as rebuilt:
        assert list(rebuilt.texts(sort="id")) == texts
    with pytest.raises(SchemaVersionError):
        Archive(tmp_path / "old.duckdb.bak", read_only=True)  # the old file, kept as it was


# ---------------------------------------------------------------------------
# Comments from the one column table.

def test_every_documented_table_and_column_has_its_comment(db: Path, tmp_path: Path) -> None:
    expected = {(t, c.name): c.doc for t, columns in TABLES.items() for c in columns if c.doc}
    assert len(expected) > 50
    with duckdb.connect(str(db), read_only=True) as con:
        found = {(t, c): doc for t, c, doc in con.execute(
            "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE comment IS NOT NULL").fetchall()}
        tables = dict(con.execute("SELECT table_name, comment FROM duckdb_tables() WHERE comment IS NOT NULL"
                                  ).fetchall())
    assert {k: v for k, v in found.items() if k[0] in TABLES} == expected
    assert {t: tables[t] for t in TABLES} == {t: TABLE_DOCS[t] for t in TABLES} and "schema_version" in tables["meta"]
    # a dataset's views say the same (tute sql --dataset)
    runner.invoke(app, ["export", "--db", str(db), "--format", "parquet", "-o", str(tmp_path / "pq")])
    result = runner.invoke(app, ["sql", "--dataset", str(tmp_path / "pq"), "--json", "SELECT column_name, comment "
                                 "FROM duckdb_columns() WHERE table_name = 'deals' AND column_name = 'hash'"])
    assert json.loads(result.stdout) == [{"column_name": "hash", "comment": expected[("deals", "hash")]}]


# ---------------------------------------------------------------------------
# Parquet: the version in every file; empty tables as empty files.

def test_every_parquet_file_says_its_schema_version_and_empty_tables_are_files(db: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    dest = tmp_path / "pq"
    result = runner.invoke(app, ["export", "--db", str(db), "--format", "parquet", "-o", str(dest), "--tute"])
    assert result.exit_code == 0, result.stderr
    files = sorted(dest.rglob("*.parquet"))
    assert {f.relative_to(dest).parts[0] for f in files} == set(TABLES)
    for path in files:
        assert pq.read_metadata(path).metadata[PARQUET_KEY] == str(SCHEMA_VERSION).encode(), path
    for manifest in (dest / "_manifests").glob("*.json"):
        assert json.loads(manifest.read_text())["schema_version"] == SCHEMA_VERSION
    with duckdb.connect() as con:
        for table in ("issues", "analyses"):  # none of the tutes has a finding or an analysis
            cursor = con.execute(f"SELECT * FROM read_parquet('{dest}/{table}/*.parquet')")
            assert cursor.fetchall() == [] and [d[0] for d in cursor.description] == [c.name for c in TABLES[table]]
        assert con.execute(f"SELECT count(*) FROM read_parquet('{dest}/deals/**/*.parquet')").fetchone() == (3,)
    nothing = tmp_path / "nothing"
    assert runner.invoke(app, ["export", "--db", str(db), "--format", "parquet", "-o", str(nothing),
                               "--player", "Nobody At All"]).exit_code == 0
    with duckdb.connect() as con:
        cursor = con.execute(f"SELECT * FROM read_parquet('{nothing}/deals/**/*.parquet', hive_partitioning = true)")
        assert cursor.fetchall() == [] and {c.name for c in TABLES["deals"]} == {d[0] for d in cursor.description}
    found = runner.invoke(app, ["search", "--dataset", str(nothing), "--json"])
    assert found.exit_code == 0 and json.loads(found.stdout) == []


def test_a_dataset_of_another_schema_is_refused_with_the_way_out(db: Path, tmp_path: Path) -> None:
    from tutepgn.archive.dataset import dataset_archive

    dest = tmp_path / "pq"
    runner.invoke(app, ["export", "--db", str(db), "--format", "parquet", "-o", str(dest)])
    manifest = sorted((dest / "_manifests").glob("*.json"))[0]
    data = json.loads(manifest.read_text())
    del data["schema_version"]  # as the previous tutepgn wrote it
    manifest.write_text(json.dumps(data))
    with pytest.raises(SchemaVersionError) as refused:
        dataset_archive(dest)
    assert refused.value.found is None and "tute export --format parquet" in str(refused.value)
    for args in (["search", "--dataset", str(dest)], ["export", "--db", str(db), "--format", "parquet", "-o",
                                                        str(dest)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "tute export --format parquet" in result.stderr, result.stderr


# ---------------------------------------------------------------------------
# The JSON exports' id and hash; --sort and --sample.

def test_the_json_exports_carry_each_deals_id_as_a_string_and_its_hash(db: Path) -> None:
    import jsonschema

    from tutepgn.notation import json_schema
    from tutepgn.notation.jsonform import iter_json, iter_jsonl

    with Archive(db, read_only=True) as archive:
        stored = {row["id"]: row for row in archive.iter_rows(columns=("id", "hash", "text"))}
        lines = io.StringIO()
        archive.export(None, "jsonl", lines)
        whole = io.StringIO()
        archive.export(None, "json", whole)
    docs = [json.loads(line) for line in lines.getvalue().splitlines()]
    assert docs == json.loads(whole.getvalue()) and len(docs) == len(stored)
    validator = jsonschema.Draft202012Validator(json_schema())
    for doc in docs:
        assert isinstance(doc["id"], str) and list(doc)[:2] == ["id", "hash"]
        row = stored[int(doc["id"])]
        assert doc["hash"] == row["hash"] and deal_id(row["text"]) == (row["id"], row["hash"])
        validator.validate(doc)
    for back in (list(iter_jsonl(io.StringIO(lines.getvalue()), strict=True)),  # read back, id and hash ignored
                 list(iter_json(io.StringIO(whole.getvalue()), strict=True))):
        assert sorted(r.tpgn() for r in back) == sorted(r["text"] for r in stored.values())


def test_export_sorts_by_a_sort_key_or_any_column(db: Path) -> None:
    def column(args: list[str], name: str) -> list[str]:
        result = runner.invoke(app, ["export", "--db", str(db), "--format", "csv", *args])
        assert result.exit_code == 0, result.stderr
        return [row[name] for row in csv.DictReader(io.StringIO(result.stdout))]

    points = [int(p) if p else -1 for p in column(["--sort", "-points"], "winner_points")]
    assert points == sorted(points, reverse=True) and len(set(points)) > 3
    cantes = column(["--sort", "-cantes"], "cantes")
    assert cantes == sorted(cantes, key=lambda c: -int(c) if c else 1) and len(set(cantes)) > 1
    assert column(["--sort", "id"], "id") == sorted(column([], "id"), key=int)
    assert column(["--sort", "id", "--limit", "2"], "id") == column(["--sort", "id"], "id")[:2]
    refused = runner.invoke(app, ["export", "--db", str(db), "--sort", "text; DROP TABLE deals"])
    assert refused.exit_code == 2 and "unknown sort" in refused.stderr


def test_a_sample_is_the_same_for_the_same_seed_and_the_same_deals(db: Path, tmp_path: Path) -> None:
    def sample(path: Path, *args: str) -> list[int]:
        result = runner.invoke(app, ["export", "--db", str(path), "--format", "csv", "--sort", "id", *args])
        assert result.exit_code == 0, result.stderr
        return ids_of(result.stdout)

    every = sample(db)
    first = sample(db, "--sample", "5", "--seed", "7")
    assert len(first) == 5 and set(first) <= set(every) and first == sample(db, "--sample", "5", "--seed", "7")
    assert len({tuple(sample(db, "--sample", "5", "--seed", str(s))) for s in range(6)}) > 1
    assert sample(db, "--sample", str(len(every) + 5)) == every
    playcard = sample(db, "--rules", "playcard-2p")
    assert set(sample(db, "--rules", "playcard-2p", "--sample", "2", "--seed", "7")) <= set(playcard)
    reversed_db = tmp_path / "reversed.duckdb"  # the same deals imported in another order
    with Archive(reversed_db) as archive:
        archive.import_sources(SOURCES[::-1])
    assert sample(reversed_db, "--sample", "5", "--seed", "7") == first
    with Archive(db, read_only=True) as archive:
        assert sorted(archive.ids(sample=Sample(5, 7)).to_pylist()) == first
        assert archive.export(SearchFilters(), "parquet", tmp_path / "pq", sample=Sample(4, 7)) == 4
