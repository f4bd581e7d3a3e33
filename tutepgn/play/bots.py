"""Bots with levels, one interface: each chooses from its seat's view (:class:`~tutepgn.play.view.SeatView`).

* ``random`` (level 1): any legal action of its own; ``greedy`` (level 2): declares whenever it may, else a
  random card; ``heuristic`` (level 3): the play model of a club player, :func:`tutepgn.policy.scores`.
* ``pimc-N`` and ``pimc-Nw`` (``pimc-5`` is level 4, ``pimc-40w`` level 5): perfect-information Monte Carlo
  over the solver's C core (:func:`tutepgn.analysis.pimc.pimc_analysis`): up to ``N`` worlds that agree with
  what the seat saw
  are dealt, each solved a cartes vistas (or played out by the play model while the stock is long or the
  hand holds more than :data:`HAND_HORIZON` cards), and the card with the best mean is played; declarations
  are the play model's.  The worlds are searched in batches until ``N`` are done or the time budget per
  decision is spent (at least one batch).  With ``w`` the worlds
  are weighted by how likely the others' plays so far were in each (the analysis's ``--inference``).
  The budget (:data:`BUDGETS`): ``time`` (the table's: a person waits no longer on a slow machine) or
  ``worlds`` (every ``N`` worlds searched, no clock: the same plays from the same seed on any machine, as the
  arena and ``tute simulate`` play).

Every bot gets the view of one seat and answers with one of that seat's actions, or None to pass a
declaration when it is not its turn to play (a partner may sing when its side won the trick):
:func:`next_action` asks them in the table's order.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, cast

from ..engine import Deal
from ..errors import UnknownBot
from ..events import Action, Play
from ..i18n import gettext as _
from ..policy import scores
from ..analysis.pimc import SideSolvers, pimc_analysis
from ..recording.simulate import BOTS, BotName, greedy_choice
from ..recording.simulate import Bot as SimulatorBot
from .view import SeatView

LEVELS: dict[int, str] = {1: "random", 2: "greedy", 3: "heuristic", 4: "pimc-5", 5: "pimc-40w"}
"""The bot at each level, weakest first, each measured stronger than the one below by the arena (docs/play.md).
The world counts between 5 and 40 weighted (10, 20, 40: levels 5 to 7 when there were 8) are steps of a few
points that the arena has not told apart, so they are not levels; they play by name (``pimc-20``)."""
TOP_LEVEL = max(LEVELS)
"""The strongest level."""
BATCH = 2
"""Worlds searched per PIMC call: the time budget is checked between batches."""
HAND_HORIZON = 8
"""A PIMC bot searches its worlds with at most this many cards in its hand and plays them out by the play model
with more (the first two tricks of a 4-player deal, the first four of a 3-player one): those searches were
three quarters of a 4-player bot's time (1.2 s a decision at worst at 5 worlds), and a 2-player hand never
holds more (its stock has its own horizon)."""
PIMC_NAME = re.compile(r"pimc-([1-9][0-9]{0,3})(w?)")
Budget = Literal["time", "worlds"]
BUDGETS: tuple[Budget, ...] = ("worlds", "time")
"""A PIMC bot's budget per decision: ``worlds`` (all its worlds, no clock: reproducible) or ``time`` (its worlds
within :func:`seconds_for`, at least one batch: play then depends on the machine's speed)."""


class Bot(Protocol):
    """A player for one seat at a time: it sees that seat's view and answers with one of the seat's actions."""

    @property
    def name(self) -> str:
        """The bot's name as ``tute simulate --bot`` takes it (``heuristic``, ``pimc-20``)."""

    @property
    def level(self) -> int | None:
        """Its level (1 to :data:`TOP_LEVEL`) when it is one of :data:`LEVELS`."""

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """An action of ``view.seat``; None (pass) only when the seat is not the one to play a card."""


def own_declarations(view: SeatView) -> list[Action]:
    """The declarations ``view.seat`` may make now, in the engine's order."""
    return [a for a in view.legal_actions() if type(a) is not Play]


def model_declaration(view: SeatView) -> Action | None:
    """The play model's declaration for the seat, if it scores above passing (a tute, a cante: always)."""
    scored = scores(view.stand_in)
    best = max(own_declarations(view), key=scored.__getitem__, default=None)
    return best if best is not None and scored[best] > 0 else None


@dataclass(frozen=True)
class SimpleBot:
    """``random`` or ``greedy``: the simulator's bots, kept to the seat's own actions."""

    name: str
    level: int | None

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """Random: any own action (or passing, out of turn); greedy: the first declaration it may make."""
        own = view.legal_actions()
        if self.name == "random":
            return rng.choice(own if view.to_move else [*own, None])
        return greedy_choice(own, view.stand_in.trump, rng) if own else None


@dataclass(frozen=True)
class HeuristicBot:
    """The club player's play model (:mod:`tutepgn.policy`): deterministic, from the seat's view."""

    name: str = "heuristic"
    level: int | None = 3

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The best-scored own action; out of turn, the model's declaration or a pass."""
        if not view.to_move:
            return model_declaration(view)
        scored = scores(view.stand_in)
        own = view.legal_actions()
        return max(own, key=scored.__getitem__)


@dataclass
class PimcBot:
    """PIMC over the solver: up to ``worlds`` worlds per decision, within ``seconds`` (after one batch); with
    ``seconds`` None, every world (no clock: the same plays on any machine)."""

    worlds: int
    seconds: float | None
    weighted: bool = False
    level: int | None = None
    hand_horizon: int | None = HAND_HORIZON
    """With more cards in its hand the worlds are played out, not searched (:data:`HAND_HORIZON`)."""

    @property
    def name(self) -> str:
        """``pimc-N``, ``pimc-Nw`` when weighted."""
        return f"pimc-{self.worlds}{'w' if self.weighted else ''}"

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The play model's declarations; then the card with the best mean over the worlds (ties: the higher
        deal-win chance, then the lower card)."""
        declaration = model_declaration(view)
        if declaration is not None or not view.to_move:
            return declaration
        plays = [a for a in view.legal_actions() if type(a) is Play]
        if len(plays) == 1:
            return plays[0]
        means = self.values(view, rng.randrange(2**32))
        card = max(means, key=lambda c: (means[c][0], means[c][1], -c))
        return next(p for p in plays if p.card == card)

    def values(self, view: SeatView, seed: int) -> dict[int, tuple[float, float]]:
        """Each legal card's mean points and deal-win chance over the worlds searched within the budget."""
        # One solver a side for all the batches of this decision (a solver per call made a new table every two
        # worlds), each sized by its first position, as a single solve's: a bot searches from 8 cards a hand, where
        # the analysis's 2**20 entries cost more in page faults than they save (torofun-4p boards: 1.5 times the CPU)
        solvers = SideSolvers()
        totals: dict[int, list[float]] = {}
        done = batch = 0
        start = time.monotonic()
        while done < self.worlds and (done == 0 or self.seconds is None or time.monotonic() - start < self.seconds):
            size = min(BATCH, self.worlds - done)
            result = pimc_analysis(view.stand_in, size, f"{seed}:{batch}", cantes=True, solvers=solvers,
                                   inference=self.weighted, hand_horizon=self.hand_horizon)
            for v in result.values:
                acc = totals.setdefault(v.card, [0.0, 0.0])
                acc[0] += v.mean * size
                acc[1] += v.win * size
            done += size
            batch += 1
            if result.exact:
                break
        return {c: (m / done, w / done) for c, (m, w) in totals.items()}


def seconds_for(worlds: int) -> float:
    """The default time budget of a PIMC bot per decision: half a second and a tenth per world."""
    return 0.5 + 0.1 * worlds


def bot(name: str, budget: Budget = "time") -> Bot:
    """The bot called ``name``: ``random``, ``greedy``, ``heuristic``, ``pimc-N``, ``pimc-Nw``, or a level
    (``level-N`` or ``N``, :data:`LEVELS`); a PIMC bot's ``budget`` per decision is time (the table's) or worlds only
    (:data:`BUDGETS`).  Raises :class:`~tutepgn.errors.UnknownBot`."""
    key = name.strip().lower()
    level = re.fullmatch(r"(?:level-|nivel-)?([0-9]+)", key)
    if level:
        return level_bot(int(level[1]), budget)
    levels = {v: k for k, v in LEVELS.items()}
    if key in ("random", "greedy"):
        return SimpleBot(key, levels[key])
    if key == "heuristic":
        return HeuristicBot()
    pimc = PIMC_NAME.fullmatch(key)
    if pimc:
        worlds = int(pimc[1])
        return PimcBot(worlds, seconds_for(worlds) if budget == "time" else None, bool(pimc[2]), levels.get(key))
    raise UnknownBot(_("unknown bot {bot}: random, greedy, heuristic, pimc-N (N worlds), pimc-Nw (weighted) or a "
                       "level 1-{top}", bot=repr(name), top=TOP_LEVEL))


def level_bot(level: int, budget: Budget = "time") -> Bot:
    """The bot of ``level`` (:data:`LEVELS`), a PIMC one with ``budget``."""
    if level not in LEVELS:
        raise UnknownBot(_("no level {level}: the levels are 1 to {top}", level=level, top=TOP_LEVEL))
    return bot(LEVELS[level], budget)


def declarers(deal: Deal) -> list[int]:
    """The seats other than the one to move that may declare now, from the seat to move on."""
    n = deal.rules.players
    seats = {a.seat for a in deal.legal_actions() if a.seat != deal.turn}
    return [s for s in ((deal.turn + k) % n for k in range(1, n)) if s in seats]


def next_action(deal: Deal, bots: Sequence[Bot], rng: random.Random) -> Action:
    """The table's next action when every seat is a bot: each seat that may declare out of turn is asked
    first (its declaration or a pass), then the seat to move."""
    for seat in declarers(deal):
        action = bots[seat].choose(SeatView.of(deal, seat), rng)
        if action is not None:
            return action
    action = bots[deal.turn].choose(SeatView.of(deal, deal.turn), rng)
    assert action is not None, "the seat to move passed"
    return action


def named_bot(name: str, players: int, budget: Budget = "worlds") -> BotName | SimulatorBot:
    """The bot ``tute simulate --bot NAME`` plays with: the simulator's own for its names (``random``, ``greedy``,
    ``heuristic``: the same deals as before from a seed), else :func:`bot`'s at every seat (a PIMC bot by its
    worlds only unless ``budget`` is time: the same deals from a seed on any machine)."""
    key = name.strip().lower()
    if key in BOTS:
        return cast(BotName, key)
    return simulator_bot(bot(name, budget), players)


def simulator_bot(player: Bot, players: int) -> SimulatorBot:
    """``player`` at every seat, as the simulator calls a bot (:mod:`tutepgn.recording.simulate`)."""
    bots = [player] * players

    def play(deal: Deal, rng: random.Random) -> Action:
        return next_action(deal, bots, rng)
    return play
