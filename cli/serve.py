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
    lan: Annotated[bool, typer.Option("--lan", help="Serve the club's network too (every address, unless --host names "
                                                    "one): print the URL phones join by, and its QR code.")] = False,
    table_keys: Annotated[int, typer.Option("--table-keys", min=0, max=200, metavar="N", help=(
        "Make (or keep) a write key for each of N tables, beside the archive, and print each table's URL, the key "
        "in it (with --lan, with its QR code)."))] = 0,
    local_trust: Annotated[bool, typer.Option("--local-trust/--no-local-trust", help=(
        "Let requests from this machine write with no key while no key is configured."))] = True,
) -> None:
    """Serve the archive: the JSON API under /api/v1, its docs at /docs, and the web pages.

    With no key configured, this machine records and imports at once with no key: the service keeps a local
    admin key beside the archive (FILE.keys), and any other machine needs a key (--table-keys N makes one per
    table).  API keys come from TUTEPGN_API_KEYS or TUTEPGN_API_KEYS_FILE, never from the command line; with
    any configured, every request needs one.
    """
    import duckdb
    import uvicorn

    from tutepgn.api.app import Settings, create_app
    from tutepgn.api.guards import uvicorn_options
    from tutepgn.api.local import with_local_keys
    from tutepgn.archive import Archive, announced, service_url
    from tutepgn.errors import ArchiveError

    try:
        settings = Settings.from_env(db=db, read_only=read_only or None, dataset=dataset)  # without --read-only, TUTEPGN_READ_ONLY decides
    except (ValueError, OSError) as exc:  # a bad TUTEPGN_* value, an unreadable key file
        raise fail(exc) from None
    if settings.dataset is not None:
        return serve_dataset(settings, host, port, workers, load)
    if lan and host == "127.0.0.1":
        host = "0.0.0.0"  # every address: the club's network, and this machine's loopback
    try:
        settings, keys = with_local_keys(settings, tables=table_keys, trust=local_trust)
    except (ValueError, OSError) as exc:
        raise fail(exc) from None
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
        with terminated_after_cleanup(), shared_answers(settings), announced(settings.db, service_url(host, port),
                                                                     read_only=True):
            uvicorn.run("tutepgn.api.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                        log_level="info", **uvicorn_options(settings))
        return
    try:
        service = create_app(settings)
    except (ArchiveError, OSError, duckdb.Error) as exc:
        raise fail(exc) from None
    say_how_to_join(settings, keys, host, port, lan=lan, tables=table_keys)
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
        with terminated_after_cleanup(), shared_answers(settings):
            uvicorn.run("tutepgn.api.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                        log_level="info", **uvicorn_options(settings))
        return
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info", **uvicorn_options(settings))


def say_how_to_join(settings: Any, keys: Any, host: str, port: int, *, lan: bool, tables: int) -> None:
    """Print (on stderr) where the service is and who may write: this machine with no key, or with a key; with
    --lan the URL phones join by and its QR code; with --table-keys each table's URL, its key in the fragment
    (the part of a URL a browser never sends: the recorder page keeps the key and drops it from the address)."""
    from tutepgn.api.local import lan_address

    here = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    local = "http://" + url_host(here) + ":" + str(port) + "/"
    echo = lambda text: typer.echo(text, err=True)  # noqa: E731
    echo(_("tutepgn serves {path} at {url}", path=settings.db, url=local))
    if settings.local_writes:
        echo(_("This machine records and imports with no key (the Record page, tute import); any other needs a key. "
               "The local admin key is kept in {path}, readable by you alone.", path=keys.path))
    elif not settings.read_only:
        echo(_("Every write needs a key (X-API-Key): this machine's too."))
    base = "http://" + url_host(lan_address() if host in ("0.0.0.0", "::") else host) + ":" + str(port) + "/record"
    if lan:
        echo(_("Phones on the club's network join at {url} (scan the code):", url=base))
        echo(qr_text(base))
    for number, key in enumerate(keys.tables[:tables] if keys is not None else (), 1):
        url = base + "#key=" + key
        echo(_("Table {n}: {url}", n=number, url=url))
        if lan:
            echo(qr_text(url))


def url_host(host: str) -> str:
    """A host as a URL writes it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def qr_text(url: str) -> str:
    """``url`` as a QR code for the terminal (segno: two rows of modules a line, in block characters)."""
    import io

    import segno

    text = io.StringIO()
    segno.make(url, error="m").terminal(out=text, compact=True)
    return text.getvalue().rstrip("\n")


class _Terminated(BaseException):
    """SIGTERM, raised where the process is (a BaseException: no ``except Exception`` on the way swallows it)."""


@contextmanager
def shared_answers(settings: Any) -> Iterator[None]:
    """A file for the workers to share the answers they keep (api/caching.py), in a temporary folder of this
    process's that goes when it stops; the workers find it by TUTEPGN_SHARED_ANSWERS."""
    import tempfile

    if os.environ.get("TUTEPGN_SHARED_ANSWERS") or not settings.shared_answer_bytes:  # theirs, or none
        yield
        return
    with tempfile.TemporaryDirectory(prefix="tutepgn-serve-") as folder:
        os.environ["TUTEPGN_SHARED_ANSWERS"] = str(Path(folder) / "answers.sqlite")
        try:
            yield
        finally:
            del os.environ["TUTEPGN_SHARED_ANSWERS"]


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
