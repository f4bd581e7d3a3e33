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
        else:
            raise FileNotFoundError(not_a_file(path))
    return sources


def not_a_file(path: Path) -> str:
    """Why ``path`` cannot be read as a file of records: missing, or what it is instead (a device never ends)."""
    if not path.exists():
        return f"{path}: no such file or directory"
    mode = path.stat().st_mode
    kind = ("a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a directory" if stat.S_ISDIR(mode) else "not a regular file")
    return f"{path}: {kind}, not a file of records (give a file, or - for stdin)"
