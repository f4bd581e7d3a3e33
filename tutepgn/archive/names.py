"""A player's name as the search filters match it: by word, whatever the case and the accents, against the
archive's own names.

A name filter's words are first resolved to the names of the archive's seats
that hold them all (:class:`SeatNames`); the SQL then compares the seat columns
with those names exactly (:func:`named` and the helpers below), which costs
what an exact name does.

>>> name_words("Ana García"), named("north", ["Ana"])
(['ana', 'garcia'], ('north = ?', ['Ana']))
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..notation import SEAT_TAGS

if TYPE_CHECKING:
    import duckdb

SEAT_COLUMN = {letter: tag.lower() for letter, tag in SEAT_TAGS.items()}
"""The column of table deals that names the player at each seat."""


def name_words(name: str) -> list[str]:
    """A name as a search matches it: lower case, accents dropped, the runs of letters and digits
    (``"Ana García"`` -> ``["ana", "garcia"]``).  The archive's names are read the same way
    (:class:`SeatNames`), and a name filter matches a player whose name holds every one of its words."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(c))
    return re.findall(r"[0-9a-z]+", plain)


Names = Callable[[list[str]], list[str]]
"""A name filter's words -> the archive's names that hold them all (:meth:`SeatNames.matching`)."""
FEW_NAMES = 8
"""Up to this many names, a seat is compared with them in an IN list; beyond, with a subquery over one list
parameter (an IN list is tested name by name on every row: on 1,000,000 deals 12 ms for one name, but 430 ms
for 204, against 17 to 19 ms for the subquery whatever the count)."""


def named(column: str, names: list[str]) -> tuple[str, list[object]]:
    """SQL that is true when the name in ``column`` is one of ``names`` (those a filter's words resolved to),
    and its parameters."""
    if not names:
        return "FALSE", []
    if len(names) == 1:
        return f"{column} = ?", list(names)
    if len(names) <= FEW_NAMES:
        return f"{column} IN ({', '.join('?' * len(names))})", list(names)
    return f"{column} IN (SELECT unnest(?::VARCHAR[]))", [names]


class SeatNames:
    """The distinct names at the seats of an archive's deals, each with its words (:func:`name_words`).

    A name filter resolves its words here, then compares the seat columns with
    the names found, exactly.  Testing the words of every seat's name on every
    row (in SQL) cost 40 ms a query on 1,000,000 deals, and 2 s before a LIKE
    went first; an archive has far fewer names than deals.  The names are read
    again when the number of deals has changed: deals are only ever added, so
    the same number means the same deals.  Shared by the cursors of one
    archive (thread-safe).
    """

    def __init__(self, *, fixed: bool = False) -> None:
        """``fixed``: the deals cannot change while the archive is open (a file opened read-only, which DuckDB
        lets no process write meanwhile), so the names are read once and their count never asked (0.4 ms a
        query on 1,000,000 deals)."""
        self.fixed = fixed
        self._count: int | None = None
        self._names: list[tuple[str, frozenset[str]]] = []
        self._lock = threading.Lock()

    def matching(self, con: duckdb.DuckDBPyConnection, words: list[str]) -> list[str]:
        """The names (read through ``con``) that hold every one of ``words``."""
        count = -1 if self.fixed else con.execute("SELECT count(*) FROM deals").fetchone()[0]  # type: ignore[index]
        with self._lock:
            if count != self._count:
                rows = con.execute(" UNION ".join(f"SELECT {c} FROM deals" for c in SEAT_COLUMN.values()))
                self._names = [(n, frozenset(name_words(n))) for (n,) in rows.fetchall() if n is not None]
                self._count = count
            names = self._names
        return sorted(n for n, held in names if held.issuperset(words))


def all_of(*parts: tuple[str, list[object]] | str) -> tuple[str, list[object]]:
    """Conditions joined by AND, each SQL with its parameters or plain SQL without any (empty ones left out)."""
    pairs = [part if isinstance(part, tuple) else (part, []) for part in parts if part]
    return "(" + " AND ".join(sql for sql, _ in pairs) + ")", [v for _, values in pairs for v in values]


def any_of(parts: Iterable[tuple[str, list[object]]]) -> tuple[str, list[object]]:
    """Conditions joined by OR, and their parameters in order."""
    pairs = list(parts)
    return "(" + " OR ".join(sql for sql, _ in pairs) + ")", [v for _, values in pairs for v in values]


def somewhere(names: list[str]) -> tuple[str, list[object]]:
    """SQL true when a player of the deal, at any seat, is one of ``names``; its parameters."""
    return any_of(named(column, names) for column in SEAT_COLUMN.values())


def among(column: str, names: list[str]) -> tuple[str, list[object]]:
    """SQL true when the list in ``column`` holds one of ``names``; its parameters (one ``list_contains`` a name:
    ``list_has_any`` reads the whole list column at about six times the cost)."""
    if len(names) > FEW_NAMES:
        return f"list_has_any({column}, ?::VARCHAR[])", [names]
    return any_of((f"list_contains({column}, ?)", [name]) for name in names) if names else ("FALSE", [])


def on_side(label: str, names: list[str]) -> tuple[str, list[object]]:
    """SQL true when a seat of the side ``label`` (``NS`` or ``WE``) is one of ``names``; its parameters."""
    return any_of(named(SEAT_COLUMN[letter], names) for letter in label)


def two_seats(names: list[str]) -> tuple[str, list[object]]:
    """SQL true when at least two seats of the deal are among ``names``; its parameters."""
    parts = [named(column, names) for column in SEAT_COLUMN.values()]
    return " + ".join(f"coalesce({sql}, FALSE)::INTEGER" for sql, _ in parts) + " >= 2", [v for _, values in parts
                                                                                          for v in values]


def seat_of_side(column: str, letter: str) -> str:
    """SQL: the side label in ``column`` (``NS``, ``W`` ...) holds the seat ``letter``."""
    return f"contains({column}, '{letter}')"
