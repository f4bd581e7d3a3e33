"""Double-dummy analysis of Tute: every hand visible, the value of a position in points.

>>> from tutepgn import Deal, preset
>>> from tutepgn.solver import Position, Solver
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

from .position import Position
from .solve import C_AVAILABLE, Backend, CardValue, Solver, default_backend, value

__all__ = ["Backend", "C_AVAILABLE", "CardValue", "Position", "Solver", "default_backend", "value"]
