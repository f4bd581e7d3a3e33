"""HTTP caching: strong ETags on what the service answers again and again, and 304 when a client already has it.

Three kinds of answer, by path (:data:`POLICIES`):

* **immutable**: a deal by id (its JSON, its Tute PGN, its score sheet) and
  its analysis by parameters.  A deal's id is the hash of its text, so what
  the id names never changes; the ETag is made from the request alone (path,
  the form Accept chose, the language, the versions of tutepgn and of the
  analysis), and the answer says ``Cache-Control: public, max-age=...,
  immutable``.  A revalidation is answered 304 before any work.
* **page**: the share link's page (``/view?d=``): it never changes either, but
  a page is the reader's language and the templates of this tutepgn, so it is
  revalidated (``no-cache``) by the same kind of ETag.
* **archive**: what depends on the whole archive (searches, statistics, the
  players, a deal's page, which shows the match its deal belongs to): the ETag
  adds the archive's generation (:func:`tutepgn.archive.schema.generation`),
  which every committed write changes, and the answer says ``no-cache``: a
  client revalidates each time and gets 304 until the archive changes.  The
  generation is stored in the file, so every worker process of ``tute serve
  --workers N`` gives the same ETag.  A Parquet dataset keeps none: these
  answers then carry no ETag.

Only 200 answers are labelled.  A gzipped answer's ETag ends ``-gzip`` inside
the quotes (a strong ETag names one sequence of bytes); a revalidation matches
either form.

An ETag names the bytes of an answer, so each process also keeps the answers
it labelled (:class:`Kept`, whole ones only: never a streamed download), by
their ETag and what else the bytes depend on (gzip or not, the CORS
``Origin``), and sends a kept answer again without running the route: a deal
fetched again, or a search asked again before the archive changes.  The worker
processes of ``tute serve --workers N`` also share what they kept through a
file (:class:`Shared`, a SQLite table in the service's temporary folder): an
answer one worker made, another sends without making it again, so a cold
service warms once, not once per worker.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tutepgn.analysis.version import ANALYSIS_VERSION
from tutepgn.archive.columns import SCHEMA_VERSION

from .contract import package_version
from .language import requested

Kind = Literal["record", "derived", "page", "archive"]
RECORD_SECONDS = 365 * 24 * 3600
"""How long a stored record (a deal's Tute PGN) is fresh: its id is the hash of its text, so for good (a year,
HTTP's longest)."""
DERIVED_SECONDS = 24 * 3600
"""How long what this tutepgn derives from a record (a deal's JSON, its sheet, its analysis) is fresh: a day, so
that after an upgrade a client revalidates within a day (the ETag names the version)."""
CACHE_CONTROL: dict[Kind, bytes] = {
    "record": f"public, max-age={RECORD_SECONDS}, immutable".encode(),
    "derived": f"public, max-age={DERIVED_SECONDS}, immutable".encode(),
    "page": b"no-cache",
    "archive": b"no-cache",
}
"""``Cache-Control`` by kind: ``no-cache`` keeps a copy but asks before each use."""
GZIP_SUFFIX = "-gzip"
VARY = b"Accept-Encoding, Accept-Language, Cookie"
"""What a 304 says its answer varies by: the encoding (gzip), and the language (:mod:`.language`, which this
middleware answers outside of)."""
VARY_DEAL = b"Accept, " + VARY
"""A deal by id's: its form, by Accept, too."""


DEAL = re.compile(r"/api/v1/deals/[0-9]+")
"""A deal by id, whose kind Accept decides: its JSON is derived, its text (Tute PGN) the record."""
POLICIES: tuple[tuple[re.Pattern[str], Kind], ...] = (
    (re.compile(r"/api/v1/deals/[0-9]+\.tpgn"), "record"),
    (DEAL, "derived"),
    (re.compile(r"/api/v1/deals/[0-9]+/(sheet|analysis)"), "derived"),
    (re.compile(r"/view"), "page"),
    (re.compile(r"/api/v1/deals(\.(ndjson|csv|tpgn))?|/api/v1/(stats|players|ratings)|/api/v1/stats\.(csv|xlsx|pdf)"),
     "archive"),
    (re.compile(r"(/api/v1)?/(matches|players)/[^/]+|/api/v1/players/[^/]+/rating"
                r"|/api/v1/(matches|players)/[^/]+/sheet\.(csv|xlsx|pdf)"), "archive"),
    (re.compile(r"/|/stats|/ratings|/deals/[0-9]+"), "archive"),
)
"""Which answers are cached how, by path (matched whole, first match wins).  Not here: anything written or
live (recordings, jobs, events, imports), the health, the rules and the static files."""


def deal_form(scope: Scope) -> str | None:
    """The form ``GET /api/v1/deals/{id}`` answers this request in, by its Accept (None: 406)."""
    from .routes.deals import DEAL_FORMS, preferred

    return preferred(header(scope, b"accept"), DEAL_FORMS)


def header(scope: Scope, name: bytes) -> str | None:
    """A request header's value (the first, as text), None without one."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def kind_of(path: str) -> Kind | None:
    """The kind of the first pattern of :data:`POLICIES` that matches ``path`` whole."""
    return next((kind for pattern, kind in POLICIES if pattern.fullmatch(path)), None)


def etag(*parts: str) -> str:
    """A strong ETag from the parts that fix an answer's bytes: 128 bits of their BLAKE2 hash, quoted."""
    digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()
    return f'"{digest}"'


def gzipped(tag: str) -> str:
    """The ETag of the gzipped bytes of the answer tagged ``tag``."""
    return tag[:-1] + GZIP_SUFFIX + '"'


def matched(if_none_match: str | None, tag: str) -> str | None:
    """The ETag an If-None-Match names of ``tag``'s answer, gzipped or not (compared weakly, as RFC 9110 13.1.2
    asks of If-None-Match); None when it names neither (``*`` included: there is no shortcut for it)."""
    for candidate in (if_none_match or "").split(","):
        candidate = candidate.strip().removeprefix("W/")
        if candidate in (tag, gzipped(tag)):
            return candidate
    return None


Answer = tuple[tuple[tuple[bytes, bytes], ...], bytes]
"""A kept 200 answer: its headers (a tuple: the middlewares outside add theirs to each message's own list, the
request id among them) and its body."""


class Kept:
    """Whole 200 answers by key, least recently used out first, at most ``max_bytes`` of bodies and headers.
    Used on the event loop only (a middleware's calls), so it needs no lock."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.answers: OrderedDict[tuple[str, ...], tuple[Answer, int]] = OrderedDict()

    def get(self, key: tuple[str, ...]) -> Answer | None:
        found = self.answers.get(key)
        if found is None:
            return None
        self.answers.move_to_end(key)
        return found[0]

    def put(self, key: tuple[str, ...], answer: Answer) -> None:
        size = len(answer[1]) + sum(len(k) + len(v) for k, v in answer[0]) + 200
        if size > self.max_bytes // 16:  # a few large answers would push out many small ones
            return
        old = self.answers.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        self.answers[key] = (answer, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            self.bytes -= self.answers.popitem(last=False)[1][1]


class Shared:
    """Whole 200 answers by key in a SQLite file the worker processes of one service share, oldest out first past
    ``max_bytes``.

    A cache, never a store: written without waiting for the disk (``synchronous=OFF``; the file is the
    service's, deleted when it stops), and any error of the file (locked too long, full, broken) is a miss
    for that request, logged once, never a failed answer.  Used on the event loop only.
    """

    TRIM_EVERY = 256
    """Puts between two checks of the file's size (a sum over the table: cheap, but not for every put)."""

    def __init__(self, path: Path, max_bytes: int) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.puts = 0
        self.failed = False
        self.con = sqlite3.connect(path, timeout=0.05, isolation_level=None, check_same_thread=False)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=OFF")
        self.con.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, headers BLOB NOT NULL, "
                         "body BLOB NOT NULL, size INTEGER NOT NULL)")

    @staticmethod
    def key_text(key: tuple[str, ...]) -> str:
        """The key as one text (its parts cannot hold the separator: an ETag, an encoding, an Origin)."""
        return "\n".join(key)

    def get(self, key: tuple[str, ...]) -> Answer | None:
        try:
            row = self.con.execute("SELECT headers, body FROM answers WHERE key = ?", (self.key_text(key),)).fetchone()
        except sqlite3.Error as exc:
            self.fault(exc)
            return None
        if row is None:
            return None
        headers = tuple((name, value) for name, _, value in
                        (line.partition(b": ") for line in bytes(row[0]).split(b"\r\n")) if name)
        return headers, bytes(row[1])

    def put(self, key: tuple[str, ...], answer: Answer) -> None:
        headers = b"\r\n".join(name + b": " + value for name, value in answer[0])
        size = len(headers) + len(answer[1])
        if size > self.max_bytes // 16:
            return
        try:
            self.con.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                             (self.key_text(key), headers, answer[1], size))
            self.puts += 1
            if self.puts % self.TRIM_EVERY == 0:
                self.trim()
        except sqlite3.Error as exc:
            self.fault(exc)

    def trim(self) -> None:
        """The oldest answers out until the rest take at most three quarters of ``max_bytes``."""
        total = self.con.execute("SELECT coalesce(sum(size), 0) FROM answers").fetchone()[0]
        if total <= self.max_bytes:
            return
        self.con.execute("DELETE FROM answers WHERE rowid IN (SELECT rowid FROM (SELECT rowid, sum(size) OVER "
                         "(ORDER BY rowid DESC) AS newer FROM answers) WHERE newer > ?)", (self.max_bytes * 3 // 4,))

    def fault(self, exc: sqlite3.Error) -> None:
        """Say once that the shared file failed; each failure is a miss."""
        if not self.failed:
            self.failed = True
            shared_failed(self.path, exc)


def shared_failed(path: Path, exc: sqlite3.Error) -> None:
    """Log that the shared answers' file failed: the service answers without it."""
    logging.getLogger("tutepgn.api").warning("the answers shared by the workers (%s): %s; answered without", path, exc)


def open_shared(path: Path | None, max_bytes: int) -> Shared | None:
    """The answers shared through ``path`` (None: none, or ``max_bytes`` 0); a file that cannot be opened is logged
    and done without."""
    if path is None or max_bytes == 0:
        return None
    try:
        return Shared(path, max_bytes)
    except sqlite3.Error as exc:
        shared_failed(path, exc)
        return None


class Caching:
    """Label the answers :data:`POLICIES` names with an ETag and a ``Cache-Control``, and answer a revalidation
    whose ETag is current with 304 and no body, before the route runs.

    ``generation`` gives the archive's generation now (None: archive answers
    get no ETag).  Outside the gzip middleware, so that it sees the encoding an
    answer went out in.
    """

    def __init__(self, app: ASGIApp, generation: Callable[[], str | None], keep_bytes: int = 0,
                 shared: Shared | None = None) -> None:
        self.app = app
        self.generation = generation
        self.version = package_version()
        self.kept = Kept(keep_bytes) if keep_bytes else None
        self.shared = shared

    def lookup(self, key: tuple[str, ...]) -> Answer | None:
        """A kept answer: this process's, else the one another worker shared (kept here too from then on)."""
        kept = self.kept.get(key) if self.kept is not None else None
        if kept is None and self.shared is not None:
            kept = self.shared.get(key)
            if kept is not None and self.kept is not None:
                self.kept.put(key, kept)
        return kept

    def keep(self, key: tuple[str, ...], answer: Answer) -> None:
        """Keep a whole answer here and for the other workers."""
        if self.kept is not None:
            self.kept.put(key, answer)
        if self.shared is not None:
            self.shared.put(key, answer)

    def tag_of(self, scope: Scope) -> tuple[str, Kind] | None:
        """The ETag this request's 200 answer gets, and its kind; None when it gets none."""
        path = scope["path"]
        kind, form = kind_of(path), ""
        if kind is None:
            return None
        if DEAL.fullmatch(path):
            chosen = deal_form(scope)
            if chosen is None:
                return None
            form = chosen
            kind = "derived" if chosen == "application/json" else "record"
        generation = ""
        if kind == "archive":
            current = self.generation()
            if current is None:
                return None
            generation = current
        query = scope.get("query_string", b"").decode("latin-1")  # as sent: parameters in another order miss
        lang = requested(scope)[0]
        return etag(kind, self.version, str(SCHEMA_VERSION), str(ANALYSIS_VERSION), generation, path, query, form,
                    lang), kind

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        tagged = self.tag_of(scope)
        if tagged is None:
            await self.app(scope, receive, send)
            return
        tag, kind = tagged
        control = CACHE_CONTROL[kind]
        current = matched(header(scope, b"if-none-match"), tag)
        if current is not None:
            vary = VARY_DEAL if DEAL.fullmatch(scope["path"]) else VARY
            await not_modified(send, [(b"etag", current.encode()), (b"cache-control", control), (b"vary", vary)])
            return

        key = (tag, "gzip" if "gzip" in (header(scope, b"accept-encoding") or "") else "",
               header(scope, b"origin") or "")  # what else the bytes depend on: gzip, CORS
        kept = self.lookup(key)
        if kept is not None:
            await send({"type": "http.response.start", "status": 200, "headers": list(kept[0])})
            await send({"type": "http.response.body", "body": kept[1], "more_body": False})
            return
        start: tuple[tuple[bytes, bytes], ...] | None = None

        async def labelled(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = list(message.get("headers", []))
                encoded = any(k.lower() == b"content-encoding" and v == b"gzip" for k, v in headers)
                label = gzipped(tag) if encoded else tag
                start = (*headers, (b"etag", label.encode()), (b"cache-control", control))
                message = {**message, "headers": list(start)}
            elif message["type"] == "http.response.body" and start is not None:
                if not message.get("more_body", False):  # whole in one piece
                    self.keep(key, (start, bytes(message.get("body", b""))))
                start = None  # a streamed answer's later pieces are never kept
            await send(message)

        await self.app(scope, receive, labelled)


async def not_modified(send: Send, headers: list[tuple[bytes, bytes]]) -> None:
    """304 with no body: the client's copy is current (RFC 9110 15.4.5: with the ETag, Cache-Control and Vary
    its 200 would carry)."""
    await send({"type": "http.response.start", "status": 304, "headers": headers})
    await send({"type": "http.response.body", "body": b"", "more_body": False})
