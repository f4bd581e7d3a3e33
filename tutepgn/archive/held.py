"""Who holds an archive file: DuckDB lets one process open a file to write, or many to read, never both.

A running service (``tute serve``) says where it listens in a small file
beside the archive, ``<archive>.service.json`` (:func:`announced`), removed
when it stops.  A command that finds the archive locked reads it
(:func:`held_error`), so its error names the holder, and reads can be asked of
that service instead (:mod:`.remote`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import duckdb

from ..errors import ArchiveHeldError
from ..i18n import gettext as _

SERVICE_SUFFIX = ".service.json"
"""The service's file is the archive's name with this added: ``archive.duckdb.service.json``."""
_PID = re.compile(r"\(PID (\d+)\)")


def service_file(db: str | os.PathLike[str]) -> Path:
    """The file a service serving ``db`` writes beside it."""
    path = Path(db)
    return path.with_name(path.name + SERVICE_SUFFIX)


def service_url(host: str, port: int) -> str:
    """The URL a client on this machine reaches a service at (a service on every address: at the loopback)."""
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@contextmanager
def announced(db: str | os.PathLike[str], url: str, *, read_only: bool) -> Iterator[Path | None]:
    """Say, while the block runs, that this process serves ``db`` at ``url`` (the file is written whole, then
    renamed into place); a file left by a process that was killed is found stale by its pid.  Yields the file,
    or None where it cannot be written (a read-only folder): the service runs all the same."""
    target = service_file(db)
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(json.dumps({"url": url, "pid": os.getpid(), "read_only": read_only, "db": str(db)})
                           + "\n", encoding="utf-8")
        partial.replace(target)
    except OSError:
        with suppress(OSError):
            partial.unlink()
        yield None
        return
    try:
        yield target
    finally:
        with suppress(OSError):
            if json.loads(target.read_text(encoding="utf-8")).get("pid") == os.getpid():  # not a later service's
                target.unlink()


def alive(pid: int) -> bool:
    """Whether a process ``pid`` is running (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (OSError, OverflowError):
        return False
    return True


def running_service(db: str | os.PathLike[str]) -> dict[str, object] | None:
    """The service serving ``db`` ({url, pid, read_only, db}), or None: no file, or its process has ended."""
    try:
        found = json.loads(service_file(db).read_text(encoding="utf-8"))
        pid = int(found["pid"])
        str(found["url"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found if alive(pid) else None


def connect(path: str | os.PathLike[str], **options: Any) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect``, with the error of a file another process holds naming it (:func:`held_error`)."""
    try:
        return duckdb.connect(str(path), **options)
    except duckdb.IOException as exc:
        if locked(exc):
            raise held_error(path, exc) from None
        raise


def locked(exc: BaseException) -> bool:
    """Whether DuckDB refused to open a file because another process holds it."""
    return isinstance(exc, duckdb.IOException) and "Could not set lock" in str(exc)


def held_error(db: str | os.PathLike[str], exc: BaseException | None = None) -> ArchiveHeldError:
    """The error of an archive another process holds, naming it and saying what to do; ``exc``: DuckDB's
    lock error, which names the holder's pid when no service says it holds the file."""
    service = running_service(db)
    if service is not None:
        url, pid, read_only = str(service["url"]), int(service["pid"]), bool(service.get("read_only"))  # type: ignore[call-overload]
        return ArchiveHeldError(
            _("{db} is served read-only by the tutepgn service at {url} (pid {pid}): stop it to write to the archive",
              db=db, url=url, pid=pid)
            if read_only else
            _("{db} is held by the tutepgn service at {url} (pid {pid}): `tute search`, `show`, `stats` and `export` "
              "(tpgn, csv) are answered by it, and `tute import` sends the records to it when TUTEPGN_API_KEY holds one "
              "of its API keys (or with none from its own machine, while it has no key configured); for anything "
              "else stop it first (or serve with --read-only: readers share the file)",
              db=db, url=url, pid=pid),
            db=str(db), pid=pid, url=url, read_only=read_only)
    found = _PID.search(str(exc or ""))
    pid = int(found.group(1)) if found else None
    return ArchiveHeldError(_("{db} is locked by another process (pid {pid}), which is not a running tutepgn service: "
                              "wait for it to end (an import, an analysis) or stop it", db=db, pid=pid)
                            if pid is not None else
                            _("{db} is locked by another process, which is not a running tutepgn service: wait for it "
                              "to end (an import, an analysis) or stop it", db=db), db=str(db), pid=pid)
