"""An archive held by a running service, read and written through that service's HTTP API.

DuckDB lets one process write a file or many read it.  While ``tute serve``
writes an archive, the commands that read it ask the service instead
(:func:`open_reader`): searches, statistics and tpgn or csv exports come back
as the file itself would give them; imports are posted to it with an API key
(:meth:`ServiceArchive.import_sources`).  The rest (SQL, Parquet, JSON exports)
needs the file, so it says which service holds it (:mod:`.held`).
"""

from __future__ import annotations

import codecs
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from contextlib import ExitStack
from http.client import HTTPResponse
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import ArchiveError, ArchiveHeldError
from ..i18n import gettext as _
from ..notation import Source, batch_records, iter_raw_records
from .columns import SUMMARY_COLUMNS
from .search import SORTS, DealSummary, Sample, SearchFilters
from .store import Archive

if TYPE_CHECKING:  # Arrow loads for an import, not for a read
    from .ingest import ImportSummary

KEY_ENV = "TUTEPGN_API_KEY"
"""Environment variable: the API key ``tute import`` sends to the service that holds the archive."""
IMPORT_PIECE = 256
"""Records posted to a service at a time (each an import of its own, under its body and time limits); a run of
one Match tag is never split."""
TIMEOUT = 60.0
"""Seconds to wait for the service to answer."""
STREAM_PIECE = 64 * 1024
"""Bytes of a download read and written at a time."""
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Requests straight to the service, never through a proxy $http_proxy names (the service is on this machine)."""


class ServiceArchive:
    """The archive a running service holds, with the :class:`Archive` methods the commands use to read it."""

    def __init__(self, held: ArchiveHeldError) -> None:
        assert held.url is not None
        self.held = held
        self.path = Path(held.db)
        self.url = held.url

    def close(self) -> None:
        """Nothing to close: each call is a request of its own."""

    def __enter__(self) -> ServiceArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, route: str, filters: SearchFilters | None = None, *, body: bytes | None = None,
                 key: str | None = None, **params: Any) -> HTTPResponse:
        """The service's answer to one request; an :class:`ArchiveError` saying why if it is not a success
        (LookupError for a 404: a deal that is not there)."""
        query = filter_query(filters)
        query.extend((name, str(value)) for name, value in params.items() if value is not None)
        url = f"{self.url}/api/v1/{route}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        headers = {"Content-Type": "text/plain; charset=utf-8"} if body is not None else {}
        if key is not None:
            headers["X-API-Key"] = key
        try:
            answer: HTTPResponse = DIRECT.open(urllib.request.Request(url, data=body, headers=headers), timeout=TIMEOUT)
            return answer
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                raise LookupError(route) from None
            if exc.code == 401:  # no key, and this machine's requests write with none only while it has no key
                raise self.held from None
            try:
                detail = json.loads(exc.read()).get("detail") or exc.reason
            except ValueError:
                detail = exc.reason
            raise ArchiveError(_("the tutepgn service at {url} (pid {pid}), which holds {path}, answered {status}: "
                                 "{detail}", url=self.url, pid=self.held.pid, path=self.path, status=exc.code,
                                 detail=detail)) from None
        except OSError as exc:
            reason = getattr(exc, "reason", exc)
            raise ArchiveError(_("{path} is held by the tutepgn service at {url} (pid {pid}), which does not answer "
                                 "({reason}): try again, or stop it", path=self.path, url=self.url, pid=self.held.pid,
                                 reason=reason)) from None

    def count(self, filters: SearchFilters | None = None) -> int:
        """Number of matching deals (the service counts them for a download)."""
        with self._request("deals.ndjson", filters, limit=1) as answer:
            return int(answer.headers["X-Total-Count"])

    emptied_by = Archive.emptied_by
    """Why the filters find no deal: the same steps as over the file, each counted by the service."""

    def text(self, deal: int) -> str | None:
        """One deal's stored text, or None (the service's ``/deals/{id}.tpgn``)."""
        try:
            with self._request(f"deals/{deal}.tpgn") as answer:
                return answer.read().decode("utf-8")
        except LookupError:
            return None

    def search(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int | None = 50,
               offset: int = 0, columns: tuple[str, ...] = SUMMARY_COLUMNS) -> list[dict[str, Any]]:
        """Matching deals as rows of the summary columns, as :meth:`Archive.search` gives them."""
        if columns != SUMMARY_COLUMNS:
            raise self.held
        wanted = None if limit is None else offset + limit
        with self._request("deals.ndjson", filters, sort=sort, limit=wanted) as answer:
            lines = answer.read().decode("utf-8").splitlines()[offset:]
        return [DealSummary.model_validate_json(line).to_row() for line in lines]

    def stats(self, filters: SearchFilters | None = None) -> dict[str, Any]:
        """Statistics over matching deals, as :meth:`Archive.stats` gives them."""
        with self._request("stats", filters) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result

    def ratings(self, pairs: bool = False) -> list[dict[str, Any]]:
        """The ranking by rating, as :func:`.ratings.ranking` gives it (the service reckons it; it stores nothing)."""
        with self._request("ratings", pairs=str(pairs).lower()) as answer:
            result: list[dict[str, Any]] = json.loads(answer.read())
            return result

    def export(self, filters: SearchFilters | None, fmt: str, out: IO[str] | str | os.PathLike[str], *,
               cards: str = "es", sort: str = "date", limit: int | None = None, sample: Sample | None = None) -> int:
        """Write matching deals as tpgn (Spanish cards: as stored) or csv, as :meth:`Archive.export` does; other
        forms, a sample and a sort by a column need the file itself (:class:`~tutepgn.errors.ArchiveHeldError`)."""
        if fmt not in ("tpgn", "csv") or (fmt == "tpgn" and cards != "es") or sample is not None or sort not in SORTS:
            raise self.held
        with self._request(f"deals.{fmt}", filters, sort=sort, limit=limit) as answer:
            total, cap = int(answer.headers["X-Total-Count"]), int(answer.headers["X-Row-Cap"])
            if total > cap and (limit is None or limit > cap):
                raise ArchiveError(_("{total:,} deals match, and the tutepgn service at {url} (pid {pid}), which holds "
                                     "{path}, sends at most {cap:,} at once: give --limit, narrow the filters, or stop "
                                     "the service to export them all", total=total, url=self.url, pid=self.held.pid,
                                     path=self.path, cap=cap))
            with ExitStack() as stack:  # streamed: a download of any size holds a piece at a time
                target = out if hasattr(out, "write") else stack.enter_context(
                    open(out, "w", encoding="utf-8", newline=""))
                decoder = codecs.getincrementaldecoder("utf-8")()
                while piece := answer.read(STREAM_PIECE):
                    target.write(decoder.decode(piece))
                target.write(decoder.decode(b"", final=True))
        return min(total, limit) if limit is not None else total

    def import_sources(self, sources: Iterable[Source], *, key: str | None = None, skip_invalid: bool = False,
                       **_ignored: Any) -> ImportSummary:
        """Post the records of the sources to the service, :data:`IMPORT_PIECE` at a time, with the API key
        ``key`` (else $TUTEPGN_API_KEY; without one, a service with no key configured takes them from its own
        machine); return what was done, summed."""
        key = key or os.environ.get(KEY_ENV) or None
        if self.held.read_only:
            raise self.held
        if skip_invalid:
            raise ArchiveError(_("{path} is held by the tutepgn service at {url} (pid {pid}), whose imports store "
                                 "invalid records flagged: import without --skip-invalid, or stop the service first",
                                 path=self.path, url=self.url, pid=self.held.pid))
        from .ingest import ImportSummary
        summary, start = ImportSummary(), time.perf_counter()
        for piece in batch_records(iter_raw_records(list(sources)), IMPORT_PIECE):
            body = "\n\n".join(raw[3].rstrip("\n") for raw in piece) + "\n"
            with self._request("import", body=body.encode("utf-8"), key=key) as answer:
                done = json.loads(answer.read())
            for field in ("records", "added", "invalid", "skipped_invalid"):
                setattr(summary, field, getattr(summary, field) + done[field])
        summary.seconds = time.perf_counter() - start
        return summary


def filter_query(filters: SearchFilters | None) -> list[tuple[str, str]]:
    """Search filters as the service's query parameters (the fields' names; ``held`` repeated)."""
    query: list[tuple[str, str]] = []
    for name, value in (filters or SearchFilters()).model_dump(mode="json", exclude_defaults=True).items():
        for item in value if isinstance(value, list) else [value]:
            query.append((name, ("true" if item else "false") if isinstance(item, bool) else str(item)))
    return query


def open_reader(path: str | os.PathLike[str]) -> Archive | ServiceArchive:
    """The archive at ``path`` to read: the file itself, or, while a service writes it, that service."""
    try:
        return Archive(path, read_only=True)
    except ArchiveHeldError as exc:
        if exc.url is None:
            raise
        return ServiceArchive(exc)


def open_writer(path: str | os.PathLike[str]) -> Archive | ServiceArchive:
    """The archive at ``path`` to import into: the file itself, or, while a service writes it, that service
    (its :meth:`~ServiceArchive.import_sources` needs an API key)."""
    try:
        return Archive(path)
    except ArchiveHeldError as exc:
        if exc.url is None or exc.read_only:
            raise
        return ServiceArchive(exc)
