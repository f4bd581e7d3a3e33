"""Where records come from on a command line: files, directories of ``*.tpgn`` and ``-`` for stdin.

``tute validate``, ``tute import`` and ``tute serve --load`` read the same way.
"""

from __future__ import annotations

import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO


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
        elif path.exists():
            raise FileNotFoundError(f"{p}: {_kind(path)}, not a file of records: give files, directories or - "
                                    "for stdin")
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    return sources


def _kind(path: Path) -> str:
    mode = path.stat().st_mode
    return ("a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
