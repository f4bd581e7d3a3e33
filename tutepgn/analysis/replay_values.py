"""The replay behind :func:`tutepgn.analysis.analyse`: each side's value at every card, each play valued.

Once the stock is empty, each side's **standing value** ``W`` (its points so
far plus its double-dummy value) is searched at every card played, one solver
per side keeping its table for the whole deal.  A play's interval runs from
its card to the next card (or the deal's end), declarations between included:
the mover's side's drop over it is the play's cost, every other side's change
is what the play gave that side.  So ``par - own costs + given == actual``
adds up for every side by construction, with cantes or not.
"""

from __future__ import annotations

from dataclasses import replace

from ..engine import Deal
from ..events import Context, Play, Tute
from .deal_analysis import (DealAnalysis, DealOutcomeSeen, MatchChances, MatchContext, Method, PlayAnalysis,
                            projection)
from .line import best_line
from .outcome import MatchModel, points_left, win_probability
from .pimc import PimcValue, SideSolvers, card_values, mover_knows_all, pimc_analysis, table_bits_for
from .position import Position
from .solve import Backend, Solver


class Valuer:
    """One deal's analysis under way: its options, solvers and what the replay found."""

    def __init__(self, deal: Deal, *, cantes: bool, worlds: int, seed: int, inference: bool,
                 backend: Backend | None, stock_horizon: int) -> None:
        self.deal = deal
        self.rules = deal.rules
        self.cantes = cantes
        self.worlds = worlds
        self.seed = seed
        self.inference = inference
        self.stock_horizon = stock_horizon
        self.seat_sides = tuple(self.rules.side_of(s) for s in range(self.rules.players))
        self.representative = [self.seat_sides.index(side) for side in range(self.rules.sides)]
        self.solvers = [Solver(backend) for _ in range(self.rules.sides)]
        self.pimc_solvers = SideSolvers(backend, table_bits_for(deal))
        """PIMC's solvers, one per side, kept across the worlds and the decisions of the deal."""
        self.context = Context(self.rules.seat_names, deal.trump)
        """How the best lines' actions are written: the seats' letters, the trump, cards as codes."""

    def run(self, match: MatchContext | None) -> DealAnalysis:
        """Replay the deal's log and value every card."""
        r = self.rules
        replayed = self.deal.restart()
        plays: list[PlayAnalysis] = []
        starts: list[tuple[int, ...]] = []  # W at each double-dummy play, in order
        leads: list[tuple[tuple[int, ...], int]] = []  # W and points left at each trick start valued
        start_totals: tuple[int, ...] | None = None
        end: tuple[int, ...] | None = None
        for index, action in enumerate(self.deal.log):
            if type(action) is Play and not replayed.over:
                trick = len(replayed.tricks) + 1
                if replayed.stock_left:
                    plays.append(self.stock_play(replayed, index, trick, action))
                else:
                    w = self.standing(replayed, starts[-1] if starts else None)
                    if start_totals is None:
                        start_totals = self.points(replayed)
                    if not replayed.trick:
                        leads.append((w, points_left(replayed)))
                    starts.append(w)
                    plays.append(self.double_dummy_play(replayed, index, trick, action, w))
            elif type(action) is Tute and start_totals is not None and not replayed.over:
                end = self.standing(replayed)  # a tute ends the deal: the values stop where it was declared
            replayed.apply(action)
        totals = self.points(replayed)
        if end is None:
            end = totals if replayed.over or start_totals is None else self.standing(replayed)
        sheet = replayed.score(match.target if match else None)
        plays = self.close_intervals(plays, starts, end)
        start = totals if start_totals is None else start_totals  # nothing valued double dummy: nothing made since
        par = tuple(w - s for w, s in zip(starts[0], start)) if starts else (0,) * r.sides
        costs = [0] * r.players
        given = [0] * r.sides
        for p, before, after in zip([p for p in plays if p.double_dummy], starts, [*starts[1:], end]):
            mover = self.seat_sides[p.seat]
            costs[p.seat] += p.cost or 0
            for side in range(r.sides):
                if side != mover:
                    given[side] += after[side] - before[side]
        graph = [w for w, _ in leads] + ([totals] if leads else [])
        win_graph = [self.wins(w, left) for w, left in leads]
        if leads:
            win_graph.append(tuple(float(sheet.winner == k) if sheet.winner is not None else self.wins(totals, 0)[k]
                                   for k in range(r.sides)))
        outcome = DealOutcomeSeen(sheet.winner, sheet.doubled, sheet.tute is not None, tuple(sheet.match_points),
                                  tuple(sheet.totals))
        return DealAnalysis(
            cantes=self.cantes, worlds=self.worlds, seed=self.seed, inference=self.inference, plays=tuple(plays),
            par=par, actual=tuple(t - s for t, s in zip(totals, start)), totals=totals, costs=tuple(costs),
            given=tuple(given), reached=tuple(e - s for e, s in zip(end, start)), seat_sides=self.seat_sides,
            trick_values=tuple(graph), win_graph=tuple(win_graph), outcome=outcome,
            match=None if match is None else self.match_chances(match, sheet.winner), complete=sheet.complete,
            seats=r.seat_names, sides=r.side_labels)

    def points(self, deal: Deal) -> tuple[int, ...]:
        """Each side's points so far: cards and the last ten, and the cantes declared when they count."""
        sheet = deal.score()
        return tuple(t - (0 if self.cantes else sheet.cante_points(side)) for side, t in enumerate(sheet.totals))

    def standing(self, deal: Deal, before: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """Each side's points so far plus its double-dummy value (one search per side, its table reused).

        ``before``, the standing at the card before, is the guess each side's value is searched around: a card
        that costs nothing leaves every side's standing as it was.
        """
        so_far = self.points(deal)
        values: list[int] = []
        for k in range(self.rules.sides):
            position = Position.from_deal(deal, self.representative[k], cantes=self.cantes)
            if before is not None:
                guess = before[k] - so_far[k]
            else:  # the first position: the points left shared evenly among the sides not valued yet
                guess = (points_left(deal) - sum(values)) // (self.rules.sides - k)
            values.append(self.solvers[k].value_near(position, guess))
        return tuple(p + v for p, v in zip(so_far, values))

    def wins(self, standing: tuple[int, ...], left: int) -> tuple[float, ...]:
        """Each side's probability of winning the deal from these projected totals with ``left`` points to play."""
        return tuple(win_probability(self.rules, standing[k] - max(w for o, w in enumerate(standing) if o != k), left)
                     for k in range(len(standing)))

    def double_dummy_play(self, deal: Deal, index: int, trick: int, play: Play, w: tuple[int, ...]) -> PlayAnalysis:
        """A card played with the stock empty: its double-dummy values, and as the mover could know them."""
        position = Position.from_deal(deal, play.seat, cantes=self.cantes)
        side = position.side
        values = card_values(self.solvers[side], position, w[side] - self.points(deal)[side])
        best_value = max(v.value for v in values)
        best = tuple(c for v in values if v.value == best_value for c in v.cards)
        so_far = w[side] - best_value
        left = points_left(deal)
        exact = mover_knows_all(deal)
        others = max((x for k, x in enumerate(w) if k != side), default=0)
        shared = self.rules.sides == 2 and not self.cantes  # the points one side loses the other gains

        def win_with(value: float) -> float:
            other = others + (best_value - value if shared else 0)
            return win_probability(self.rules, so_far + value - other, left)

        method: Method | None = None
        pimc: tuple[PimcValue, ...] | None = None
        if exact:
            method = "exact"
            pimc = tuple(PimcValue(c, float(v.value), 0.0, win=win_with(v.value))
                         for v in values for c in v.cards)
            pimc = tuple(sorted(pimc, key=lambda v: v.card))
        elif self.worlds:
            method, pimc = self.pimc(deal, index)
        win_before, win_after = chances(pimc, play)
        line = best_line(deal, play.seat, cantes=self.cantes, solver=self.solvers[side], value=best_value)
        return PlayAnalysis(index=index, trick=trick, seat=play.seat, card=play.card, exact=exact, method=method,
                            win_before=win_before, win_after=win_after,
                            value_before=best_value, values=values, best=best,
                            cost=best_value - next(v.value for v in values if play.card in v.cards),
                            projected=w[side], pimc=pimc, best_line=tuple(line.texts(self.context)),
                            before=projection(self.rules, w, self.cards_and_last(deal, w)))

    def stock_play(self, deal: Deal, index: int, trick: int, play: Play) -> PlayAnalysis:
        """A card played while the stock had cards (2 players): no double dummy (nobody sees the stock's order);
        valued over worlds that order the stock, searched within the stock horizon, played out beyond it."""
        if not self.worlds:
            return PlayAnalysis(index, trick, play.seat, play.card)
        method, values = self.pimc(deal, index)
        win_before, win_after = chances(values, play)
        return PlayAnalysis(index, trick, play.seat, play.card, method=method, pimc=values, win_before=win_before,
                            win_after=win_after)

    def pimc(self, deal: Deal, index: int) -> tuple[Method, tuple[PimcValue, ...]]:
        """The mover's legal cards over the worlds it could not tell apart, seeded by the seed and the play."""
        result = pimc_analysis(deal, self.worlds, f"{self.seed}:{index}", cantes=self.cantes, solvers=self.pimc_solvers,
                               inference=self.inference, stock_horizon=self.stock_horizon)
        return result.method, result.values

    def cards_and_last(self, deal: Deal, w: tuple[int, ...]) -> tuple[int, ...]:
        """Projected totals less the cantes sung so far (the double's basis where it excludes cantes)."""
        sheet = deal.score()
        return tuple(x - sheet.cante_points(k) for k, x in enumerate(w)) if self.cantes else w

    def close_intervals(self, plays: list[PlayAnalysis], starts: list[tuple[int, ...]],
                        end: tuple[int, ...]) -> list[PlayAnalysis]:
        """Each double-dummy play's cost over its interval (to the next card) and its projected result after it."""
        out: list[PlayAnalysis] = []
        following = iter([*starts[1:], end])
        at = iter(starts)
        for p in plays:
            if not p.double_dummy:
                out.append(p)
                continue
            before, after = next(at), next(following)
            side = self.seat_sides[p.seat]
            out.append(replace(p, cost=before[side] - after[side],
                               after=projection(self.rules, after, after)))
        return out

    def match_chances(self, match: MatchContext, winner: int | None) -> MatchChances:
        """Each side's chance of winning the match before the deal and after its result."""
        model = MatchModel.for_rules(self.rules, match.target)
        sides = range(self.rules.sides)
        return MatchChances(match.target, match.standing,
                            tuple(model.win_match(match.standing, k) for k in sides),
                            tuple(model.win_match_with_deal(match.standing, k, float(winner == k)) for k in sides))


def chances(values: tuple[PimcValue, ...] | None, play: Play) -> tuple[float | None, float | None]:
    """The deal-win probability of the mover's best card and of the card played, as the mover could know them."""
    wins = {v.card: v.win for v in values or () if v.win is not None}
    if play.card not in wins:
        return None, None
    return max(wins.values()), wins[play.card]
