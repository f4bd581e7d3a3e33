"""The archive as a hive-partitioned Parquet dataset: the same tables and columns, for many machines.

Layout under the dataset's root (a local folder, or a URL pyarrow opens: ``s3://``, ``gs://``, ``hdfs://``)::

    deals/preset=P/year=Y/part-RUN-PIECE.parquet   the deals, partitioned by what searches prune on
    plays/part-RUN-PIECE.parquet                   plays, declarations, hands, side_totals, issues: a file per piece
    imports/part-RUN-imports.parquet               one row per import, as in an archive file
    analyses/part-RUN-PIECE.parquet                what ``tute archive analyse --dataset`` stored
    deals/preset=P/year=Y/compact-RUN-K.parquet    small deal files merged at the end of an import
    _manifests/RUN-PIECE.json                      the commit of a piece: the files it added
    _manifests/RUN-compact-K.json                  the commit of a merge: the file it added, the files it replaced
    _staging/                                      parts being written (never read)

Every column is the archive's (:data:`.columns.TABLES`; the deals' ``preset`` and ``year``
are in the directory names, as the hive layout has them, and come back typed).  A piece's
parts are written under temporary names in ``_staging``, moved into place, then committed by
writing its manifest; a reader reads only the files manifests name (less those a later
manifest replaced), and the next import deletes whatever no manifest names (a piece a killed
import left half done) or a merge replaced.

A piece's deals are spread over the partitions, so each file holds a few hundred deals; a
DuckDB query pays about 0.4 ms a file however little it reads.  So an import ends by merging
each partition's small deal files (:meth:`Dataset.compact`) into files of up to
:data:`COMPACT_ROWS` deals sorted by date, in row groups whose statistics let a search by date
skip most of them.

Deduplication is by id against what the dataset holds, on the one process that commits
(the client of a cluster): it reads the ids once (8 bytes a deal), checks each piece's ids
before committing it, in the order of the sources, so the first copy of a deal is the one
kept, as in an archive file.  Partitioning by a prefix of the hash would spread that check
over the workers, but the directories would then be hash buckets that no search prunes on.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from datetime import datetime
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from ..i18n import gettext as _
from .columns import PARQUET_KEY, ROW_TABLES, SCHEMA_VERSION, TABLES, VIEWS, arrow_type, comments_sql, int_list, table_sql
from . import ingest
from .ingest import ImportSummary, invalid_count, only, placed, valid_only
from .rows import Raw, worker_batch
from .schema import VERSION_KEY, check_dataset

if TYPE_CHECKING:
    import duckdb

    from .store import Archive

MANIFESTS, STAGING = "_manifests", "_staging"
PARTITIONS: dict[str, tuple[str, ...]] = {"deals": ("year",)}
"""The tables written in partitions, and the columns that name them (hive layout)."""
HIVE_KEYS = ("preset", "year")
"""The deals' columns a dataset's paths may name: the year, and the preset in a dataset written before 2026-12-06
(``deals/preset=P/year=Y/``), which is read as it is."""
DATASET_WORK_SIZE = 2 * ingest.WORK_SIZE
"""Records per piece of a dataset's import at most (8,192): twice an import into a file's (:data:`.ingest.WORK_SIZE`),
since each piece writes a file per table (plays: 320,000 rows), and a query pays for every file it opens."""
COMPACT_ROWS = 250_000
"""Deals a merged file holds at most (about 100 MB as Arrow: what one merge task, in a worker process or on a
cluster's worker, reads at once); files of fewer than half as many are merged."""
ROW_GROUP = 16_384
"""Rows per row group of a merged file: a page of a search by date reads one or two of them."""


def piece_size() -> int:
    """Records per piece of a dataset's import: the batch in equal pieces of at most :data:`DATASET_WORK_SIZE`
    (the verdicts do not depend on the pieces: a match is never cut)."""
    return ingest.piece_size(most=DATASET_WORK_SIZE)


Mapper = Callable[[Callable[[tuple[int, list[str]]], tuple[int, str]], list[tuple[int, list[str]]]],
                  Iterable[tuple[int, str]]]
"""Runs :func:`merge_task` on each numbered group of files, answers in any order (``map``, worker processes,
a cluster's tasks)."""
NULL_PART = "__HIVE_DEFAULT_PARTITION__"
"""A NULL partition value, as Hive, Spark, DuckDB and pyarrow write and read it."""


def location(dest: str | os.PathLike[str]) -> tuple[pafs.FileSystem, str]:
    """The filesystem and root of a dataset: a local folder, or a URL pyarrow knows (``s3://bucket/deals``)."""
    text = os.fspath(dest)
    if "://" in text:
        return pafs.FileSystem.from_uri(text)
    return pafs.LocalFileSystem(), os.path.abspath(text)


def schema_of(table: str) -> pa.Schema:
    """The Arrow schema of any table of the archive (:func:`.columns.arrow_schemas` has those an import fills)."""
    return pa.schema([(c.name, arrow_type(c.sql)) for c in TABLES[table]])


def write_parquet(rows: pa.Table, path: str, fs: pafs.FileSystem, **options: Any) -> None:
    """Write one Parquet file of the dataset, this schema's version in its key-value metadata
    (:data:`.columns.PARQUET_KEY`): a file read on its own says which columns it was written with."""
    metadata = {**(rows.schema.metadata or {}), PARQUET_KEY: str(SCHEMA_VERSION).encode()}
    pq.write_table(rows.replace_schema_metadata(metadata), path, filesystem=fs, **options)


def now() -> datetime:
    """The time, to the second, as table ``imports`` keeps it."""
    return datetime.now().replace(microsecond=0)


@dataclass
class Staged:
    """A piece written under temporary names (by a worker, a task of a cluster): what committing it needs."""

    number: int
    read: int
    invalid: int
    ids: list[int]
    files: list[tuple[str, str]] = field(default_factory=list)
    """(the staged file, its place relative to the root)."""


def partition_keys(fs: pafs.FileSystem, root: str, table: str) -> tuple[str, ...]:
    """The columns that name a table's partitions in the dataset at ``root``: :data:`PARTITIONS`'s, or the
    preset and the year in a dataset written with them (:data:`HIVE_KEYS`), which keeps its layout: a reader's
    Hive partitions must be the same from file to file."""
    keys = PARTITIONS.get(table, ())
    found = fs.get_file_info(pafs.FileSelector(f"{root}/{table}", allow_not_found=True)) if keys else []
    return HIVE_KEYS if any(info.base_name.startswith("preset=") for info in found) else keys


def partitions(table: str, rows: pa.Table, keys: tuple[str, ...]) -> Iterator[tuple[str, pa.Table]]:
    """A table's rows by partition: (the directories under the table, e.g. ``year=2025/``, its rows without
    the partition columns ``keys``)."""
    if not keys:
        yield "", rows
        return
    for group in rows.group_by(list(keys), use_threads=False).aggregate([]).to_pylist():
        mask = None
        for key in keys:
            column = rows.column(key)
            match = pc.is_null(column) if group[key] is None else pc.equal(column, group[key])
            mask = match if mask is None else pc.and_(mask, match)
        assert mask is not None  # keys is not empty
        part = rows.filter(mask).drop_columns(list(keys))
        yield "".join(f"{k}={NULL_PART if group[k] is None else group[k]}/" for k in keys), part


def stage(dest: str, tables: dict[str, pa.Table], run: int, number: int) -> list[tuple[str, str]]:
    """Write a piece's rows under temporary names; return (staged file, final place) for each file."""
    fs, root = location(dest)
    staged = f"{root}/{STAGING}/{run:06d}-{number:06d}-{uuid.uuid4().hex}"
    files = []
    for table, rows in tables.items():
        if not rows.num_rows:
            continue
        for under, part in partitions(table, rows, partition_keys(fs, root, table)):
            final = f"{table}/{under}part-{run:06d}-{number:06d}.parquet"
            path = f"{staged}/{final}"
            fs.create_dir(path.rsplit("/", 1)[0])
            write_parquet(part, path, fs)
            files.append((path, final))
    return files


def import_piece(dest: str, run: int, number: int, before: int, batch: list[Raw], skip_invalid: bool) -> Staged:
    """A task: parse, validate and build a piece's rows (the archive's own row builder), write them staged."""
    tables = worker_batch(batch)
    invalid = invalid_count(tables["deals"])
    if skip_invalid and invalid:
        tables = valid_only(tables)
    tables["deals"] = placed(tables["deals"], run, before)
    files = stage(dest, tables, run, number)
    return Staged(number, len(batch), invalid, int_list(tables["deals"].column("id")), files)


class Dataset:
    """A Parquet dataset of the archive's tables: what it holds (its manifests), and its commits."""

    def __init__(self, dest: str | os.PathLike[str]) -> None:
        self.dest = os.fspath(dest)
        self.fs, self.root = location(dest)

    def manifests(self) -> list[dict[str, Any]]:
        """Every committed piece's manifest, in the order of their names (run, then piece); a dataset of another
        schema version is refused (:func:`.schema.check_dataset`), for reading and for writing alike."""
        selector = pafs.FileSelector(f"{self.root}/{MANIFESTS}", allow_not_found=True)
        found = sorted(i.path for i in self.fs.get_file_info(selector) if i.path.endswith(".json"))
        out = []
        for path in found:
            with self.fs.open_input_stream(path) as stream:
                out.append(json.loads(stream.read()))
        check_dataset(self.dest, out)
        return out

    def exists(self) -> bool:
        """Whether anything was ever committed here."""
        return bool(self.manifests())

    @staticmethod
    def live(manifests: list[dict[str, Any]]) -> list[str]:
        """The files the manifests commit and no later one replaced (relative to the root), in commit order."""
        replaced = {f for m in manifests for f in m.get("replaces", ())}
        return [f for m in manifests for f in m["files"] if f not in replaced]

    def files(self, table: str, manifests: list[dict[str, Any]] | None = None) -> list[str]:
        """The committed files of a table (full paths), in commit order."""
        return [f"{self.root}/{f}" for f in self.live(manifests if manifests is not None else self.manifests())
                if f.startswith(table + "/")]

    def read(self, table: str, columns: list[str] | None = None) -> pa.Table:
        """A table's committed rows as Arrow, the partition columns included (empty when it has none)."""
        files = self.files(table)
        schema = schema_of(table)
        if not files:
            return schema.empty_table().select(columns or schema.names)
        keys = PARTITIONS.get(table, ())
        partitioning = pds.partitioning(pa.schema([schema.field(k) for k in keys]), flavor="hive") if keys else None
        data = pds.dataset(files, schema=schema, format="parquet", filesystem=self.fs, partitioning=partitioning,
                           partition_base_dir=f"{self.root}/{table}")
        return data.to_table(columns=columns or schema.names)

    def ids(self) -> set[int]:
        """The ids of the deals committed."""
        return set(int_list(self.read("deals", ["id"]).column("id")))

    def next_run(self) -> int:
        """The number of the next import: past every run that committed anything, and every import an export
        brought from an archive file."""
        runs = [m["run"] for m in self.manifests()] + self.read("imports", ["run"]).column("run").to_pylist()
        return max(runs, default=0) + 1

    def clean(self) -> None:
        """Delete what no manifest names: staged parts, and parts moved into place by an import killed before
        it committed them.  Run before an import (one import at a time, as with an archive file)."""
        named = {f"{self.root}/{f}" for f in self.live(self.manifests())}
        self.fs.delete_dir_contents(f"{self.root}/{STAGING}", missing_dir_ok=True)
        for table in TABLES:
            selector = pafs.FileSelector(f"{self.root}/{table}", recursive=True, allow_not_found=True)
            for info in self.fs.get_file_info(selector):
                if info.type == pafs.FileType.File and info.path not in named:
                    self.fs.delete_file(info.path)

    def commit(self, name: str, run: int, files: list[tuple[str, str]], **facts: Any) -> None:
        """Move staged files into place, then write the manifest that commits them (atomically: a local file
        is renamed into place, an object store writes an object whole)."""
        self.fs.create_dir(f"{self.root}/{MANIFESTS}")
        for staged, final in files:
            self.fs.create_dir(f"{self.root}/{final}".rsplit("/", 1)[0])
            self.fs.move(staged, f"{self.root}/{final}")
        manifest = f"{self.root}/{MANIFESTS}/{name}.json"
        temporary = f"{self.root}/{STAGING}/{name}.{uuid.uuid4().hex}.json"
        self.fs.create_dir(f"{self.root}/{STAGING}")
        with self.fs.open_output_stream(temporary) as stream:
            stream.write(json.dumps({"run": run, "files": [f for _, f in files], VERSION_KEY: SCHEMA_VERSION,
                                     **facts}).encode())
        self.fs.move(temporary, manifest)

    def fill_empty(self, run: int) -> None:
        """Commit an empty file, with its table's schema, for each table with no file: a reader globbing a
        table's files (``read_parquet('DEST/issues/*.parquet')``) finds its columns when it has no rows.  The
        deals' goes under the partitions of NULL (``preset=__HIVE_DEFAULT_PARTITION__/year=...``)."""
        manifests = self.manifests()
        files = []
        for table in TABLES:
            if self.files(table, manifests):
                continue
            keys = list(partition_keys(self.fs, self.root, table))
            staged = f"{self.root}/{STAGING}/{uuid.uuid4().hex}.parquet"
            self.fs.create_dir(f"{self.root}/{STAGING}")
            write_parquet(schema_of(table).empty_table().drop_columns(keys), staged, self.fs)
            files.append((staged, f"{table}/{''.join(f'{k}={NULL_PART}/' for k in keys)}empty-{run:06d}.parquet"))
        if files:
            self.commit(f"{run:06d}-empty", run, files, added=0)

    def compact(self, run: int, mapper: Mapper | None = None) -> int:
        """Merge each partition's small deal files, in commit order, into files of up to :data:`COMPACT_ROWS`
        deals sorted by date then id; each merged file is committed by a manifest that names the files it
        replaces, which are then deleted (a reader never sees a deal twice or loses one: the manifest is the
        switch).  ``mapper`` runs the merges (:func:`merge_task`) where the import's pieces ran: worker
        processes, or a cluster's tasks; by default, here.  Returns the number of files merged."""
        small: dict[str, list[tuple[str, int]]] = {}
        for path in self.files("deals"):
            rows = pq.read_metadata(path, filesystem=self.fs).num_rows
            if rows < COMPACT_ROWS // 2:
                small.setdefault(path.rsplit("/", 1)[0], []).append((path, rows))
        groups = dict(enumerate(group for found in small.values() for group in _groups(found)))
        for number, staged in (mapper or map)(partial(merge_task, self.dest), list(groups.items())):
            group = groups[number]
            final = f"{group[0].rsplit('/', 1)[0][len(self.root) + 1:]}/compact-{run:06d}-{number:06d}.parquet"
            replaces = [path[len(self.root) + 1:] for path in group]
            self.commit(f"{run:06d}-compact-{number:06d}", run, [(staged, final)], replaces=replaces, added=0)
            for path in group:
                self.fs.delete_file(path)
        return sum(len(group) for group in groups.values())


def merge_task(dest: str, item: tuple[int, list[str]]) -> tuple[int, str]:
    """A task: read a group of small deal files, sort their rows by date then id, write them staged in row groups
    of :data:`ROW_GROUP`; return (the group's number, the staged file)."""
    number, group = item
    fs, root = location(dest)
    parts = []
    for path in group:
        with fs.open_input_file(path) as handle:
            parts.append(pq.read_table(handle))
    order = [("date", "ascending", "at_end"), ("id", "ascending", "at_end")]  # (column, order, nulls) since pyarrow 17
    rows = pa.concat_tables(parts).sort_by(order)  # type: ignore[arg-type]  # the stubs know (column, order) only
    staged = f"{root}/{STAGING}/{uuid.uuid4().hex}.parquet"
    fs.create_dir(f"{root}/{STAGING}")
    write_parquet(rows, staged, fs, row_group_size=ROW_GROUP)
    return number, staged


def _groups(found: list[tuple[str, int]]) -> Iterator[list[str]]:
    """Consecutive small files in groups of at most :data:`COMPACT_ROWS` rows; a group of one file is left."""
    group: list[str] = []
    rows = 0
    for path, count in found:
        if group and rows + count > COMPACT_ROWS:
            if len(group) > 1:
                yield group
            group, rows = [], 0
        group.append(path)
        rows += count
    if len(group) > 1:
        yield group


class Importer:
    """Commits the pieces of one import into a dataset, in order, each deal once.

    Pieces come back (from worker processes or a cluster) in any order; each is
    committed when all the pieces before it are, so the first copy of a deal in
    the sources is the one kept, as in an archive file.
    """

    def __init__(self, dataset: Dataset, names: list[str], *, skip_invalid: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.dataset = dataset
        dataset.clean()
        self.known = dataset.ids()
        self.run = dataset.next_run()
        self.names = names
        self.skip_invalid = skip_invalid
        self.progress = progress
        self.summary = ImportSummary()
        self.started = now()
        self.start = time.perf_counter()
        self.waiting: dict[int, Staged] = {}
        self.following = 0

    def take(self, piece: Staged) -> None:
        """A piece done: commit it and every piece waiting for it."""
        self.waiting[piece.number] = piece
        while self.following in self.waiting:
            self._commit(self.waiting.pop(self.following))
            self.following += 1

    def _commit(self, piece: Staged) -> None:
        new = [i for i in dict.fromkeys(piece.ids) if i not in self.known]
        files = piece.files
        if len(new) < len(piece.ids):  # some deals are stored already: their rows are left out
            files = self._without(files, pa.array(new, pa.int64()), piece.number)
        self.dataset.commit(f"{self.run:06d}-{piece.number:06d}", self.run, files, piece=piece.number,
                            records=piece.read, added=len(new))
        self.known.update(new)
        self.summary.records += piece.read
        self.summary.added += len(new)
        self.summary.invalid += piece.invalid
        self.summary.skipped_invalid += piece.invalid if self.skip_invalid else 0
        if self.progress:
            self.progress(self.summary.records, self.summary.added)

    def _without(self, files: list[tuple[str, str]], new: pa.Array[Any], number: int) -> list[tuple[str, str]]:
        """The staged files again with the rows of the deals ``new`` only (written staged anew)."""
        fs = self.dataset.fs
        kept = []
        for staged, final in files:
            with fs.open_input_file(staged) as handle:
                rows = only({"t": pq.read_table(handle)}, new)["t"]
            fs.delete_file(staged)
            if rows.num_rows:
                again = f"{staged}.{number}.kept"
                write_parquet(rows, again, fs)
                kept.append((again, final))
        return kept

    def finish(self, mapper: Mapper | None = None) -> ImportSummary:
        """Merge the small deal files (``mapper``: see :meth:`Dataset.compact`), commit the import's row of table
        ``imports``; return the summary."""
        self.dataset.compact(self.run, mapper)  # also what an import killed before merging left
        self.summary.seconds = time.perf_counter() - self.start
        row = pa.table({"run": [self.run], "started": [self.started], "finished": [now()], "paths": [self.names],
                        "records": [self.summary.records], "added": [self.summary.added]}, schema=schema_of("imports"))
        files = stage(self.dataset.dest, {"imports": row}, self.run, 999_999)
        self.dataset.commit(f"{self.run:06d}-imports", self.run, files, records=self.summary.records,
                            added=self.summary.added)
        self.dataset.fill_empty(self.run)
        self.dataset.fs.delete_dir_contents(f"{self.dataset.root}/{STAGING}", missing_dir_ok=True)
        return self.summary


def import_dataset(dest: str | os.PathLike[str], raw: Iterable[Raw], names: list[str], *, jobs: int = 1,
                   skip_invalid: bool = False, progress: Callable[[int, int], None] | None = None) -> ImportSummary:
    """Import records (split from their sources) into the dataset at ``dest`` on this machine: ``jobs`` worker
    processes parse, validate and write the pieces, this process commits them (see :class:`Importer`)."""
    from ..workers import ordered_map

    importer = Importer(Dataset(dest), names, skip_invalid=skip_invalid, progress=progress)
    task = partial(piece_task, importer.dataset.dest, importer.run, skip_invalid)
    for staged in ordered_map(task, numbered(raw), jobs, ahead=jobs + 1):
        importer.take(staged)
    return importer.finish(lambda work, items: ordered_map(work, iter(items), min(jobs, len(items)), ahead=jobs + 1))


def numbered(raw: Iterable[Raw]) -> Iterator[tuple[int, int, list[Raw]]]:
    """The pieces of an import, cut as an import into an archive file cuts them: (number, records before, records)."""
    from ..notation import batch_records

    before = 0
    for number, work in enumerate(batch_records(raw, piece_size())):
        yield number, before, work
        before += len(work)


def piece_task(dest: str, run: int, skip_invalid: bool, item: tuple[int, int, list[Raw]]) -> Staged:
    """:func:`import_piece` on a numbered piece (a module-level function: worker processes and clusters pickle it)."""
    number, before, batch = item
    return import_piece(dest, run, number, before, batch, skip_invalid)


def view_statements(dest: str | os.PathLike[str], manifests: list[dict[str, Any]] | None = None,
                    ) -> tuple[str, list[str]]:
    """The dataset's local root and the SQL that makes every table of the archive a view of its committed files
    (then the archive's views): what a DuckDB connection over the dataset runs first (:func:`connect_dataset`,
    and ``tute sql --dataset`` in its own process)."""
    dataset = Dataset(dest)
    if not isinstance(dataset.fs, pafs.LocalFileSystem):
        raise ValueError(_("{dest}: DuckDB reads a local dataset here (copy it, or read it with DuckDB's httpfs, "
                           "Polars or Spark: docs/scale.md)", dest=dataset.dest))
    manifests = dataset.manifests() if manifests is None else manifests
    if not manifests:
        raise FileNotFoundError(_("no dataset at {dest}: import records first (tute import FILE --to parquet {dest})",
                                  dest=dataset.dest))
    statements, views = [], []
    for table, columns in TABLES.items():
        scan = scan_sql(dataset, table, manifests)
        if scan is None:
            statements.append(table_sql(table))
            continue
        views.append(table)
        statements.append(f"CREATE VIEW {table} AS SELECT {', '.join(c.name for c in columns)} FROM {scan}")
    return dataset.root, [*statements, VIEWS, comments_sql(views)]


def scan_sql(dataset: Dataset, table: str, manifests: list[dict[str, Any]]) -> str | None:
    """The ``read_parquet`` of a table's committed files (None when it has none): what its view reads, and what
    a dataset's searches read without the view (:class:`.dataset_search.DatasetArchive`: binding a view of 60
    columns costs each query about 0.6 ms, a third of a count)."""
    files = dataset.files(table, manifests)
    if not files:
        return None
    if table in PARTITIONS:  # earlier years first: a first page by date finds its deals in the first row groups,
        files.sort(key=lambda path: path.rsplit("/", 1)[0])  # and DuckDB's top-N skips the later ones
    listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    keys = PARTITIONS.get(table)
    hive = (", hive_partitioning = true, hive_types = {"
            + ", ".join(f"'{k}': {next(c.sql for c in TABLES[table] if c.name == k)}" for k in keys) + "}"
            if keys else ", hive_partitioning = false")
    return f"read_parquet([{listed}]{hive})"


def connect_dataset(dest: str | os.PathLike[str], *, secure: bool = False, memory_limit: str = "1GB",
                    threads: int | None = None, manifests: list[dict[str, Any]] | None = None,
                    ) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views of the dataset's committed files (those
    ``manifests`` commit: by default, the dataset's now): the archive's queries (:class:`.store.Archive` over
    it) run unchanged.  ``secure``: SQL reaches no file but the dataset's folder, and the configuration is
    locked (a service's connection)."""
    import duckdb

    root, statements = view_statements(dest, manifests)
    config: dict[str, Any] = {"memory_limit": memory_limit, "autoload_known_extensions": False,
                              "autoinstall_known_extensions": False}
    if threads:
        config["threads"] = threads
    con = duckdb.connect(":memory:", config=config)
    con.execute("SET parquet_metadata_cache = true")  # each search reads the files' footers once, not per query
    for statement in statements:
        con.execute(statement)
    if secure:
        con.execute("SET allowed_directories = ?", [[root + "/"]])
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    return con


def dataset_archive(dest: str | os.PathLike[str], *, secure: bool = False, memory_limit: str = "1GB",
                    threads: int | None = None) -> Archive:
    """The dataset at ``dest`` as a read-only :class:`.store.Archive`: the same searches, pages and statistics.
    Its views name the files committed when it opens, so its deals never change while it is open: the seat
    names are read once (:class:`.names.SeatNames` ``fixed``), and the files' statistics too, which answer the
    searches they prove empty without a query (:class:`.dataset_search.DatasetArchive`)."""
    from .dataset_search import DatasetArchive, Zones
    from .names import SeatNames

    dataset = Dataset(dest)
    manifests = dataset.manifests()
    con = connect_dataset(dest, secure=secure, memory_limit=memory_limit, threads=threads, manifests=manifests)
    return DatasetArchive(dest, read_only=True, secure=secure, memory_limit=memory_limit, threads=threads,
                          connection=con, rows_by_id=False, seat_names=SeatNames(fixed=True),
                          zones=Zones.read(dataset, manifests),
                          deals_from=f"{scan_sql(dataset, 'deals', manifests) or 'deals'} AS deals")


EXPORT_PIECE = 50_000
"""Deals per piece of an export into a dataset (a piece's deals file per partition, and one file per other table)."""


def export_dataset(con: duckdb.DuckDBPyConnection, where: str, params: list[Any], dest: str | os.PathLike[str]) -> int:
    """Write the deals of an archive (open on ``con``) that match ``where`` into the dataset at ``dest``, every
    table's rows (analyses and imports included), pieces committed (and merged) as an import commits them; deals the
    dataset holds are left out.  Returns how many deals were added."""
    dataset = Dataset(dest)
    dataset.clean()
    known = dataset.ids()
    run = dataset.next_run()
    ids = [i for (i,) in con.execute(f"SELECT id FROM deals WHERE {where} ORDER BY id", params).fetchall()
           if i not in known]
    for number, start in enumerate(range(0, len(ids), EXPORT_PIECE)):
        chunk = ids[start:start + EXPORT_PIECE]
        tables = {table: con.sql(f"SELECT * FROM {table} WHERE {'id' if table == 'deals' else 'deal_id'} "
                                 "IN (SELECT unnest(?))", params=[chunk]).to_arrow_table().cast(schema_of(table))
                  for table in (*ROW_TABLES, "analyses")}
        dataset.commit(f"{run:06d}-{number:06d}", run, stage(dataset.dest, tables, run, number), piece=number,
                       added=len(chunk))
    if ids:
        dataset.compact(run)
    held = set(int_list(dataset.read("imports", ["run"]).column("run")))
    imports = con.sql("SELECT * FROM imports WHERE NOT list_contains(?, run) ORDER BY run",
                      params=[sorted(held)]).to_arrow_table().cast(schema_of("imports"))
    dataset.commit(f"{run:06d}-imports", run, stage(dataset.dest, {"imports": imports}, run, 999_999))
    dataset.fill_empty(run)
    dataset.fs.delete_dir_contents(f"{dataset.root}/{STAGING}", missing_dir_ok=True)
    return len(ids)
