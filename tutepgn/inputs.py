"""Where records come from on a command line: files, directories of ``*.tpgn`` and ``-`` for stdin.

``tute validate``, ``tute import`` and ``tute serve --load`` read the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO


def expand(paths: Iterable[str | Path], stdin: TextIO | None = None) -> list[Path | TextIO]:
    """Each file itself, each directory as every ``*.tpgn`` below it (sorted), ``-`` as stdin.

    Raises FileNotFoundError for a path that is neither, before anything is read.
    """
    sources: list[Path | TextIO] = []
    for p in paths:
        path = Path(p)
        if str(p) == "-":
            sources.append(stdin or sys.stdin)
        elif path.is_dir():
            sources.extend(sorted(path.rglob("*.tpgn")))
        elif path.is_file():
            sources.append(path)
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    return sources
