"""The arena's boards in the archive (table ``arena_boards``, declared with the others in :mod:`.columns`): each
board of bot against bot kept as it ends, so that a long run stopped is resumed where it was, and the ladder of
levels (:mod:`tutepgn.play.ladder`) is read from every run stored.

:class:`ArenaStore` is the store ``tute arena --store`` hands the arena (:class:`tutepgn.play.arena.BoardStore`,
met by shape: the archive does not import the play layer).  A rebuild (``tute archive rebuild``) replays the
imports only: the arena's boards are not records and are not kept by it.
"""

from __future__ import annotations

from typing import NamedTuple

from . import schema
from .store import Archive

PairingKey = tuple[str, str, str, int, bool, str]
"""Bot A, bot B, ruleset, seed, duplicate, budget: what identifies a run's boards."""
BoardRow = tuple[int, float, float, list[float], list[float]]
"""Board number, points, score, A's and B's CPU seconds per decision."""


class StoredBoard(NamedTuple):
    """One stored board, as the ladder reads it."""
    bot_a: str
    bot_b: str
    rules: str
    seed: int
    duplicate: bool
    budget: str
    board: int
    points: float
    score: float
    seconds_a: list[float]
    seconds_b: list[float]


def has_table(archive: Archive) -> bool:
    """Whether the file has the table (a file opened read-only before any tutepgn with the arena wrote to it may
    not)."""
    row = archive.con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'arena_boards' "
                              "AND schema_name = 'main'").fetchone()
    return bool(row and row[0])


class ArenaStore:
    """The arena's boards in ``archive`` (opened writable to add)."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    def stored(self, pairing: PairingKey) -> list[BoardRow]:
        """Every board stored for ``pairing``, by number."""
        if not has_table(self.archive):
            return []
        rows = self.archive.con.execute(
            "SELECT board, points, score, seconds_a, seconds_b FROM arena_boards WHERE bot_a = ? AND bot_b = ? AND "
            "rules = ? AND seed = ? AND duplicate = ? AND budget = ? ORDER BY board", list(pairing)).fetchall()
        return [(int(b), float(p), float(s), list(ta or []), list(tb or [])) for b, p, s, ta, tb in rows]

    def add(self, pairing: PairingKey, board: BoardRow) -> None:
        """Keep one board (replacing the same board of the same pairing), committed at once with the archive's
        generation moved (a page showing the ladder is then fresh)."""
        con = self.archive.con
        con.execute("BEGIN")
        try:
            con.execute("INSERT OR REPLACE INTO arena_boards VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())",
                        [*pairing, *board])
            schema.bump(con)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise


def arena_boards(archive: Archive, rules: str | None = None) -> list[StoredBoard]:
    """Every stored board (of ``rules`` only, when given), in the order of their pairing and number."""
    if not has_table(archive):
        return []
    where, params = ("WHERE rules = ?", [rules]) if rules is not None else ("", [])
    rows = archive.con.execute(
        "SELECT bot_a, bot_b, rules, seed, duplicate, budget, board, points, score, seconds_a, seconds_b "
        f"FROM arena_boards {where} ORDER BY rules, bot_a, bot_b, budget, seed, duplicate, board", params).fetchall()
    return [StoredBoard(a, b, r, int(seed), bool(dup), budget, int(board), float(p), float(s), list(ta or []),
                        list(tb or [])) for a, b, r, seed, dup, budget, board, p, s, ta, tb in rows]


__all__ = ["ArenaStore", "StoredBoard", "arena_boards", "has_table"]
