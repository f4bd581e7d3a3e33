"""The result as the measure: a deal's outcome, the chance to win the deal and the match, marks and accuracy.

What a Tute player loses is the deal or the match, not card points: ten points that change nothing are not a
mistake, three that lose the deal are.  This module turns a position's projected totals into

* :func:`deal_outcome` / :func:`tute_outcome`: the deal's result under the ruleset (who wins, doubled, the
  match points), decided by :func:`tutepgn.score.decide`, the one place the rule is written;
* :func:`win_probability`: the chance that a side wins the deal, a logistic in the margin between its projected
  total and the best other side's, whose slope shrinks with the points still to be won; its coefficients are
  fitted by self-play (``bench/calibration.py --fit``) and read from ``outcome.json`` beside this module;
* :class:`MatchModel`: the chance to win the match from a standing, a Markov chain over standings whose per-deal
  outcomes (plain, doubled, tute) have the frequencies self-play found;
* :data:`MARKS` / :func:`mark_for_loss`: marks by the loss of deal-win probability, as lichess marks by the loss
  of winning chances; :func:`move_accuracy` / :func:`game_accuracy`: lichess's accuracy formulas.

>>> from tutepgn.rules import preset
>>> r = preset("playcard-2p")
>>> deal_outcome(r, (70, 60), (70, 60), 0).winner
0
>>> round(win_probability(r, 0, 60), 3)
0.5
>>> mark_for_loss(0.12), MARK_NAMES["?"]
('?', 'mistake')
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..cards import CARD_POINTS, cards_in
from ..i18n import N_, gettext as _
from ..match import match_winner
from ..rules import PRESETS, Ruleset
from ..score import decide, tute_wins_match

if TYPE_CHECKING:
    from ..engine import Deal

DATA_FILE = "outcome.json"
"""The fitted coefficients and the self-play outcome frequencies, package data beside this module."""


# -- The deal's outcome ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DealOutcome:
    """A deal's result under its ruleset: the winning side (None: a tie the projection cannot break), whether it
    doubles, whether a tute decided it, each side's match points and each side's total."""
    winner: int | None
    doubled: bool
    tute: bool
    match_points: tuple[int, ...]
    totals: tuple[int, ...]
    wins_match: bool = False
    """A tute that wins the whole match whatever the standing (the ruleset and the target say so)."""


def deal_outcome(rules: Ruleset, totals: Sequence[int], cards_and_last: Sequence[int],
                 last_trick_side: int | None, earlier_winners: Iterable[int] = ()) -> DealOutcome:
    """The result of a deal played to its end with these totals (cantes included where counted).

    ``cards_and_last`` are each side's card points plus the last ten (the double's basis when the ruleset
    excludes cantes from it); a tie goes to the tied side that won the most recent trick: ``last_trick_side``,
    then ``earlier_winners`` (sides, latest first).  Without them (a projection) a tie leaves ``winner`` None.
    """
    recent = ([] if last_trick_side is None else [last_trick_side]) + list(earlier_winners)
    winner, _tie, doubled, won = decide(rules, totals, cards_and_last, recent)
    points = [0] * rules.sides
    if winner is not None:
        points[winner] = won
    return DealOutcome(winner, doubled, False, tuple(points), tuple(totals))


def tute_outcome(rules: Ruleset, side: int, target: int | None = None,
                 totals: Sequence[int] = ()) -> DealOutcome:
    """The result of a deal a tute ended: ``side`` wins it, scoring the ruleset's ``tute_match_points`` or
    the whole match (:func:`tutepgn.score.tute_wins_match`, by the match ``target``, default the ruleset's)."""
    outright = tute_wins_match(rules, rules.match_target if target is None else target)
    points = [0] * rules.sides
    if not outright:
        points[side] = rules.tute_match_points
    return DealOutcome(side, False, True, tuple(points), tuple(totals) or (0,) * rules.sides, outright)


# -- The fitted data --------------------------------------------------------------------------------------------

@cache
def outcome_data() -> dict[str, Any]:
    """The data file: per preset the logistic's coefficients and the self-play deal outcomes (read once)."""
    text = resources.files(__package__ or "tutepgn.analysis").joinpath(DATA_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def base_preset(rules: Ruleset) -> str:
    """The preset whose fitted data serve ``rules``: its own preset (a custom ruleset is a preset plus options,
    and the preset's players and partnerships are its own)."""
    return rules.preset if rules.preset in PRESETS else next(
        name for name, p in PRESETS.items() if (p.players, p.partnerships) == (rules.players, rules.partnerships))


# -- The chance to win the deal ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Logistic:
    """``P(win) = 1 / (1 + exp(-z))`` with, for ``u = points_left / 100``,
    ``z = margin * exp(a + b * u) + exp(d + e * u) * tanh(margin / 2) + c``.

    Two terms, both increasing in the margin whatever the coefficients: a slope that changes with the points
    still to be won (the fewer, the surer a lead), and a step smoothed over a point or two (being ahead at all
    counts for more than a plain slope says: self-play showed a lead of a few points winning about two deals
    in three where a slope alone said 55%).  ``c`` is 0 with two sides (a margin of 0 is an even deal, and the
    curve is symmetric); with three, a side level with the best other is not even.
    """
    a: float
    b: float
    c: float = 0.0
    d: float = -30.0
    e: float = 0.0

    def terms(self, margin: float, points_left: float) -> tuple[float, float, float]:
        """``z`` and its two parts' factors: ``(z, margin * exp(a + b u), exp(d + e u) * tanh(margin / 2))``."""
        u = points_left / 100
        slope = margin * math.exp(self.a + self.b * u)
        step = math.exp(self.d + self.e * u) * math.tanh(margin / 2)
        return slope + step + self.c, slope, step

    def __call__(self, margin: float, points_left: float) -> float:
        z = self.terms(margin, points_left)[0]
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


START = Logistic(a=-2.4, b=-0.8, d=1.8, e=-6.3)
"""Where the fit starts: about what the 2-player presets come to."""


def logistic_for(rules: Ruleset) -> Logistic:
    """The fitted logistic of ``rules``'s preset (:func:`base_preset`)."""
    fit = outcome_data()["win_probability"][base_preset(rules)]
    return Logistic(fit["a"], fit["b"], fit["c"] if rules.sides > 2 else 0.0, fit["d"], fit["e"])


def points_left(deal: Deal) -> int:
    """The card points still to be won in ``deal`` (hands, the trick on the table, the stock) and the last ten
    (0 once the deal is over): the ``points_left`` of :func:`win_probability`."""
    if deal.over:
        return 0
    cards = [c for h in deal.hands for c in cards_in(h)] + deal.trick + deal.stock[deal.stock_pos:]
    return sum(CARD_POINTS[c] for c in cards) + deal.rules.last_trick_bonus


def win_probability(rules: Ruleset, margin: float, points_left: int) -> float:
    """The probability that a side wins the deal when its projected total (points so far plus its value from
    here) exceeds the best other side's by ``margin`` (negative: behind), with ``points_left`` card points (and
    the last ten) still to be won.  Fitted by self-play per preset (:class:`Logistic`; a custom ruleset uses
    its preset's fit)."""
    return logistic_for(rules)(margin, points_left)


def fit_logistic(samples: Sequence[tuple[float, float, bool]], sides: int, start: Logistic = START,
                 iterations: int = 60) -> Logistic:
    """The :class:`Logistic` of least log-loss over ``(margin, points_left, won)`` samples: Fisher scoring
    (Newton's method with the expected Hessian), each step halved until the loss falls; ``c`` stays 0 with two
    sides.  Deterministic: the same samples give the same coefficients."""
    names = ("a", "b", "d", "e", "c") if sides > 2 else ("a", "b", "d", "e")
    current = start if sides > 2 else replace(start, c=0.0)
    loss = _log_loss(current, samples)
    for _step in range(iterations):
        n = len(names)
        grad = [0.0] * n
        hess = [[0.0] * n for _row in range(n)]
        for margin, left, won in samples:
            u = left / 100
            z, slope, step = current.terms(margin, left)
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            jac = (slope, slope * u, step, step * u, 1.0)[:n]
            w = max(p * (1 - p), 1e-9)
            for i in range(n):
                grad[i] += (p - float(won)) * jac[i]
                for j in range(n):
                    hess[i][j] += w * jac[i] * jac[j]
        move = _solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = replace(current, **{k: getattr(current, k) - scale * m for k, m in zip(names, move)})
            trial_loss = _log_loss(trial, samples)
            if trial_loss <= loss:
                break
            scale /= 2
        else:
            break
        done = loss - trial_loss < 1e-12 * max(1.0, loss)
        current, loss = trial, trial_loss
        if done:
            break
    return current


def _log_loss(curve: Logistic, samples: Sequence[tuple[float, float, bool]]) -> float:
    """The mean log-loss of ``curve``'s predictions against the outcomes."""
    total = 0.0
    for margin, left, won in samples:
        p = min(max(curve(margin, left), 1e-12), 1 - 1e-12)
        total -= math.log(p if won else 1 - p)
    return total / max(1, len(samples))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ vector`` by Gaussian elimination with partial pivoting (a 2x2 or 3x3 system)."""
    n = len(vector)
    m = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


# -- The chance to win the match --------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchModel:
    """The chance to win a match from a standing: a Markov chain over standings.

    Each deal is won by one side; given that a side wins, it scores ``points`` with the probabilities of
    ``outcomes`` (``(probability, match points)``; ``None`` points: a tute that wins the match outright).  The
    deals to come are even (each side wins one with probability 1/sides); the value of a standing is exact
    (a finite recursion: every outcome that scores adds a point or ends the match; those that score nothing
    leave the standing as it was, so the chain is conditioned on the deals that change it).
    """
    target: int
    sides: int
    outcomes: tuple[tuple[float, int | None], ...]
    _memo: dict[tuple[int, ...], tuple[float, ...]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def for_rules(cls, rules: Ruleset, target: int | None = None) -> MatchModel:
        """The model of ``rules`` played to ``target`` (default the ruleset's), with the frequencies of plain,
        doubled and tute wins that self-play found for its preset (a custom ruleset: its preset's frequencies,
        its own match points; no doubles if it has none, the doubles a preset without them never saw lost)."""
        target = rules.match_target if target is None else target
        counts = outcome_data()["deal_outcomes"][base_preset(rules)]
        plain, doubled, tute = counts["plain"], counts["doubled"], counts["tute"]
        if rules.double_threshold is None:
            plain, doubled = plain + doubled, 0
        total = plain + doubled + tute
        outcomes = ((plain / total, rules.deal_points), (doubled / total, rules.double_points),
                    (tute / total, None if tute_wins_match(rules, target) else rules.tute_match_points))
        return cls(target, rules.sides, tuple(o for o in outcomes if o[0] > 0))

    def _moving(self) -> list[tuple[float, int | None]]:
        """The outcomes that change the standing, their probabilities renormalised (a deal that scores nothing
        leaves the chain where it was: conditioning on the others is exact)."""
        moving = [(q, pts) for q, pts in self.outcomes if pts is None or pts > 0]
        mass = sum(q for q, _pts in moving)
        return [(q / mass, pts) for q, pts in moving]

    def _next(self, standing: tuple[int, ...], winner: int, points: int) -> tuple[int, ...]:
        return tuple(min(self.target, p + points) if s == winner else p for s, p in enumerate(standing))

    def _known(self, standing: tuple[int, ...]) -> tuple[float, ...] | None:
        """Each side's chance at a standing already valued or over (one-hot on the match's winner), else None."""
        done = match_winner(standing, self.target)
        if done is not None:
            return tuple(float(s == done) for s in range(self.sides))
        return self._memo.get(standing)

    def _values(self, standing: tuple[int, ...]) -> tuple[float, ...]:
        """Each side's chance to win the match from ``standing`` before a deal: the chain solved backwards from
        the standings after it (an explicit stack, however long the match)."""
        stack = [standing]
        while stack:
            top = stack[-1]
            if self._known(top) is not None:
                stack.pop()
                continue
            later = {self._next(top, w, pts) for w in range(self.sides) for _q, pts in self._moving() if pts}
            missing = [n for n in later if self._known(n) is None]
            if missing:
                stack.extend(missing)
                continue
            self._memo[top] = self._deal(top, [1 / self.sides] * self.sides)
            stack.pop()
        known = self._known(standing)
        assert known is not None
        return known

    def _deal(self, standing: tuple[int, ...], chances: Sequence[float]) -> tuple[float, ...]:
        """Each side's chance to win the match when the next deal is won by each side with ``chances``, the
        standings after it valued already."""
        values = [0.0] * self.sides
        for winner, chance in enumerate(chances):
            for q, pts in self._moving():
                after = (tuple(float(s == winner) for s in range(self.sides)) if pts is None
                         else self._known(self._next(standing, winner, pts)))
                assert after is not None
                for s, v in enumerate(after):
                    values[s] += chance * q * v
        return tuple(values)

    def _check(self, standing: Sequence[int], side: int) -> tuple[int, ...]:
        if len(standing) != self.sides or not 0 <= side < self.sides:
            raise ValueError(_("a standing of {sides} sides and a side among them, not {standing} and {side}",
                               sides=self.sides, standing=list(standing), side=side))
        return tuple(min(self.target, p) for p in standing)

    def win_match(self, standing: Sequence[int], side: int) -> float:
        """The chance that ``side`` wins the match from ``standing`` (match points per side) before a deal."""
        return self._values(self._check(standing, side))[side]

    def win_match_with_deal(self, standing: Sequence[int], side: int, p_win_deal: float) -> float:
        """The chance that ``side`` wins the match if it wins the deal being played with probability
        ``p_win_deal`` (the other sides share the rest evenly): the outcomes of a won or lost deal weighted by
        the self-play distribution, then the chain."""
        start = self._check(standing, side)
        if match_winner(start, self.target) is not None:
            return self._values(start)[side]
        self._values(start)  # every standing after this deal valued on the way
        other = (1 - p_win_deal) / (self.sides - 1)
        return self._deal(start, [p_win_deal if s == side else other for s in range(self.sides)])[side]


# -- Marks and accuracy -----------------------------------------------------------------------------------------

MARKS: tuple[tuple[float, str], ...] = ((0.15, "??"), (0.10, "?"), (0.05, "?!"))
"""Loss of deal-win probability (0..1) and the mark it earns: lichess's 0.3/0.2/0.1 on its -1..+1 scale."""
MARK_NAMES: dict[str, str] = {"?!": N_("inaccuracy"), "?": N_("mistake"), "??": N_("blunder")}
"""Each mark in words (translate with ``_()`` where shown: imprecisión, error, error grave)."""


def mark_for_loss(loss: float) -> str | None:
    """The mark of a play that lost ``loss`` of its side's deal-win probability (None below 0.05).

    >>> [mark_for_loss(x) for x in (0.0, 0.05, 0.12, 0.3)]
    [None, '?!', '?', '??']
    """
    return next((text for threshold, text in MARKS if loss >= threshold - 1e-12), None)


def move_accuracy(win_before: float, win_after: float) -> float:
    """A play's accuracy, 0..100, from its side's deal-win probability before and after it (0..1), lichess's
    formula on percentages: ``103.1668100711649 * exp(-0.04354415386753951 * loss) - 3.166924740191411``, plus
    lichess's +1 bonus, clamped to 0..100; 100 when the play lost nothing."""
    loss = 100 * (win_before - win_after)
    if loss <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def game_accuracy(moves: list[tuple[float, float]]) -> float | None:
    """A player's accuracy over a deal or a match from each of its plays' ``(win_before, win_after)`` (0..1), or
    None without plays; lichess's: the mean of the volatility-weighted mean and the harmonic mean of the
    move accuracies.  The weights are the standard deviations (in percent, clamped to 0.5..12) of windows of
    the player's win series (each play's ``win_before`` then the last ``win_after``), ``clamp(n / 10, 2, 8)``
    positions long: the first window repeated for the first plays, then sliding; the harmonic mean counts an
    accuracy under 1 as 1."""
    if not moves:
        return None
    accuracies = [move_accuracy(b, a) for b, a in moves]
    wins = [100 * b for b, _a in moves] + [100 * moves[-1][1]]
    size = max(2, min(8, len(wins) // 10))
    windows = [wins[:size]] * (min(size, len(wins)) - 2) + [wins[i:i + size] for i in range(len(wins) - size + 1)]
    weights = [max(0.5, min(12.0, _stdev(w))) for w in windows[:len(accuracies)]]
    weighted = sum(x * w for x, w in zip(accuracies, weights)) / sum(weights)
    harmonic = len(accuracies) / sum(1 / max(1.0, x) for x in accuracies)
    return (weighted + harmonic) / 2


def _stdev(values: list[float]) -> float:
    """The population standard deviation (lichess's)."""
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
