"""Analysis: the value of every play, double dummy (every hand visible) and by PIMC (the hands a seat could not see).

* :mod:`.position`, :mod:`.alphabeta` and :mod:`.solve`: the solver (:class:`Position`, :class:`Solver`; the
  search in C is ``tutepgn.native.ccore``);
* :mod:`.deal_analysis`: :func:`analyse`, a deal's plays valued, their costs and marks (the replay:
  :mod:`.replay_values`); :mod:`.version` its JSON form's version (read by the archive without loading the solver);
* :mod:`.pimc`: worlds sampled from what a seat knew; :mod:`.annotate`: records analysed, annotated copies.

>>> from tutepgn import Deal, preset
>>> from tutepgn.analysis import Position, Solver
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=3)
>>> for _ in range(28):
...     _ = deal.play(min(deal.legal_plays()))
>>> solver = Solver()
>>> position = Position.from_deal(deal)
>>> v = solver.value(position)
>>> max(c.value for c in solver.values_of_legal_cards(position)) == v
True
>>> solver.reaches(position, v), solver.reaches(position, v + 1)
(True, False)
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:  # what the lazy exports below give, seen by type checkers and editors
    from .deal_analysis import (DEFAULT_WORLDS, STOCK_HORIZON, DealAnalysis, MatchContext, PlayAnalysis, Projection,
                                analyse)
    from .position import Position
    from .solve import C_AVAILABLE, Backend, CardValue, Solver, default_backend, value
    from .version import ANALYSIS_VERSION

__getattr__, __dir__ = lazy_exports(__name__, {
    ".deal_analysis": ("DEFAULT_WORLDS", "STOCK_HORIZON", "DealAnalysis", "MatchContext", "PlayAnalysis",
                       "Projection", "analyse"),
    ".position": ("Position",),
    ".solve": ("Backend", "C_AVAILABLE", "CardValue", "Solver", "default_backend", "value"),
    ".version": ("ANALYSIS_VERSION",),
}, globals())
"""Imported on first use (:mod:`tutepgn.lazy`): the archive reads :data:`ANALYSIS_VERSION` without loading the solver."""

__all__ = [
    "ANALYSIS_VERSION", "Backend", "C_AVAILABLE", "CardValue", "DEFAULT_WORLDS", "DealAnalysis", "MatchContext",
    "PlayAnalysis", "Position", "Projection", "STOCK_HORIZON", "Solver", "analyse", "default_backend", "value",
]
