"""The ladder of levels: the bots in order of strength, each with the arena's difference to the one below it.

Read from stored boards (:func:`tutepgn.archive.arena_boards.arena_boards`, or anything of that shape:
:class:`StoredBoard`): per ruleset and budget, every board of two bots counts, whichever was bot A and from any
seed (a board from the other side is turned round: points negated, score ``1 - s``).  The bots are put in the
order of :data:`~tutepgn.play.bots.LEVELS` (a bot of no level by its kind and worlds), and each adjacent pair is
measured by its own boards: the points difference per deal of the upper bot and its deal-win difference, each
with its 95% interval.  Two bots whose points interval holds zero cannot be told apart on those boards;
an upper bot whose interval lies below zero is measurably weaker than the one below it.  Pairs that are not
adjacent (heuristic against random, the strongest against heuristic) are listed too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .arena import Decisions, Interval, elo
from .bots import LEVELS, PIMC_NAME

ORDER = {name: at for at, name in enumerate(LEVELS.values())}
"""Each level's bot's place, weakest first."""


class StoredBoard(Protocol):
    """A stored board as the ladder reads it (:class:`tutepgn.archive.arena_boards.StoredBoard` is one)."""

    @property
    def bot_a(self) -> str: ...
    @property
    def bot_b(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def duplicate(self) -> bool: ...
    @property
    def budget(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def score(self) -> float: ...
    @property
    def seconds_a(self) -> list[float]: ...
    @property
    def seconds_b(self) -> list[float]: ...


@dataclass(frozen=True)
class Step:
    """``upper`` against ``lower`` over ``boards`` boards: the upper bot's points and deal-win difference per
    deal and its Elo-style difference, each with its 95% interval."""
    upper: str
    lower: str
    boards: int
    points: Interval
    wins: Interval
    elo: Interval

    @property
    def apart(self) -> bool:
        """Whether the two bots are told apart: the points interval is clear of zero."""
        return self.points.clear_of_zero

    @property
    def inverted(self) -> bool:
        """Whether the upper bot is measurably weaker than the lower."""
        return self.points.high < 0


@dataclass(frozen=True)
class Rung:
    """A bot on the ladder: its name, level and CPU seconds per decision over its boards."""
    bot: str
    level: int | None
    decisions: Decisions


@dataclass(frozen=True)
class Ladder:
    """One ruleset's ladder: ``rungs`` weakest first; ``steps``, each adjacent pair measured (upper against the
    rung below), None where no board of that pair is stored; ``others``, the pairs measured that are not adjacent."""
    rules: str
    budget: str
    rungs: tuple[Rung, ...]
    steps: tuple[Step | None, ...]
    others: tuple[Step, ...]

    @property
    def merged(self) -> list[tuple[str, str]]:
        """The adjacent pairs that cannot be told apart (lower, upper)."""
        return [(s.lower, s.upper) for s in self.steps if s is not None and not s.apart]


def place(name: str) -> tuple[int, int, str]:
    """A bot's place on the ladder: the simple bots by level, then the PIMC bots by their worlds (the weighted
    after the plain), any other first."""
    pimc = PIMC_NAME.fullmatch(name)
    if pimc:
        return ORDER["heuristic"] + 1, int(pimc[1]) * 2 + bool(pimc[2]), name
    return ORDER.get(name, -1), 0, name


def step(upper: str, lower: str, boards: Sequence[tuple[float, float]]) -> Step:
    """The step from ``lower`` to ``upper`` over boards given as the upper bot's (points, score)."""
    score = Interval.of([s for _, s in boards])
    return Step(upper, lower, len(boards), Interval.of([p for p, _ in boards]),
                Interval(2 * score.mean - 1, 2 * score.low - 1, 2 * score.high - 1),
                Interval(elo(score.mean), elo(score.low), elo(score.high)))


def ladders(boards: Iterable[StoredBoard]) -> list[Ladder]:
    """A ladder per ruleset and budget of the duplicate boards, in the order of the rulesets' names."""
    groups: dict[tuple[str, str], list[StoredBoard]] = {}
    for board in boards:
        if board.duplicate:
            groups.setdefault((board.rules, board.budget), []).append(board)
    return [ladder(rules, budget, group) for (rules, budget), group in sorted(groups.items())]


def ladder(rules: str, budget: str, boards: Sequence[StoredBoard]) -> Ladder:
    """The ladder of ``boards`` (all of ``rules`` and ``budget``)."""
    pairs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    seconds: dict[str, list[float]] = {}
    for b in boards:
        seconds.setdefault(b.bot_a, []).extend(b.seconds_a)
        seconds.setdefault(b.bot_b, []).extend(b.seconds_b)
        if b.bot_a == b.bot_b:
            continue
        if place(b.bot_a) > place(b.bot_b):
            pairs.setdefault((b.bot_a, b.bot_b), []).append((b.points, b.score))
        else:
            pairs.setdefault((b.bot_b, b.bot_a), []).append((-b.points, 1 - b.score))
    names = sorted(seconds, key=place)
    rungs = tuple(Rung(n, next((k for k, v in LEVELS.items() if v == n), None), Decisions.of(seconds[n]))
                  for n in names)
    adjacent = list(zip(names[1:], names))
    steps = tuple(step(u, lo, pairs[u, lo]) if (u, lo) in pairs else None for u, lo in adjacent)
    others = tuple(step(u, lo, found) for (u, lo), found in sorted(pairs.items(), key=lambda kv: place(kv[0][0]))
                   if (u, lo) not in adjacent)
    return Ladder(rules, budget, rungs, steps, others)


__all__ = ["Ladder", "Rung", "Step", "StoredBoard", "ladder", "ladders", "place"]
