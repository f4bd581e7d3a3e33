"""Validate a file of simulated 4-player deals: read, parse, replay and score every record.

Generates ``--deals`` deals (half ludoteka-pairs, half torofun-4p, interleaved,
fixed seed) into a temporary .tpgn file, then times
``validate_sources([path], jobs=N)`` consumed to the last report, with one
worker and with two, and prints deals/s as the median of ``--runs`` runs,
by the wall clock and per CPU-second of this process (the two agree on an
idle machine; the second is what one core does when other work shares it).  For
context it also times the stages below it: splitting the file into records,
and splitting plus parsing (``iter_records``).
Target (issue 5): at least 5,000 deals/s validated on one core.

    python bench/validate.py [--deals 20000] [--runs 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from itertools import chain, zip_longest

from tutepgn.notation import iter_raw_records, iter_records
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records
from tutepgn.check.validate import validate_sources

SEED = 2026
PRESETS = ("ludoteka-pairs", "torofun-4p")


def write_deals(path: str, count: int) -> None:
    """``count`` simulated deals, the two presets interleaved, in export format."""
    half = (count + 1) // 2
    streams = [deal_records(preset(PRESETS[0]), half, seed=SEED),
               deal_records(preset(PRESETS[1]), count - half, seed=SEED + 1)]
    records = (r for r in chain.from_iterable(zip_longest(*streams)) if r is not None)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(record.tpgn() for record in records))


def timed(runs: int, work: Callable[[], int], expected: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (this process only) of each run of ``work``, which returns how many
    records it went through."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        done = work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert done == expected, (done, expected)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20000, help="deals in the file")
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement; the median is reported")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()

    handle, path = tempfile.mkstemp(suffix=".tpgn", prefix="bench-validate-")
    os.close(handle)
    try:
        start = time.perf_counter()
        write_deals(path, args.deals)
        generated = time.perf_counter() - start
        size = os.path.getsize(path)
        n = args.deals

        def split() -> int:
            return sum(1 for _ in iter_raw_records([path]))

        def parse() -> int:
            return sum(1 for _ in iter_records(path))

        def check(jobs: int) -> Callable[[], int]:
            def work() -> int:
                reports = 0
                for report in validate_sources([path], jobs=jobs):
                    reports += 1
                    assert report["valid"] and report["score_ok"] and report["result_ok"], report
                return reports
            return work

        stages = {
            "split": timed(args.runs, split, n),
            "split + parse": timed(args.runs, parse, n),
            "validate, jobs=1": timed(args.runs, check(1), n),
            "validate, jobs=2": timed(args.runs, check(2), n),
        }
    finally:
        os.unlink(path)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    figures: dict[str, object] = {"deals": n, "runs": args.runs, "file_bytes": size,
                                  "generate_seconds": round(generated, 2), "cpus": os.cpu_count(),
                                  "load_average": load}
    print(f"tute validate benchmark: {n:,} 4-player deals ({' + '.join(PRESETS)}), {size / 1e6:.1f} MB, "
          f"{args.runs} runs each (generated in {generated:.1f} s); {os.cpu_count()} CPUs"
          + (f", load average {load:.1f}" if load is not None else ""))
    print(f"  {'stage':<18} {'deals/s (wall)':>21}   {'deals per CPU-s':>15}   wall s   best / worst deals/s")
    for stage, (wall, cpu) in stages.items():
        rate = n / statistics.median(wall)
        key = stage.replace(" + ", "_").replace(", jobs=", "_jobs").replace(" ", "_")
        figures[f"{key}_deals_per_s_median"] = round(rate)
        figures[f"{key}_seconds_median"] = round(statistics.median(wall), 3)
        per_cpu = ""
        if not stage.endswith("jobs=2"):  # CPU time of the workers is not this process's
            figures[f"{key}_deals_per_cpu_s_median"] = round(n / statistics.median(cpu))
            per_cpu = f"{n / statistics.median(cpu):,.0f}"
        print(f"  {stage:<18} median {rate:>14,.0f}   {per_cpu:>15}   {statistics.median(wall):6.2f}   "
              f"{n / min(wall):,.0f} / {n / max(wall):,.0f}")
    one = n / statistics.median(stages["validate, jobs=1"][0])
    one_cpu = n / statistics.median(stages["validate, jobs=1"][1])
    print(f"  target 5,000 deals/s validated on one core: {'met' if one >= 5000 else 'NOT met'} "
          f"({one:,.0f} deals/s wall clock, {one_cpu:,.0f} per CPU-second)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"validate": figures}, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
