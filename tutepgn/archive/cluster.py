"""The archive's work on a Dask cluster (``--cluster ADDRESS``): imports into a dataset, validation, analysis.

Dask is an optional extra (``pip install 'tutepgn[dask]'``), imported here only.
The client (the process running ``tute``) cuts the sources into pieces on record
boundaries (the reader's splitter, no parsing), sends each piece to the cluster
as a task, and commits what the tasks wrote, in order (:class:`.dataset.Importer`).
A task parses, validates and builds Arrow with the library's own functions and
writes its parts under temporary names; a task whose worker dies is run again by
the scheduler elsewhere, and only the parts of the one result the client got are
ever committed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import ClusterError
from ..i18n import gettext as _

if TYPE_CHECKING:
    from distributed import Client

    from .ingest import ImportSummary
    from .rows import Raw

T = TypeVar("T")
R = TypeVar("R")

SCHEDULER_ENV = "TUTEPGN_DASK_SCHEDULER"
"""Environment variable: the scheduler's address, when ``--cluster`` is not given one."""
INSTALL = "pip install 'tutepgn[dask]'"
"""How Dask is installed for ``--cluster``."""
RETRIES = 2
"""Times a task that raised is run again (a task whose worker died is run again by the scheduler)."""
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
                "distributed.admin.system-monitor.interval": "2s", "distributed.worker.memory.monitor-interval": "500ms"}
"""Dask settings of a ``LocalCluster`` started here, which shares the machine with this process: no statistical
profiler in the workers (it samples the task's stack every 10 ms, taking the GIL from it: about a tenth more CPU per
piece, measured in bench/scale.py's runs); and the event loops' health check once a second (not every 20 ms), the
system monitor every 2 s (not 0.5) and the memory limits every 0.5 s (not 0.1): a cluster of 2 idle workers then
costs 0.7 s of CPU in 30 s, not 4.1 (docs/scale.md#figures)."""


def address_of(given: str | None) -> str | None:
    """The scheduler to use: ``--cluster ADDRESS``, else $TUTEPGN_DASK_SCHEDULER, else None (this machine)."""
    return given or os.environ.get(SCHEDULER_ENV) or None


@contextmanager
def connected(address: str) -> Iterator[Client]:
    """A client of the cluster at ``address`` (``tcp://host:8786``), or of a ``LocalCluster`` started here for
    ``local`` (a worker per core) or ``local:N`` (N workers, one process each)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(_("--cluster needs Dask distributed, which is not installed: {install}",
                             install=INSTALL)) from None
    if address == "local" or address.startswith("local:"):
        workers = int(address[6:]) if address[6:].isdigit() else os.cpu_count() or 1
        with dask.config.set(LOCAL_CONFIG), \
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            try:
                yield client
            finally:
                with suppress(Exception):
                    client.run(quiet_worker_logs)
        return
    try:
        client = Client(address, timeout=30)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(_("no Dask scheduler answers at {address}: {reason}", address=address, reason=exc)) from None
    try:
        yield client
    finally:
        client.close()


def quiet_worker_logs() -> None:
    """Run in each worker of a ``LocalCluster`` started here just before it is closed: its log lines on stderr
    stop, since a worker whose heartbeat is in flight while the scheduler shuts down logs a traceback that
    says nothing to the person who ran ``tute`` (the work is done; its errors were reported before)."""
    import logging

    for handler in logging.getLogger("distributed").handlers:
        handler.setLevel(logging.CRITICAL + 1)


def cluster_map(client: Client, work: Callable[..., R], items: Iterable[T], *, name: str) -> Iterator[R]:
    """``work(item)`` for every item, as tasks of the cluster, answers as they finish (not in order).

    At most twice as many tasks as the cluster has workers (and two) are out at once, so the
    client holds few pieces however long the input.
    """
    from distributed import as_completed

    limit = 2 * max(len(client.scheduler_info()["workers"]), 1) + 2
    pending = iter(items)
    running = as_completed()
    for item in pending:
        running.add(client.submit(work, item, key=f"{name}-{running.count()}-{os.urandom(6).hex()}", pure=False,
                                  retries=RETRIES))
        if running.count() >= limit:
            break
    for done in running:
        result = done.result()
        done.release()
        following = next(pending, None)
        if following is not None:
            running.add(client.submit(work, following, key=f"{name}-{os.urandom(8).hex()}", pure=False,
                                      retries=RETRIES))
        yield result


def ordered(client: Client, work: Callable[[T], R], items: Iterable[T], *, name: str) -> Iterator[R]:
    """:func:`cluster_map`, the answers in the order of the items (those that finish early wait)."""
    from functools import partial

    waiting: dict[int, R] = {}
    following = 0
    for number, result in cluster_map(client, partial(numbered_work, work), enumerate(items), name=name):
        waiting[number] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1


def numbered_work(work: Callable[[T], R], item: tuple[int, T]) -> tuple[int, R]:
    """``work`` on a numbered item, the number kept (a task of :func:`ordered`)."""
    number, value = item
    return number, work(value)


def import_cluster(client: Client, dest: str, raw: Iterable[Raw], names: list[str], *, skip_invalid: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> ImportSummary:
    """Import records into the dataset at ``dest`` on a cluster: the workers write the pieces (``dest`` must be
    a folder or URL they reach as this process does), this process commits them."""
    from functools import partial

    from .dataset import Dataset, Importer, numbered, piece_task

    importer = Importer(Dataset(dest), names, skip_invalid=skip_invalid, progress=progress)
    task = partial(piece_task, importer.dataset.dest, importer.run, skip_invalid)
    for staged in cluster_map(client, task, numbered(raw), name=f"tute-import-{importer.run}"):
        importer.take(staged)
    return importer.finish(lambda work, items: cluster_map(client, work, items, name=f"tute-merge-{importer.run}"))


def import_sources(address: str, dest: str, sources: list[Any], **options: Any) -> ImportSummary:
    """``tute import SOURCES --to parquet DEST --cluster ADDRESS``: connect, import, disconnect."""
    from ..notation import iter_raw_records

    with connected(address) as client:
        return import_cluster(client, dest, iter_raw_records(sources), [str(s) for s in sources], **options)
