"""Duplicate play: every table of a round plays the same boards, and each result is compared with the others
on the same board, so the ranking does not depend on the cards dealt.

A **board** is a deal fixed by a seed and a dealer (:meth:`tutepgn.engine.Deal.shuffled`): its seed comes from
the event's seed and the board's number, its dealer turns one seat a board.  In round r of an event with B boards
a round, every table plays boards (r-1)*B+1 .. r*B, the home entrant on side 0 (NS), the away one on side 1 (WE).

**Matchpoints**, as bridge clubs score pairs: on each board, side 0's score at a table is its points less side
1's points; each result gets 2 matchpoints for every other result of the board it beats and 1 for every one it
ties; side 1 gets the top (2 per other result) less side 0's.  An entrant's percentage is its matchpoints over
the tops of the boards it played.  The **difference to par** is what a side made less its double-dummy value
on the board (:mod:`tutepgn.analysis`, a cartas vistas, cantes counted): optional, since a deal with a stock
to draw is not solved from its start (:func:`par` gives None there).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from ..cards import card_code, cards_in, display_cards
from ..engine import Deal
from ..errors import EventError
from ..i18n import gettext as _
from ..notation.writer import deal_value
from ..rules import Ruleset, preset
from .event import BoardResult, Event


class Board(BaseModel):
    """One board: the deal every table of a round plays (its number, the seed of its shuffle, its dealer)."""

    model_config = ConfigDict(frozen=True)

    number: int
    seed: int
    dealer: int

    def deal(self, rules: Ruleset) -> Deal:
        """The board's deal, fresh: the same cards at every table."""
        return Deal.shuffled(rules, self.seed, self.dealer)

    def hands(self, rules: Ruleset) -> list[list[str]]:
        """Each seat's cards as card codes ("12C"), what the dealer gives out at every table."""
        return [[card_code(c) for c in cards_in(hand)] for hand in self.deal(rules).hands]

    def __repr__(self) -> str:
        return f"<Board {self.number} seed={self.seed} dealer={self.dealer}>"


def board(event_seed: int, number: int, players: int) -> Board:
    """Board ``number`` of an event seeded ``event_seed``."""
    return Board(number=number, seed=random.Random(f"{event_seed}:board:{number}").getrandbits(62),
                 dealer=(number - 1) % players)


def round_boards(event: Event, round_no: int) -> list[Board]:
    """The boards every table of round ``round_no`` plays."""
    per = event.boards_per_round
    players = preset(event.rules).players
    return [board(event.seed, n, players) for n in range((round_no - 1) * per + 1, round_no * per + 1)]


class BoardStart(BaseModel):
    """A board as a table deals it and a recording starts from it: the dealer's seat, each seat's cards, the
    hands in Deal tag form, the stock (2 players: top to bottom, the turned card last) and the turned card."""

    model_config = ConfigDict(frozen=True)

    board: int
    dealer: str
    hands: dict[str, list[str]]
    deal: str
    stock: str | None = None
    turned: str


def board_start(event: Event, round_no: int, number: int) -> BoardStart:
    """Board ``number`` of round ``round_no`` as its cards are dealt at every table, or :class:`EventError` (the
    event is not duplicate, no such round, or the round does not play that board)."""
    if event.format != "duplicate":
        raise EventError(_("event {event} is not played in duplicate: its tables have no boards", event=event.name))
    found = next((b for b in round_boards(event, event.round(round_no).number) if b.number == number), None)
    if found is None:
        raise EventError(_("board {board} is not played in round {round}", board=number, round=round_no))
    rules = preset(event.rules)
    names = rules.seat_names
    deal = found.deal(rules)
    return BoardStart(board=number, dealer=names[found.dealer],
                      hands={names[s]: [card_code(c) for c in display_cards(m)] for s, m in enumerate(deal.initial_hands)},
                      deal=deal_value(deal.initial_hands, names),
                      stock=" ".join(card_code(c) for c in deal.initial_stock) or None,
                      turned=card_code(deal.initial_turned))


def board_deal(event: Event, round_no: int, number: int) -> str:
    """The hands of board ``number`` of round ``round_no`` in Deal tag form (``N:1O 3O ... W:...``): what a
    recording of the board starts from (:func:`board_start` gives its stock and turned card too)."""
    return board_start(event, round_no, number).deal


def par(board_: Board, rules: Ruleset) -> tuple[int, ...] | None:
    """Each side's double-dummy points on the board from its start (cantes counted), or None when the deal
    has a stock still to draw (from the start, the solver would search every draw: minutes, not a club's wait)."""
    from ..analysis import Position, Solver

    deal = board_.deal(rules)
    if deal.stock_left:
        return None
    return tuple(Solver().value(Position.from_deal(deal, seat=side, cantes=True)) for side in range(rules.sides))


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Matchpoints of each score of one board: 2 per other score it beats, 1 per other score it ties."""
    return [sum(2 if s > t else 1 if s == t else 0 for t in scores) - 1 for s in scores]


class BoardScore(BaseModel):
    """One board at one table, scored: side 0's and side 1's entrants, points, matchpoints, difference to par."""

    round: int
    table: int
    board: int
    entrants: tuple[int, int]
    points: tuple[int, int]
    matchpoints: tuple[int, int]
    top: int
    par_difference: tuple[int, int] | None = None


class RankLine(BaseModel):
    """One entrant's line of the duplicate ranking."""

    place: int
    entrant: int
    name: str
    boards: int
    matchpoints: int
    top: int
    percentage: float
    par_difference: int | None = None


def check_board(event: Event, round_no: int, result: BoardResult) -> BoardResult:
    """``result`` if its table plays in round ``round_no`` and its board is one of the round's, else an error."""
    if event.format != "duplicate":
        raise EventError(_("event {event} is not played in duplicate: its tables have no boards", event=event.name))
    table = event.round(round_no).table(result.table)
    if table.bye:
        raise EventError(_("table {table} of round {round} is a bye: it has no result", table=table.number,
                           round=round_no))
    if result.board not in {b.number for b in round_boards(event, round_no)}:
        raise EventError(_("board {board} is not played in round {round}", board=result.board, round=round_no))
    return result


def scores(event: Event, with_par: bool = False) -> list[BoardScore]:
    """Every board result of the event, scored in matchpoints (and against par when ``with_par``)."""
    rules = preset(event.rules)
    played: dict[int, list[tuple[int, BoardResult]]] = defaultdict(list)
    for rnd in event.rounds:
        for result in rnd.boards:
            played[result.board].append((rnd.number, result))
    found = []
    for number in sorted(played):
        results = played[number]
        mps = matchpoints([r.points[0] - r.points[1] for _r, r in results])
        top = 2 * (len(results) - 1)
        value = par(board(event.seed, number, rules.players), rules) if with_par else None
        for (round_no, result), mp in zip(results, mps):
            table = event.round(round_no).table(result.table)
            assert table.away is not None
            found.append(BoardScore(
                round=round_no, table=result.table, board=number, entrants=(table.home, table.away),
                points=result.points, matchpoints=(mp, top - mp), top=top,
                par_difference=None if value is None else (result.points[0] - value[0], result.points[1] - value[1])))
    return found


def ranking(event: Event, with_par: bool = False) -> list[RankLine]:
    """The entrants by matchpoint percentage, best first (ties: the name, then the number)."""
    totals = {e.number: [0, 0, 0, 0] for e in event.entrants}  # boards, matchpoints, top, par difference
    scored = scores(event, with_par)
    for score in scored:
        for side, entrant in enumerate(score.entrants):
            t = totals[entrant]
            t[0] += 1
            t[1] += score.matchpoints[side]
            t[2] += score.top
            t[3] += score.par_difference[side] if score.par_difference is not None else 0
    lines = [RankLine(place=0, entrant=n, name=event.entrant(n).name, boards=t[0], matchpoints=t[1], top=t[2],
                      percentage=round(100 * t[1] / t[2], 2) if t[2] else 0.0,
                      par_difference=t[3] if with_par and scored else None) for n, t in totals.items()]
    lines.sort(key=lambda line: (-line.percentage, line.name.casefold(), line.entrant))
    for i, line in enumerate(lines):
        line.place = lines[i - 1].place if i and lines[i - 1].percentage == line.percentage else i + 1
    return lines
