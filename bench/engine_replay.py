"""Replay simulated 4-player deals through the engine's legality checks and scoring, and through the fast path.

Prints deals/s and card plays/s per CPU second of the one thread (``time.process_time``, so that other
load on the machine does not count), as the median of several runs:
the engine (``Deal.apply`` of each event, then ``Deal.score``; target of
issue 2: at least 20,000 deals/s, 800,000 card plays/s), and the validator's
fast path in C (``tutepgn.check.fastreplay.check`` on the deal's start: the same
verdict and score sheet; target of issue 18: at least 40,000 deals/s).

    python bench/engine_replay.py [--deals 5000] [--runs 7] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tutepgn.check import fastreplay
from tutepgn.engine import Deal
from tutepgn.rules import preset
from tutepgn.recording.simulate import simulate_deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=5000, help="deals per preset")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()

    records = []
    for name in ("ludoteka-pairs", "torofun-4p"):
        for d in simulate_deals(preset(name), args.deals, seed=2026):
            records.append((d.rules, list(d.initial_hands), list(d.initial_stock), d.initial_turned, d.dealer,
                            d.first_of_match, list(d.log)))
    plays = sum(sum(1 for a in r[-1] if type(a).__name__ == "Play") for r in records)

    def engine() -> None:
        for rules, hands, stock, turned, dealer, first, log in records:
            deal = Deal(rules, hands, stock, turned, dealer, first_of_match=first)
            apply = deal.apply
            for action in log:
                apply(action)
            deal.score()

    def fast() -> None:
        check = fastreplay.check
        for rules, hands, stock, turned, dealer, first, log in records:
            verdict = check(Deal(rules, hands, stock, turned, dealer, first_of_match=first), log)
            assert verdict is not None and verdict.sheet is not None

    figures = {"deals": len(records), "runs": args.runs}
    for name, work in (("", engine), ("fast_path_", fast)):
        if work is fast and not fastreplay.C_AVAILABLE:
            continue
        rates = []
        for _ in range(args.runs):
            start = time.process_time()
            work()
            rates.append(len(records) / (time.process_time() - start))
        median = statistics.median(rates)
        figures.update({
            f"{name}deals_per_s_median": round(median), f"{name}deals_per_s_min": round(min(rates)),
            f"{name}deals_per_s_max": round(max(rates)),
            f"{name}card_plays_per_s_median": round(median * plays / len(records)),
        })
    print(f"engine replay, 4-player deals (ludoteka-pairs + torofun-4p), 1 core, {len(records)} deals x {args.runs} runs")
    for name, label, target in (("", "engine   ", 20000), ("fast_path_", "fast path", 40000)):
        if f"{name}deals_per_s_median" not in figures:
            print("  fast path: the C core was not built")
            continue
        median = figures[f"{name}deals_per_s_median"]
        print(f"  {label} deals/s      median {median:>10,}  (min {figures[f'{name}deals_per_s_min']:,}, "
              f"max {figures[f'{name}deals_per_s_max']:,})")
        print(f"  {label} card plays/s median {figures[f'{name}card_plays_per_s_median']:>10,}")
        print(f"  {label} target {target:,} deals/s: {'met' if median >= target else 'NOT met'}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"engine_replay": figures}, f, indent=2)


if __name__ == "__main__":
    main()
