"""Text from records and from input made safe to show: the one place control characters are escaped.

A name, an event or a comment is whatever its record says, and a record may come
from anyone: ``[North "Bru\\x1b]2;PWNED\\x07no"]`` retitles a terminal that prints
it raw, ``\\x1b[2J`` clears it, ``\\r`` and ``\\b`` write over what was shown,
``\\x9b`` starts a control sequence on terminals that read C1 codes, and U+202E
turns the rest of a line around.  :func:`visible` writes each such character as
its escape, in plain ASCII (``\\x1b``, ``\\x9b``, ``\\u202e``), so that it is seen
rather than obeyed; every other character, accents, ``ñ`` and ``ü`` included,
stays as it is, and text without control characters comes back unchanged.

The command line shows everything it prints through it (``cli/output.py``: its
consoles, tables, CSV and JSON, and records written to a terminal), and the
archive's CSV export (``tute export --format csv`` and the service's
``/api/v1/deals.csv``) writes its cells through it.  Records written as data (tpgn
to a file or a pipe) keep their text intact; JSON keeps it intact too, since its
escapes (``\\u009b``) are read back as the character.
"""

from __future__ import annotations

import re
from typing import Literal

_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_ANY = re.compile(f"[\x00-\x1f{_OTHERS}]")
_IN_LINES = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_OTHERS}]|\r(?!\n)")
_IN_JSON = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_OTHERS}]")
FORMS = {"cell": _ANY, "lines": _IN_LINES, "json": _IN_JSON}
"""What each form escapes: every control character (``cell``: a name, a table's cell, a CSV value, a line of a
message); all but the line breaks and tabs of a text laid out in lines (``lines``: ``\n``, ``\t`` and ``\r\n``
stay, a ``\r`` alone does not); all but JSON's whitespace between its tokens (``json``: inside its strings JSON
escapes C0 itself, but not DEL, C1 or the bidirectional controls).  Besides C0 and DEL, the C1 controls
(``\x9b`` is a CSI), the bidirectional marks, embeddings, overrides and isolates, and the Unicode line and
paragraph separators are escaped."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match[0]):04x}"


def visible(text: str, form: Literal["cell", "lines", "json"] = "cell") -> str:
    """``text`` with its control characters escaped (:data:`FORMS`): ``\\x1b``, ``\\x9b``, ``\\u202e`` (JSON:
    ``\\u001b``, which a JSON reader reads back as the character); text without them comes back as it is.

    >>> visible("Bru\\x1b]2;PWNED\\x07no")
    'Bru\\\\x1b]2;PWNED\\\\x07no'
    >>> visible("Iñaki Güell, Ángel")
    'Iñaki Güell, Ángel'
    >>> visible("1. N 4E\\r\\n2. E\\rX\\t{\\x9b}", "lines")
    '1. N 4E\\r\\n2. E\\\\x0dX\\t{\\\\x9b}'
    >>> visible('{"North":"a\\x9b\\u202e"}', "json")
    '{"North":"a\\\\u009b\\\\u202e"}'
    """
    pattern = FORMS[form]
    if pattern.search(text) is None:
        return text
    return pattern.sub(_json_escape if form == "json" else _escape, text)
