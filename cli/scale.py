"""What the archive commands do with a Parquet dataset (``--to parquet DEST``, ``--dataset DEST``) and on a Dask
cluster (``--cluster ADDRESS``): docs/scale.md."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from collections.abc import Callable

import typer

from tutepgn.cli.output import fail
from tutepgn.errors import ArchiveError, ClusterError
from tutepgn.i18n import gettext as _

if TYPE_CHECKING:
    from tutepgn.analysis.annotate import Mapper
    from tutepgn.archive import Archive, ImportSummary
    from tutepgn.archive.analyses import AnalyseSummary, AnalysisKey

def cluster_option(work: str) -> Any:
    """The ``--cluster ADDRESS`` option of a command that does ``work`` (a message, marked ``N_``) on a Dask
    cluster."""
    return Annotated[str | None, typer.Option(
        "--cluster", envvar="TUTEPGN_DASK_SCHEDULER", metavar="ADDRESS", show_default=False,
        help=_("{work} on the Dask cluster at ADDRESS (tcp://host:8786; local or local:N starts one here): "
               "docs/scale.md.", work=_(work)))]


Progress = Callable[[], AbstractContextManager[Callable[[int, int], None]]]


def import_dataset(sources: list[Any], to: tuple[str, str] | None, cluster: str | None, *, jobs: int,
                   skip_invalid: bool, progress: Progress) -> tuple[str, ImportSummary]:
    """``tute import SOURCES --to parquet DEST [--cluster ADDRESS]``: the dataset and the import's summary, or
    exit 2 saying why not."""
    if to is None:
        raise fail(ValueError(_("--cluster writes a Parquet dataset: give --to parquet DEST")))
    kind, dest = to
    if kind != "parquet":
        raise fail(ValueError(_("--to {kind}: the one form of a dataset is parquet (--to parquet DEST)",
                                kind=repr(kind))))
    from tutepgn.archive.cluster import address_of
    from tutepgn.archive.dataset import import_dataset as on_this_machine
    from tutepgn.notation import iter_raw_records

    address = address_of(cluster)
    try:
        with progress() as report:
            if address is None:
                summary = on_this_machine(dest, iter_raw_records(sources), [str(s) for s in sources], jobs=jobs,
                                          skip_invalid=skip_invalid, progress=report)
            else:
                from tutepgn.archive.cluster import import_sources
                summary = import_sources(address, dest, sources, skip_invalid=skip_invalid, progress=report)
    except (OSError, UnicodeDecodeError, ArchiveError, ClusterError, ValueError) as exc:
        raise fail(exc) from None
    return dest, summary


def analyse_dataset(dest: Path, cluster: str | None, key: AnalysisKey, *, jobs: int,
                    progress: Callable[[int, int], None]) -> AnalyseSummary:
    """``tute archive analyse --dataset DEST [--cluster ADDRESS]``: the run's summary, or exit 2 saying why not."""
    from tutepgn.archive.cluster import address_of
    from tutepgn.archive.dataset_analysis import analyse_dataset as analyse

    try:
        with on_cluster(address_of(cluster), "tute-archive-analyse") as mapper:
            return analyse(dest, key, jobs=jobs, mapper=mapper, progress=progress)
    except (OSError, ValueError, ArchiveError) as exc:
        raise fail(exc) from None


def open_dataset(dest: Path, *, secure: bool = False) -> Archive:
    """The dataset at ``dest`` as a read-only archive (DuckDB views of its files), or exit 2 saying why not."""
    from tutepgn.archive.dataset import dataset_archive
    try:
        return dataset_archive(dest, secure=secure)
    except (OSError, ValueError, ArchiveError) as exc:
        raise fail(exc) from None


@contextmanager
def on_cluster(address: str | None, name: str) -> Iterator[Mapper | None]:
    """The map (in order) of the cluster at ``address`` for tasks named ``name``, None without an address; exit 2
    when the cluster cannot be used (Dask not installed, no scheduler there)."""
    if address is None:
        yield None
        return
    from functools import partial

    from tutepgn.archive.cluster import connected, ordered
    try:
        with connected(address) as client:
            yield partial(ordered, client, name=name)
    except ClusterError as exc:
        raise fail(exc) from None
