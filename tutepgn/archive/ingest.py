"""Importing: records in, rows out, one transaction per batch.

Loading follows DuckDB's own guidance: records are parsed and validated in
worker processes (:func:`.rows.arrow_batch`, a pure function from record texts
to Arrow tables), inserted in bulk one transaction per batch (never row by
row), and the file is checkpointed at the end.  A deal's id is the first 63
bits of the SHA-256 of its export text, so importing the same records again
adds nothing, and an interrupted import leaves only whole batches behind.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Literal

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import ArchiveWriteError
from ..i18n import ngettext
from ..notation import batch_records
from ..workers import ordered_map
from . import schema
from .columns import ROW_TABLES
from .defaults import BATCH_SIZE
from .ids import DealId
from .rows import Raw, arrow_batch, record_id, worker_batch

log = logging.getLogger(__name__)

WORK_SIZE = BATCH_SIZE // 30
"""Records per piece of work sent to a worker process (4,096): small enough to keep every worker busy, and a
thirtieth of a batch (:data:`.defaults.BATCH_SIZE`), so that a batch is whole pieces.  A worker holds
its piece, its rows as Arrow and their pickled copy at once, and the main process the pieces in flight: on
1,000,000 deals, pieces of 4,000 peaked at 687 to 693 MiB for the process tree against 831 to 872 MiB with
8,000 (each worker 168 against 229 to 237 MiB), in the same time (docs/performance.md)."""
IMPORT_MEMORY_LIMIT = "128MB"
"""DuckDB's buffer pool while importing: the rows of the open batch spill to disk beyond it, and blocks already
written need no cache.  Against 256 MB, the main process of a 1,000,000-deal import peaks about 100 MiB lower
for about 10% more of its CPU (docs/performance.md)."""
IMPORT_THREADS = 1
"""DuckDB's threads while worker processes import: they keep every core busy, and a second DuckDB thread only
competed with them (the main process's CPU on 1,000,000 deals: 108 s with two, 82 s with one).  The closing
checkpoint runs with the connection's own threads."""


ImportState = Literal["added", "already", "invalid", "skipped"]
"""What became of a record an import read: ``added`` (stored now, valid), ``already`` (its deal was in the archive,
or earlier in the same import), ``invalid`` (stored now, flagged invalid: the archive keeps what it cannot
validate), ``skipped`` (invalid, and not stored: ``skip_invalid``)."""


@dataclass(frozen=True)
class ImportItem:
    """One record an import read: its place, its deal's id and what became of it."""

    index: int
    """Its place among the records the import read, from 0 (the order they were posted or read in)."""
    id: DealId | None
    """The deal's id in the archive (a string in JSON); None when it was skipped, not stored."""
    state: ImportState


@dataclass
class ImportSummary:
    """What an import did."""
    records: int = 0
    added: int = 0
    invalid: int = 0
    skipped_invalid: int = 0
    seconds: float = 0.0
    items: list[ImportItem] | None = None
    """Each record's id and state, in order, when asked for (``items=True``: the service asks; the command line
    does not, so that an import of millions of records keeps no list of them); None when not asked for."""

    def __str__(self) -> str:
        """The summary in words, in the language spoken."""
        rate = self.records / self.seconds if self.seconds else 0
        counts = {"added": self.added, "invalid": self.invalid, "rate": rate,
                  "already": self.records - self.added - self.skipped_invalid, "skipped": self.skipped_invalid,
                  "seconds": self.seconds}
        if self.skipped_invalid:
            return ngettext("{n:,} record read, {added:,} added, {already:,} already in the archive, {invalid:,} "
                            "invalid ({skipped:,} skipped); {seconds:.1f} s, {rate:,.0f} records/s",
                            "{n:,} records read, {added:,} added, {already:,} already in the archive, {invalid:,} "
                            "invalid ({skipped:,} skipped); {seconds:.1f} s, {rate:,.0f} records/s",
                            self.records, **counts)
        return ngettext("{n:,} record read, {added:,} added, {already:,} already in the archive, {invalid:,} invalid; "
                        "{seconds:.1f} s, {rate:,.0f} records/s",
                        "{n:,} records read, {added:,} added, {already:,} already in the archive, {invalid:,} invalid; "
                        "{seconds:.1f} s, {rate:,.0f} records/s", self.records, **counts)

    def to_dict(self) -> dict[str, object]:
        """The summary as JSON data (``items`` when they were asked for, each id a string)."""
        data: dict[str, object] = {"records": self.records, "added": self.added, "invalid": self.invalid,
                                   "skipped_invalid": self.skipped_invalid, "seconds": round(self.seconds, 3)}
        if self.items is not None:
            data["items"] = [{"index": i.index, "id": None if i.id is None else str(i.id), "state": i.state}
                             for i in self.items]
        return data


def import_raw(con: duckdb.DuckDBPyConnection, raw: Iterable[Raw], *, jobs: int = 1, skip_invalid: bool = False,
               batch_size: int = BATCH_SIZE, progress: Callable[[int, int], None] | None = None,
               names: list[str] | None = None, on_commit: Callable[[], None] | None = None,
               memory_limit: str | None = None, items: bool = False) -> ImportSummary:
    """Import records already split from their sources into the archive open on ``con``: one import run.

    Each transaction holds ``batch_size`` records (rounded up to whole pieces
    of work); the workers get pieces of at most :data:`WORK_SIZE`.
    ``on_commit`` runs after each transaction (a service drops its cached
    search pages then).  ``memory_limit``: the connection's own limit, restored
    after the import runs with :data:`IMPORT_MEMORY_LIMIT` (and, with workers,
    :data:`IMPORT_THREADS`); None when its configuration is locked.  ``items``: the summary lists each
    record's id and state (:class:`ImportItem`).
    """
    return import_runs(con, [(raw, names or [])], jobs=jobs, skip_invalid=skip_invalid, batch_size=batch_size,
                       progress=progress, on_commit=on_commit, memory_limit=memory_limit, items=items)


def piece_size(batch_size: int = BATCH_SIZE, most: int | None = None) -> int:
    """Records per piece of work: the batch in equal pieces of at most ``most`` (default :data:`WORK_SIZE`; a run
    of one match's deals is never cut, so the validator's verdicts do not depend on where the pieces end)."""
    most = most or WORK_SIZE
    return -(-batch_size // -(-batch_size // most))


def next_run(con: duckdb.DuckDBPyConnection) -> int:
    """The number of the next import run: past every finished run and every run that stored deals (an
    interrupted import keeps its committed deals but leaves no row in ``imports``)."""
    return int(con.execute("SELECT greatest((SELECT coalesce(max(run), 0) FROM imports), "
                           "(SELECT coalesce(max(import_run), 0) FROM deals)) + 1").fetchone()[0])  # type: ignore[index]


def import_runs(con: duckdb.DuckDBPyConnection, runs: Iterable[tuple[Iterable[Raw], list[str]]], *, jobs: int = 1,
                skip_invalid: bool = False, batch_size: int = BATCH_SIZE,
                progress: Callable[[int, int], None] | None = None, on_commit: Callable[[], None] | None = None,
                memory_limit: str | None = None, items: bool = False) -> ImportSummary:
    """Import runs of records (each its records and the names of its sources), each stored as a run of its own.

    Every deal keeps its run and its place in it (``import_run``, ``import_index``),
    and no piece of work spans two runs, so the validator sees each run's records
    as the import that stored them did: a rebuild replays them the same way.
    """
    summary = ImportSummary(items=[] if items else None)
    start = time.perf_counter()
    run = next_run(con)
    sizes: list[tuple[int, int, int, list[Raw] | None]] = []  # (run, records read before the piece in its run,
    # records read, and the piece itself when items are asked for: the ids of a piece's repeated records)
    done: dict[int, list[object]] = {}  # run -> its row of table imports, once its last piece is in
    piece = piece_size(batch_size)

    def pieces() -> Iterator[list[Raw]]:
        for number, (raw, names) in enumerate(runs, start=run):
            started, read = time.strftime("%Y-%m-%d %H:%M:%S"), 0
            for work in batch_records(raw, piece):
                sizes.append((number, read, len(work), work if items else None))
                read += len(work)
                yield work
            done[number] = [number, started, None, names, read, 0]

    def commit() -> None:
        schema.bump(con)  # the archive's generation, committed with the deals (a service's ETags follow it)
        con.execute("COMMIT")
        if on_commit is not None:
            on_commit()

    pending = committed = 0  # records read into the open transaction, and into committed ones
    added: dict[int, int] = {}
    own: dict[str, object] = {}  # the connection's settings, restored after the import
    if memory_limit is not None:
        tuned: dict[str, object] = {"memory_limit": IMPORT_MEMORY_LIMIT}
        if jobs > 1:
            tuned["threads"] = IMPORT_THREADS
            own["threads"] = con.execute("SELECT current_setting('threads')").fetchone()[0]  # type: ignore[index]
        own["memory_limit"] = memory_limit
        for name, value in tuned.items():
            con.execute(f"SET {name} = '{value}'")
    try:
        try:
            with system_arrow_pool():
                for tables in ordered_map(worker_batch if jobs > 1 else arrow_batch, pieces(), jobs, ahead=jobs + 1):
                    number, before, read, work = sizes.pop(0)
                    deals = tables["deals"]
                    invalid = invalid_count(deals)
                    summary.invalid += invalid
                    if skip_invalid and invalid:
                        tables = valid_only(tables)
                        summary.skipped_invalid += invalid
                    tables["deals"] = placed(tables["deals"], number, before)
                    if not pending:
                        con.execute("BEGIN TRANSACTION")
                    pending += read
                    new, known = _insert(con, tables)
                    if summary.items is not None and work is not None:
                        summary.items.extend(piece_items(deals, known, work, summary.records, skip_invalid))
                    summary.added += new
                    added[number] = added.get(number, 0) + new
                    summary.records += read
                    if pending >= batch_size:
                        commit()
                        committed, pending = summary.records, 0
                    if progress:
                        progress(summary.records, summary.added)
                if pending:
                    commit()
                    committed, pending = summary.records, 0
        finally:
            with suppress(duckdb.Error):  # on a connection a fatal error invalidated, these fail too
                if pending:  # interrupted (Ctrl-C, an error): the open batch leaves no trace
                    con.execute("ROLLBACK")
                for name, value in own.items():
                    con.execute(f"SET {name} = ?", [value])
    except duckdb.Error as exc:
        raise ArchiveWriteError(ngettext("the archive could not be written ({reason}); {n:,} record was committed "
                                         "before that: import again to finish (stored records are skipped)",
                                         "the archive could not be written ({reason}); {n:,} records were committed "
                                         "before that: import again to finish (stored records are skipped)",
                                         committed, reason=exc),
                                committed=committed) from exc
    try:  # every record is committed: whatever fails from here on, the import did its work and says so
        con.execute("CHECKPOINT")
        summary.seconds = time.perf_counter() - start
        finished = time.strftime("%Y-%m-%d %H:%M:%S")
        for number, row in sorted(done.items()):
            row[2], row[5] = finished, added.get(number, 0)
            con.execute("INSERT INTO imports VALUES (?, ?, ?, ?, ?, ?)", row)
    except duckdb.Error as exc:  # a full disk at the checkpoint: the commits are safe in the write-ahead log
        log.warning("import committed, but the checkpoint after it failed (the next open replays the log): %s", exc)
        summary.seconds = time.perf_counter() - start
    return summary


@contextmanager
def system_arrow_pool() -> Iterator[None]:
    """Arrow allocates from the C library's malloc inside the block, then from the pool it used before.

    pyarrow's default pool (mimalloc) keeps the pages a piece's tables freed
    for later pieces; malloc gives them back.  On 1,000,000 deals the process
    tree of an import peaked at 831 against 900 MiB (main process 497 against
    528, each worker 234 against 256) in the same time (157.2 against 156.5 s).
    A table keeps the pool it was made in, so switching is safe at any time.
    """
    before = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(before)


def sound(deals: pa.Table) -> pa.Array[Any] | pa.ChunkedArray[Any]:
    """Which of a piece's deals hold no error: valid play, or a results-only deal whose Score and Result agree
    (sin jugadas: never valid play, never invalid)."""
    consistent = pc.and_(deals.column("result_only"), pc.equal(deals.column("errors"), pa.scalar(0, pa.int32())))
    kept: pa.ChunkedArray[Any] = pc.or_(deals.column("valid"), consistent)
    return kept


def valid_only(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """A piece's rows without its invalid deals (``--skip-invalid``)."""
    return only(tables, tables["deals"].filter(sound(tables["deals"])).column("id"))


def only(tables: dict[str, pa.Table], ids: pa.Array[Any] | pa.ChunkedArray[Any], *, keep: bool = True) -> dict[str, pa.Table]:
    """A piece's rows of the deals ``ids`` (``keep=False``: of every other deal); every table's first column is
    the deal's id."""
    return {name: t.filter(pc.is_in(t.column(0), value_set=ids) if keep
                           else pc.invert(pc.is_in(t.column(0), value_set=ids))) for name, t in tables.items()}


def invalid_count(deals: pa.Table) -> int:
    """How many of a piece's deals are invalid."""
    return pc.sum(pc.invert(sound(deals))).as_py() or 0


def placed(deals: pa.Table, run: int, before: int) -> pa.Table:
    """A piece's deals with their run and their place in it (the worker knows only the place in the piece)."""
    names = deals.column_names
    run_at, index_at = names.index("import_run"), names.index("import_index")
    deals = deals.set_column(run_at, "import_run", pa.array([run] * deals.num_rows, pa.int32()))
    return deals.set_column(index_at, "import_index", pc.add(deals.column(index_at), pa.scalar(before, pa.int32())))


def _insert(con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table]) -> tuple[int, set[int]]:
    """Insert one piece in the open transaction: the new deals and their plays, declarations, hands, side totals,
    issues.  How many deals were new, and the ids of those the archive held already."""
    deals = tables["deals"]
    known = {row[0] for row in con.execute("SELECT id FROM deals WHERE id IN (SELECT unnest(?))",
                                           [deals.column("id").to_pylist()]).fetchall()}
    if known:
        tables = only(tables, pa.array(sorted(known), pa.int64()), keep=False)
    added = tables["deals"].num_rows
    if not added:
        return 0, known
    for name in ROW_TABLES:  # not register/unregister: a view dropped in a transaction keeps its table until commit
        con.from_arrow(tables[name]).insert_into(name)
    return added, known


def piece_items(deals: pa.Table, known: set[int], work: list[Raw], before: int, skip_invalid: bool
                ) -> list[ImportItem]:
    """Each record of a piece as an :class:`ImportItem`, in order: ``deals`` are the piece's rows as the workers
    made them (before ``skip_invalid`` left its invalid ones out), ``known`` the ids the archive held, ``before``
    the records the import read before the piece.  A record the piece held twice has one row, the first's: the
    second is ``already`` there (its id found again from its text)."""
    ids: list[int] = deals.column("id").to_pylist()  # type: ignore[assignment]  # no null: the key
    places: list[int] = deals.column("import_index").to_pylist()  # type: ignore[assignment]  # no null either
    states: dict[int, tuple[int, ImportState]] = {}  # place in the piece -> (id, state)
    for did, place, fine in zip(ids, places, sound(deals).to_pylist()):
        states[place] = (did, "skipped" if skip_invalid and not fine else "already" if did in known
                         else "added" if fine else "invalid")
    first = {did: state for did, state in states.values()}
    found: list[ImportItem] = []
    for place, raw in enumerate(work):
        did, state = states.get(place) or (record_id(raw), "")
        if not state:  # a repeat in the piece: stored once, as the first
            state = "skipped" if first.get(did) == "skipped" else "already"
        found.append(ImportItem(before + place, None if state == "skipped" else did, state))
    return found
