"""How long do the ratings take for a league of 200 players over 10,000 matches?  The matches are seeded: a third
of two players, a third of three, a third of two pairs (pairs drawn from 60 fixed ones, so that pairs meet
again), each won by the side whose players' hidden strengths, plus noise, are highest.  Times, over ``--runs``:
:func:`tutepgn.tournament.ratings.rate` (every player and pair, with each player's history), and storing and reading
them back in a DuckDB archive (:func:`tutepgn.archive.ratings.store`, :func:`~tutepgn.archive.ratings.load`).
Prints the median and the 90th percentile of each (the rating's wall time and its CPU time: on a machine shared with
other work the wall time says more about the machine); the target is under 1 s for the rating.

    python bench/ratings.py [--players 200] [--matches 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from tutepgn.archive import Archive
from tutepgn.archive.ratings import load, store
from tutepgn.tournament.ratings import Outcome, rate


def league(players: int, matches: int, seed: int = 34) -> list[Outcome]:
    """Seeded matches among ``players`` of hidden strengths."""
    rng = random.Random(seed)
    names = [f"Jugador {i:03}" for i in range(players)]
    strength = {name: rng.gauss(0, 1) for name in names}
    pairs = [tuple(rng.sample(names, 2)) for _ in range(60)]
    told = []
    for at in range(matches):
        kind = at % 3
        if kind == 2:
            while True:
                one, two = rng.sample(pairs, 2)
                if not set(one) & set(two):
                    break
            sides: tuple[tuple[str, ...], ...] = (one, two)
        else:
            sides = tuple((name,) for name in rng.sample(names, 2 + kind))
        form = [sum(strength[n] for n in side) / len(side) + rng.gauss(0, 1) for side in sides]
        best = sorted(form, reverse=True)
        places = tuple(best.index(f) for f in form)
        day = 1 + at // 40
        told.append(Outcome(f"L{at:05}", f"{2025 + day // 365}-{1 + day % 365 // 31:02}-{1 + day % 28:02}", at,
                            sides, places))
    return told


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    told = league(args.players, args.matches)
    times: dict[str, list[float]] = {"rate": [], "rate (CPU)": [], "store": [], "load": []}
    with tempfile.TemporaryDirectory() as folder, Archive(Path(folder) / "bench.duckdb") as archive:
        for _ in range(args.runs):
            start, cpu = time.perf_counter(), time.process_time()
            rated = rate(told)
            times["rate"].append(time.perf_counter() - start)
            times["rate (CPU)"].append(time.process_time() - cpu)
            start = time.perf_counter()
            store(archive, rated, "bench")
            times["store"].append(time.perf_counter() - start)
            start = time.perf_counter()
            again = load(archive)
            times["load"].append(time.perf_counter() - start)
    assert again.players == rated.players and again.matches == len(told)
    points = sum(map(len, rated.history.values()))
    print(f"{len(rated.players)} players, {len(rated.pairs)} pairs, {len(told):,} matches, {points:,} history points, "
          f"{args.runs} runs")
    for name, seconds in times.items():
        print(f"{name:<10} median {statistics.median(seconds):.3f} s   p90 {quantile(seconds, 0.9):.3f} s")
    best = rated.players[0]
    print(f"first: {best.name} {best.ordinal:.1f} ± {best.sigma:.1f} over {best.matches} matches")


if __name__ == "__main__":
    main()
