"""Analyses stored in the archive: one row per deal and key, filled in worker processes.

A deal's analysis (:func:`tutepgn.analysis.analyse`) is stored in table
``analyses``, keyed by the deal, its ruleset, the version and parameters
(:class:`AnalysisKey`: column ``version`` holds the JSON form's version, PIMC's
worlds and seed and the inference flag, e.g. ``2:pimc20:seed0``, so a row of
another version or other parameters is never read as this one) and the cantes
flag, with what searches filter on (par, actual less par, each seat's
summed cost, the count of each mark) and every play as JSON.  Filling is
resumable: a deal with a row for the key is skipped, and each batch is one
transaction.  A record that cannot be analysed (unreadable, no starting
position) gets a row with its ``error``, so it is not tried again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import duckdb

from ..analysis.version import ANALYSIS_VERSION, DEFAULT_WORLDS
from ..errors import NotationError, TuteError
from ..i18n import gettext as _, speaking
from ..notation import parse_or_placeholder
from ..workers import ordered_map
from . import schema
from .columns import ANALYSIS_COLUMNS

if TYPE_CHECKING:
    from ..analysis.annotate import Mapper



@dataclass(frozen=True, slots=True)
class AnalysisKey:
    """What a stored analysis was made with, besides the deal: the cantes flag and the analysis's parameters."""
    cantes: bool = True
    worlds: int = DEFAULT_WORLDS
    """PIMC's worlds per decision (0: double dummy only)."""
    seed: int = 0
    inference: bool = False

    @property
    def version(self) -> str:
        """The rows' ``version``: :data:`~tutepgn.analysis.version.ANALYSIS_VERSION` (raised when the solver or
        the analysis changes a value or a key), PIMC's worlds and seed, and ``inference`` when the worlds were
        weighted.  Rows of an old version (``1``, ``dd-1``) are never read as this one; they stay until deleted."""
        pimc = f":pimc{self.worlds}:seed{self.seed}" + (":inference" if self.inference else "") if self.worlds else ":dd"
        return f"{ANALYSIS_VERSION}{pimc}"

    def options(self) -> dict[str, Any]:
        """The key as :func:`tutepgn.analysis.annotate.analyse_record`'s options."""
        return {"cantes": self.cantes, "pimc": self.worlds, "seed": self.seed, "inference": self.inference}


VERSION_KEY = AnalysisKey().version
"""The default key's ``version`` (the library's defaults)."""
CURRENT_VERSIONS = f"{ANALYSIS_VERSION}:%"
"""The ``version`` of every row of the current version, whatever its parameters (a LIKE pattern): what the
archive's searches by analysis read."""
BATCH_SIZE = 200
"""Deals per transaction while filling: an interrupted run keeps every committed batch."""
WORK_SIZE = 2
"""Deals per piece of work sent to a worker process (a 4-player deal with PIMC's 20 worlds takes about half a
minute of CPU, double dummy alone about a second)."""
AHEAD = 8
"""Pieces out at once per worker process: the rows come back in order and a piece's time varies tenfold, so a
worker with few pieces queued waits on a slow one (``jobs + 1`` kept 2 jobs well under twice one)."""
MARK_COLUMNS = {"?!": "inaccuracies", "?": "mistakes", "??": "blunders"}
"""The column counting each mark."""


@dataclass
class AnalyseSummary:
    """What a fill did."""
    analysed: int = 0
    failed: int = 0
    """Deals stored with an ``error`` (they could not be analysed)."""
    skipped: int = 0
    """Deals already analysed for the key."""
    seconds: float = 0.0
    result_only: int = 0
    """Results-only deals (sin jugadas), never analysed: they hold no play."""

    def __str__(self) -> str:
        """The summary in words, in the language spoken."""
        return _("{analysed:,} deals analysed ({failed:,} could not be), {skipped:,} already were; {seconds:.1f} s",
                 analysed=self.analysed, failed=self.failed, skipped=self.skipped, seconds=self.seconds) + (
            _("; {n:,} result-only deals skipped: they hold no play to analyse", n=self.result_only)
            if self.result_only else "")

    def to_dict(self) -> dict[str, object]:
        """The summary as JSON data."""
        return {"analysed": self.analysed, "failed": self.failed, "skipped": self.skipped,
                "result_only": self.result_only, "seconds": round(self.seconds, 3)}


def analysis_row(deal_id: int, rules: str | None, text: str, key: AnalysisKey) -> tuple[Any, ...]:
    """The row of table ``analyses`` for one stored deal (with ``error`` when it cannot be analysed): the
    events up to the first illegal one analysed, the analysis stored as :meth:`DealAnalysis.to_dict` (the JSON of
    :class:`~tutepgn.analysis.model.AnalysisModel`, the form the service answers with)."""
    from ..analysis.annotate import analyse_record  # here: searches and imports (which load this module) never load the solver

    row_key = (deal_id, rules or "", key.version, key.cantes)
    try:
        analysis = analyse_record(parse_or_placeholder(text), up_to_illegal=True, **key.options())
    except (TuteError, NotationError, ValueError) as exc:
        return (*row_key, None, None, None, None, None, None, None, None, None, None, None, None,
                str(exc) or type(exc).__name__)
    costs = dict(zip(analysis.seats, analysis.costs))
    return (*row_key, len(analysis.valued), list(analysis.par), list(analysis.actual), list(analysis.actual_minus_par),
            *(costs.get(seat) for seat in "NWSE"), *(sum(p.mark == m for p in analysis.plays) for m in MARK_COLUMNS),
            json.dumps(analysis.to_dict(), separators=(",", ":")), None)


def quick(players: int | None, key: AnalysisKey) -> bool:
    """Whether a deal's analysis takes well under a second: 2 players double dummy alone (8 tricks after the
    stock, about a millisecond each with the C core; the pure Python search takes about a second).  PIMC's worlds
    take seconds even then: a job's work."""
    from ..analysis.solve import C_AVAILABLE  # here, as above

    return players == 2 and C_AVAILABLE and not key.worlds


def analysis_rows(piece: list[tuple[int, str | None, str]], key: AnalysisKey) -> list[tuple[Any, ...]]:
    """The rows of a piece of deals (id, rules, text): the work of one worker process.  Their errors are stored in
    English whatever the analyst speaks, as the import's findings are (docs/i18n.md)."""
    with speaking("en"):
        return [analysis_row(deal_id, rules, text, key) for deal_id, rules, text in piece]


PENDING = ("NOT d.result_only AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.deal_id = d.id "
           "AND a.rules = coalesce(d.rules, '') AND a.version = ? AND a.cantes = ?)")
"""The condition on ``deals d`` of a deal with no stored analysis for the key (parameters: :func:`pending_key`); a
results-only deal (sin jugadas) is never pending: it holds no play."""


def pending_key(key: AnalysisKey) -> list[Any]:
    """The parameters of :data:`PENDING`."""
    return [key.version, key.cantes]


def pending_ids(con: duckdb.DuckDBPyConnection, key: AnalysisKey) -> list[int]:
    """The deals with no stored analysis for the key, in id order."""
    return [row[0] for row in con.execute(f"SELECT id FROM deals d WHERE {PENDING} ORDER BY id",
                                          pending_key(key)).fetchall()]


def stored(con: duckdb.DuckDBPyConnection, deal_id: int, key: AnalysisKey) -> dict[str, Any] | None:
    """A deal's stored analysis for the key as JSON data, None when there is none; ValueError with the
    stored error when the deal could not be analysed."""
    row = con.execute("SELECT a.analysis, a.error FROM analyses a JOIN deals d ON d.id = a.deal_id "
                      "AND a.rules = coalesce(d.rules, '') WHERE a.deal_id = ? AND a.version = ? AND a.cantes = ?",
                      [deal_id, key.version, key.cantes]).fetchone()
    if row is None:
        return None
    if row[1] is not None:
        raise ValueError(_("deal {deal} cannot be analysed: {reason}", deal=deal_id, reason=row[1]))
    analysis: dict[str, Any] = json.loads(row[0])
    return analysis


def store_rows(con: duckdb.DuckDBPyConnection, rows: list[tuple[Any, ...]]) -> None:
    """Insert analysis rows (a row already stored for its key is kept), and count the write in the archive's
    generation (:func:`.schema.bump`): call it inside a transaction."""
    if rows:
        con.executemany(f"INSERT OR IGNORE INTO analyses VALUES ({', '.join('?' * len(ANALYSIS_COLUMNS))})", rows)
        schema.bump(con)  # in the caller's transaction: the analysis filters may match other deals now


def analyse_archive(con: duckdb.DuckDBPyConnection, key: AnalysisKey = AnalysisKey(), *, jobs: int = 1,
                    batch_size: int = BATCH_SIZE, progress: Callable[[int, int], None] | None = None,
                    mapper: Mapper | None = None) -> AnalyseSummary:
    """Analyse every deal of the archive open on ``con`` that has no row for the key yet.

    Pieces of :data:`WORK_SIZE` deals (at most ``batch_size``) go to ``jobs`` worker processes (or to
    ``mapper``: a Dask cluster, :func:`.cluster.ordered`); every
    ``batch_size`` deals are one transaction, so an interrupted run keeps what
    it committed and the next run goes on from there.  ``progress(done,
    total)`` after each piece.
    """
    start = time.perf_counter()
    ids = pending_ids(con, key)
    total, result_only = con.execute("SELECT count(*), count(*) FILTER (WHERE result_only) FROM deals").fetchone()  # type: ignore[misc]
    summary = AnalyseSummary(skipped=total - result_only - len(ids), result_only=result_only)

    size = min(WORK_SIZE, batch_size)

    def pieces() -> Iterator[list[tuple[int, str | None, str]]]:
        for at in range(0, len(ids), size):
            yield con.execute("SELECT id, rules, text FROM deals WHERE id IN (SELECT unnest(?)) ORDER BY id",
                              [ids[at:at + size]]).fetchall()

    pending = 0
    try:
        for rows in analysed_pieces(partial(analysis_rows, key=key), pieces(), jobs, mapper):
            if not pending:
                con.execute("BEGIN TRANSACTION")
            store_rows(con, rows)
            pending += len(rows)
            summary.analysed += len(rows)
            summary.failed += sum(row[-1] is not None for row in rows)
            if pending >= batch_size:
                con.execute("COMMIT")
                pending = 0
            if progress is not None:
                progress(summary.analysed, len(ids))
        if pending:
            con.execute("COMMIT")
            pending = 0
    finally:
        if pending:  # interrupted: the open batch leaves no trace
            with suppress(duckdb.Error):  # a connection a fatal error invalidated fails this too
                con.execute("ROLLBACK")
    summary.seconds = time.perf_counter() - start
    return summary


def analysed_pieces(work: Callable[[list[tuple[int, str | None, str]]], list[tuple[Any, ...]]],
                    pieces: Iterator[list[tuple[int, str | None, str]]], jobs: int,
                    mapper: Mapper | None) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of each piece, in order: by ``mapper`` when given (a cluster), else in ``jobs`` worker processes."""
    return mapper(work, pieces) if mapper is not None else ordered_map(work, pieces, jobs, ahead=AHEAD * jobs)
