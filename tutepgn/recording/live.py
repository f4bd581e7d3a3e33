"""Deals recorded live on a server: each entry journaled before it is acknowledged, and followed as it happens.

A :class:`Recording` wraps a :class:`~tutepgn.recording.recorder.Recorder` with a
journal, one JSON-lines file per recording: its first line holds the keyword
arguments the recording started with, each later line one accepted entry
(``{"entry": "1O"}``, ``{"entry": "undo"}``) or, once the finished deal is in
the archive, ``{"imported": id}``.  A line is written and fsync'd before the
entry is acknowledged, so a crash of the server loses at most the entry being
made; :class:`Recordings` restores the recordings on startup by replaying
the entered texts into a fresh recorder (a line cut short by the crash is
dropped).  :mod:`tutepgn.recording.journal` writes and reads the lines: a line is on disk
whole or not at all, and a damaged journal is set aside, its recording restored
from the lines before the damage.  Spectators follow a recording through
:func:`updates`, which yields its state each time it changes: the public state,
which names no card a spectator could not have seen at the table (the legal
declarations, which would tell what a hand holds, go only to the scorer:
:meth:`Recording.state`).  The key that starts a recording is journaled as a
hash (``"owner"``), so that only that key may take its entries back.

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
import hashlib
import hmac
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
from ..errors import RecordingsFull
from ..events import Context, Play
from ..words import seat_words
from ..i18n import gettext as _
from ..i18n import ngettext
from ..notation import Record, format_side_values
from .journal import append_line, closed, cut, read_lines, set_aside, set_aside_count, sync_folder
from .commands import asks, is_undo
from .recorder import Recorder, Reply
from .session import NextDeal, following

log = logging.getLogger("tutepgn.recording.live")

JOURNAL_SUFFIX = ".jsonl"
"""A recording's journal: ``<id>.jsonl`` in the recordings folder."""
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,32}")
"""What a recording's id looks like (ids are made here, never taken from a request as a path)."""
MAX_ENTRIES = 2000
"""Accepted entries that change the deal (undos included; not ``?``, ``help`` or a comment alone) a recording
may hold: a deal needs about 50, so this bounds only abuse."""
MAX_ENTRY_CHARS = 200
"""The longest entry read: a line of a trick or a declaration is far shorter."""
HIDDEN_TAGS = ("Deal", "Stock")
"""Tags a recording's state leaves out until the deal is over: the hands and the stock."""
START_TYPES: dict[str, Callable[[Any], bool]] = {
    "rules": lambda v: isinstance(v, str), "seed": lambda v: v is None or type(v) is int,
    "deal": lambda v: v is None or isinstance(v, str), "stock": lambda v: v is None or isinstance(v, str),
    "turned": lambda v: v is None or isinstance(v, str), "dealer": lambda v: isinstance(v, str),
    "tags": lambda v: isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())}
"""The keyword arguments of :meth:`Recorder.start` a recording is started with and journaled, and the types a
journal's first line may give them (those :meth:`Recorder.start` takes)."""
WRITER_ONLY = ("declarations",)
"""State fields only the scorer is given: with the hands known the legal declarations tell what a hand holds
(``E 20E`` while E's cards are hidden)."""


class Recording:
    """One deal being recorded: its recorder, its journal, what has been played, and who is watching."""

    def __init__(self, rid: str, journal: Path, start: dict[str, Any], owner: str | None = None,
                 after: str | None = None) -> None:
        self.id = rid
        self.journal = journal
        self.start = start
        self.owner = owner
        """The SHA-256 (hex) of the key that started the recording, the one that may undo (None: not known)."""
        self.after = after
        """The recording of the match's deal before this one, when it was started as its next deal."""
        self.next_id: str | None = None
        """The recording of the match's next deal, once started (:meth:`Recordings.follow`)."""
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

    def replay(self, lines: list[dict[str, Any]]) -> tuple[int, str | None]:
        """Apply a journal's lines after its first to the recording as started: the state the journal saved.
        Stops at a line the recording cannot take (an entry refused, a line after the import), a journal damaged
        or not written here: returns how many lines it took and why it stopped (None: it took them all)."""
        self.recorder = Recorder.start(**self.start)
        self.entries, self.deal_id, self.valid, self.last = 0, None, None, ""
        taken, fault = 0, None
        for taken, line in enumerate(lines):
            if self.deal_id is not None:
                fault = _("a line after the deal was imported")
            elif "imported" in line:
                self.deal_id, self.valid = int(line["imported"]), line.get("valid")
            elif self.apply(str(line["entry"])).refused:
                fault = _("entry {n} ({entry!r}) is refused on replay", n=self.entries + 1, entry=line["entry"])
            if fault is not None:
                break
        else:
            taken = len(lines)
        self.snapshot = self.compute_state()
        return taken, fault

    # -- Entries ------------------------------------------------------------------------------------------
    def apply(self, text: str) -> Reply:
        """Enter ``text`` into the recorder, without the journal: what the replay of a journal and :meth:`enter`
        share.  An entry is taken whole or not at all: a line of several cards refused part-way is taken back,
        since the journal holds only whole accepted entries."""
        before = list(self.recorder.deal.log)
        reply = self.recorder.enter(text)
        if not changes(text):
            return reply
        if reply.refused:
            applied = len(self.recorder.deal.log) - len(before)
            if applied > 0:
                self.recorder.undo(applied)
                reply = Reply(_("{refusal}; nothing of this entry was recorded", refusal=reply.message), refused=True,
                              legal=reply.legal, rule=reply.rule)
            return reply
        log = self.recorder.deal.log
        if log == before:  # a comment alone: nothing to count or to journal
            return reply
        self.entries += 1
        ctx = Context.of(self.recorder.deal)  # in public words: the recorder's message names the declarations open
        self.last = reply.message if is_undo(text) else "; ".join(e.text(ctx) for e in log[len(before):])
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
            if self.entries >= MAX_ENTRIES and changes(text):
                return Reply(_("this recording holds {most} entries, the most one may hold", most=MAX_ENTRIES),
                             refused=True)
            entries = self.entries
            reply = self.apply(text)
            if reply.refused or not changes(text):
                return reply
            if self.entries == entries:
                return Reply(_("nothing to enter: a comment alone is not kept in a live recording; enter a card or "
                               "a declaration"), refused=True)
            try:
                append_line(self.journal, {"entry": text})
            except OSError:
                self.replay(read_lines(self.journal, check_line).lines[1:])  # not saved: taken back, as at a restart
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

    def following(self) -> NextDeal | None:
        """What follows the finished deal in its match (the standing, the next dealer and tags); None until
        the deal is over."""
        recorder = self.recorder
        if not recorder.over:
            return None
        return following(recorder.deal.rules, recorder.tags, self.start["dealer"], recorder.final_deal(),
                         match=self.id)

    def owned_by(self, key: str) -> bool:
        """Whether ``key`` is the one that started the recording (its hash is journaled, never the key)."""
        return self.owner is not None and hmac.compare_digest(self.owner, key_hash(key))

    # -- What spectators see ------------------------------------------------------------------------------
    def state(self, *, writer: bool = False) -> dict[str, Any]:
        """The recording as JSON data, as of its last change (kept, so that readers never wait on a writer):
        for spectators without :data:`WRITER_ONLY` fields, so that it names only cards seen at the table (played,
        shown in a cante or tute, given or taken in an exchange, turned); ``writer`` adds them for the scorer."""
        snapshot = self.snapshot
        return snapshot if writer else {k: v for k, v in snapshot.items() if k not in WRITER_ONLY}

    def compute_state(self) -> dict[str, Any]:
        """The table now, the plays, tricks, declarations and score so far, and the declarations open."""
        frame = self.recorder.frame()
        deal = self.recorder.deal
        names = deal.rules.seat_names
        ctx = Context.of(deal)
        events = [e.text(ctx) for e in deal.log]  # every event of every entry, a whole trick typed at once too
        tricks = [{"leader": names[t.leader], "cards": [CODES[c] for c in t.cards], "winner": names[t.winner],
                   "points": t.points} for t in deal.tricks]
        plays = [{"seat": names[e.seat], "card": CODES[e.card], "text": text}
                 for e, text in zip(deal.log, events) if type(e) is Play]
        tags = self.recorder.record().tags
        after = self.following()
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
            "pack": CardSet(pack(deal.rules.removed_ranks)).codes(),
            "declarations": self.recorder.declarations(),
            "last": self.last, "valid": self.valid,
            "deal_id": None if self.deal_id is None else str(self.deal_id),  # a string: 63 bits outlive no JS number
            "deal_url": f"/deals/{self.deal_id}" if self.deal_id is not None else None,
            "next": None if after is None else {
                "standing": format_side_values(list(after.standing), deal.rules),
                "winner": None if after.winner is None else deal.rules.side_labels[after.winner],
                "dealer": after.dealer, "deal_no": after.tags["DealNo"], "id": self.next_id},
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
    """Whether an accepted entry may change the deal (``?``, ``help``/``ayuda`` and ``end``/``fin`` do not; a
    comment alone changes nothing either, which :meth:`Recording.apply` finds)."""
    return not asks(text)


def key_hash(key: str) -> str:
    """What a recording's journal keeps of the key that started it: its SHA-256 in hex (the key itself never
    reaches the disk)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


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
        self.restoring = threading.Lock()
        """Held while a closed recording is restored on demand, so that two requests never restore it both."""
        self.creating = threading.Lock()
        """Held while a recording is started, so that two starts never both take the last place."""
        self.live: dict[str, Recording] = {}
        self.closed: dict[str, Path] = {}
        """Journals of recordings whose deal is in the archive, by id: not replayed yet."""
        self.unkept: dict[str, str] = {}
        """Damaged journals that could not be set aside (nor read), by name: why (counted as set aside)."""
        self.starting_next = threading.Lock()
        """Held while a next deal is started (:meth:`follow`), so that two taps start one."""
        self.next_of: dict[str, str] = {}
        """The recording of each deal's next deal, by the id of the deal before (from the journals restored)."""
        for journal in sorted(self.folder.glob(f"*{JOURNAL_SUFFIX}")) if self.folder.is_dir() else ():
            rid = journal.name.removesuffix(JOURNAL_SUFFIX)
            if ID_PATTERN.fullmatch(rid) and journal.is_file() and closed(journal):
                self.closed[rid] = journal
            else:
                self.restore(journal)

    def restore(self, journal: Path) -> Recording | None:
        """Replay a journal into a recording kept live.  A damaged or foreign journal never stops the service: the
        recording is restored from the lines before its first fault, and the file's bytes are set aside
        (:func:`~tutepgn.recording.journal.set_aside`) and logged; with no usable first line, nothing is restored (None)
        and the file itself is set aside."""
        try:
            recording, kept, fault = read_journal(journal)
        except OSError as exc:  # maybe for a moment (too many files open): left in place, tried at the next start
            log.error("the recording %s cannot be read: %s", journal.name, exc)
            self.unkept[journal.name] = str(exc)
            return None
        if fault is not None and not self.put_aside(journal, fault, keep=kept if recording is not None else None):
            return None  # not restored: an entry appended after the damage would be lost at the next start
        if recording is None:
            return None
        with self.lock:
            recording = self.live.setdefault(recording.id, recording)
            before = self.live.get(recording.after) if recording.after is not None else None
        if recording.after is not None:
            self.next_of[recording.after] = recording.id
        if before is not None:
            self.linked(before, recording.id)
        if recording.id in self.next_of and recording.next_id is None:
            self.linked(recording, self.next_of[recording.id])
        return recording

    def put_aside(self, journal: Path, fault: str, *, keep: int | None) -> bool:
        """Set a damaged journal aside (all of it, or what follows the ``keep`` bytes restored from), logged;
        False when it cannot be (no room, no rights): it is then left as it was, and tried again at the next
        start (or, for a closed recording, the next time it is asked for)."""
        try:
            where = set_aside(journal, fault, keep=keep)
        except OSError as exc:
            log.error("the recording %s is damaged (%s) and cannot be set aside: %s", journal.name, fault, exc)
            self.unkept[journal.name] = fault
            return False
        self.unkept.pop(journal.name, None)
        if keep is None:
            log.error("the recording %s is damaged and was set aside as %s: %s", journal.name, where, fault)
        else:
            log.error("the recording %s is damaged: restored up to %s; its whole file is kept as %s", journal.name,
                      fault, where)
        return True

    def set_aside(self) -> int:
        """Damaged or foreign journals found, kept in ``set-aside/`` (until the operator removes them) or not
        set aside for want of room or rights: while there are any, the service is degraded."""
        return set_aside_count(self.folder) + len(self.unkept)

    def create(self, rules: str, *, seed: int | None = None, deal: str | None = None, stock: str | None = None,
               turned: str | None = None, dealer: str = "N", tags: dict[str, str] | None = None,
               key: str | None = None, most: int | None = None, after: str | None = None) -> Recording:
        """Start a recording (as :meth:`Recorder.start` takes it) and write its journal's first line, with the
        hash of ``key`` (the one that may undo), never the key, and ``after``, the recording of the match's deal
        before it (:meth:`follow`).

        Raises ValueError (a :class:`~tutepgn.errors.TuteError` for a bad ruleset or tag) with what is wrong,
        :class:`~tutepgn.errors.RecordingsFull` when ``most`` recordings are under way, or OSError when the
        journal cannot be written.
        """
        tags = dict(tags or {})
        tags.setdefault("Date", f"{date.today():%Y.%m.%d}")  # journaled: a restart on another day keeps it
        start = {"rules": rules, "seed": seed, "deal": deal, "stock": stock, "turned": turned, "dealer": dealer,
                 "tags": tags}
        rid = secrets.token_urlsafe(9)
        journal = self.folder / f"{rid}{JOURNAL_SUFFIX}"
        owner = key_hash(key) if key is not None else None
        recording = Recording(rid, journal, start, owner, after)  # checks the arguments before anything is written
        with self.creating:  # one at a time, so that two cannot both take the last place
            under_way = self.under_way()
            if most is not None and under_way >= most:
                raise RecordingsFull(ngettext(
                    "{n} recording is under way, the most this service holds (TUTEPGN_MAX_RECORDINGS); finish it "
                    "before starting another", "{n} recordings are under way, the most this service holds "
                    "(TUTEPGN_MAX_RECORDINGS); finish one before starting another", under_way))
            if not self.folder.is_dir():
                self.folder.mkdir(parents=True, exist_ok=True)
                sync_folder(self.folder.parent)
            append_line(journal, {"id": rid, "start": start, "owner": owner,
                                  **({"after": after} if after is not None else {})}, create=True)
            with self.lock:
                self.live[rid] = recording
        return recording

    def follow(self, recording: Recording, *, seed: int | None = None, deal: str | None = None,
               stock: str | None = None, turned: str | None = None, key: str | None = None,
               most: int | None = None) -> Recording:
        """Start the next deal of ``recording``'s match (:func:`~tutepgn.recording.session.following`): the same
        rules, players and event, the next dealer, ``DealNo`` one more, the standing carried in ``MatchScore``;
        the cards as :meth:`create` takes them.  Once started, the same next recording is given to every later
        call, so that two taps (or two phones) start one deal.  Raises ValueError when the deal is not over or
        its match is, and what :meth:`create` raises."""
        with self.starting_next:
            known = self.get(recording.next_id) if recording.next_id is not None else None
            if known is not None:
                return known
            after = recording.following()
            if after is None:
                raise ValueError(_("the deal is not over: finish it before starting the next one"))
            if after.winner is not None:
                raise ValueError(_("the match is over: {side} won it, {standing}",
                                   side=seat_words(recording.recorder.deal.rules.side_labels[after.winner]),
                                   standing=format_side_values(list(after.standing), recording.recorder.deal.rules)))
            nxt = self.create(recording.start["rules"], seed=seed, deal=deal, stock=stock, turned=turned,
                              dealer=after.dealer, tags=after.tags, key=key, most=most, after=recording.id)
            self.linked(recording, nxt.id)
            return nxt

    def linked(self, recording: Recording, next_id: str) -> None:
        """Note that ``next_id`` is the recording of the deal after ``recording``'s (its state says so)."""
        self.next_of[recording.id] = next_id
        with recording.lock:
            recording.next_id = next_id
            recording.snapshot = recording.compute_state()
        recording.notify()

    def under_way(self) -> int:
        """Recordings whose deal is not in the archive yet."""
        with self.lock:
            return sum(1 for r in self.live.values() if r.deal_id is None)

    def get(self, rid: str) -> Recording | None:
        """The recording of that id, or None (a closed one that turns out damaged is restored as far as it is
        whole, or set aside)."""
        if not ID_PATTERN.fullmatch(rid):
            return None
        recording = self.live.get(rid)
        if recording is None and rid in self.closed:
            with self.restoring:
                recording = self.live.get(rid)
                journal = self.closed.get(rid)
                if recording is None and journal is not None:
                    recording = self.restore(journal)
                    if journal.name not in self.unkept:  # restored or set aside: not to be read again
                        del self.closed[rid]
        return recording

    def unfinished_imports(self) -> list[Recording]:
        """Recordings whose deal is over but not yet in the archive (a crash came between): import them."""
        return [r for r in list(self.live.values()) if r.deal_id is None and r.recorder.frame().over]


def read_journal(path: Path) -> tuple[Recording | None, int, str | None]:
    """The recording a journal holds, its entries replayed up to the journal's first fault (None if its first
    line is at fault), with the bytes of the file it was restored from and the fault (None: the whole file)."""
    if not path.is_file():
        return None, 0, _("not a file")
    read = read_lines(path, check_line)
    if not read.lines:
        return None, 0, read.fault or _("the journal has no first line saying how the recording started")
    first = read.lines[0]
    if first["id"] != path.name.removesuffix(JOURNAL_SUFFIX):
        return None, 0, _("line 1: the recording {id} is not the one the file is named after", id=first["id"])
    try:
        after = first.get("after")
        recording = Recording(first["id"], path, first["start"], first.get("owner"),
                              after if isinstance(after, str) and ID_PATTERN.fullmatch(after) else None)
    except Exception as exc:  # whatever Recorder.start refuses (it checks the values, not the types alone)
        return None, 0, _("line 1: the recording cannot be started as it says: {error}", error=exc)
    taken, fault = recording.replay(read.lines[1:])
    if fault is not None:
        return recording, read.ends[taken], _("line {number}: {fault}", number=taken + 2, fault=fault)
    if read.torn and read.fault is None:  # cut off now, so that the next entry starts a line of its own
        with contextlib.suppress(OSError):  # else the next entry cuts it (append_line)
            cut(path, read.kept)
    return recording, read.kept, read.fault


def check_line(number: int, data: Any) -> str | None:
    """What is wrong with a journal's decoded line (its number from 1), or None: the first line a dict with
    ``id`` (``ID_PATTERN``) and ``start`` (the keyword arguments of :meth:`Recorder.start`, of their types),
    and maybe more fields the service adds; a later line ``{"entry": text}`` or ``{"imported": id, "valid": ...}``."""
    if not isinstance(data, dict):
        return _("not a JSON object")
    if number == 1:
        if not (isinstance(data.get("id"), str) and ID_PATTERN.fullmatch(data["id"])):
            return _("no recording id")
        if data.get("owner") is not None and not isinstance(data["owner"], str):
            return _("the owner's key hash is not text")
        start = data.get("start")
        if not isinstance(start, dict) or not isinstance(start.get("rules"), str):
            return _("no rules the recording started with")
        for key, value in start.items():
            if key not in START_TYPES:
                return _("{key} is not an argument a recording starts with", key=repr(key))
            if not START_TYPES[key](value):
                return _("{key} is not of the type a recording starts with", key=repr(key))
        return None
    if data.keys() == {"entry"}:
        entry = data["entry"]
        return None if isinstance(entry, str) and 0 < len(entry) <= MAX_ENTRY_CHARS and changes(entry) else _(
            "the entry is not a line of at most {most} characters", most=MAX_ENTRY_CHARS)
    if data.keys() in ({"imported"}, {"imported", "valid"}):
        return None if type(data["imported"]) is int and type(data.get("valid")) in (type(None), bool) else _(
            "the imported deal's id is not a number")
    return _("neither an entry nor an imported deal")
