"""Replay simulated 4-player deals through the engine's legality checks and scoring.

Prints deals/s and card plays/s on one core, as the median of several runs.
Target (issue 2): at least 20,000 deals/s, 800,000 card plays/s.

    python bench/engine_replay.py [--deals 5000] [--runs 7] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tutepgn.engine import Deal
from tutepgn.rules import preset
from tutepgn.simulate import simulate_deals


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

    rates = []
    for _ in range(args.runs):
        start = time.perf_counter()
        for rules, hands, stock, turned, dealer, first, log in records:
            deal = Deal(rules, hands, stock, turned, dealer, first_of_match=first)
            apply = deal.apply
            for action in log:
                apply(action)
            deal.score()
        rates.append(len(records) / (time.perf_counter() - start))
    median = statistics.median(rates)
    figures = {
        "deals": len(records), "runs": args.runs,
        "deals_per_s_median": round(median), "deals_per_s_min": round(min(rates)),
        "deals_per_s_max": round(max(rates)),
        "card_plays_per_s_median": round(median * plays / len(records)),
    }
    print(f"engine replay, 4-player deals (ludoteka-pairs + torofun-4p), 1 core, {len(records)} deals x {args.runs} runs")
    print(f"  deals/s      median {figures['deals_per_s_median']:>10,}  (min {figures['deals_per_s_min']:,}, max {figures['deals_per_s_max']:,})")
    print(f"  card plays/s median {figures['card_plays_per_s_median']:>10,}")
    print(f"  target 20,000 deals/s: {'met' if median >= 20000 else 'NOT met'}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"engine_replay": figures}, f, indent=2)


if __name__ == "__main__":
    main()
