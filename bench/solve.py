"""The double-dummy solver's speed: CPU time (``time.process_time``) per solve, over fixed seeds.

Each figure is the median and the 90th percentile over the seeds, a fresh
solver (an empty table) per solve, one core:

* a whole 4-player deal's exact value at the first lead (torofun-4p), without and with cantes;
* the win test at the first lead: does the side to move make 66 of the 130 points;
* the 2-player endgame once the stock is empty (8 tricks, playcard-2p, the first 16 draws played at random);
* a whole 3-player deal, each seat against the other two (torofun-3p): the time per seat;
* the pure-Python search on the same 2-player endgames (8 tricks left);
* the analysis of a whole 4-player deal (every play, :func:`tutepgn.analysis.analyse`, double dummy alone:
  ``pimc=0``) played by the greedy bots;
* PIMC with 20 worlds (:func:`tutepgn.analysis.pimc.pimc_values`), a decision from trick 3 on: the same deals
  at the lead of trick 3, the second card of trick 5 and the third of trick 7;
* PIMC with 20 worlds in the 2-player stock phase (playcard-2p played by the greedy bots): the lead with
  4 cards in the stock (the stock horizon) and the reply with 2, each world placing the stock's order too.

Then the nodes searched, which do not move with the machine's load: the median for a whole 4-player deal,
and the median, p90 and max for a PIMC decision from trick 3 on (one solver, one table, for its 20 worlds).

Targets (issue 14): 4-player deal median <= 250 ms and p90 <= 800 ms; win test <= 30 ms;
2-player endgame <= 1 ms; 3-player deal <= 100 ms a seat; Python fallback <= 2 s at 8 tricks;
analysed 4-player deal <= 1 s; PIMC with 20 worlds <= 0.3 s a decision (the stock phase: well under 1 s).

And the whole analysis as ``tute analyse`` makes it by default (:func:`pimc_analyses`): cantes counted and
PIMC's 20 worlds for every decision made with hidden cards, of a 4-player (torofun-4p) and a 2-player
(playcard-2p) deal played by the greedy bots, median and p90 CPU on one core (``--pimc-analysis-deals N``).

    python bench/solve.py [--seeds 20] [--python-seeds 5] [--analysis-deals 10] [--pimc-analysis-deals 5] [--json OUT]

The fixed set (issue 37, ``bench/data/``, :mod:`fixed_set`): ``--fixed`` times its solves instead (the
4-player value at the first lead, the win test and the value with cantes; the 3-player value per seat; the
2-player endgame), the median, p90, p99 and max of the CPU time per solve and the median nodes per preset, then
the solves per second with every core (one subprocess a core).  ``--baseline DIR`` (a checkout of the old code
with its own built extension) times the old solver too, on the same deals in alternating subprocesses (chunks of
``--chunk`` deals, old first in one chunk and new first in the next), and prints the ratios old / new:

    python bench/solve.py --fixed [--fixed-deals 1000] [--baseline /tmp/solver-base] [--chunk 25] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import fixed_set

from tutepgn import Deal, Play, preset
from tutepgn.analysis.deal_analysis import DEFAULT_WORLDS, analyse
from tutepgn.analysis.pimc import pimc_values
from tutepgn.recording.simulate import simulate_deals
from tutepgn.analysis.solve import C_AVAILABLE, Position, Solver

WIN = 66
"""Points that win a 4-player deal of 130 without cantes whatever the tie rule."""


def endgame(seed: int) -> Deal:
    """A playcard-2p deal played at random (plays only) until the stock is empty: 8 tricks left."""
    rng = random.Random(seed)
    deal = Deal.shuffled(preset("playcard-2p"), seed)
    while deal.stock_left:
        deal.apply(rng.choice([a for a in deal.legal_actions() if type(a) is Play]))
    return deal


PIMC_WORLDS = 20
STOCK_DECISIONS = ((4, 0), (2, 1))
"""2-player stock-phase decisions: (cards in the stock, cards on the table)."""
PIMC_PLAYS = (8, 17, 26)
"""Plays before which PIMC decides: the lead of trick 3, the second card of trick 5, the third of trick 7."""


def before_play(deal: Deal, plays: int) -> Deal:
    """``deal`` replayed from its start up to its ``plays``-th card (its declarations on the way included)."""
    replayed = deal.restart()
    for action in deal.log:
        if type(action) is Play:
            if plays == 0:
                break
            plays -= 1
        replayed.apply(action)
    return replayed


def in_stock_phase(deal: Deal, left: int, on_table: int) -> Deal:
    """``deal`` replayed from its start to its first play made with ``left`` cards in the stock and ``on_table`` down."""
    replayed = deal.restart()
    for action in deal.log:
        if type(action) is Play and replayed.stock_left == left and len(replayed.trick) == on_table:
            return replayed
        replayed.apply(action)
    raise ValueError(f"no play with {left} cards in the stock and {on_table} on the table")


def timed(jobs: list[Callable[[], object]]) -> dict[str, float]:
    """Median and p90 of the CPU time of each job, in milliseconds."""
    times = []
    for job in jobs:
        start = time.process_time()
        job()
        times.append((time.process_time() - start) * 1000)
    times.sort()
    return {"median_ms": round(statistics.median(times), 2),
            "p90_ms": round(times[min(len(times) - 1, int(0.9 * len(times)))], 2),
            "max_ms": round(times[-1], 2), "runs": len(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20, help="deals per figure")
    parser.add_argument("--python-seeds", type=int, default=5, help="endgames for the pure-Python search")
    parser.add_argument("--analysis-deals", type=int, default=10, help="4-player deals analysed play by play")
    parser.add_argument("--pimc-analysis-deals", type=int, default=5,
                        help="deals per preset analysed whole with PIMC's 20 worlds (0: none)")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--fixed", action="store_true", help="time the fixed set (bench/data/) instead")
    parser.add_argument("--fixed-deals", type=int, default=fixed_set.DEALS, help="deals of the fixed set per preset")
    parser.add_argument("--presets", nargs="*", default=fixed_set.PRESETS, help="presets of the fixed set")
    parser.add_argument("--baseline", help="a checkout of the old code, its extension built: timed interleaved")
    parser.add_argument("--chunk", type=int, default=25, help="deals per subprocess in the interleaved run")
    args = parser.parse_args()
    if args.fixed:
        figures = fixed(args.presets, args.fixed_deals, args.baseline, args.chunk)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"solve_fixed": figures}, f, indent=2)
        return
    seeds = range(args.seeds)
    backend = "c" if C_AVAILABLE else "python"
    four = [Position.from_deal(Deal.shuffled(preset("torofun-4p"), s)) for s in seeds]
    four_cantes = [Position.from_deal(Deal.shuffled(preset("torofun-4p"), s), cantes=True) for s in seeds]
    three = [Position.from_deal(Deal.shuffled(preset("torofun-3p"), s), seat) for s in seeds for seat in range(3)]
    two = [Position.from_deal(endgame(s)) for s in seeds]
    played = [d for d in simulate_deals(preset("torofun-4p"), 2 * args.analysis_deals, seed=2026)
              if d.tute_event is None][:args.analysis_deals]
    two_played = [d for d in simulate_deals(preset("playcard-2p"), 2 * args.analysis_deals, seed=2026)
                  if d.tute_event is None][:args.analysis_deals]

    figures = {
        "backend": backend,
        "four_player_deal": timed([lambda p=p: Solver(backend).value(p) for p in four]),
        "four_player_deal_cantes": timed([lambda p=p: Solver(backend).value(p) for p in four_cantes]),
        "win_test": timed([lambda p=p: Solver(backend).reaches(p, WIN) for p in four]),
        "two_player_endgame": timed([lambda p=p: Solver(backend).value(p) for p in two]),
        "three_player_deal_per_seat": timed([lambda p=p: Solver(backend).value(p) for p in three]),
        "python_endgame": timed([lambda p=p: Solver("python").value(p) for p in two[:args.python_seeds]]),
        "analysis_four_player_deal": timed([lambda d=d: analyse(d, backend=backend, pimc=0) for d in played]),
        "pimc_20_worlds_decision": timed([lambda d=d: pimc_values(d, PIMC_WORLDS, seed=1, backend=backend)
                                          for d in (before_play(p, i) for p in played for i in PIMC_PLAYS)]),
        "pimc_20_worlds_stock_decision": timed([lambda d=d: pimc_values(d, PIMC_WORLDS, seed=1, backend=backend)
                                                for d in (in_stock_phase(p, left, down) for p in two_played
                                                          for left, down in STOCK_DECISIONS)]),
    }
    nodes = []
    for p in four:
        solver = Solver(backend)
        solver.value(p)
        nodes.append(solver.nodes)
    figures["four_player_deal_nodes_median"] = int(statistics.median(nodes))
    nodes = []
    for d in (before_play(p, i) for p in played for i in PIMC_PLAYS):
        solver = Solver(backend)  # one table for the decision's worlds (no stock: the static fields stay)
        pimc_values(d, PIMC_WORLDS, seed=1, solver=solver)
        nodes.append(solver.nodes)
    nodes.sort()
    figures["pimc_decision_nodes"] = {"median": int(statistics.median(nodes)),
                                      "p90": nodes[min(len(nodes) - 1, int(0.9 * len(nodes)))], "max": nodes[-1]}

    print(f"double-dummy solver ({backend} core), CPU time per solve, {args.seeds} seeds, 1 core")
    for name, target in (("four_player_deal", "median 250, p90 800"), ("four_player_deal_cantes", ""),
                         ("win_test", "median 30"), ("two_player_endgame", "median 1"),
                         ("three_player_deal_per_seat", "median 100"), ("python_endgame", "median 2000"),
                         ("analysis_four_player_deal", "median 1000"), ("pimc_20_worlds_decision", "median 300"),
                         ("pimc_20_worlds_stock_decision", "")):
        f = figures[name]
        print(f"  {name:<30} median {f['median_ms']:>9.2f} ms  p90 {f['p90_ms']:>9.2f} ms  max {f['max_ms']:>9.2f} ms"
              + (f"  [target {target} ms]" if target else ""))
    print(f"  nodes per 4-player deal, median {figures['four_player_deal_nodes_median']:,}")
    pimc = figures["pimc_decision_nodes"]
    print(f"  nodes per PIMC decision (20 worlds), median {pimc['median']:,}  p90 {pimc['p90']:,}  max {pimc['max']:,}")
    if args.pimc_analysis_deals:
        figures["pimc_analyses"] = pimc_analyses(args.pimc_analysis_deals, backend)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"solve": figures}, f, indent=2)


# -- The fixed set (issue 37) ---------------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
FIXED = Path(fixed_set.__file__).resolve()


def run_solves(root: str, name: str, kind: str, start: int, stop: int) -> subprocess.Popen[str]:
    """A subprocess timing deals ``start:stop`` with the solver of the checkout ``root``."""
    env = {**os.environ, "PYTHONPATH": root}
    return subprocess.Popen([sys.executable, str(FIXED), "time", name, kind, str(start), str(stop)],
                            env=env, stdout=subprocess.PIPE, text=True)


def percentiles(times: list[float], nodes: list[int]) -> dict[str, float]:
    """Median, p90, p99 and max of CPU milliseconds, and the median nodes."""
    t = sorted(times)

    def at(q: float) -> float:
        return round(t[min(len(t) - 1, int(q * len(t)))], 2)

    return {"median_ms": round(statistics.median(t), 2), "p90_ms": at(0.9), "p99_ms": at(0.99),
            "max_ms": round(t[-1], 2), "nodes_median": int(statistics.median(nodes)), "solves": len(t)}


def per_second(root: str, name: str, kind: str, deals: int) -> float:
    """Solves per second of wall time with one subprocess per core, the deals split between them."""
    cores = os.cpu_count() or 1
    bounds = [deals * i // cores for i in range(cores + 1)]
    start = time.perf_counter()
    procs = [run_solves(root, name, kind, a, b) for a, b in zip(bounds, bounds[1:])]
    solves = sum(len(json.loads(p.communicate()[0])) for p in procs)
    return round(solves / (time.perf_counter() - start), 1)


def fixed(presets: list[str], deals: int, baseline: str | None, chunk: int) -> dict[str, dict[str, object]]:
    """The fixed set's figures per preset and kind of solve, new (and old, interleaved, with ``baseline``)."""
    roots = {"new": str(ROOT)} | ({"old": str(Path(baseline).resolve())} if baseline else {})
    figures: dict[str, dict[str, object]] = {}
    print(f"fixed set (bench/data/), {deals} deals per preset, CPU ms per solve, a fresh solver each"
          + (", old and new interleaved" if baseline else ""))
    for name in presets:
        for kind in fixed_set.KINDS[preset(name).players]:
            got: dict[str, list[tuple[float, int]]] = {label: [] for label in roots}
            for k, start in enumerate(range(0, deals, chunk)):
                for label in (list(roots) if k % 2 else list(roots)[::-1]):
                    proc = run_solves(roots[label], name, kind, start, min(deals, start + chunk))
                    got[label] += json.loads(proc.communicate()[0])
            row: dict[str, object] = {}
            for label, pairs in got.items():
                f = percentiles([t for t, _ in pairs], [n for _, n in pairs])
                f["solves_per_s_all_cores"] = per_second(roots[label], name, kind, deals)
                row[label] = f
                print(f"  {name:<15} {kind:<8} {label}: median {f['median_ms']:>8.2f}  p90 {f['p90_ms']:>8.2f}  "
                      f"p99 {f['p99_ms']:>8.2f}  max {f['max_ms']:>9.2f} ms  nodes {f['nodes_median']:>9,}  "
                      f"{f['solves_per_s_all_cores']:>7.1f} solves/s ({os.cpu_count()} cores)")
            if baseline:
                old, new = row["old"], row["new"]
                assert isinstance(old, dict) and isinstance(new, dict)
                row["ratio"] = {q: round(old[q] / max(new[q], 1e-9), 2) for q in ("median_ms", "p90_ms", "p99_ms",
                                                                                   "max_ms", "nodes_median")}
                print(f"  {'':<15} {'':<8} old/new: " + "  ".join(f"{q} {r}" for q, r in row["ratio"].items()))
            figures[f"{name} {kind}"] = row
    return figures


# -- The whole analysis with PIMC (issue 33) ------------------------------------------------------------------------
PIMC_ANALYSIS_PRESETS = ("torofun-4p", "playcard-2p")


def pimc_analyses(deals: int, backend: str) -> dict[str, dict[str, float]]:
    """The CPU time of ``analyse(deal)`` with the library's defaults (cantes, 20 worlds for every decision made with
    hidden cards; 2 players: the stock plays too, searched or rolled out) per preset, printed and returned."""
    figures = {}
    print(f"whole analysis with PIMC ({DEFAULT_WORLDS} worlds, cantes), CPU time per deal, {deals} deals, 1 core")
    for name in PIMC_ANALYSIS_PRESETS:
        played = [d for d in simulate_deals(preset(name), 2 * deals, seed=2033) if d.tute_event is None][:deals]
        figures[name] = f = timed([lambda d=d: analyse(d, backend=backend) for d in played])
        print(f"  {name:<30} median {f['median_ms'] / 1000:>7.1f} s   p90 {f['p90_ms'] / 1000:>7.1f} s   "
              f"max {f['max_ms'] / 1000:>7.1f} s")
    return figures


if __name__ == "__main__":
    main()
