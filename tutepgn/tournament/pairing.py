"""The tables of an event's next round: all-play-all (circle method), Swiss, knockout.

Every pairing is reproducible: the same event (entrants, results, seed) gives the same tables.

* **All-play-all** (``round-robin`` and ``duplicate``): the circle method: entrant 1 stays, the others turn one
  place a round; with an odd number one entrant a round has a bye, and every pair meets exactly once.
* **Swiss**: entrants ranked as the standings rank them (matches won, deals difference, points difference;
  those still tied in an order drawn from the event's seed and the round), the first unpaired entrant meets
  the nearest in matches won that it has not met (its own score group first, else a float to the next
  group), searched with backtracking, so no encounter repeats.  With an odd number the bye goes to
  the lowest-ranked entrant that has not had one.  A Swiss of n entrants (n+1 with a bye) can always be paired
  this way for n/2 rounds (Dirac: a graph whose every vertex meets at least half the others has a perfect
  matching); more rounds could leave no pairing without a repeat, so they are refused (4 entrants: 3 rounds).
* **Knockout**: a bracket from a ranking (the entrants' order unless one is given), seed 1 against the last,
  the top seeds given the byes up to a power of two; each later round pairs the winners in bracket order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import EventError
from ..i18n import gettext as _
from .event import Event, Round, Table
from .standings import tally

SEARCH_BUDGET = 200_000
"""Steps the Swiss search may take before it gives up (never reached within the rounds allowed)."""


def circle(n: int) -> list[list[tuple[int, int | None]]]:
    """Every round of an all-play-all of entrants 1..n by the circle method (None: a bye)."""
    slots: list[int | None] = [*range(1, n + 1), *([None] if n % 2 else [])]
    size = len(slots)
    rounds = []
    for r in range(size - 1):
        pairs: list[tuple[int, int | None]] = []
        for i in range(size // 2):
            a, b = slots[i], slots[size - 1 - i]
            if i == 0 and r % 2:  # entrant 1 is not home every round
                a, b = b, a
            if a is None:
                a, b = b, None
            assert a is not None
            pairs.append((a, b))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def round_limit(event: Event) -> int:
    """How many rounds the event's format allows with its entrants (Swiss: see the module's note)."""
    n = len(event.entrants)
    even = n + n % 2
    most = {"swiss": even - 1 if even <= 4 else even // 2, "knockout": max(1, (n - 1).bit_length()),
            "round-robin": even - 1, "duplicate": even - 1}[event.format]
    return min(event.planned_rounds, most) if event.planned_rounds else most


def tables(pairs: Sequence[tuple[int, int | None]], *, byes_last: bool = True) -> list[Table]:
    """Numbered tables for ``pairs`` (the byes after the tables that play, unless the bracket's order counts)."""
    ordered = [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None] if byes_last else list(pairs)
    return [Table(number=i, home=home, away=away) for i, (home, away) in enumerate(ordered, 1)]


def encounters(event: Event) -> tuple[set[frozenset[int]], set[int]]:
    """The pairs of entrants that have met, and the entrants that have had a bye."""
    met, byes = set(), set()
    for rnd in event.rounds:
        for t in rnd.tables:
            if t.away is None:
                byes.add(t.home)
            else:
                met.add(frozenset((t.home, t.away)))
    return met, byes


def swiss(event: Event) -> list[tuple[int, int | None]]:
    """The pairs of the next Swiss round (see the module's note)."""
    rng = random.Random(f"{event.seed}:{len(event.rounds) + 1}")
    lines = tally(event)
    score = {n: line.matches_won for n, line in lines.items()}
    draw = {n: rng.random() for n in sorted(score)}
    order = sorted(score, key=lambda n: (-score[n], -lines[n].deals_difference, -lines[n].points_difference, draw[n]))
    met, byes = encounters(event)
    steps = [0]

    def pair(rest: list[int]) -> list[tuple[int, int | None]] | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > SEARCH_BUDGET:
            raise EventError(_("no Swiss pairing found for round {round}", round=len(event.rounds) + 1))
        first, others = rest[0], rest[1:]
        for i in sorted(range(len(others)), key=lambda i: (abs(score[first] - score[others[i]]), i)):
            if frozenset((first, others[i])) not in met:
                found = pair(others[:i] + others[i + 1:])
                if found is not None:
                    return [(first, others[i]), *found]
        return None

    if len(order) % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        candidates = [n for n in reversed(order) if n not in byes] or list(reversed(order))
    for bye in candidates:
        found = pair([n for n in order if n != bye])
        if found is not None:
            return found + ([] if bye is None else [(bye, None)])
    raise EventError(_("no Swiss pairing without a repeated encounter for round {round}", round=len(event.rounds) + 1))


def bracket(size: int) -> list[int]:
    """Seeds in bracket order for a draw of ``size`` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6 for 8."""
    seeds = [1]
    while len(seeds) < size:
        seeds = [x for s in seeds for x in (s, 2 * len(seeds) + 1 - s)]
    return seeds


def winner(event: Event, rnd: Round, table: Table) -> int:
    """The entrant that goes through from a knockout table (the bye's, or the one with more matches won)."""
    if table.away is None:
        return table.home
    result = rnd.results[table.number].matches
    return table.home if result[0] > result[1] else table.away


def knockout(event: Event, ranking: Sequence[int] | None = None) -> list[tuple[int, int | None]]:
    """The pairs of the next knockout round: the bracket from ``ranking`` (best first), else the winners."""
    if event.rounds:
        last = event.rounds[-1]
        alive = [winner(event, last, t) for t in last.tables]
        return [(alive[i], alive[i + 1]) for i in range(0, len(alive) - 1, 2)]
    order = list(ranking) if ranking is not None else [e.number for e in event.entrants]
    if sorted(order) != sorted(e.number for e in event.entrants):
        raise EventError(_("a knockout's ranking must name every entrant once"))
    size = 1 << (len(order) - 1).bit_length()
    seeds = bracket(size)
    pairs: list[tuple[int, int | None]] = []
    for i in range(0, size, 2):
        a, b = seeds[i], seeds[i + 1]
        pairs.append((order[a - 1], order[b - 1] if b <= len(order) else None))
    return pairs


def next_round(event: Event, ranking: Sequence[int] | None = None) -> Round:
    """The event's next round, paired by its format (not added: the caller stores it).  Refused while the last
    round has a table without a result, once the rounds allowed are paired, or with fewer than two entrants."""
    if len(event.entrants) < 2:
        raise EventError(_("event {event} needs two entrants to pair a round", event=event.name))
    if event.rounds and not event.rounds[-1].complete:
        raise EventError(_("round {round} still has tables without a result", round=len(event.rounds)))
    number = len(event.rounds) + 1
    if number > round_limit(event):
        raise EventError(_("event {event} has all its {n} rounds paired ({format}, {entrants} entrants)",
                           event=event.name, n=round_limit(event), format=event.format,
                           entrants=len(event.entrants)))
    if event.format == "swiss":
        return Round(number=number, tables=tables(swiss(event)))
    if event.format == "knockout":
        return Round(number=number, tables=tables(knockout(event, ranking), byes_last=False))
    return Round(number=number, tables=tables(circle(len(event.entrants))[number - 1]))
