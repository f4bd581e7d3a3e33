"""The solver's entry points: exact values, the value of every legal card, and the win test.

A :class:`Solver` owns its transposition table (no global state: one solver
per thread or worker process) and a backend, the C core when it was built
and not refused, else the pure-Python search.  ``TUTEPGN_SOLVER=python`` in
the environment, or ``Solver(backend="python")``, forces the fallback.

The exact value is found by bisection of null-window searches (about seven
passes: the values are points, so MTD(f)'s steps of one point take dozens).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..i18n import gettext as _
from ..native import C_AVAILABLE as C_AVAILABLE, Backend as Backend, backend_from, ccore  # both exported here too
from ..native.layout import PACKED_FIELDS
from .alphabeta import PythonSearch
from .position import Position

PLAYED_FIELDS = frozenset({"hand0", "hand1", "hand2", "hand3", "leader", "trick_len", "trick0", "trick1", "trick2",
                           "trick3", "sung", "barred", "won_before", "window_open", "window_cantes",
                           "window_after_draw", "window_first_win"})
"""The fields of :meth:`Position.packed` that change as a deal is played."""
STATIC_FIELDS = tuple(i for i, name in enumerate(PACKED_FIELDS) if name not in PLAYED_FIELDS)
"""Indices of :meth:`Position.packed` fixed for a whole deal's analysis: the table is kept while they stay
(the stock's order among them: the keys of a position with a stock say how many cards were drawn, not which)."""


def default_backend() -> Backend:
    """The C core if built, unless ``TUTEPGN_SOLVER=python`` asks for the fallback."""
    return backend_from("TUTEPGN_SOLVER")


@dataclass(frozen=True, slots=True)
class CardValue:
    """A group of equivalent legal cards and the value of playing any of them, for the side valued."""
    cards: tuple[Card, ...]
    value: int


class Solver:
    """A double-dummy solver with its own transposition table; reuse it for the positions of one deal."""

    def __init__(self, backend: Backend | None = None, table_bits: int | None = None) -> None:
        """``table_bits``: the C table holds 2**bits entries of 32 bytes (0: search without a table; None:
        sized by the first position searched, from 2**10 for a few cards to 2**18, 8 MB, for a whole deal:
        bigger tables saved few nodes and cost more in page faults than a win test's whole search)."""
        self.backend: Backend = backend or default_backend()
        if self.backend == "c" and not C_AVAILABLE:
            raise ValueError(_("the C core of the solver was not built; use backend='python'"))
        if self.backend not in ("c", "python"):
            raise ValueError(_("unknown solver backend {backend!r}: use c or python", backend=self.backend))
        self.table_bits = table_bits
        self._static: tuple[int, ...] | None = None
        self._py = PythonSearch({} if table_bits != 0 else None)
        self._c: ccore.Table | None = None

    def _reset(self, position: Position) -> None:
        """A fresh table, sized for ``position`` unless the size was given (a big table costs page faults)."""
        bits = self.table_bits
        if bits is None:
            cards = sum(h.bit_count() for h in position.hands) + len(position.trick) + len(position.stock)
            bits = min(18, max(10, cards // 2 + 4))
        self._py = PythonSearch({} if bits else None)
        self._c = ccore.Table(bits) if self.backend == "c" else None

    @property
    def nodes(self) -> int:
        """Nodes searched since the table was last cleared (a measure for benchmarks)."""
        return self._c.nodes if self._c is not None else self._py.nodes

    def search(self, position: Position, alpha: int, beta: int, only: Card = -1) -> int:
        """One fail-soft search of ``position`` in the window (alpha, beta); ``only`` forces the first card."""
        if only >= 0 and not position.legal() >> only & 1:
            raise ValueError(f"card {only} is not a legal play in this position")
        packed = position.packed()
        static = tuple(packed[i] for i in STATIC_FIELDS)
        if static != self._static or (self.backend == "c" and self._c is None):
            self._static = static
            self._reset(position)
        if self._c is not None:
            return self._c.search(packed, alpha, beta, only)
        return self._py.search(packed, alpha, beta, only)

    def _exact(self, position: Position, only: Card = -1, low: int = 0, high: int | None = None) -> int:
        """The exact search value, known to lie in [low, high], by bisection of null-window searches."""
        high = position.bound() if high is None else high
        while low < high:
            middle = (low + high + 1) // 2
            v = self.search(position, middle - 1, middle, only)
            if v >= middle:
                low = v
            else:
                high = v
        return low

    def value(self, position: Position) -> int:
        """The points the side valued makes from now under best play by all: cards, last ten (and cantes)."""
        return self._exact(position)

    def values_of_legal_cards(self, position: Position) -> list[CardValue]:
        """Each group of equivalent legal cards and its exact value, in card order.

        The position's value bounds every card's (from above when the mover is of the side valued, from
        below otherwise), and a card is most often worth it exactly: one search proves that, and the
        bisection of the others starts on the right side of it.
        """
        best = self._exact(position)
        ours = position.side_of[position.turn] == position.side
        values = []
        for group in position.card_groups():
            c = group[0]
            if ours:
                v = self.search(position, best - 1, best, c)
                exact = best if v >= best else self._exact(position, c, 0, v)
            else:
                v = self.search(position, best, best + 1, c)
                exact = best if v <= best else self._exact(position, c, v, None)
            values.append(CardValue(group, exact))
        return values

    def reaches(self, position: Position, threshold: int) -> bool:
        """True if the side valued makes at least ``threshold`` points from now (one null-window search)."""
        if threshold <= 0:
            return True
        return self.search(position, threshold - 1, threshold) >= threshold

    def value_near(self, position: Position, guess: int, only: Card = -1, low: int = 0,
                   high: int | None = None) -> int:
        """The exact value (of ``only`` played first, if given), known to lie in [low, high], searched first
        around ``guess``: two null-window searches when the guess is right (one at a bound), the fail-soft
        bounds they return narrowing the bisection when it is not.  The analysis's replay guesses each
        position's value from the one before.  The value is the same whatever the guess."""
        high = position.bound() if high is None else high
        guess = min(max(guess, low), high)
        above = True
        if guess > low:
            v = self.search(position, guess - 1, guess, only)
            above = v >= guess
            low, high = (max(low, v), high) if above else (low, min(high, v))
        if low < high:
            if above:
                v = self.search(position, low, low + 1, only)
                if v <= low:
                    return low
                low = v
            else:
                v = self.search(position, high - 1, high, only)
                if v >= high:
                    return high
                high = v
        return self._exact(position, only, low, high)


def value(position: Position, backend: Backend | None = None) -> int:
    """The exact value of one position with a fresh solver (see :meth:`Solver.value`)."""
    return Solver(backend).value(position)
