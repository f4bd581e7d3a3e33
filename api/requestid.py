"""Every request's id: the client's ``X-Request-ID`` when it is well-formed, else a fresh one; sent back on
every answer, put in every problem (``request_id``) and in every log line written while the request is answered.

The id lives in asgi-correlation-id's context variable, set by its middleware
for the whole of the request's task: the crash handler, which answers outside
every middleware, and uvicorn's access and error lines, written after the app
has answered or failed, still read it there.  A client that sends its own id
finds its request in the service's log by it; one that does not gets the id to
quote in a report.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from asgi_correlation_id import CorrelationIdMiddleware, correlation_id
from fastapi import FastAPI
from uvicorn.config import LOGGING_CONFIG

__all__ = ["HEADER", "install", "log_config", "request_id", "well_formed"]

HEADER = "X-Request-ID"
WELL_FORMED = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
"""A client's id taken as it is: up to 64 letters, digits and ``. _ : -``, a UUID or an upstream proxy's token
(nginx's ``$request_id``); anything else (spaces, quotes, control characters, a long text) could forge or spoil
log lines, and is replaced by a fresh id."""
UNKNOWN = "-"
"""The id in log lines written outside any request (startup, shutdown, the analysis processes' callbacks)."""


def well_formed(value: str) -> bool:
    """Whether a client's ``X-Request-ID`` is kept as the request's id."""
    return WELL_FORMED.fullmatch(value) is not None


def request_id() -> str | None:
    """The id of the request being answered (None outside a request)."""
    return correlation_id.get()


def install(app: FastAPI) -> None:
    """Give every request of ``app`` its id (added as a middleware: outside those added before it)."""
    app.add_middleware(CorrelationIdMiddleware, header_name=HEADER, validator=well_formed)


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the request id in every line: ``[id]`` after the level, on the
    access lines, the error lines (a crash's traceback) and the service's own (the ``tutepgn`` loggers)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"request_id": {"()": "asgi_correlation_id.CorrelationIdFilter", "default_value": UNKNOWN}}
    for handler in config["handlers"].values():
        handler["filters"] = ["request_id"]
    config["formatters"]["default"]["fmt"] = "%(levelprefix)s [%(correlation_id)s] %(message)s"
    config["formatters"]["access"]["fmt"] = ('%(levelprefix)s [%(correlation_id)s] %(client_addr)s - '
                                             '"%(request_line)s" %(status_code)s')
    for name in ("tutepgn", "asgi_correlation_id"):  # the latter says when a client's id was replaced
        config["loggers"][name] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config
