"""The solver's exact values on fixed positions, written to JSON, to check that a change to the search keeps them.

A pruning added to the search must not move a single value.  Run this script
on the code before and after the change (the same seeds give the same
positions), then compare the two files:

    python bench/solver_values.py --out before.json      # on the old code
    python bench/solver_values.py --out after.json       # on the new code
    python bench/solver_values.py --compare before.json after.json

The positions: :mod:`bench.solve`'s (the whole 4-player deals with and without
cantes, the 3-player deals for each seat, the 2-player endgames) and, from
4- and 3-player deals played by the greedy bots, a position every third card
from the 8th on, each valued card by card (:meth:`Solver.values_of_legal_cards`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from solve import before_play, endgame

from tutepgn import Deal, Play, preset
from tutepgn.recording.simulate import simulate_deals
from tutepgn.analysis.solve import Position, Solver


def whole_deals(seeds: int) -> Iterator[tuple[str, Position]]:
    """The bench's positions at the first lead (and the 2-player endgames)."""
    for s in range(seeds):
        yield f"4p seed {s}", Position.from_deal(Deal.shuffled(preset("torofun-4p"), s))
        yield f"4p cantes seed {s}", Position.from_deal(Deal.shuffled(preset("torofun-4p"), s), cantes=True)
        for seat in range(3):
            yield f"3p seed {s} seat {seat}", Position.from_deal(Deal.shuffled(preset("torofun-3p"), s), seat)
        yield f"2p endgame seed {s}", Position.from_deal(endgame(s))


def played_positions(deals: int) -> Iterator[tuple[str, Position]]:
    """Positions of bot-played deals, every third card from the 8th, with and without cantes."""
    for name in ("torofun-4p", "torofun-3p"):
        played = [d for d in simulate_deals(preset(name), 2 * deals, seed=7) if d.tute_event is None][:deals]
        for k, deal in enumerate(played):
            plays = sum(1 for a in deal.log if type(a) is Play)
            for i in range(8, plays - 1, 3):
                yield f"{name} deal {k} play {i}", Position.from_deal(before_play(deal, i), cantes=i % 2 == 0)


def values(seeds: int, deals: int) -> dict[str, list[int]]:
    """Each position's value, then the value of each group of equivalent legal cards."""
    out = {}
    for label, position in whole_deals(seeds):
        out[label] = [Solver().value(position)]
    for label, position in played_positions(deals):
        solver = Solver()
        out[label] = [solver.value(position), *(cv.value for cv in solver.values_of_legal_cards(position))]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="write the values here")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two files written by --out")
    parser.add_argument("--seeds", type=int, default=20, help="whole deals per preset, as bench/solve.py")
    parser.add_argument("--deals", type=int, default=20, help="bot-played deals per preset")
    args = parser.parse_args()
    if args.compare:
        with open(args.compare[0], encoding="utf-8") as f:
            before = json.load(f)
        with open(args.compare[1], encoding="utf-8") as f:
            after = json.load(f)
        differ = [k for k in before if before[k] != after.get(k)]
        cards = sum(len(v) - 1 for v in before.values())
        print(f"{len(before)} positions ({cards} card values besides the positions' values): "
              f"{len(differ)} differ" + "".join(f"\n  {k}: {before[k]} -> {after.get(k)}" for k in differ))
        return 1 if differ or set(before) != set(after) else 0
    if not args.out:
        parser.error("give --out FILE or --compare BEFORE AFTER")
    figures = values(args.seeds, args.deals)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=0)
    print(f"{len(figures)} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
