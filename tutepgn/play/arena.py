"""The arena: two bots play the same deals, each deal twice with the seats swapped (duplicate), and the
difference is measured with its 95% confidence interval.

Duplicate takes the luck of the cards out: on each board (a deal from the seed) bot A plays the first side
and bot B the other, then the same cards are dealt again with B on the first side.  A board's value for A is
the mean of its two games: the points difference (A's side's total, cards and cantes, less B's) and the
deal-win score (1 won, 0.5 tied, 0 lost).  The interval is the mean's normal 95% interval over the boards
(their values are independent); the Elo-style difference is ``400 * log10(s / (1 - s))`` of the deal-win
score ``s``, its interval the same transform of the score's.  Only rulesets with two sides (2 players, or 4
in pairs) seat two bots so.

Reproducible: the PIMC bots play by their worlds only (budget ``worlds``, no clock), so the same seed gives
the same boards, plays and result on any machine.  Each bot's CPU time per decision (a card chosen among two
or more) is measured as it plays (:class:`Decisions`: median and p90).  Resumable: given a
:class:`BoardStore` (the archive's :class:`tutepgn.archive.arena_boards.ArenaStore`), every board is stored as it
ends and the boards already stored for the same pairing are not played again.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple, Protocol

from ..engine import Deal
from ..events import Action, Play
from ..i18n import gettext as _
from ..recording.simulate import stream_seed
from ..rules import Ruleset, ruleset
from ..workers import ordered_map
from .bots import Bot, Budget, bot, next_action
from .view import SeatView

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Board:
    """One board's result for bot A: the mean over its games of the points difference and the deal-win score,
    and each bot's CPU seconds per decision on it (not part of the result: a machine's, not the play's)."""
    index: int
    points: float
    score: float
    times_a: tuple[float, ...] = field(default=(), compare=False)
    times_b: tuple[float, ...] = field(default=(), compare=False)

    def row(self) -> BoardRow:
        """The board as a store keeps it."""
        return self.index, self.points, self.score, list(self.times_a), list(self.times_b)

    @classmethod
    def of(cls, row: BoardRow) -> Board:
        """A board from a store's row."""
        index, points, score, times_a, times_b = row
        return cls(index, points, score, tuple(times_a), tuple(times_b))


BoardRow = tuple[int, float, float, list[float], list[float]]
"""A board as a store keeps it: index, points, score, A's and B's seconds per decision."""
PairingKey = tuple[str, str, str, int, bool, str]
"""What identifies a run's boards in a store: :class:`Pairing` as a plain tuple."""


class Pairing(NamedTuple):
    """Two bots on a ruleset from a seed: the boards of any run with the same pairing are the same boards."""
    bot_a: str
    bot_b: str
    rules: str
    seed: int
    duplicate: bool
    budget: str


class BoardStore(Protocol):
    """Where the arena keeps boards as they end, so that a run stopped can be resumed."""

    def stored(self, pairing: PairingKey) -> list[BoardRow]:
        """Every board stored for ``pairing``."""

    def add(self, pairing: PairingKey, board: BoardRow) -> None:
        """Keep one board of ``pairing`` (written at once: a run stopped loses none that ended)."""


@dataclass(frozen=True)
class Decisions:
    """A bot's CPU seconds per decision (a card chosen among two or more): how many, median and p90."""
    count: int
    median: float | None
    p90: float | None

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Decisions:
        """The count, median and 90th percentile (nearest rank) of ``seconds``."""
        if not seconds:
            return cls(0, None, None)
        ordered = sorted(seconds)
        return cls(len(ordered), statistics.median(ordered), ordered[math.ceil(0.9 * len(ordered)) - 1])

    def to_dict(self) -> dict[str, float | int | None]:
        """The JSON form."""
        return {"decisions": self.count, "median": self.median, "p90": self.p90}


class Timed:
    """A bot whose decisions are timed: the CPU seconds of each card it chose among two or more."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.times: list[float] = []

    @property
    def name(self) -> str:
        """The timed bot's name."""
        return self.inner.name

    @property
    def level(self) -> int | None:
        """The timed bot's level."""
        return self.inner.level

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The bot's choice; its CPU time kept when it chose a card and had another to choose."""
        start = time.process_time()
        action = self.inner.choose(view, rng)
        spent = time.process_time() - start
        if type(action) is Play and sum(type(a) is Play for a in view.legal_actions()) > 1:
            self.times.append(spent)
        return action


@dataclass(frozen=True)
class Interval:
    """A mean and its 95% confidence interval."""
    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        """The mean of ``values`` and its normal 95% interval (zero width for one value)."""
        n = len(values)
        mean = sum(values) / n
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = Z95 * spread / math.sqrt(n)
        return cls(mean, mean - half, mean + half)

    @property
    def clear_of_zero(self) -> bool:
        """Whether the interval lies wholly on one side of zero."""
        return self.low > 0 or self.high < 0


@dataclass(frozen=True)
class ArenaResult:
    """Bot A against bot B over ``boards``: A's mean points difference, deal-win difference and Elo difference."""
    bot_a: str
    bot_b: str
    rules: str
    duplicate: bool
    boards: tuple[Board, ...]
    budget: str
    """The PIMC bots' budget per decision (``worlds``: reproducible)."""
    seed: int
    resumed: int
    """How many of the boards were read from the store rather than played."""
    decisions: tuple[Decisions, Decisions]
    """A's and B's CPU seconds per decision over the boards."""
    points: Interval
    """A's side's points less B's, per deal."""
    wins: Interval
    """A's deal-win score less B's (2s - 1): +1 when A wins every deal."""
    elo: Interval
    """The Elo-style difference of the deal-win score (infinite when one bot won or tied every deal)."""

    def to_dict(self) -> dict[str, object]:
        """The JSON form (``tute arena --format json``)."""
        def interval(i: Interval) -> dict[str, float | None]:
            return {k: (v if math.isfinite(v) else None) for k, v in (("mean", i.mean), ("low", i.low), ("high", i.high))}
        return {"bot_a": self.bot_a, "bot_b": self.bot_b, "rules": self.rules, "duplicate": self.duplicate,
                "budget": self.budget, "seed": self.seed, "boards": len(self.boards), "resumed": self.resumed,
                "points": interval(self.points), "wins": interval(self.wins), "elo": interval(self.elo),
                "seconds_per_decision": {"a": self.decisions[0].to_dict(), "b": self.decisions[1].to_dict()}}


def elo(score: float) -> float:
    """The Elo-style difference that expects ``score`` (a share of 1): ``400 log10(s / (1 - s))``."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def play_game(rules: Ruleset, deal: Deal, first: Timed, second: Timed, seed: str) -> tuple[float, float]:
    """``first`` at the seats of side 0, ``second`` at the others: side 0's points difference and deal-win score."""
    bots: list[Bot] = [first if rules.side_of(s) == 0 else second for s in range(rules.players)]
    rng = random.Random(seed)
    while not deal.over:
        deal.apply(next_action(deal, bots, rng))
    sheet = deal.score()
    score = 0.5 if sheet.winner is None else 1.0 if sheet.winner == 0 else 0.0
    return float(sheet.totals[0] - sheet.totals[1]), score


def play_board(spec: str, bot_a: str, bot_b: str, seed: int, duplicate: bool, budget: Budget, index: int) -> Board:
    """Board ``index``: its cards from the seed; A on side 0, then (duplicate) B on side 0 with the same cards.
    Each game has its own bots (a PIMC bot's solver starts afresh), so a board is the same played alone."""
    rules = ruleset(spec)
    rng = random.Random(stream_seed(rules, seed) + index)
    start = Deal.shuffled(rules, rng, dealer=index % rules.players)
    a, b = Timed(bot(bot_a, budget)), Timed(bot(bot_b, budget))
    points, score = play_game(rules, start.restart(), a, b, f"{seed}:{index}:a")
    if not duplicate:
        return Board(index, points, score, tuple(a.times), tuple(b.times))
    a2, b2 = Timed(bot(bot_a, budget)), Timed(bot(bot_b, budget))
    swapped, other = play_game(rules, start.restart(), b2, a2, f"{seed}:{index}:b")
    return Board(index, (points - swapped) / 2, (score + 1 - other) / 2, tuple(a.times + a2.times),
                 tuple(b.times + b2.times))


def arena(rules: Ruleset, bot_a: str, bot_b: str, deals: int, *, seed: int = 0, duplicate: bool = True,
          jobs: int = 1, budget: Budget = "worlds", store: BoardStore | None = None) -> ArenaResult:
    """``deals`` boards of ``bot_a`` against ``bot_b`` (each played twice when ``duplicate``), on ``jobs`` worker
    processes, the PIMC bots by ``budget``; with a ``store``, the boards it holds for this pairing are read, not
    played, and each board played is stored as it ends.  Raises :class:`~tutepgn.errors.UnknownBot` or
    ``ValueError`` (not two sides, no deals)."""
    a, b = bot(bot_a, budget).name, bot(bot_b, budget).name  # an unknown name is refused here, not in a worker
    if rules.sides != 2:
        raise ValueError(_("the arena seats two bots on two sides: {rules} has {sides}", rules=rules.preset,
                           sides=rules.sides))
    if deals < 1:
        raise ValueError(_("the arena needs at least one deal"))
    pairing = Pairing(a, b, str(rules), seed, duplicate, budget)
    done = {board.index: board for board in map(Board.of, store.stored(pairing) if store else [])
            if board.index < deals}
    resumed = len(done)
    work = partial(play_board, str(rules), a, b, seed, duplicate, budget)
    played = ordered_map(work, (i for i in range(deals) if i not in done), jobs, ahead=2 * max(jobs, 1))
    for board in played:
        if store is not None:
            store.add(pairing, board.row())
        done[board.index] = board
    boards = tuple(done[i] for i in range(deals))
    return result_of(pairing, boards, resumed=resumed)


def result_of(pairing: Pairing, boards: Sequence[Board], *, resumed: int = 0) -> ArenaResult:
    """The arena's measures over ``boards`` of ``pairing``."""
    score = Interval.of([b.score for b in boards])
    return ArenaResult(pairing.bot_a, pairing.bot_b, pairing.rules, pairing.duplicate, tuple(boards), pairing.budget,
                       pairing.seed, resumed,
                       (Decisions.of([t for b in boards for t in b.times_a]),
                        Decisions.of([t for b in boards for t in b.times_b])),
                       Interval.of([b.points for b in boards]),
                       Interval(2 * score.mean - 1, 2 * score.low - 1, 2 * score.high - 1),
                       Interval(elo(score.mean), elo(score.low), elo(score.high)))


__all__ = ["ArenaResult", "Board", "BoardStore", "Decisions", "Interval", "Pairing", "arena", "elo", "play_board",
           "result_of"]
