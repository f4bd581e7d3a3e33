"""A live recording's journal on disk: lines written whole or not at all, read back bounded, and a damaged file
set aside for the operator rather than stopping the service.

A journal is a JSON-lines file (:mod:`tutepgn.live` says what its lines hold).
:func:`append_line` acknowledges a line only once every byte of it is written and fsync'd; on any failure (a
full disk, an I/O error) it cuts the file back to its size before, so the journal is exactly as it was and
the entry is refused.  :func:`read_lines` reads a journal line by line, each line bounded
(``TUTEPGN_MAX_RECORD_BYTES``) and its JSON depth too (``TUTEPGN_MAX_JSON_DEPTH``) before it is decoded, and
stops at the first line that is not what the caller expects: the lines before it are kept.
:func:`set_aside` keeps a damaged journal's bytes in the folder ``set-aside/`` beside the journals, with a
``.why`` text saying what was wrong.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> append_line(folder / "a.jsonl", {"id": "a"}, create=True)
>>> _ = (folder / "a.jsonl").open("ab").write(b'{"entry": "1O"}\\n{"entrx": "2O"}\\n')
>>> read = read_lines(folder / "a.jsonl", lambda number, data: None if isinstance(data, dict) and (
...     number == 1 or "entry" in data) else "not an entry")
>>> len(read.lines), read.kept, read.fault
(2, 27, 'line 3: not an entry')
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import gettext as _
from ..limits import max_record_bytes
from ..notation.jsonform import check_depth

SET_ASIDE = "set-aside"
"""The folder, in the recordings folder, where damaged or foreign journals are kept for the operator."""
WHY_SUFFIX = ".why"
"""A set-aside file's companion text: why it was set aside, and when."""
TAIL_CHUNK = 4096
"""Bytes read at a time, backwards, to find where a line cut short begins."""

LineCheck = Callable[[int, Any], "str | None"]
"""Says what is wrong with a decoded line (its number from 1, its value), or None when it is as expected."""


@dataclass
class JournalLines:
    """What :func:`read_lines` found: the lines up to the first fault, and the fault."""

    lines: list[Any]
    """The decoded lines before the first fault (all of them when ``fault`` is None)."""
    ends: list[int]
    """Where each of those lines ends in the file (its byte offset after its newline)."""
    fault: str | None
    """What is wrong with the first line not kept, in words, its number included (None: the file is whole)."""
    torn: int = 0
    """Bytes of a last line without its newline (cut short by a crash, never acknowledged), left out."""

    @property
    def kept(self) -> int:
        """Bytes of the file the lines take, from its start: what a damaged journal is cut back to."""
        return self.ends[-1] if self.ends else 0


def append_line(path: Path, data: dict[str, Any], *, create: bool = False) -> None:
    """Append one JSON line, whole or not at all: every byte written and fsync'd (and, for a new file, its folder)
    before this returns, so that an entry is acknowledged only once its line survives a crash.  On any failure
    the file is cut back to its size before (fsync'd) and the error raised, so the journal is as it was; a new
    file whose first line fails is removed.  A line left cut short (by a crash mid-write) is cut off first, so
    that this line starts a line of its own."""
    line = (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | (os.O_CREAT | os.O_EXCL if create else 0), 0o644)
    try:
        size = whole_lines(fd)
        try:
            write_all(fd, line)
            os.fsync(fd)
            if create:
                sync_folder(path.parent)
        except OSError:
            with contextlib.suppress(OSError):  # the error raised is the write's; a failed cut is cut next time
                if create:
                    os.unlink(path)
                    sync_folder(path.parent)
                else:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
            raise
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte: a write may take only part of them (a disk nearly full), and says how many it took."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # never for a regular file; a loop that cannot end otherwise
            raise OSError(_("the journal took no more bytes"))
        view = view[written:]


def whole_lines(fd: int) -> int:
    """The size of the file open on ``fd`` once a last line without its newline (never acknowledged) is cut off."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    end = size
    while end > 0:
        start = max(0, end - TAIL_CHUNK)
        newline = os.pread(fd, end - start, start).rfind(b"\n")
        if newline >= 0:
            end = start + newline + 1
            break
        end = start
    os.ftruncate(fd, end)
    os.fsync(fd)
    return end


def sync_folder(folder: Path) -> None:
    """fsync a folder, so that a file made, renamed or removed in it stays so after a crash."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def closed(journal: Path) -> bool:
    """Whether a journal ends with its deal imported, read from its last line only (False when it cannot be read:
    it is then read whole, and set aside if need be)."""
    try:
        with open(journal, "rb") as handle:
            handle.seek(max(0, handle.seek(0, os.SEEK_END) - 200))
            tail = handle.read().rstrip(b"\n")
    except OSError:
        return False
    return tail[tail.rfind(b"\n") + 1:].startswith(b'{"imported":')


def read_lines(path: Path, check: LineCheck) -> JournalLines:
    """A journal's lines, up to the first that is not whole JSON as ``check`` expects it.  Each line is bounded
    before it is decoded: at most ``TUTEPGN_MAX_RECORD_BYTES`` bytes (a journal's largest line, the first,
    holds a record's tags) and ``TUTEPGN_MAX_JSON_DEPTH`` deep, UTF-8.  A last line without its newline was cut
    short by a crash, never acknowledged: it is left out, and is no fault.  Raises OSError when the file cannot
    be read."""
    most = max_record_bytes()
    lines: list[Any] = []
    ends: list[int] = []
    fault: str | None
    with open(path, "rb") as handle:
        while True:
            raw = handle.readline(most + 1)
            if not raw.endswith(b"\n"):
                if len(raw) > most:
                    fault = _("the line is longer than {most} bytes (TUTEPGN_MAX_RECORD_BYTES)", most=most)
                    break
                return JournalLines(lines, ends, None, len(raw))  # the end, or a line cut short by a crash
            number = len(lines) + 1
            fault = line_fault(raw, number, check)
            if fault is not None:
                break
            lines.append(json.loads(raw))
            ends.append((ends[-1] if ends else 0) + len(raw))
    return JournalLines(lines, ends, _("line {number}: {fault}", number=len(lines) + 1, fault=fault))


def line_fault(raw: bytes, number: int, check: LineCheck) -> str | None:
    """What is wrong with one line of a journal (bytes ending in a newline), or None."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _("byte 0x{byte:02x} at column {column} is not UTF-8", byte=raw[exc.start], column=exc.start + 1)
    try:
        check_depth(text)
        data = json.loads(text)
    except ValueError as exc:  # a JsonRecordError (too deep) or a JSONDecodeError, located
        return str(exc)
    return check(number, data)


def set_aside(journal: Path, why: str, *, keep: int | None = None) -> Path:
    """Keep a damaged or foreign journal's bytes in ``set-aside/`` with a ``.why`` text, for the operator: the
    file itself is moved there (``keep`` None), or copied there and then cut back to its first ``keep`` bytes
    (the lines restored from).  Returns where the bytes are; raises OSError when they cannot be kept (the journal
    is then left as it was)."""
    folder = journal.parent / SET_ASIDE
    folder.mkdir(exist_ok=True)
    target = folder / journal.name
    n = 0
    while target.exists() or target.with_name(target.name + WHY_SUFFIX).exists():
        n += 1
        target = folder / f"{journal.name}.{n}"
    note = target.with_name(target.name + WHY_SUFFIX)
    note.write_text(_("{name} set aside on {when}: {why}", name=journal.name, when=time.strftime("%Y-%m-%d %H:%M:%S"),
                      why=why) + "\n", encoding="utf-8")
    if keep is None:
        os.rename(journal, target)
    else:
        shutil.copyfile(journal, target)
        with open(target, "rb") as copy:
            os.fsync(copy.fileno())
        cut(journal, keep)
    sync_folder(folder)
    sync_folder(journal.parent)
    return target


def cut(path: Path, size: int) -> None:
    """Cut a file back to its first ``size`` bytes, fsync'd."""
    with open(path, "r+b") as handle:
        handle.truncate(size)
        os.fsync(handle.fileno())


def set_aside_count(folder: Path) -> int:
    """How many journals are kept in ``folder``'s ``set-aside/`` (each with its ``.why``), until the operator
    removes them."""
    try:
        return sum(1 for entry in os.scandir(folder / SET_ASIDE) if entry.name.endswith(WHY_SUFFIX))
    except OSError:  # no such folder: nothing was set aside
        return 0
