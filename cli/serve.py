"""``tute serve``: the HTTP service (FastAPI on uvicorn) over an archive."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer

from tutepgn.cli.output import fail
from tutepgn.i18n import gettext as _


def serve(
    db: Annotated[Path | None, typer.Option("--db", envvar="TUTEPGN_DB", help="The archive file.")] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    read_only: Annotated[bool, typer.Option("--read-only", help="Open the archive read-only: no imports.")] = False,
    load: Annotated[list[Path] | None, typer.Option("--load", help="Import these files or directories first (idempotent).")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes; more than 1 needs --read-only (DuckDB allows one writer).")] = 1,
    dataset: Annotated[Path | None, typer.Option(
        "--dataset", metavar="DEST", show_default=False,
        help="Serve the Parquet dataset at DEST (tute import --to parquet), read-only, instead of the archive file.")] = None,
) -> None:
    """Serve the archive: the JSON API under /api/v1, its docs at /docs, and the web pages.

    API keys come from TUTEPGN_API_KEYS or TUTEPGN_API_KEYS_FILE, never from the command line.
    """
    import duckdb
    import uvicorn

    from tutepgn.api.app import Settings, create_app
    from tutepgn.api.guards import uvicorn_options
    from tutepgn.archive import Archive, announced, service_url
    from tutepgn.errors import ArchiveError

    try:
        settings = Settings.from_env(db=db, read_only=read_only or None, dataset=dataset)  # without --read-only, TUTEPGN_READ_ONLY decides
    except (ValueError, OSError) as exc:  # a bad TUTEPGN_* value, an unreadable key file
        raise fail(exc) from None
    if settings.dataset is not None:
        return serve_dataset(settings, host, port, workers, load)
    if load:
        from tutepgn.cli.archive import import_or_fail, open_archive
        from tutepgn.notation.inputs import expand
        try:
            sources = expand(load)
        except FileNotFoundError as exc:
            raise fail(exc) from None
        with open_archive(settings.db, read_only=False) as archive:
            summary = import_or_fail(archive, sources, jobs=1)
        typer.echo(_("{path}: {summary}", path=settings.db, summary=summary), err=True)
    if workers > 1:
        if not settings.read_only:
            raise fail(ValueError(_("--workers above 1 needs --read-only: one process owns a writable DuckDB file")))
        try:  # here, so that a bad file stops the command with status 2, not each worker with a traceback
            Archive(settings.db, read_only=True).close()
        except (ArchiveError, OSError, duckdb.Error) as exc:
            raise fail(exc) from None
        # Each worker builds its own app (and its own read-only connection) from the environment.
        os.environ["TUTEPGN_DB"], os.environ["TUTEPGN_READ_ONLY"] = str(settings.db), "1"
        with terminated_after_cleanup(), announced(settings.db, service_url(host, port), read_only=True):
            uvicorn.run("tutepgn.api.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                        log_level="info", **uvicorn_options(settings))
        return
    try:
        service = create_app(settings)
    except (ArchiveError, OSError, duckdb.Error) as exc:
        raise fail(exc) from None
    # Beside the archive, while it runs: where the commands that find the archive locked ask instead.
    with terminated_after_cleanup(), announced(settings.db, service_url(host, port), read_only=settings.read_only):
        try:
            uvicorn.run(service, host=host, port=port, log_level="info", **uvicorn_options(settings))
        finally:  # SIGTERM, SIGINT or an error: the archive checkpointed and closed before the file is released
            service.state.service.close()


def serve_dataset(settings: Any, host: str, port: int, workers: int, load: list[Path] | None) -> None:
    """``tute serve --dataset DEST``: the same service, read-only, answering from the dataset's files."""
    import uvicorn

    from tutepgn.api.app import create_app
    from tutepgn.api.guards import uvicorn_options
    from tutepgn.cli.scale import open_dataset

    if load:
        raise fail(ValueError(_("--load imports into an archive file; a dataset is served read-only "
                                "(import into it with tute import --to parquet)")))
    open_dataset(settings.dataset).close()  # a missing or unreadable dataset: exit 2 here, not in each worker
    if workers > 1:
        os.environ["TUTEPGN_DATASET"], os.environ["TUTEPGN_READ_ONLY"] = str(settings.dataset), "1"
        uvicorn.run("tutepgn.api.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                    log_level="info", **uvicorn_options(settings))
        return
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info", **uvicorn_options(settings))


class _Terminated(BaseException):
    """SIGTERM, raised where the process is (a BaseException: no ``except Exception`` on the way swallows it)."""


@contextmanager
def terminated_after_cleanup() -> Iterator[None]:
    """Let SIGTERM end the process only once the blocks inside have run their exits.

    uvicorn catches SIGTERM, shuts the app down, then raises the signal again under the handler it
    found.  Under the default one the process would end on the spot, leaving
    ``<archive>.service.json`` (:func:`~tutepgn.archive.announced`) behind; here
    the signal unwinds the blocks inside as an exception, and is raised again
    under the default handler afterwards: the process still ends by SIGTERM.
    (SIGINT needs nothing: Python's handler raises KeyboardInterrupt.)
    """
    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, previous)
        signal.raise_signal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)
