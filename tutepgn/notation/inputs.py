"""Where records come from on a command line: files, directories of ``*.tpgn`` and ``-`` for stdin; and lines
typed at a prompt (:func:`read_line`).

``tute validate``, ``tute import`` and ``tute serve --load`` read the same way.
"""

from __future__ import annotations

import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, TextIO

from ..errors import LimitError
from ..i18n import gettext as _
from ..limits import max_line_bytes

SKIP = 1 << 16
"""Bytes read at a time while the rest of a line over the limit is skipped."""


def expand(paths: Iterable[str | Path], stdin: TextIO | None = None) -> list[Path | TextIO]:
    """Each file itself, each directory as every ``*.tpgn`` file below it (sorted), ``-`` as stdin.

    A directory is searched whatever its name (one called ``x.tpgn`` too); a pipe (``<(zcat x.gz)``) is
    read as a stream, each record bounded as any other.  Raises FileNotFoundError, before anything is
    read, for a path that is none of these, saying what it is: a device such as ``/dev/zero`` would
    never end.
    """
    sources: list[Path | TextIO] = []
    for p in paths:
        path = Path(p)
        if str(p) == "-":
            sources.append(stdin or sys.stdin)
        elif path.is_dir():
            sources.extend(sorted(f for f in path.rglob("*.tpgn") if f.is_file()))
        elif path.is_file() or path.is_fifo():
            sources.append(path)
        else:
            raise FileNotFoundError(not_a_file(path))
    return sources


def not_a_file(path: Path) -> str:
    """Why ``path`` cannot be read as a file of records: missing, or what it is instead (a device never ends)."""
    if not path.exists():
        return _("{path}: no such file or directory", path=path)
    mode = path.stat().st_mode
    if stat.S_ISCHR(mode):
        return _("{path}: a character device, not a file of records (give a file, or - for stdin)", path=path)
    if stat.S_ISBLK(mode):
        return _("{path}: a block device, not a file of records (give a file, or - for stdin)", path=path)
    if stat.S_ISSOCK(mode):
        return _("{path}: a socket, not a file of records (give a file, or - for stdin)", path=path)
    if stat.S_ISDIR(mode):
        return _("{path}: a directory, not a file of records (give a file, or - for stdin)", path=path)
    return _("{path}: not a regular file, not a file of records (give a file, or - for stdin)", path=path)


def read_line(stream: BinaryIO, encoding: str = "utf-8") -> str:
    """The next line of ``stream`` without its line break, at most :func:`~tutepgn.limits.max_line_bytes` bytes
    (what ``input()`` reads, bounded): EOFError at the end.

    A longer line raises :class:`~tutepgn.errors.LimitError` after the rest of it is skipped, a piece at a time,
    so that it is never held whole (``input()`` took 3.1 GB and 37 s for a line of 60 MB) and the next read
    starts on the next line.  Bytes that are not ``encoding`` read as U+FFFD.
    """
    limit = max_line_bytes()
    line = stream.readline(limit + 1)
    if not line:
        raise EOFError
    if len(line) > limit and not line.endswith(b"\n"):
        while (rest := stream.readline(SKIP)) and not rest.endswith(b"\n"):
            pass
        raise LimitError(_("the line is longer than {limit:,} bytes (TUTEPGN_MAX_LINE_BYTES): it was not read",
                           limit=limit))
    return line.decode(encoding, "replace").removesuffix("\n").removesuffix("\r")
