"""The archive: millions of deals in one DuckDB file, searched with parameters only.

The schema is documented in docs/archive.md and written once in
:mod:`.columns`.  Every record is stored with its export text, so exports are
exact, and with what the validator computed, so searches and statistics need
no replay.  Importing is :mod:`.ingest`'s work, writing files :mod:`.export`'s.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

import duckdb

from ..errors import ArchiveError, ArchiveWriteError
from ..i18n import gettext as _
from ..notation import Source, iter_raw_records
from .analyses import AnalyseSummary, AnalysisKey, analyse_archive, stored
from . import schema
from .columns import ANALYSIS_COLUMNS, DEAL_COLUMNS, SCHEMA, SCHEMA_VERSION, SUMMARY_COLUMNS, check_columns, int_list
from .download import chunks, export
from .events import EVENT_SCHEMA
from .defaults import BATCH_SIZE
from .held import connect

if TYPE_CHECKING:  # Arrow loads for an import or a rebuild, not for a search
    import pyarrow as pa

    from ..analysis.annotate import Mapper
    from .ingest import ImportSummary
    from .rows import Raw
from .names import SeatNames
from .search import (SORT_KEYS, SORTS, DealPage, DealSummary, Emptied, Sample, SearchFilters, encode_cursor, keyset,
                     order_of, reverse_order)

PAGE_BY_ID = 1000
"""Up to this many rows, a search finds the ids first and then fetches their columns by primary key."""
STREAM_BATCH = 1000
"""Rows a download (:meth:`Archive.download`) fetches by primary key at a time."""

ENV_VAR = "TUTEPGN_DB"
"""Environment variable naming the archive file (overridden by ``--db``)."""


def default_path() -> Path:
    """The archive file: $TUTEPGN_DB, else $XDG_DATA_HOME/tutepgn/archive.duckdb (~/.local/share/...)."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tutepgn" / "archive.duckdb"


class Counting(Protocol):
    """What :meth:`Archive.emptied_by` asks of an archive, which a service's (:class:`ServiceArchive`) has too."""

    def count(self, filters: SearchFilters | None = None) -> int: ...


class Archive:
    """A DuckDB file of deals.  Open read-only for searches; one writer at a time (DuckDB's rule)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False,
                 threads: int | None = None, memory_limit: str = "1GB", secure: bool = False,
                 check_schema: bool = True, connection: duckdb.DuckDBPyConnection | None = None,
                 rows_by_id: bool = True, seat_names: SeatNames | None = None, deals_from: str = "deals") -> None:
        """Open (or create) the file.  ``secure``: no file or network access from SQL and the
        configuration locked, as a service needs (exports to Parquet then need another connection).
        ``connection``: one already open on this file (as :meth:`reader` passes): used as it is.
        ``rows_by_id``: a page's rows are fetched by id once its ids are found, as suits a file (the primary
        key is an index); False for a Parquet dataset, where a lookup by id reads every file's ids, so a page
        is read in the search's own query.  ``seat_names``: the names the name filters resolve against, shared
        with the archive a reader comes from (read once when this opens its file read-only).  ``deals_from``: what
        the searches and counts read the deals from (a dataset's: its files, without the view's cost)."""
        self.path = Path(path) if path is not None else default_path()
        self.deals_from = deals_from
        self.rows_by_id = rows_by_id
        self.read_only = read_only
        self.memory_limit = memory_limit
        self.secure = secure
        self.threads = threads
        self.seat_names = seat_names or SeatNames(fixed=read_only and connection is None)
        if connection is not None:
            self.con = connection
            return
        self.con = self._connect()
        if check_schema:
            self._check_schema()

    def _connect(self) -> duckdb.DuckDBPyConnection:
        """A connection to the file, configured as this archive was asked to be."""
        config: dict[str, Any] = {"memory_limit": self.memory_limit, "autoload_known_extensions": False,
                                  "autoinstall_known_extensions": False}
        if self.threads:
            config["threads"] = self.threads
        if self.secure:
            config["enable_external_access"] = False
        if self.read_only and not self.path.exists():
            raise FileNotFoundError(_("no archive at {path}: import records first (tute import FILE)", path=self.path))
        if not self.read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        con = connect(self.path, read_only=self.read_only, config=config)  # held by another process: it says which
        if not self.read_only:
            new = not schema.created(con)
            con.execute(SCHEMA)
            con.execute(EVENT_SCHEMA)
            if new:
                schema.describe(con)  # its schema's version and its comments (:mod:`.schema`)
            schema.count_writes(con)  # its generation, which every write moves (a service's ETags follow it)
        if self.secure:
            con.execute("SET lock_configuration = true")
        return con

    def reopen(self) -> None:
        """Close the connection and open the file again, as at first: the way back after a fatal error
        (:func:`fatal`), once its cause (a full disk) is gone.  Every cursor of the old connection
        (:meth:`reader`) must be closed first, or DuckDB hands back the same broken database.  Opening
        replays the write-ahead log, so every commit is there; it raises if the file still cannot be used."""
        with suppress(duckdb.Error):
            self.con.close()
        self.con = self._connect()
        self.con.execute("SELECT count(*) FROM deals").fetchone()  # a database still invalidated fails here

    def _columns(self, table: str) -> tuple[str, ...]:
        """A table's columns in order (none when it is not there)."""
        return tuple(row[0] for row in self.con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = ? AND schema_name = 'main' "
            "ORDER BY column_index", [table]).fetchall())

    def _check_schema(self) -> None:
        """Refuse a file written by another version of the schema, saying how to bring it up to date."""
        found = self._columns("deals")
        if not found:
            return
        if (version := schema.stored_version(self.con)) != SCHEMA_VERSION:
            self.con.close()
            raise schema.refused(self.path, version)
        if found != DEAL_COLUMNS or self._columns("analyses") != ANALYSIS_COLUMNS:  # a writable open creates it
            self.con.close()
            raise ArchiveError(_("{path} was written by another version of tutepgn (its deals table differs): run "
                                 "`tute archive rebuild --db {path}` to rebuild it from its stored records",
                                 path=self.path)
                               if found != DEAL_COLUMNS else
                               _("{path} was written by another version of tutepgn (its analyses table differs or is "
                                 "missing): run `tute archive rebuild --db {path}` to rebuild it from its stored "
                                 "records", path=self.path))

    def generation(self) -> str:
        """The file's identity and write count (:func:`.schema.generation`): changed by every committed write."""
        return schema.generation(self.con, self.path)

    def reader(self) -> Archive:
        """The same archive on a new cursor: one per thread, as DuckDB asks."""
        return Archive(self.path, read_only=self.read_only, memory_limit=self.memory_limit, secure=self.secure,
                       connection=self.con.cursor(), rows_by_id=self.rows_by_id, seat_names=self.seat_names)

    def __repr__(self) -> str:
        """How it was opened, as the call that opens it again: ``Archive('deals.duckdb', read_only=True)``."""
        return f"Archive({str(self.path)!r}" + (", read_only=True)" if self.read_only else ")")

    def close(self) -> None:
        """Close the connection."""
        self.con.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- Import ----------------------------------------------------------------
    def import_sources(self, sources: Iterable[Source], *, jobs: int = 1, skip_invalid: bool = False,
                       batch_size: int = BATCH_SIZE, progress: Callable[[int, int], None] | None = None,
                       on_commit: Callable[[], None] | None = None) -> ImportSummary:
        """Parse, validate and insert every record of the sources; return what was done."""
        sources = list(sources)
        return self.import_raw(iter_raw_records(sources), jobs=jobs, skip_invalid=skip_invalid,
                               batch_size=batch_size, progress=progress, names=[str(s) for s in sources],
                               on_commit=on_commit)

    def import_raw(self, raw: Iterable[Raw], *, jobs: int = 1, skip_invalid: bool = False,
                   batch_size: int = BATCH_SIZE, progress: Callable[[int, int], None] | None = None,
                   names: list[str] | None = None, on_commit: Callable[[], None] | None = None,
                   items: bool = False) -> ImportSummary:
        """Import records already split from their sources: (source name, index, first line, text).

        See :func:`.ingest.import_raw`: ``batch_size`` records a transaction, ``on_commit`` after each;
        ``items``, each record's id and state in the summary.
        """
        from .ingest import import_raw  # Arrow: an import builds its rows as Arrow batches

        try:
            return import_raw(self.con, raw, jobs=jobs, skip_invalid=skip_invalid, batch_size=batch_size,
                              progress=progress, names=names, on_commit=on_commit,
                              memory_limit=None if self.secure else self.memory_limit, items=items)
        except ArchiveWriteError as exc:
            exc.source = str(self.path)
            raise

    # -- Analysis -------------------------------------------------------------------
    def analyse(self, key: AnalysisKey = AnalysisKey(), *, jobs: int = 1, batch_size: int | None = None,
                progress: Callable[[int, int], None] | None = None, mapper: Mapper | None = None) -> AnalyseSummary:
        """Analyse every deal not analysed yet for this key (resumable): see :func:`.analyses.analyse_archive`."""
        options = {} if batch_size is None else {"batch_size": batch_size}
        return analyse_archive(self.con, key, jobs=jobs, progress=progress, mapper=mapper, **options)

    def analysis(self, deal: int, key: AnalysisKey = AnalysisKey()) -> dict[str, Any] | None:
        """One deal's stored analysis for the key as JSON data, or None when it has not been analysed with it
        (ValueError when it could not be)."""
        return stored(self.con, deal, key)

    # -- Reading ------------------------------------------------------------------
    def where(self, filters: SearchFilters | None, sample: Sample | None = None) -> tuple[str, list[object]]:
        """The WHERE clause of ``filters`` over this archive's deals (``sample``: of a sample of them), and its
        parameters (their names looked up in :attr:`seat_names`)."""
        where, params = (filters or SearchFilters()).to_sql(lambda words: self.seat_names.matching(self.con, words))
        return (where, params) if sample is None else sample.within(where, params)

    def count(self, filters: SearchFilters | None = None) -> int:
        """Number of deals in the archive (that match ``filters``)."""
        where, params = self.where(filters)
        return int(self.con.execute(f"SELECT count(*) FROM {self.deals_from} WHERE {where}", params).fetchone()[0])  # type: ignore[index]

    def emptied_by(self: Counting, filters: SearchFilters) -> Emptied | None:
        """Why ``filters`` find no deal: the first filter that matches no deal on its own, else the one that
        left none of the deals the filters before it matched; None when some deal matches, or none is stored."""
        total = self.count()
        steps = list(filters.steps())
        for name, alone, _upto in steps:
            if alone is not None and self.count(alone) == 0:
                return Emptied(filter=name, value=shown(filters.given()[name]), alone=True, before=total)
        before = total
        for name, _alone, upto in steps:
            if upto is None:
                continue
            found = self.count(upto)
            if found == 0:
                return Emptied(filter=name, value=shown(filters.given()[name]), alone=False, before=before)
            before = found
        return None

    def text(self, deal: int) -> str | None:
        """The export text of one deal, or None."""
        row = self.con.execute("SELECT text FROM deals WHERE id = ?", [deal]).fetchone()
        return row[0] if row else None

    def row(self, deal: int, columns: tuple[str, ...] = SUMMARY_COLUMNS) -> dict[str, Any] | None:
        """One deal's columns, or None."""
        check_columns(columns)
        cursor = self.con.execute(f"SELECT {', '.join(columns)} FROM deals WHERE id = ?", [deal])
        found = cursor.fetchone()
        return dict(zip(columns, found)) if found else None

    def search(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int | None = 50,
               offset: int = 0, columns: tuple[str, ...] = SUMMARY_COLUMNS) -> list[dict[str, Any]]:
        """Deals matching ``filters``, as dicts of ``columns``, in ``sort`` order."""
        if sort not in SORTS:
            raise ValueError(_("unknown sort {sort!r}; sorts are {sorts}", sort=sort, sorts=", ".join(SORTS)))
        check_columns(columns)
        where, params = self.where(filters)
        if limit is not None and limit <= PAGE_BY_ID and self.rows_by_id:
            ids = self.con.execute(f"SELECT id FROM deals WHERE {where} ORDER BY {SORTS[sort]} LIMIT ? OFFSET ?",
                                   [*params, limit, offset]).fetchall()
            rows = self._rows([i[0] for i in ids], columns)
            return [{c: row[c] for c in columns} for row in rows]
        return list(self.iter_rows(filters, sort=sort, limit=limit, offset=offset, columns=columns))

    def ids(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int | None = None,
            offset: int = 0, sample: Sample | None = None) -> pa.Int64Array:
        """The ids of matching deals (``sample``: of a sample of them) in ``sort`` order (:func:`.search.order_of`):
        8 bytes a deal, so a download of any size holds its order in memory, never its rows (DuckDB materialises
        a whole result before the first fetch)."""
        order = order_of(sort)
        where, params = self.where(filters, sample)
        sql = f"SELECT id FROM {self.deals_from} WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += " LIMIT ?"
            params = [*params, limit]
        if offset:
            sql += " OFFSET ?"
            params = [*params, offset]
        import pyarrow as pa  # the downloads' ids, not the searches'

        return pa.array(self.con.execute(sql, params).fetchnumpy()["id"], pa.int64())

    def iter_rows(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int | None = None,
                  offset: int = 0, columns: tuple[str, ...] = SUMMARY_COLUMNS, batch: int | None = None,
                  sample: Sample | None = None) -> Iterator[dict[str, Any]]:
        """Like :meth:`search`, streamed (for downloads of any size).

        DuckDB holds a whole result before its first row is fetched.  With
        ``batch``, the ids come first in order (8 bytes a deal), then the rows
        ``batch`` at a time by primary key, so memory stays flat however many
        deals match: what a service does for many downloads at once.  Each
        batch scans the ids of the archive, so this costs about twice the CPU
        of one query on 100,000 deals, and grows with the square of the rows.
        """
        check_columns(columns)
        if batch is not None:
            ids = self.ids(filters, sort=sort, limit=limit, offset=offset, sample=sample)
            for start in range(0, len(ids), batch):
                yield from self._streamed_rows(int_list(ids[start:start + batch]), columns)
            return
        order = order_of(sort)
        where, params = self.where(filters, sample)
        sql = f"SELECT {', '.join(columns)} FROM {self.deals_from} WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params = [*params, limit, offset]
        elif offset:
            sql += " OFFSET ?"
            params = [*params, offset]
        cursor = self.con.execute(sql, params)
        names = [d[0] for d in cursor.description]
        while rows := cursor.fetchmany(2000):
            for row in rows:
                yield dict(zip(names, row))

    def page(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int = 50,
             after: str | None = None, before: str | None = None, columns: tuple[str, ...] = SUMMARY_COLUMNS,
             ) -> tuple[list[dict[str, Any]], str | None, str | None]:
        """One page of matching deals (the first, the one after the cursor ``after`` or the one before
        ``before``) and the opaque cursors of the next page and of the page before (None where there is none)."""
        if sort not in SORTS:
            raise ValueError(_("unknown sort {sort!r}; sorts are {sorts}", sort=sort, sorts=", ".join(SORTS)))
        if after and before:
            raise ValueError(_("a page is after one cursor or before one, not both"))
        where, params = self.where(filters)
        if after or before:
            extra, more = keyset(sort, after or before, before=bool(before))  # type: ignore[arg-type]
            where, params = f"({where}) AND {extra}", [*params, *more]
        expr = SORT_KEYS[sort].column
        order = reverse_order(sort) if before else SORTS[sort]
        cols = "id" if self.rows_by_id else ", ".join(dict.fromkeys(("id", *columns)))
        cursor = self.con.execute(f"SELECT {expr} AS _sort_key, {cols} FROM {self.deals_from} WHERE {where} "
                                  f"ORDER BY {order} "
                                  "LIMIT ?", [*params, limit + 1])
        names = [d[0] for d in cursor.description][1:]
        found = cursor.fetchall()
        more_beyond = len(found) > limit
        found = found[:limit]
        if before:
            found.reverse()
        following = encode_cursor(sort, found[-1][0], found[-1][1]) if found and (before or more_beyond) else None
        preceding = encode_cursor(sort, found[0][0], found[0][1]) if found and (after or more_beyond and before) \
            else None
        if self.rows_by_id:
            return self._rows([row[1] for row in found], columns), following, preceding
        return [dict(zip(names, row[1:])) for row in found], following, preceding

    def deal_page(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int = 50,
                  after: str | None = None, before: str | None = None) -> DealPage:
        """One page of deal summaries and the cursors of the pages next to it, as the service answers a search."""
        rows, following, preceding = self.page(filters, sort=sort, limit=limit, after=after, before=before)
        emptied = self.emptied_by(filters) if filters is not None and not rows and not (after or before) else None
        return DealPage(items=[DealSummary.from_row(r) for r in rows], next=following, previous=preceding,
                        emptied=emptied)

    def _rows(self, ids: list[int], columns: tuple[str, ...]) -> list[dict[str, Any]]:
        """The rows of these deals, in this order.

        Searches find the ids first and fetch the columns of that page only, by
        the primary key: DuckDB would otherwise read every column of every
        matching row before sorting (3 to 5 times the work on 1,000,000 deals).
        """
        if not ids:
            return []
        cols = ", ".join(dict.fromkeys(("id", *columns)))
        cursor = self.con.execute(f"SELECT {cols} FROM deals WHERE id IN ({', '.join('?' * len(ids))})", ids)
        names = [d[0] for d in cursor.description]
        found = {row[0]: dict(zip(names, row)) for row in cursor.fetchall()}
        return [found[i] for i in ids]

    def _streamed_rows(self, ids: list[int], columns: tuple[str, ...]) -> Iterator[dict[str, Any]]:
        """The rows of these deals, in this order, without any no longer in the archive.

        The ids go as one list parameter (on thousands of ids, 5 times faster
        than as many parameters), and DuckDB puts the rows in their order, so
        they come to Python a few at a time: a stream waiting for its client
        holds this batch in DuckDB's compact form, not as Python objects.
        """
        cursor = self.con.execute(f"SELECT {', '.join('d.' + c for c in columns)} FROM deals d JOIN (SELECT unnest($1) "
                                  "AS id, unnest(range(len($1))) AS pos) AS b ON d.id = b.id ORDER BY b.pos", [ids])
        while rows := cursor.fetchmany(100):
            for row in rows:
                yield dict(zip(columns, row))

    def texts(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int | None = None,
              batch: int | None = None, sample: Sample | None = None) -> Iterator[str]:
        """Export texts of matching deals, streamed (``batch``: as :meth:`iter_rows` streams them)."""
        return (row["text"] for row in self.iter_rows(filters, sort=sort, limit=limit, columns=("text",), batch=batch,
                                                      sample=sample))

    def players(self, limit: int = 100) -> list[dict[str, Any]]:
        """Players with their deal and win counts, most deals first."""
        cursor = self.con.execute("SELECT name, deals, wins FROM players ORDER BY deals DESC, name LIMIT ?", [limit])
        return [{"name": n, "deals": d, "wins": w} for n, d, w in cursor.fetchall()]

    def stats(self, filters: SearchFilters | None = None) -> dict[str, Any]:
        """Statistics over matching deals: players, rulesets, trumps, points, las cuarenta (won by the side that
        sang them, ``cuarenta_sung``, and by the side dealt them, ``cuarenta_dealt``), mano."""
        where, params = self.where(filters)
        con = self.con
        sel = f"(SELECT * FROM deals WHERE {where})"

        def rows(sql: str) -> list[dict[str, Any]]:
            cursor = con.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, r)) for r in cursor.fetchall()]

        out: dict[str, Any] = {}
        out["totals"] = rows(f"""
            SELECT count(*) AS deals, count(*) FILTER (WHERE complete OR tute OR result_only AND errors = 0) AS finished,
                   count(*) FILTER (WHERE NOT valid AND NOT (result_only AND errors = 0)) AS invalid,
                   count(*) FILTER (WHERE result_only) AS result_only, round(avg(winner_points), 1) AS avg_winner_points,
                   count(*) FILTER (WHERE tute) AS tutes, count(*) FILTER (WHERE doubled) AS doubles,
                   count(*) FILTER (WHERE tie_break) AS tie_breaks FROM {sel} AS d""")[0]
        out["players"] = rows(f"""
            SELECT h.player, count(*) AS deals, count(*) FILTER (WHERE d.winner = h.side) AS wins,
                   round(count(*) FILTER (WHERE d.winner = h.side) / count(*), 3) AS win_rate,
                   round(avg(d.score[list_position(d.sides, h.side)]), 1) AS avg_points,
                   count(*) FILTER (WHERE d.tute AND d.tute_seat = h.seat) AS tutes,
                   sum(CASE h.seat WHEN 'N' THEN bit_count(coalesce(d.sung_n, 0)) WHEN 'W' THEN
                       bit_count(coalesce(d.sung_w, 0)) WHEN 'S' THEN bit_count(coalesce(d.sung_s, 0))
                       ELSE bit_count(coalesce(d.sung_e, 0)) END)::INTEGER AS cantes
            FROM {sel} AS d JOIN hands h ON h.deal_id = d.id
            WHERE h.player IS NOT NULL AND h.player <> '?'
            GROUP BY h.player ORDER BY deals DESC, h.player""")
        out["rulesets"] = rows(f"""
            SELECT preset, count(*) AS deals, round(avg(winner_points), 1) AS avg_winner_points,
                   count(*) FILTER (WHERE tute) AS tutes, count(*) FILTER (WHERE doubled) AS doubles,
                   count(*) FILTER (WHERE tie_break) AS tie_breaks
            FROM {sel} AS d GROUP BY preset ORDER BY deals DESC, preset""")
        out["trumps"] = rows(f"""
            SELECT trump, count(*) AS deals, round(avg(winner_points), 1) AS avg_winner_points,
                   round(avg(margin), 1) AS avg_margin FROM {sel} AS d WHERE trump IS NOT NULL
            GROUP BY trump ORDER BY trump""")
        out["points"] = rows(f"""
            SELECT (winner_points // 10 * 10)::INTEGER AS points_from, count(*) AS deals
            FROM {sel} AS d WHERE winner_points IS NOT NULL GROUP BY ALL ORDER BY points_from""")
        for key, side in (("cuarenta_sung", "cuarenta_sung_side"), ("cuarenta_dealt", "cuarenta_dealt_side")):
            out[key] = rows(f"""
                SELECT count(*) AS deals, count(*) FILTER (WHERE winner = {side}) AS won,
                       round(count(*) FILTER (WHERE winner = {side}) / nullif(count(*), 0), 3) AS rate
                FROM {sel} AS d WHERE {side} IS NOT NULL AND (complete OR tute)""")[0]
        out["mano"] = rows(f"""
            SELECT count(*) AS deals, count(*) FILTER (WHERE winner = mano_side) AS won_by_mano,
                   round(count(*) FILTER (WHERE winner = mano_side) / nullif(count(*), 0), 3) AS rate,
                   round(avg(1.0 / len(sides)), 3) AS even_chance
            FROM {sel} AS d WHERE mano_side IS NOT NULL AND (complete OR tute)""")[0]
        return out


    # -- Export, SQL, maintenance ---------------------------------------------------
    def export(self, filters: SearchFilters | None, fmt: str, out: IO[str] | str | os.PathLike[str], *,
               cards: str = "es", sort: str = "date", limit: int | None = None, sample: Sample | None = None) -> int:
        """Write matching deals (``sample``: a reproducible sample of them) as tpgn, json, jsonl or csv to a stream
        or path, in ``sort`` order (:func:`.search.order_of`: a sort key or a column), or parquet to a directory.

        Parquet is partitioned by preset and year (hive layout), for DuckDB, Polars, Spark or Trino.
        Returns the number of deals written.
        """
        return export(self, filters, fmt, out, cards=cards, sort=sort, limit=limit, sample=sample)

    def download(self, filters: SearchFilters | None, fmt: str, *, cards: str = "es", sort: str = "date",
                 limit: int | None = None, lang: str | None = None) -> Iterator[str]:
        """Matching deals as tpgn, json, jsonl or csv text (for scripts, or for ``lang``'s spreadsheets), in
        pieces (a service streams them), read :data:`STREAM_BATCH` rows at a time (see :meth:`iter_rows`)."""
        return chunks(self, filters, fmt, cards=cards, sort=sort, limit=limit, batch=STREAM_BATCH, lang=lang)

    def verify(self) -> list[str]:
        """Check the archive: every hash matches its text, every id its hash, child rows belong to deals."""
        from .columns import deal_id

        problems: list[str] = []
        cursor = self.con.execute("SELECT id, hash, text FROM deals")
        while rows := cursor.fetchmany(5000):
            for did, digest, text in rows:
                expected_id, expected_hash = deal_id(text)
                if expected_hash != digest:
                    problems.append(f"deal {did}: its text does not hash to its stored hash")
                elif expected_id != did:
                    problems.append(f"deal {did}: its id is not the first 63 bits of its hash")
        for table in ("plays", "declarations", "hands", "side_totals", "issues", "analyses"):
            orphans = self.con.execute(f"SELECT count(*) FROM {table} WHERE deal_id NOT IN (SELECT id FROM deals)"
                                       ).fetchone()[0]  # type: ignore[index]
            if orphans:
                problems.append(f"{table}: {orphans} rows of deals that are not in the archive")
        short = self.con.execute("""
            SELECT count(*) FROM deals d LEFT JOIN (SELECT deal_id, count(*) AS n FROM plays GROUP BY deal_id) p
            ON p.deal_id = d.id WHERE d.complete AND coalesce(p.n, 0) <> (CASE d.preset WHEN 'torofun-3p' THEN 36
            ELSE 40 END) AND d.rules = d.preset""").fetchone()[0]  # type: ignore[index]
        if short:
            problems.append(f"{short} complete deals do not have one play row per card")
        mismatch = self.con.execute("""
            SELECT count(*) FROM deals d LEFT JOIN (SELECT deal_id, count(*) AS n FROM hands GROUP BY deal_id) h
            ON h.deal_id = d.id WHERE d.hand_n IS NOT NULL AND coalesce(h.n, 0) <> d.players""").fetchone()[0]  # type: ignore[index]
        if mismatch:
            problems.append(f"{mismatch} deals do not have one hands row per seat")
        return problems

    def rebuild(self, target: str | os.PathLike[str], *, jobs: int = 1) -> ImportSummary:
        """A fresh archive file at ``target`` from the stored records (re-parsed, re-validated).

        Each import of this archive is replayed as an import of its own, its
        records in the order it read them, so no validation result changes
        (an archive from before imports were numbered is replayed as one
        import, in the order of its sources' names and places).
        """
        columns = {row[0] for row in self.con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = 'deals' AND schema_name = 'main'").fetchall()}
        numbered = "import_run" in columns
        paths: dict[int, list[str]] = dict(self.con.execute("SELECT run, paths FROM imports").fetchall()) \
            if numbered else {}
        cursor = self.con.execute(
            f"SELECT {'import_run' if numbered else '0'}, source, source_index, source_line, text FROM deals "
            f"ORDER BY {'import_run, import_index' if numbered else 'source, source_index'}")

        def rows() -> Iterator[tuple[int, Raw]]:
            while batch := cursor.fetchmany(5000):
                yield from ((run, (src, idx or 0, line or 1, text)) for run, src, idx, line, text in batch)

        runs = ((((raw for _, raw in group)), paths.get(run) or []) for run, group in groupby(rows(), itemgetter(0)))
        from .ingest import import_runs

        with Archive(target) as fresh:
            summary = import_runs(fresh.con, runs, jobs=jobs, memory_limit=fresh.memory_limit)
            self._copy_analyses(fresh)
            return summary

    def _copy_analyses(self, fresh: Archive) -> None:
        """Keep the stored analyses of the deals a rebuild kept (a deal's text, so its analysis, is the same);
        an analyses table of another shape is left behind (`tute archive analyse` fills the new one)."""
        if self._columns("analyses") != ANALYSIS_COLUMNS:
            return
        for batch in self.con.sql("SELECT * FROM analyses").to_arrow_reader(STREAM_BATCH):
            fresh.con.register("_analyses", batch)
            fresh.con.execute("INSERT OR IGNORE INTO analyses SELECT * FROM _analyses "
                              "WHERE deal_id IN (SELECT id FROM deals)")
            fresh.con.unregister("_analyses")


def fatal(exc: BaseException) -> bool:
    """Whether ``exc`` left DuckDB's database unusable until it is opened again: a fatal error (such as a
    checkpoint on a full disk) "invalidates" it, and every query after fails the same way."""
    return isinstance(exc, duckdb.FatalException) or (isinstance(exc, duckdb.Error) and "invalidated" in str(exc))


def checkpoint(path: str | os.PathLike[str]) -> None:
    """Fold the file's write-ahead log (``FILE.wal``) into it, so the file alone holds every committed deal.

    DuckDB keeps the last commits in the log until a checkpoint; a process
    killed before one leaves the log beside the file.  A file that is to be
    moved or replaced must take its log in first.  Needs the file unlocked
    (no service or import using it).
    """
    con = connect(path)
    try:
        con.execute("CHECKPOINT")
    finally:
        con.close()


def rebuild_file(source: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
                 jobs: int = 1) -> tuple[ImportSummary, Path | None]:
    """Rebuild the archive at ``source`` into ``output``, or in place (the old file kept as ``FILE.bak``).

    In place, the file first takes in its write-ahead log, so the ``.bak`` holds
    every deal and no stale log is left beside the new file.  Returns the
    summary and the backup's path (None with ``output``).
    """
    source = Path(source)
    target = Path(output) if output is not None else source.with_name(source.name + ".rebuild")
    if target.exists():
        raise FileExistsError(_("{path} exists: remove it or choose another output", path=target))
    if output is None:
        checkpoint(source)
    with Archive(source, read_only=True, check_schema=False) as archive:  # how an old file is brought up to date
        summary = archive.rebuild(target, jobs=jobs)
    if output is not None:
        return summary, None
    backup = source.with_name(source.name + ".bak")
    source.replace(backup)
    target.replace(source)
    return summary, backup


def shown(value: object) -> str:
    """A filter's value as a person wrote it: lists joined, yes/no in words."""
    if isinstance(value, list):
        return " ".join(map(str, value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
