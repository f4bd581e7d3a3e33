"""Worlds weighted by the play so far (``--inference``) against even worlds: do they find the true hands, and the card?

Deals simulated by the heuristic bot (:func:`tutepgn.policy.choose`) for each
preset; at decision points drawn with a seeded generator (a play by a seat that
cannot see every card), the same 20 sampled worlds (:func:`tutepgn.analysis.worlds.sample_worlds`)
are read twice, with even weights and with the weights of
:func:`tutepgn.analysis.worlds.log_likelihood` (the play model at its default
temperature), and the table prints per preset and weighting:

* ``log p(true)``: the mean over the unseen cards of the log (natural) of the
  probability the weighted worlds give the card's true holder (a seat, or the
  stock), smoothed by half a world so that a holder no world chose is not -inf;
  ``p(true)`` the mean of that probability itself; the true hands' log-likelihood
  is the sum of the first over a position's unseen cards;
* a last row draws 80 worlds, weights them and keeps 20 by systematic resampling
  (``candidates``, :func:`tutepgn.analysis.worlds.weighted_worlds`), the searches spent on the likely worlds;
* ``best``: how often the card with the highest weighted mean double-dummy value
  over the worlds is a best card of the true world (double dummy), and ``loss``
  the true-world points that choice gives up on average.  The search values the
  cards where it is affordable: with 4 players at every point, with 2 while the
  stock holds at most the search horizon (4 cards); earlier 2-player points count
  in the likelihood columns only.

The bot that played the deals is the model's own choice, so the model fits the
players better than it would fit people: the gain measured is an upper bound.

    python bench/inference.py [--deals 1000] [--points 2] [--worlds 20] [--presets torofun-4p playcard-2p ...]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import replace

from tutepgn import Deal, Play, preset
from tutepgn.analysis.pimc import SEARCH_HORIZON, mover_knows_all
from tutepgn.analysis.solve import Position, Solver
from tutepgn.analysis.worlds import World, knowledge, log_likelihood, sample_worlds, weighted_worlds
from tutepgn.cards import cards_in
from tutepgn.policy import TEMPERATURE
from tutepgn.recording.simulate import simulate_deals

PRESETS = ("torofun-4p", "ludoteka-pairs", "playcard-2p", "torofun-2p")


def decision_points(deal: Deal, points: int, rng: random.Random) -> list[Deal]:
    """Up to ``points`` positions of a finished deal: a choice (two legal cards or more) made from trick 3 on (with
    2 players, while the stock has cards) by a mover who cannot see every card."""
    replayed = deal.restart()
    candidates: list[Deal] = []
    for action in deal.log:
        if (type(action) is Play and len(replayed.tricks) >= 2 and len(replayed.legal_plays()) > 1
                and not mover_knows_all(replayed)):
            candidates.append(copy_of(replayed))
        replayed.apply(action)
    return rng.sample(candidates, min(points, len(candidates)))


def copy_of(deal: Deal) -> Deal:
    copy = deal.restart()
    for action in deal.log:
        copy.apply(action)
    return copy


def holder_of(hands: tuple[int, ...], stock: tuple[int, ...], c: int) -> int:
    """The seat that holds ``c``, or ``len(hands)`` for the stock."""
    return next((s for s, h in enumerate(hands) if h >> c & 1), len(hands))


def true_holder_logs(deal: Deal, worlds: list[World], weights: list[float], n: int) -> list[tuple[float, float]]:
    """Per unseen card, (log p, p) of its true holder under the weighted worlds (smoothed by half of one of ``n``)."""
    info = knowledge(deal)
    holders = sum(1 for k in info.counts if k) + bool(info.in_stock)
    truth = (tuple(deal.hands), tuple(deal.stock[deal.stock_pos:]))
    out = []
    for c in cards_in(info.unseen):
        true = holder_of(*truth, c)
        share = sum(w for world, w in zip(worlds, weights) if holder_of(world.hands, world.stock, c) == true)
        p = (share * n + 0.5) / (n + 0.5 * holders)
        out.append((math.log(p), p))
    return out


def chosen(values: list[dict[int, int]], weights: list[float]) -> int:
    """The card with the highest weighted mean value (ties: the lowest card)."""
    cards = sorted(values[0])
    return max(cards, key=lambda c: (sum(w * v[c] for w, v in zip(weights, values)), -c))


def measure(name: str, deals: int, points: int, worlds: int, seed: int, temperatures: list[float],
            candidates: int) -> dict[str, dict[str, list[float]]]:
    rng = random.Random(seed)
    solver = Solver()
    kinds = ["even", *(f"weighted T={t:g}" for t in temperatures)]
    if candidates > worlds:
        kinds.append(f"resampled T={TEMPERATURE:g}, {candidates} drawn")
    stats: dict[str, dict[str, list[float]]] = {k: {"log": [], "p": [], "best": [], "loss": [], "truth_log": []}
                                               for k in kinds}
    for i, full in enumerate(simulate_deals(preset(name), deals, seed=seed, bot="heuristic")):
        for deal in decision_points(full, points, rng):
            world_seed = f"{seed}:{i}:{len(deal.log)}"
            sampled = sample_worlds(deal, worlds, seed=world_seed)
            weightings = {"even": (sampled, [1 / len(sampled)] * len(sampled))}
            for t in temperatures:
                logs = [log_likelihood(deal, w, temperature=t) for w in sampled]
                raw = [math.exp(v - max(logs)) for v in logs]
                weightings[f"weighted T={t:g}"] = (sampled, [r / sum(raw) for r in raw])
            if candidates > worlds:
                weightings[kinds[-1]] = weighted_worlds(deal, worlds, world_seed, inference=True, candidates=candidates)
            if searched := deal.stock_left <= SEARCH_HORIZON:
                position = Position.from_deal(deal)
                solved: dict[World, dict[int, int]] = {}
                for kept, _ in weightings.values():
                    for w in kept:
                        if w not in solved:
                            solved[w] = {c: g.value for g in solver.values_of_legal_cards(
                                replace(position, hands=w.hands, stock=w.stock)) for c in g.cards}
                true = {c: g.value for g in solver.values_of_legal_cards(position) for c in g.cards}
            for kind, (kept, weights) in weightings.items():
                holders = true_holder_logs(deal, kept, weights, worlds)
                stats[kind]["log"].extend(lp for lp, _ in holders)
                stats[kind]["p"].extend(p for _, p in holders)
                stats[kind]["truth_log"].append(sum(lp for lp, _ in holders))
                if searched and len(set(true.values())) > 1:  # a choice that matters in the true world
                    pick = chosen([solved[w] for w in kept], weights)
                    stats[kind]["best"].append(float(true[pick] == max(true.values())))
                    stats[kind]["loss"].append(float(max(true.values()) - true[pick]))
    return stats


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--points", type=int, default=2, help="decision points per deal")
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--candidates", type=int, default=80,
                        help="worlds drawn for the resampled row (0: no such row)")
    parser.add_argument("--temperatures", nargs="*", type=float, default=[TEMPERATURE, 2 * TEMPERATURE],
                        help="the play model's temperatures to weight by (the default, and twice it)")
    args = parser.parse_args()
    print("| preset | deals | weighting | points (valued) | log p(true) per card | p(true) | true hands log-lik."
          " | best card | loss (points) | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.presets:
        start = time.process_time()
        stats = measure(name, args.deals, args.points, args.worlds, args.seed, args.temperatures,
                        args.candidates)
        spent = time.process_time() - start
        for kind, s in stats.items():
            print(f"| {name} | {args.deals} | {kind} | {len(s['truth_log'])} ({len(s['best'])}) | {mean(s['log']):.3f} "
                  f"| {mean(s['p']):.3f} | {mean(s['truth_log']):.2f} | {100 * mean(s['best']):.1f}% "
                  f"| {mean(s['loss']):.2f} | {spent:.0f} |", flush=True)


if __name__ == "__main__":
    main()
