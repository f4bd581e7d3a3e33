"""Double-dummy analyses of a dataset's deals (``tute archive analyse --dataset DEST [--cluster ADDRESS]``).

The rows are an archive file's (:func:`.analysis.analysis_row`: table ``analyses``,
keyed by the deal's id, its ruleset, the version and parameters
(:class:`.analyses.AnalysisKey`) and the cantes flag), so the dataset's searches filter on them as the file's do (blunders,
mistakes, a seat's summed cost, actual less par).  Pieces of deals are analysed in
worker processes or as tasks of a Dask cluster; this process writes their rows,
every :data:`BATCH_SIZE` deals, as a file ``analyses/part-RUN-NUMBER.parquet``
committed by its manifest, as an import commits its pieces.  So an interrupted run
keeps what it committed, and the next run analyses the deals with no row for the
key, as in an archive file.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from .analyses import (PENDING, WORK_SIZE, AnalyseSummary, AnalysisKey, analysed_pieces, analysis_rows,
                       pending_key)
from .columns import ANALYSIS_COLUMNS
from .dataset import STAGING, Dataset, connect_dataset, schema_of, stage

if TYPE_CHECKING:
    from ..analysis.annotate import Mapper

BATCH_SIZE = 2_000
"""Deals per committed file (fewer when :data:`BATCH_SECONDS` pass first): an interrupted run keeps every
committed batch."""
BATCH_SECONDS = 60.0
"""A batch is committed at the latest this long after the one before (a 4-player deal takes a second double
dummy, about half a minute with PIMC)."""


def analyse_dataset(dest: str | os.PathLike[str], key: AnalysisKey = AnalysisKey(), *, jobs: int = 1,
                    mapper: Mapper | None = None,
                    batch_size: int = BATCH_SIZE, progress: Callable[[int, int], None] | None = None) -> AnalyseSummary:
    """Analyse every deal of the dataset at ``dest`` that has no row for the key yet; store the rows in the
    dataset.  ``mapper`` maps in order elsewhere (a cluster: :func:`.cluster.ordered`), else ``jobs`` worker
    processes; ``progress(done, total)`` after each piece."""
    start = time.perf_counter()
    dataset = Dataset(dest)
    dataset.clean()  # one writer at a time, as for an import
    con = connect_dataset(dest)
    params = pending_key(key)
    total, pending, result_only = con.execute(f"SELECT count(*), count(*) FILTER ({PENDING}), count(*) FILTER "
                                              "(WHERE result_only) FROM deals d", params).fetchone()  # type: ignore[misc]
    summary = AnalyseSummary(skipped=total - pending - result_only, result_only=result_only)
    reader = con.execute(f"SELECT id, rules, text FROM deals d WHERE {PENDING}", params)

    def pieces() -> Iterator[list[tuple[int, str | None, str]]]:
        while piece := reader.fetchmany(WORK_SIZE):
            yield piece

    run = dataset.next_run()
    batch: list[tuple[Any, ...]] = []
    committed = time.monotonic()
    for number, rows in enumerate(analysed_pieces(partial(analysis_rows, key=key), pieces(), jobs, mapper)):
        batch.extend(rows)
        summary.analysed += len(rows)
        summary.failed += sum(row[-1] is not None for row in rows)
        if len(batch) >= batch_size or time.monotonic() - committed > BATCH_SECONDS:
            commit(dataset, run, number, batch)
            batch, committed = [], time.monotonic()
        if progress is not None:
            progress(summary.analysed, pending)
    if batch:
        commit(dataset, run, 999_999, batch)
    dataset.fs.delete_dir_contents(f"{dataset.root}/{STAGING}", missing_dir_ok=True)
    summary.seconds = time.perf_counter() - start
    return summary


def commit(dataset: Dataset, run: int, number: int, rows: list[tuple[Any, ...]]) -> None:
    """Write analysis rows as one file of table ``analyses`` and commit it (manifest ``RUN-NUMBER``)."""
    table = pa.table({name: [row[i] for row in rows] for i, name in enumerate(ANALYSIS_COLUMNS)},
                     schema=schema_of("analyses"))
    dataset.commit(f"{run:06d}-{number:06d}", run, stage(dataset.dest, {"analyses": table}, run, number),
                   piece=number, analysed=len(rows))
