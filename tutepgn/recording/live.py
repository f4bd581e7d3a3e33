"""Deals recorded live on a server: each entry journaled before it is acknowledged, and followed as it happens.

A :class:`Recording` wraps a :class:`~tutepgn.recording.recorder.Recorder` with a
journal, one JSON-lines file per recording: its first line holds the keyword
arguments the recording started with, each later line one accepted entry
(``{"entry": "1O"}``, ``{"entry": "undo"}``) or, once the finished deal is in
the archive, ``{"imported": id}``.  A line is written and fsync'd before the
entry is acknowledged, so a crash of the server loses at most the entry being
made; :class:`Recordings` restores the recordings on startup by replaying
the entered texts into a fresh recorder (a line cut short by the crash is
dropped).  Spectators follow a recording through :func:`updates`, which yields
its state each time it changes.

>>> import tempfile
>>> book = Recordings(tempfile.mkdtemp())
>>> rec = book.create("torofun-4p", seed=3)
>>> rec.enter("2O").refused, rec.state()["entries"]
(False, 1)
>>> Recordings(book.folder).get(rec.id).state()["plays"]
[{'seat': 'W', 'card': '2O', 'text': 'W 2O'}]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from datetime import date
from pathlib import Path
from typing import Any

from ..cards import CODES, CardSet, pack
from ..check.validate import validate
from ..events import Context, Play
from ..i18n import gettext as _
from ..notation import Record
from ..rules import ruleset
from .recorder import Recorder, Reply

log = logging.getLogger("tutepgn.recording.live")

JOURNAL_SUFFIX = ".jsonl"
"""A recording's journal: ``<id>.jsonl`` in the recordings folder."""
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,32}")
"""What a recording's id looks like (ids are made here, never taken from a request as a path)."""
MAX_ENTRIES = 2000
"""Accepted entries (undos included) a recording may hold: a deal needs about 50, so this bounds only abuse."""
MAX_ENTRY_CHARS = 200
"""The longest entry read: a line of a trick or a declaration is far shorter."""
HIDDEN_TAGS = ("Deal", "Stock")
"""Tags a recording's state leaves out until the deal is over: the hands and the stock."""
START_KEYS = ("rules", "seed", "deal", "stock", "turned", "dealer", "tags")
"""The keyword arguments of :meth:`Recorder.start` a recording is started with and journaled."""


class Recording:
    """One deal being recorded: its recorder, its journal, what has been played, and who is watching."""

    def __init__(self, rid: str, journal: Path, start: dict[str, Any]) -> None:
        self.id = rid
        self.journal = journal
        self.start = start
        self.lock = threading.Lock()
        self.importing = threading.Lock()
        """Held while the finished deal is imported, so that two requests never import it both."""
        self.watchers: list[Callable[[], None]] = []
        self.recorder = Recorder.start(**start)  # raises on bad arguments, before anything is written
        self.entries = 0
        """Accepted entries (undos included) in the journal: the state's version."""
        self.deal_id: int | None = None
        """The finished deal's id in the archive, once imported; then the recording is closed."""
        self.valid: bool | None = None
        """Whether the finished deal validated (None until it is over)."""
        self.last = ""
        """The last accepted entry in words."""
        self.snapshot = self.compute_state()

    def replay(self, lines: list[dict[str, Any]]) -> Recording:
        """Apply a journal's lines after its first to the recording as started: the state the journal saved."""
        self.recorder = Recorder.start(**self.start)
        self.entries, self.deal_id, self.valid, self.last = 0, None, None, ""
        for line in lines:
            if "imported" in line:
                self.deal_id, self.valid = int(line["imported"]), line.get("valid")
            elif self.apply(str(line["entry"])).refused:
                raise ValueError(_("entry {n} ({entry!r}) is refused on replay", n=self.entries + 1,
                                   entry=line["entry"]))
        self.snapshot = self.compute_state()
        return self

    # -- Entries ------------------------------------------------------------------------------------------
    def apply(self, text: str) -> Reply:
        """Enter ``text`` into the recorder, without the journal: what the replay of a journal and :meth:`enter`
        share.  An entry is taken whole or not at all: a line of several cards refused part-way is taken back,
        since the journal holds only whole accepted entries."""
        before = len(self.recorder.deal.log)
        reply = self.recorder.enter(text)
        if not changes(text):
            return reply
        if reply.refused:
            applied = len(self.recorder.deal.log) - before
            if applied > 0:
                self.recorder.undo(applied)
                reply = Reply(_("{refusal}; nothing of this entry was recorded", refusal=reply.message), refused=True,
                              legal=reply.legal, rule=reply.rule)
            return reply
        self.entries += 1
        self.last = reply.message
        self.valid = None
        return reply

    def enter(self, text: str) -> Reply:
        """Take one entry (``undo`` too): applied, journaled and fsync'd before this returns; a refused entry
        changes nothing.  Raises OSError when the journal cannot be written (the entry is then taken back)."""
        text = text.strip()[:MAX_ENTRY_CHARS]
        with self.lock:
            if self.deal_id is not None:
                return Reply(_("the deal is over and stored in the archive as deal {deal}", deal=self.deal_id),
                             refused=True)
            if self.entries >= MAX_ENTRIES:
                return Reply(_("this recording holds {most} entries, the most one may hold", most=MAX_ENTRIES),
                             refused=True)
            reply = self.apply(text)
            if reply.refused or not changes(text):
                return reply
            try:
                append_line(self.journal, {"entry": text})
            except OSError:
                self.replay(read_lines(self.journal)[1:])  # not saved: taken back, as a restart would
                raise
            self.snapshot = self.compute_state()
        self.notify()
        return reply

    # -- The finished deal --------------------------------------------------------------------------------
    def finished(self) -> Record | None:
        """The record to import when the deal is over and not imported yet (None otherwise), validated."""
        with self.lock:
            if self.deal_id is not None or not self.recorder.frame().over:
                return None
            record = self.recorder.record()
            self.valid = validate(record).valid
            return record

    def imported(self, deal_id: int) -> None:
        """Note that the finished deal is in the archive as ``deal_id`` (journaled): the recording is closed."""
        with self.lock:
            append_line(self.journal, {"imported": deal_id, "valid": self.valid})
            self.deal_id = deal_id
            self.snapshot = self.compute_state()
        self.notify()

    # -- What spectators see ------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The recording as JSON data, as of its last change (kept, so that readers never wait on a writer)."""
        return self.snapshot

    def compute_state(self) -> dict[str, Any]:
        """The table now, the plays, tricks, declarations and score so far."""
        frame = self.recorder.frame()
        deal = self.recorder.deal
        names = deal.rules.seat_names
        ctx = Context.of(deal)
        events = [e.text(ctx) for e in deal.log]  # every event of every entry, a whole trick typed at once too
        tricks = [{"leader": names[t.leader], "cards": [CODES[c] for c in t.cards], "winner": names[t.winner],
                   "points": t.points} for t in deal.tricks]
        plays = [{"seat": names[e.seat], "card": CODES[e.card], "text": text}  # type: ignore[union-attr]
                 for e, text in zip(deal.log, events) if type(e) is Play]
        tags = self.recorder.record().tags
        if not frame.over:  # players at the table may follow too: no hand is shown before the deal ends
            tags = {k: v for k, v in tags.items() if k not in HIDDEN_TAGS}
        return {
            "id": self.id, "entries": self.entries, "rules": tags.get("Rules"), "tags": tags,
            "seats": list(frame.seats), "sides": list(frame.sides), "dealer": tags.get("Dealer"),
            "events": events, "plays": plays, "tricks": tricks,
            "table": [list(t) for t in frame.table], "winner": frame.winner, "trick_no": frame.trick_no,
            "to_move": None if self.recorder.leader_unknown else frame.to_move,
            "leader_unknown": self.recorder.leader_unknown, "trump": frame.trump, "turned": frame.turned,
            "stock": frame.stock,
            "cantes": list(frame.cantes), "exchanges": list(frame.exchanges),
            "card_points": list(frame.card_points), "cante_points": list(frame.cante_points),
            "points": list(frame.points), "over": frame.over,
            "totals": list(frame.totals) if frame.totals is not None else None, "result": frame.result,
            "pack": CardSet(pack(ruleset(self.start["rules"]).removed_ranks)).codes(),
            "declarations": self.recorder.declarations(),
            "last": self.last, "valid": self.valid, "deal_id": self.deal_id,
            "deal_url": f"/deals/{self.deal_id}" if self.deal_id is not None else None,
        }

    def watch(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` after every change (from the thread that made it) until :meth:`unwatch`."""
        with self.lock:
            self.watchers.append(wake)

    def unwatch(self, wake: Callable[[], None]) -> None:
        with self.lock:
            if wake in self.watchers:
                self.watchers.remove(wake)

    def notify(self) -> None:
        for wake in list(self.watchers):
            wake()


def changes(text: str) -> bool:
    """Whether an accepted entry changes the deal (``?`` and ``help`` only ask)."""
    return text.strip().lower() not in ("", "?", "help")


async def updates(recording: Recording, *, heartbeat: float = 15.0,
                  lifetime: float = 600.0) -> AsyncIterator[dict[str, Any] | None]:
    """The recording's state now and after each change; None after ``heartbeat`` seconds without one (a
    stream sends a comment then, so proxies keep it open).  Ends when the deal is in the archive, or after
    ``lifetime`` seconds (an EventSource connects again), so an idle stream does not hold its slot for good."""
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def wake() -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: the stream is gone
            loop.call_soon_threadsafe(changed.set)

    recording.watch(wake)
    try:
        end = loop.time() + lifetime
        sent: tuple[int, int | None] | None = None
        while True:
            changed.clear()
            state = recording.state()
            if (state["entries"], state["deal_id"]) != sent:
                sent = (state["entries"], state["deal_id"])
                yield state
                if state["deal_id"] is not None:
                    return
            left = end - loop.time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(changed.wait(), min(heartbeat, left))
            except TimeoutError:
                yield None
    finally:
        recording.unwatch(wake)


class Recordings:
    """Every recording of a service, each journaled in ``folder``.  It restores the recordings under way
    when made (replayed then); a closed one (its deal in the archive) is replayed when first asked for, so
    that a year of a club's deals does not slow the start."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)  # made with the first recording: a service that records nothing writes nothing
        self.lock = threading.Lock()
        self.live: dict[str, Recording] = {}
        self.closed: dict[str, Path] = {}
        """Journals of recordings whose deal is in the archive, by id: not replayed yet."""
        for journal in sorted(self.folder.glob(f"*{JOURNAL_SUFFIX}")) if self.folder.is_dir() else ():
            if closed(journal):
                self.closed[journal.name.removesuffix(JOURNAL_SUFFIX)] = journal
            else:
                self.restore(journal)

    def restore(self, journal: Path) -> Recording | None:
        """Replay a journal into a recording kept live; None (logged) if it cannot be replayed."""
        try:
            recording = read_journal(journal)
        except (OSError, ValueError) as exc:  # a journal that cannot be replayed stays on disk, unused
            log.error("the recording %s cannot be restored: %s", journal.name, exc)
            return None
        with self.lock:
            return self.live.setdefault(recording.id, recording)

    def create(self, rules: str, *, seed: int | None = None, deal: str | None = None, stock: str | None = None,
               turned: str | None = None, dealer: str = "N", tags: dict[str, str] | None = None) -> Recording:
        """Start a recording (as :meth:`Recorder.start` takes it) and write its journal's first line.

        Raises ValueError (a :class:`~tutepgn.errors.TuteError` for a bad ruleset) with what is wrong, or
        OSError when the journal cannot be written.
        """
        tags = dict(tags or {})
        tags.setdefault("Date", f"{date.today():%Y.%m.%d}")  # journaled: a restart on another day keeps it
        start = {"rules": rules, "seed": seed, "deal": deal, "stock": stock, "turned": turned, "dealer": dealer,
                 "tags": tags}
        rid = secrets.token_urlsafe(9)
        journal = self.folder / f"{rid}{JOURNAL_SUFFIX}"
        recording = Recording(rid, journal, start)  # checks the arguments before anything is written
        if not self.folder.is_dir():
            self.folder.mkdir(parents=True, exist_ok=True)
            sync_folder(self.folder.parent)
        append_line(journal, {"id": rid, "start": start}, create=True)
        with self.lock:
            self.live[rid] = recording
        return recording

    def get(self, rid: str) -> Recording | None:
        """The recording of that id, or None."""
        if not ID_PATTERN.fullmatch(rid):
            return None
        recording = self.live.get(rid)
        if recording is None and rid in self.closed:
            recording = self.restore(self.closed[rid])
        return recording

    def unfinished_imports(self) -> list[Recording]:
        """Recordings whose deal is over but not yet in the archive (a crash came between): import them."""
        return [r for r in list(self.live.values()) if r.deal_id is None and r.recorder.frame().over]


def append_line(path: Path, data: dict[str, Any], *, create: bool = False) -> None:
    """Append one JSON line and fsync it (and, for a new file, its folder), so it survives a crash once this
    returns."""
    line = (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | (os.O_CREAT | os.O_EXCL if create else 0), 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)
    if create:
        sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """fsync a folder, so that a file made in it survives a crash."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def closed(journal: Path) -> bool:
    """Whether a journal ends with its deal imported, read from its last line only."""
    with open(journal, "rb") as handle:
        handle.seek(max(0, handle.seek(0, os.SEEK_END) - 200))
        tail = handle.read().rstrip(b"\n")
    return tail[tail.rfind(b"\n") + 1:].startswith(b'{"imported":')


def read_lines(path: Path) -> list[dict[str, Any]]:
    """A journal's lines.  A last line cut short by a crash (no newline) was never acknowledged: it is cut off
    the file, so that the next entry starts a line of its own."""
    data = path.read_bytes()
    whole = data[:data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        with open(path, "r+b") as handle:
            handle.truncate(len(whole))
            os.fsync(handle.fileno())
    lines = [json.loads(line) for line in whole.decode("utf-8").splitlines() if line.strip()]
    if not lines or "start" not in lines[0]:
        raise ValueError(_("the journal has no first line saying how the recording started"))
    return lines


def read_journal(path: Path) -> Recording:
    """The recording a journal holds, its entries replayed."""
    lines = read_lines(path)
    start = {k: v for k, v in lines[0]["start"].items() if k in START_KEYS}
    return Recording(str(lines[0]["id"]), path, start).replay(lines[1:])
