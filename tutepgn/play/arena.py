"""The arena: two bots play the same deals, each deal twice with the seats swapped (duplicate), and the
difference is measured with its 95% confidence interval.

Duplicate takes the luck of the cards out: on each board (a deal from the seed) bot A plays the first side
and bot B the other, then the same cards are dealt again with B on the first side.  A board's value for A is
the mean of its two games: the points difference (A's side's total, cards and cantes, less B's) and the
deal-win score (1 won, 0.5 tied, 0 lost).  The interval is the mean's normal 95% interval over the boards
(their values are independent); the Elo-style difference is ``400 * log10(s / (1 - s))`` of the deal-win
score ``s``, its interval the same transform of the score's.  Only rulesets with two sides (2 players, or 4
in pairs) seat two bots so.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ..engine import Deal
from ..i18n import gettext as _
from ..recording.simulate import stream_seed
from ..rules import Ruleset, ruleset
from ..workers import ordered_map
from .bots import Bot, bot, next_action

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Board:
    """One board's result for bot A: the mean over its games of the points difference and the deal-win score."""
    index: int
    points: float
    score: float


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
                "boards": len(self.boards), "points": interval(self.points), "wins": interval(self.wins),
                "elo": interval(self.elo)}


def elo(score: float) -> float:
    """The Elo-style difference that expects ``score`` (a share of 1): ``400 log10(s / (1 - s))``."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def play_game(rules: Ruleset, deal: Deal, first: Bot, second: Bot, seed: str) -> tuple[float, float]:
    """``first`` at the seats of side 0, ``second`` at the others: side 0's points difference and deal-win score."""
    bots = [first if rules.side_of(s) == 0 else second for s in range(rules.players)]
    rng = random.Random(seed)
    while not deal.over:
        deal.apply(next_action(deal, bots, rng))
    sheet = deal.score()
    score = 0.5 if sheet.winner is None else 1.0 if sheet.winner == 0 else 0.0
    return float(sheet.totals[0] - sheet.totals[1]), score


def play_board(spec: str, bot_a: str, bot_b: str, seed: int, duplicate: bool, index: int) -> Board:
    """Board ``index``: its cards from the seed; A on side 0, then (duplicate) B on side 0 with the same cards."""
    rules = ruleset(spec)
    a, b = bot(bot_a), bot(bot_b)
    rng = random.Random(stream_seed(rules, seed) + index)
    start = Deal.shuffled(rules, rng, dealer=index % rules.players)
    points, score = play_game(rules, start.restart(), a, b, f"{seed}:{index}:a")
    if not duplicate:
        return Board(index, points, score)
    swapped, other = play_game(rules, start.restart(), b, a, f"{seed}:{index}:b")
    return Board(index, (points - swapped) / 2, (score + 1 - other) / 2)


def arena(rules: Ruleset, bot_a: str, bot_b: str, deals: int, *, seed: int = 0, duplicate: bool = True,
          jobs: int = 1) -> ArenaResult:
    """``deals`` boards of ``bot_a`` against ``bot_b`` (each played twice when ``duplicate``), on ``jobs`` worker
    processes; raises :class:`~tutepgn.errors.UnknownBot` or ``ValueError`` (not two sides, no deals)."""
    bot(bot_a), bot(bot_b)  # an unknown name is refused here, not in a worker
    if rules.sides != 2:
        raise ValueError(_("the arena seats two bots on two sides: {rules} has {sides}", rules=rules.preset,
                           sides=rules.sides))
    if deals < 1:
        raise ValueError(_("the arena needs at least one deal"))
    work = partial(play_board, str(rules), bot_a, bot_b, seed, duplicate)
    boards = tuple(ordered_map(work, iter(range(deals)), jobs, ahead=2 * max(jobs, 1)))
    score = Interval.of([b.score for b in boards])
    return ArenaResult(bot_a, bot_b, str(rules), duplicate, boards, Interval.of([b.points for b in boards]),
                       Interval(2 * score.mean - 1, 2 * score.low - 1, 2 * score.high - 1),
                       Interval(elo(score.mean), elo(score.low), elo(score.high)))


__all__ = ["ArenaResult", "Board", "Interval", "arena", "elo", "play_board"]
