"""What keeps one client from taking the service down: slow clients cut, security headers, time-bounded posts.

* :class:`SlowClientCut`: uvicorn's HTTP protocol, closing a connection whose
  request headers (or body) do not come in within a time limit.  uvicorn only
  times out idle keep-alive connections, so a client sending a header a byte
  at a time (slowloris) would hold its connection for good.
* :class:`SecurityHeaders`: the same security headers on every answer.
* :class:`Deadline`: the time bound of a posted request (validate, convert,
  import): the client gets its 504 at the bound, and the work stops at its
  next record, or, for an import, never once it has come to its commit.

docs/security.md says what each limit guards against and how to set it.
"""

from __future__ import annotations

import asyncio
import functools
import io
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tutepgn.errors import LimitError
from tutepgn.i18n import gettext as _

from .requestid import log_config
from .settings import Settings

T = TypeVar("T")

APP_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The pages and the API: every script and style sheet from /static, nothing inline."""
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'")
"""/docs and /redoc: Swagger UI and ReDoc, served from this service (``/static-offline-docs``, the files the
package fastapi-offline ships), start with an inline script and style their pages inline; nothing comes from
another host."""
DOCS_PATHS = ("/docs", "/redoc")


def security_headers(path: str) -> dict[str, str]:
    """The security headers of an answer to ``path``."""
    return {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": DOCS_CSP if path.startswith(DOCS_PATHS) else APP_CSP}


class SecurityHeaders:
    """Add the security headers to every answer (pages, API, errors, static files), in one place.

    A crash's 500 is sent outside every middleware, so its handler adds them itself.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(k.lower().encode(), v.encode()) for k, v in security_headers(scope["path"]).items()]
        await self.app(scope, receive, adding_headers(send, headers))


def adding_headers(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    """``send``, with ``headers`` added to the answer's start (a middleware's way to put headers on every answer)."""

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *headers]}
        await send(message)

    return send_with_headers


class SlowClientCut(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools), closing a connection whose request does not come in time.

    The headers of a request must be in within ``header_timeout`` seconds of
    its first byte (of the connection, for its first request), and its body
    within ``body_timeout`` seconds of its headers.  Between requests, uvicorn's
    keep-alive timeout applies as before.
    """

    def __init__(self, *args: Any, header_timeout: float, body_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout, self.body_timeout = header_timeout, body_timeout
        self.read_timer: asyncio.TimerHandle | None = None

    def arm(self, seconds: float) -> None:
        self.disarm()
        self.read_timer = self.loop.call_later(seconds, self.cut)

    def disarm(self) -> None:
        if self.read_timer is not None:
            self.read_timer.cancel()
            self.read_timer = None

    def cut(self) -> None:
        """Close the connection; a 408 first when no answer is on its way."""
        self.read_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm(self.header_timeout)  # a connection that never sends a byte is cut too

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.read_timer is None:  # the first request keeps the deadline its connection started
            self.arm(self.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self.arm(self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.disarm()


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The options of ``uvicorn.run`` that apply the settings' HTTP timeouts (``tute serve`` passes them).

    A shutdown waits for the requests under way at most ``request_timeout``, the bound of a posted
    request, then cuts what is left: streamed answers, a live event stream above all, which would
    otherwise hold it open until their client goes.  Every log line carries its request's id
    (:func:`.requestid.log_config`).
    """
    return {"http": functools.partial(SlowClientCut, header_timeout=settings.header_timeout,
                                      body_timeout=settings.body_timeout),
            "timeout_keep_alive": settings.keep_alive_timeout,
            "timeout_graceful_shutdown": max(1, round(settings.request_timeout)),
            "log_config": log_config()}


class Deadline:
    """The time bound of one posted request, shared by the route (on the event loop) and its work (on a thread).

    The route waits for the work up to the bound, then calls :meth:`expire`.
    The work calls :meth:`check` between records and raises :class:`LimitError`
    once expired.  An import calls :meth:`commit` before it commits: from then
    on :meth:`expire` refuses, so an import is either stopped before its commit
    (nothing stored) or answered in full, never reported failed once stored.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._state = "running"  # then "expired" or "committing", for good

    def check(self) -> None:
        with self._lock:
            if self._state == "expired":
                raise LimitError(_("the request ran over {seconds:g} s and was stopped", seconds=self.seconds))

    def commit(self) -> None:
        """The work is about to commit: past this point the bound no longer stops it."""
        with self._lock:
            if self._state == "expired":
                raise LimitError(_("the request ran over {seconds:g} s and was stopped", seconds=self.seconds))
            self._state = "committing"

    def expire(self) -> bool:
        """Stop the work at its next check; False if it is committing (then wait for it)."""
        with self._lock:
            if self._state == "committing":
                return False
            self._state = "expired"
            return True

    def records(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, checking the bound before each."""
        for item in items:
            self.check()
            yield item

    def watch_import(self, raw: Iterable[T]) -> tuple[Iterator[T], Callable[[int, int], None]]:
        """The records of an import, and its ``progress`` callback, checking the bound.

        An import of a service is one transaction: it reads records, builds and
        inserts their rows piece by piece (``progress`` after each), and commits
        once every record read is in.  So the commit comes next when the records
        have run out and every one read has been inserted: :meth:`commit` then.
        """
        read = inserted = 0
        ended = False

        def records() -> Iterator[T]:
            nonlocal read, ended
            for item in raw:
                self.check()
                read += 1
                yield item
            ended = True
            if inserted == read:  # every record read is in: the commit comes next
                self.commit()
            else:
                self.check()

        def progress(records_done: int, _added: int) -> None:
            nonlocal inserted
            inserted = records_done
            if ended and inserted == read:
                self.commit()
            else:
                self.check()

        return records(), progress

    def stream(self, text: str) -> io.StringIO:
        """``text`` as a stream that checks the bound at each line read."""
        return _CheckedStream(text, self)


class _CheckedStream(io.StringIO):
    """A text stream whose reads check a :class:`Deadline`: the readers of records read line by line."""

    def __init__(self, text: str, deadline: Deadline) -> None:
        super().__init__(text)
        self.deadline = deadline

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.deadline.check()
        return super().readline(-1 if size is None else size)

    def read(self, size: int | None = -1) -> str:
        self.deadline.check()
        return super().read(size)

    def __next__(self) -> str:  # type: ignore[override]  # a text stream's lines are str (typeshed: bytes)
        self.deadline.check()
        return super().__next__()
