"""The stock reconstruction's speed: wall time of :func:`tutepgn.check.reconstruct.reconstruct` on one 2-player deal.

Simulated deals of each 2-player preset (fixed seeds), reconstructed from their events alone, as a scorer's
record gives them (no Deal tag, no Stock tag): the matching over the events, the order found, and the replay
that judges the rules on hidden cards.  Each deal is timed once per run, ``--runs`` runs; the figures are the
median and the 90th percentile over every deal and run, one core.

Target (issue 15): median < 20 ms a deal.

    python bench/reconstruct.py [--deals 500] [--runs 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tutepgn.check.reconstruct import reconstruct
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records

PRESETS = ("playcard-2p", "torofun-2p")


def timings(name: str, deals: int, runs: int) -> list[float]:
    """Milliseconds per reconstruction of each deal of ``name``, ``runs`` times each."""
    cases = []
    for record in deal_records(preset(name), deals, seed=15):
        header = record.header()
        cases.append((header.rules, record.events, header.dealer, header.turned))
    out = []
    for _ in range(runs):
        for rules, events, dealer, turned in cases:
            start = time.perf_counter()
            found = reconstruct(rules, events, dealer=dealer, turned=turned)
            out.append((time.perf_counter() - start) * 1000)
            assert found.possible
    return out


def figures(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"median_ms": round(statistics.median(ms), 3), "p90_ms": round(ms[int(len(ms) * 0.9)], 3),
            "max_ms": round(ms[-1], 3), "count": len(ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500, help="simulated deals per preset")
    parser.add_argument("--runs", type=int, default=3, help="times each deal is reconstructed")
    parser.add_argument("--json", metavar="OUT", help="write the figures as JSON")
    args = parser.parse_args()
    result: dict[str, dict[str, float]] = {}
    every: list[float] = []
    for name in PRESETS:
        ms = timings(name, args.deals, args.runs)
        every += ms
        result[name] = figures(ms)
        f = result[name]
        print(f"{name}: reconstruction of one deal (no Deal, no Stock): median {f['median_ms']:.2f} ms, "
              f"p90 {f['p90_ms']:.2f} ms, max {f['max_ms']:.2f} ms over {f['count']:.0f}")
    result["all"] = figures(every)
    f = result["all"]
    print(f"all: median {f['median_ms']:.2f} ms, p90 {f['p90_ms']:.2f} ms (target: median < 20 ms)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"reconstruct": result}, out, indent=2)


if __name__ == "__main__":
    main()
