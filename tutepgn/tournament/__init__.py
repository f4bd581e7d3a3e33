"""Club events: torneos and ligas, their pairings, standings and duplicate scoring, and the players' and pairs'
ratings (pure logic, no database).

* :mod:`.event`: :class:`Event`, :class:`Entrant`, :class:`Round`, :class:`Table`, :class:`Result`,
  :class:`BoardResult`; :func:`add_entrant`, :func:`check_result`;
* :mod:`.pairing`: :func:`next_round` (all-play-all, Swiss, knockout), :func:`round_limit`;
* :mod:`.standings`: :func:`standings` (the documented tie-breaks), :func:`crosstable`, :func:`history`;
* :mod:`.duplicate`: boards, matchpoints, the difference to par, :func:`ranking`; a board's cards to deal
  (:func:`board_start`, :func:`board_deal`);
* :mod:`.seating`: who sits where at a table, and the tags of its deals (:func:`table_start`);
* :mod:`.ratings`: :func:`~.ratings.rate` (OpenSkill over every finished match; not imported here).

Stored by :mod:`tutepgn.archive.events`; the rules are in docs/club.md.  Imported whole (not lazily): the
function ``standings`` must win over its module's name, which a lazy import would leave on the package.
"""

from .duplicate import Board, BoardScore, BoardStart, RankLine, board_deal, board_start, matchpoints, ranking, round_boards
from .event import BoardResult, Entrant, Event, Result, Round, Table, add_entrant, check_result, parse_entrant
from .pairing import next_round, round_limit
from .seating import TableStart, seats, table_start
from .standings import CrossRow, Encounter, Line, crosstable, history, standings

__all__ = ["Board", "BoardResult", "BoardScore", "BoardStart", "CrossRow", "Encounter", "Entrant", "Event", "Line",
           "RankLine", "Result", "Round", "Table", "TableStart", "add_entrant", "board_deal", "board_start",
           "check_result", "crosstable", "history", "matchpoints", "next_round", "parse_entrant", "ranking",
           "round_boards", "round_limit", "seats", "standings", "table_start"]
