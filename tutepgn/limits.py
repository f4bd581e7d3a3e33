"""The library's input limits, in one place: what one record may hold, and how big it may be.

Two kinds of limit live here.

* **Widths** (fixed): the largest number each kind of value may have, which
  is the width of the archive column that stores it (``archive/columns.py``
  checks at import that its columns hold them).  The tag reader
  (``notation/tags.py``) and the readers refuse a value past its width with a
  located error, so that a record the reader accepts always fits the archive.
* **Sizes** (set by ``TUTEPGN_*`` environment variables, read once, when first
  needed, so that a bad value is a command's located error, not a traceback at
  import): the largest record, and the deepest JSON, the readers accept before
  they parse, and the longest line of typed input.  docs/security.md ("Input limits") lists them.

>>> INT32_MAX, UINT8_MAX, YEAR_MAX
(2147483647, 255, 9999)
>>> max_record_bytes() >= 4096
True
"""

from __future__ import annotations

import os
from functools import cache

from .errors import SettingError
from .i18n import gettext as _

INT32_MAX = 2**31 - 1
"""A signed 32-bit column (``INTEGER``): DealNo, MatchTarget, Score and MatchScore values, line numbers."""
UINT8_MAX = 2**8 - 1
"""An unsigned 8-bit column (``UTINYINT``): a trick's number, a deal's count of cantes or exchanges, points."""
UINT16_MAX = 2**16 - 1
"""An unsigned 16-bit column (``USMALLINT``): the sequence number of a play or a declaration."""
YEAR_MAX = 9999
"""The last year a Date tag may name: the archive's ``date`` column (and Python's ``datetime.date``) stops there,
well inside its ``year`` column (``SMALLINT``)."""

MAX_TRICKS = UINT8_MAX
"""Most tricks a record may hold: a trick's number is an 8-bit column (a real deal has at most 20)."""
MAX_DECLARATIONS = UINT8_MAX
"""Most declarations (cantes, tutes, exchanges) a record may hold: the counts are 8-bit columns (a real deal
has fewer than ten)."""
MAX_RULE_VALUE = UINT8_MAX
"""Largest number a Rules tag may give an option (points, thresholds, ranks), except the match target's options,
which are 32-bit like the MatchTarget tag: the archive stores points in 8-bit columns."""


def _setting(name: str, default: int, minimum: int) -> int:
    """A whole number from the environment variable ``name``, else ``default``; a bad value is an error at
    start-up, never a limit silently ignored."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) < minimum:
        raise SettingError(_("{name}={value!r}: give a whole number of at least {minimum}", name=name, value=text,
                             minimum=minimum))
    return int(text)


@cache
def max_record_bytes() -> int:
    """Largest record (UTF-8 bytes from its first tag line to the next record) the readers parse
    (``TUTEPGN_MAX_RECORD_BYTES``, default 1 MiB); a larger one is refused with a located error before it is
    parsed.  Real records are under 2 KB."""
    return _setting("TUTEPGN_MAX_RECORD_BYTES", 1 << 20, 4096)


@cache
def max_json_depth() -> int:
    """Deepest nesting of arrays and objects a JSON input may have (``TUTEPGN_MAX_JSON_DEPTH``, default 32; a
    record needs 4); deeper input is refused before it is decoded."""
    return _setting("TUTEPGN_MAX_JSON_DEPTH", 32, 8)


@cache
def max_line_bytes() -> int:
    """Longest line of typed input (``TUTEPGN_MAX_LINE_BYTES``, default 64 KiB): an entry of ``tute record``, a
    name or an event it asks for.  A longer line is refused without being held whole or shown (the rest of it
    is skipped piece by piece); a real entry is a few dozen bytes."""
    return _setting("TUTEPGN_MAX_LINE_BYTES", 1 << 16, 1024)


@cache
def max_link_bytes() -> int:
    """Largest deal a share link may carry, unpacked (UTF-8 bytes), and longest position string a link may give
    (``TUTEPGN_MAX_LINK_BYTES``, default 8 KiB): a real deal's record is under 2 KB, and a link's page does work
    and sends HTML in proportion to it (a 1 MB record of comments took 21 s and 39 MB of HTML)."""
    return _setting("TUTEPGN_MAX_LINK_BYTES", 8192, 2048)


def check_settings() -> None:
    """Read every size setting now, so that a service refuses to start on a bad value (a
    :class:`~tutepgn.errors.SettingError`) rather than failing its first request."""
    max_record_bytes()
    max_json_depth()
    max_line_bytes()
    max_link_bytes()
