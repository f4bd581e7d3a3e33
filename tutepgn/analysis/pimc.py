"""Perfect-information Monte Carlo (PIMC): a play valued as its mover could know it.

Double dummy values a card as if every hand were seen.  :func:`pimc_analysis`
values each legal card of the mover over worlds the mover could not tell apart
(:mod:`tutepgn.analysis.worlds`: the hands and, with 2 players while the stock
has cards, the stock's order), by one of three methods, named in the result:

* ``"exact"``: the mover could know every card (:func:`mover_knows_all`): one
  world, the deal itself, and its double-dummy values.
* ``"pimc"``: the mean of each card's double-dummy value over the worlds; with
  2 players while the stock holds at most ``stock_horizon`` cards, the search
  draws the stock in each world's order.
* ``"rollout"``: with more cards in the stock (or, when ``hand_horizon`` is
  given, more cards in the mover's hand), the search is too slow; in each
  world each card is played and the rest of the deal is played out by the
  play model :func:`tutepgn.policy.choose` (deterministic, so every card meets
  the same world and the same replies: common random numbers), and the mover's
  side's points from here are counted (cards, the last ten, cantes when counted).

Each value also carries ``win``: the mean over the worlds of the deal-win
probability of the mover's side after the card: the deal-win curve fitted by
self-play, :func:`tutepgn.analysis.outcome.win_probability`, of the projected
margin with the points left at the position (:func:`~tutepgn.analysis.outcome.points_left`).  For the search, the margin of card ``c`` in world ``w`` is
``(S + V_s(c, w)) - max over other sides o of (O_o + V_o(w) + V_s_best(w) - V_s(c, w))``:
``S`` and ``O_o`` the points so far, ``V_s`` the mover side's double-dummy
values, ``V_o(w)`` side ``o``'s own double-dummy value of the position (one
search per other side and world), and the points the card gives away
(``V_s_best - V_s(c)``) counted to the other side.  With two sides and no
cantes the points are shared, ``V_o = rest - V_s_best``, and the margin is
exact; with cantes (each side's value counts its own cantes) or three sides it
is a fair estimate.  For rollouts the margin is that of the played-out totals
(a tute in a rollout wins or loses the deal outright).

Cantes (``cantes=True``): the search sings them as a decision of the side
valued, while the stock lasts too (:mod:`.position`); a rollout sings them as
the play model does (the 40 first).

With ``inference=True`` each world is weighted by how likely the other seats'
actions so far were in it under :func:`tutepgn.policy.probabilities`
(:func:`tutepgn.analysis.worlds.log_likelihood`, normalised): means, standard
errors and win probabilities are weighted, and :attr:`PimcResult.effective_worlds`
(``1 / sum(w^2)``) says how many even worlds the weights are worth.  More
worlds are drawn than kept: ``candidates`` (by default
:data:`~tutepgn.analysis.worlds.CANDIDATES` = 4 times ``worlds``) are drawn and
weighted, and ``worlds`` draws kept among them by systematic resampling
(:func:`~tutepgn.analysis.worlds.weighted_worlds`), so the searches go to the
likely worlds (:attr:`PimcResult.worlds` counts the distinct ones kept, each
weighted by its share of the draws).  With ``candidates=0`` every world drawn
is kept and solved with its own weight: the plain self-normalised
importance-sampling estimate, whose effective size falls to a few worlds.

Its limit is strategy fusion: in each world the search plays as if it knew
that world, so a card that is right in every world separately (but needs a
different follow-up in each) is valued above what a player could make of it.

>>> from tutepgn import Deal, preset
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=5)
>>> for _ in range(12):
...     _ = deal.play(min(deal.legal_plays()))
>>> first = pimc_values(deal, 8, seed=1)
>>> first == pimc_values(deal, 8, seed=1) and sorted(v.card for v in first) == sorted(deal.legal_plays())
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..cards import Card
from ..engine import Deal
from ..events import Play
from ..native import ccore
from ..native.replayinput import encode, options
from ..policy import TEMPERATURE, choose
from .line import copy_of
from .outcome import points_left, win_probability
from .position import Position
from .solve import Backend, CardValue, Solver, default_backend
from .worlds import (Knowledge, World, effective_size, knowledge, log_likelihood, replays, sample_worlds,
                     starting_deal, weighted_worlds, world_deal)

WORLDS = 20
"""The worlds sampled by default."""
TABLE_BITS = 20
"""Without a stock (3 and 4 players) PIMC's solvers hold 2**20 table entries (32 MB each), not the 2**18 a single
solve is given: they live for a whole deal's analysis, so the page faults of a big table are paid once, and the
worlds of a decision (each a whole different deal at the first tricks) share it: 16% fewer nodes on the first two
tricks of ``bench/solve.py``'s deals.  With a stock each world's order of it empties the table
(:data:`~tutepgn.analysis.solve.STATIC_FIELDS`), so there it is sized by the position as a single solve's.  A
single decision's solvers (no ``solvers`` given to :func:`pimc_analysis`) are sized by the position too: a table
of 2**20 made for one decision paid its page faults every time (a decision from trick 3 on: 9 -> 60 ms)."""
SEARCH_HORIZON = 4
"""With at most this many cards in the stock a world is searched; with more, played out (``"rollout"``)."""

Method = Literal["exact", "pimc", "rollout"]


@dataclass(frozen=True, slots=True)
class PimcValue:
    """A legal card's value for the mover's side (points from here), averaged over the worlds."""
    card: Card
    mean: float
    stderr: float
    """The standard error of the mean (0 with one world, or when every world agrees)."""
    win: float
    """The mean over the worlds of the mover's side's probability of winning the deal after this card."""


@dataclass(frozen=True, slots=True)
class PimcResult:
    """Each legal card's value and how it was found."""
    values: tuple[PimcValue, ...]
    """In card order."""
    method: Method
    exact: bool
    """Whether the mover could know every card (then ``method`` is ``"exact"`` and one world is the deal)."""
    worlds: int
    """The distinct worlds valued (with inference, those kept by the resampling: at most the number asked)."""
    effective_worlds: float
    """``1 / sum(w^2)`` of the worlds' weights: ``worlds`` when they are even."""
    cantes: bool
    """Whether the values count the cantes (sung so far and still to sing)."""
    inference: bool


def mover_knows_all(deal: Deal) -> bool:
    """Whether the seat to move could know where every card lies (or has nothing left to choose).

    True in a 2-player deal once the stock is empty, at the last trick (one
    card left: the play is forced, so nothing hidden can change it), and
    whenever :func:`~tutepgn.analysis.worlds.knowledge` leaves no unseen card.
    """
    if deal.over:
        return False
    if deal.rules.players == 2 and not deal.stock_left:
        return True
    if not deal.stock_left and deal.hands[deal.turn].bit_count() == 1:
        return True
    return not knowledge(deal).unseen


def pimc_analysis(deal: Deal, worlds: int = WORLDS, seed: int | str = 0, *, cantes: bool = False,
                  backend: Backend | None = None, solver: Solver | None = None, inference: bool = False,
                  stock_horizon: int = SEARCH_HORIZON, temperature: float = TEMPERATURE,
                  candidates: int | None = None, solvers: SideSolvers | None = None,
                  hand_horizon: int | None = None) -> PimcResult:
    """Each legal card of the mover valued over ``worlds`` worlds it could not tell apart (see the module).

    ``hand_horizon``: with more cards than this in the mover's hand the worlds are played out, not searched
    (a bot's budget: a 4-player deal's first two tricks are three quarters of its searches); None, the
    analysis's default, searches whatever the hands hold.

    ``backend``: the solver's, and the C core's or Python's play-outs and likelihoods (the same figures); None:
    ``TUTEPGN_SOLVER``'s.  ``solver`` searches for the mover's side; ``solvers``, one solver per side kept by the caller
    across its decisions (a whole deal's analysis, :func:`table_bits_for`), keep their tables from one world and one
    decision to the next; without them this decision's solvers are sized by its position.
    """
    exact = mover_knows_all(deal)
    if exact:
        sampled = [World(tuple(deal.hands), tuple(deal.stock[deal.stock_pos:]))]
        weights = [1.0]
        method: Method = "exact"
    else:
        sampled, weights = weighted_worlds(deal, worlds, seed, inference=inference, temperature=temperature,
                                           candidates=candidates, backend=backend)
        long_hand = hand_horizon is not None and deal.hands[deal.turn].bit_count() > hand_horizon
        method = "rollout" if deal.stock_left > stock_horizon or long_hand else "pimc"
    cards = sorted(deal.legal_plays())
    if method == "rollout":
        samples = [_rollout(deal, world, cards, cantes, backend) for world in sampled]
    else:
        tables = solvers if solvers is not None else SideSolvers(backend)  # one decision: sized by its position
        if solver is not None:
            tables.by_side.setdefault(deal.rules.side_of(deal.turn), solver)
        guess = [points_left(deal) // deal.rules.sides]  # each world's best value guessed from the one before
        samples = [_searched(deal, world, cards, cantes, tables, guess) for world in sampled]
    values = tuple(PimcValue(c, *_weighted([s[c][0] for s in samples], weights),
                             sum(w * s[c][1] for w, s in zip(weights, samples))) for c in cards)
    weighted = inference and not exact
    size = effective_size(weights) if weighted else float(len(sampled))
    return PimcResult(values, method, exact, len(sampled), size, cantes, weighted)


def pimc_values(deal: Deal, worlds: int = WORLDS, seed: int | str = 0, *, cantes: bool = False,
                backend: Backend | None = None, solver: Solver | None = None, inference: bool = False,
                stock_horizon: int = SEARCH_HORIZON, candidates: int | None = None) -> list[PimcValue]:
    """Each legal card of the mover, its value over ``worlds`` worlds, in card order (:func:`pimc_analysis`)."""
    return list(pimc_analysis(deal, worlds, seed, cantes=cantes, backend=backend, solver=solver, inference=inference,
                              stock_horizon=stock_horizon, candidates=candidates).values)


def table_bits_for(deal: Deal) -> int | None:
    """The table size of PIMC's solvers for a deal's decisions: :data:`TABLE_BITS` without a stock."""
    return None if deal.initial_stock else TABLE_BITS


def so_far(deal: Deal, cantes: bool) -> list[int]:
    """Each side's points won so far in a deal not over: card points of the finished tricks and, counted, cantes."""
    points = list(deal.won_points)
    if cantes:
        for c in deal.cantes:
            points[c.side] += c.points
    return points


class SideSolvers:
    """One solver per side, made on first use: a solver's table is kept while the side valued stays (its
    :data:`~tutepgn.analysis.solve.STATIC_FIELDS`), so the sides' searches must not share one.  ``table_bits``
    as :class:`Solver`'s (None: sized by the first position)."""

    def __init__(self, backend: Backend | None = None, table_bits: int | None = None) -> None:
        self.backend = backend
        self.table_bits = table_bits
        self.by_side: dict[int, Solver] = {}

    def __getitem__(self, side: int) -> Solver:
        """The side's solver."""
        if side not in self.by_side:
            self.by_side[side] = Solver(self.backend, self.table_bits)
        return self.by_side[side]


def card_values(solver: Solver, position: Position, best: int) -> tuple[CardValue, ...]:
    """:meth:`Solver.values_of_legal_cards` of a position whose value ``best`` is known: one null-window search
    proves a card worth it; another searched at the fail-soft bound the first returned most often proves the
    card worth that bound exactly, where a bisection from the middle would take several."""
    ours = position.side_of[position.turn] == position.side
    values = []
    for group in position.card_groups():
        c = group[0]
        if ours:
            v = solver.search(position, best - 1, best, c)
            exact = best if v >= best else solver.value_near(position, v, c, 0, v)
        else:
            v = solver.search(position, best, best + 1, c)
            exact = best if v <= best else solver.value_near(position, v, c, v, None)
        values.append(CardValue(group, exact))
    return tuple(values)


def _searched(deal: Deal, world: World, cards: list[Card], cantes: bool,
              solvers: SideSolvers, guess: list[int]) -> dict[Card, tuple[float, float]]:
    """Each card's double-dummy value in ``world`` and the deal-win probability of its projected margin.

    The position is read from the deal as it stands in the world (:func:`world_deal`), so that what the search
    reads of the hands' history (the card each seat drew last, who holds a tute) is the world's, not the truth's.
    With two sides the other side's value is at least the points the mover's side leaves it (the cards are
    shared, the cantes only add: :func:`other_side_floor`), so its search starts there: one null-window search
    proves it when the other side has no cante to sing, and the bisection never looks below it.
    """
    r = deal.rules
    me = r.side_of(deal.turn)
    there = world_deal(deal, world)
    assert there is not None  # the world was sampled because it replays
    position = Position.from_deal(there, cantes=cantes)
    solver = solvers[me]
    guess[0] = best = solver.value_near(position, guess[0])
    values = {c: group.value for group in card_values(solver, position, best) for c in group.cards}
    before = so_far(deal, cantes)
    left = points_left(deal)
    others: list[float] = []
    for side in range(r.sides):
        if side == me:
            continue
        if r.sides == 2 and not cantes:
            other_value = left - best
        else:
            seat = next(s for s in range(r.players) if r.side_of(s) == side)
            shared = (left - best) // (r.sides - 1)
            other_value = solvers[side].value_near(Position.from_deal(there, seat, cantes=cantes), shared,
                                                   low=other_side_floor(left, best) if r.sides == 2 else 0)
        others.append(before[side] + other_value + best)
    return {c: (float(values[c]), win_probability(r, before[me] + 2 * values[c] - max(others), left)) for c in cards}


def other_side_floor(left: int, best: int) -> int:
    """With two sides, a floor under the other side's value: the points left less the mover's side's value.

    The play of the cards is the same game whoever's cantes are counted, and the card points (and the last ten)
    are shared: the card play that holds the mover's side to ``best`` (cards and its cantes) leaves the other
    side at least ``left - best`` card points whatever the mover's side plays, and its own cantes only add.
    """
    return left - best


def _rollout(deal: Deal, world: World, cards: list[Card], cantes: bool,
             backend: Backend | None = None) -> dict[Card, tuple[float, float]]:
    """Each card played in ``world`` and the deal played out by the play model: the points made, the win chance."""
    r = deal.rules
    me = r.side_of(deal.turn)
    before = so_far(deal, cantes)[me]
    left = points_left(deal)
    out: dict[Card, tuple[float, float]] = {}
    for c, (cards_and_last, with_cantes, tute_seat) in zip(cards, played_out(deal, world, cards, backend)):
        totals = with_cantes if cantes else cards_and_last
        if tute_seat >= 0:
            win = 1.0 if r.side_of(tute_seat) == me else 0.0
        else:
            margin = totals[me] - max(t for side, t in enumerate(totals) if side != me)
            win = win_probability(r, margin, left)
        out[c] = (float(totals[me] - before), win)
    return out


PlayedOut = tuple[tuple[int, ...], tuple[int, ...], int]
"""The end of a play-out: each side's card points with the last ten, its totals with the cantes, the tute's seat
(-1: none)."""


def played_out(deal: Deal, world: World, cards: list[Card], backend: Backend | None = None) -> list[PlayedOut]:
    """Each card played in ``world`` and the deal played out by :func:`~tutepgn.policy.choose`: how each ended.

    The C core plays out (``playout.c``: the world replayed once, each card from a copy) unless ``backend`` (or,
    when None, ``TUTEPGN_SOLVER``) says ``python`` or the log has an event it cannot encode; the Python play-out
    is the reference, and both give the same ends (tests/test_rollout.py).
    """
    ends = _played_out_in_c(deal, world, cards) if (backend or default_backend()) == "c" else None
    if ends is not None:
        return ends
    there = world_deal(deal, world)  # its start found once: each card replays from it (the same deal each time)
    assert there is not None  # the world was sampled because it replays
    return [_played_out(copy_of(there), c) for c in cards]


def _played_out(played: Deal, c: Card) -> PlayedOut:
    """``c`` played in ``played`` (changed) and the deal played out by :func:`~tutepgn.policy.choose`, in Python."""
    played.apply(Play(played.turn, c))
    while not played.over:
        played.apply(choose(played))
    sheet = played.score()
    cards_and_last = tuple(p + (sheet.last_trick_bonus if side == sheet.last_trick_side else 0)
                           for side, p in enumerate(sheet.card_points))
    return cards_and_last, sheet.totals, -1 if sheet.tute is None else sheet.tute.seat


def _played_out_in_c(deal: Deal, world: World, cards: list[Card]) -> list[PlayedOut] | None:
    """Each card's play-out by the C core (the world's start and the log replayed once), or None when the core
    is not built or cannot encode the log."""
    codes = encode(deal.log, deal.rules.players)
    if codes is None:
        return None
    there = world_deal(deal, world)
    assert there is not None  # the world was sampled because it replays
    ends: list[PlayedOut] | None = ccore.playout(options(deal.rules), list(there.initial_hands),
                                                 list(there.initial_stock), there.first_leader, there.trump, codes,
                                                 cards)
    return ends


def _weighted(values: list[float], weights: list[float]) -> tuple[float, float]:
    """The weighted mean and its standard error (with even weights, the usual ``s / sqrt(n)``)."""
    mean = sum(w * v for w, v in zip(weights, values))
    n = len(values)
    if n < 2:
        return mean, 0.0
    spread = sum(w * w * (v - mean) ** 2 for w, v in zip(weights, values))
    return mean, math.sqrt(spread * n / (n - 1))




__all__ = ["Knowledge", "Method", "PimcResult", "PimcValue", "PlayedOut", "SEARCH_HORIZON", "SideSolvers", "TABLE_BITS", "WORLDS", "World",
           "card_values", "knowledge", "log_likelihood", "mover_knows_all", "other_side_floor", "pimc_analysis", "pimc_values", "played_out", "replays",
           "sample_worlds", "so_far", "starting_deal", "table_bits_for", "weighted_worlds", "world_deal"]
