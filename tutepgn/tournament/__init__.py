"""Club events: torneos and ligas, their pairings, standings and duplicate scoring (pure logic, no database).

* :mod:`.event`: :class:`Event`, :class:`Entrant`, :class:`Round`, :class:`Table`, :class:`Result`,
  :class:`BoardResult`; :func:`add_entrant`, :func:`check_result`;
* :mod:`.pairing`: :func:`next_round` (all-play-all, Swiss, knockout), :func:`round_limit`;
* :mod:`.standings`: :func:`standings` (the documented tie-breaks), :func:`crosstable`, :func:`history`;
* :mod:`.duplicate`: boards, matchpoints, the difference to par, :func:`ranking`.

Stored by :mod:`tutepgn.archive.events`; the rules are in docs/club.md.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .duplicate import Board, BoardScore, RankLine, matchpoints, ranking, round_boards
    from .event import (BoardResult, Entrant, Event, Result, Round, Table, add_entrant, check_result,
                        parse_entrant)
    from .pairing import next_round, round_limit
    from .standings import CrossRow, Encounter, Line, crosstable, history, standings

__getattr__, __dir__ = lazy_exports(__name__, {
    ".duplicate": ("Board", "BoardScore", "RankLine", "matchpoints", "ranking", "round_boards"),
    ".event": ("BoardResult", "Entrant", "Event", "Result", "Round", "Table", "add_entrant", "check_result",
               "parse_entrant"),
    ".pairing": ("next_round", "round_limit"),
    ".standings": ("CrossRow", "Encounter", "Line", "crosstable", "history", "standings"),
}, globals())
