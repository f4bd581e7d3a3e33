"""The one JSON shape of an error: :class:`ErrorItem` (one located error) and :class:`Problem` (RFC 9457).

They are pydantic models, so they live apart from the exception classes of :mod:`tutepgn.errors`, which
gives them by name on first use: raising or catching an error loads no pydantic (``tute --help`` stays
fast).  Import them from :mod:`tutepgn.errors` or from :mod:`tutepgn`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorItem(BaseModel):
    """One error as JSON, the same shape everywhere: a report's ``parse_errors``, an API problem's
    ``errors[]``, and ``tute ... --json`` on stderr.  Unknown positions are None, unknown texts empty."""

    source: str | None = None
    record: int | None = None
    line: int | None = None
    column: int | None = None
    message: str
    text: str = ""
    expected: str = ""


class Problem(BaseModel):
    """An error as RFC 9457 problem details: the one JSON error shape of the API (``status`` is the HTTP
    status) and of ``tute ... --json`` on stderr (``status`` is the exit code, ``instance`` the command).

    ``request_id`` is the service's id of the request (its ``X-Request-ID``), the one its log lines carry, so a
    client reporting a problem names the lines that tell what happened; None from the command line."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[ErrorItem] = Field(default_factory=list, description="Located errors, when there are several.")
    request_id: str | None = Field(None, description="The request's id, as its X-Request-ID header and the "
                                                     "service's log lines give it (none from the command line).")
