"""``tute analyse --jobs N`` scaling: deals analysed per second (wall clock) with 1 job and with 2.

Writes ``--deals`` simulated deals (torofun-4p, the greedy bots, a fixed seed) to a .tpgn file and analyses it
through :func:`tutepgn.analysis.annotate.analyse_records` (what ``tute analyse`` and, piece by piece, ``tute
archive analyse`` run) with 1 and 2 worker processes, alternated ``--rounds`` times, double dummy alone by default
(``--pimc 20``: the default analysis).  The figure that matters is the ratio: on 2 idle cores, 2 jobs should
analyse at least 1.8 times the deals a second of 1 job (issue 37).

    python bench/analyse_jobs.py [--deals 24] [--pimc 0] [--rounds 2] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from tutepgn import preset
from tutepgn.analysis.annotate import analyse_records
from tutepgn.notation import tpgn
from tutepgn.recording.simulate import deal_records


def deals_per_second(path: Path, deals: int, jobs: int, pimc: int) -> float:
    """Wall-clock deals a second of one whole analysis of the file (the workers' start included)."""
    start = time.perf_counter()
    done = sum(1 for result, _ in analyse_records(path, pimc=pimc, jobs=jobs) if result.error is None)
    assert done == deals, f"{deals - done} deals failed"
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--pimc", type=int, default=0, help="PIMC's worlds per decision (0: double dummy alone)")
    parser.add_argument("--rounds", type=int, default=2, help="1 job then 2 jobs, this many times")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    records = list(deal_records(preset("torofun-4p"), args.deals, seed=2037))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deals.tpgn"
        path.write_text(tpgn.dumps(records), encoding="utf-8")
        rates: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.rounds):
            for jobs in (1, 2):
                rates[jobs].append(deals_per_second(path, args.deals, jobs, args.pimc))
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    figures = {"deals": args.deals, "pimc": args.pimc, "one_job_deals_per_s": round(one, 3),
               "two_jobs_deals_per_s": round(two, 3), "ratio": round(two / one, 2)}
    print(f"tute analyse, {args.deals} torofun-4p deals, pimc {args.pimc}, median of {args.rounds} rounds (wall clock)")
    print(f"  1 job  {one:8.2f} deals/s")
    print(f"  2 jobs {two:8.2f} deals/s   ratio {two / one:.2f}  [target 1.8 on 2 idle cores]")
    if args.json:
        Path(args.json).write_text(json.dumps({"analyse_jobs": figures}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
