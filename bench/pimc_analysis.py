"""The whole analysis with PIMC (``tute analyse``'s default), old code against new, interleaved (issue 37).

Each deal (played by the greedy bots, the seed of ``bench/solve.py``'s ``pimc_analyses``) is analysed in a
subprocess of each checkout, the old first for one deal and the new first for the next, and each prints the
analysis's CPU time on one core and a digest of its JSON: the median, p90 and max of each, the ratios old / new,
and how many deals gave the same JSON.

    python bench/pimc_analysis.py [--deals 5] [--presets torofun-4p playcard-2p] [--baseline /tmp/old-pimc] [--json OUT]

``--baseline DIR``: a checkout of the old code with its extension built (``git archive main | tar -x -C DIR``,
then copy or build ``tutepgn/native/ccore*.so``); without it the new code alone is timed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 2033
"""The bots' seed of ``bench/solve.py``'s ``pimc_analyses``: the same deals."""


def one(name: str, index: int) -> None:
    """Analyse the ``index``-th deal (no tute) with the defaults and print its CPU seconds and JSON digest."""
    from tutepgn import preset
    from tutepgn.analysis.deal_analysis import analyse
    from tutepgn.recording.simulate import simulate_deals

    played = [d for d in simulate_deals(preset(name), 2 * (index + 1), seed=SEED) if d.tute_event is None]
    deal = played[index]
    start = time.process_time()
    analysis = analyse(deal)
    seconds = time.process_time() - start
    digest = hashlib.sha256(json.dumps(analysis.to_dict(), sort_keys=True).encode()).hexdigest()[:16]
    print(json.dumps({"cpu_s": seconds, "digest": digest}))


def run(root: str, name: str, index: int) -> dict[str, object]:
    """One deal analysed by the checkout ``root`` in a subprocess."""
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", name, str(index)], env=env,
                         check=True, capture_output=True, text=True, cwd=root).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def summary(times: list[float]) -> dict[str, float]:
    """Median, p90 and max of CPU seconds."""
    t = sorted(times)
    return {"median_s": round(statistics.median(t), 2), "p90_s": round(t[min(len(t) - 1, int(0.9 * len(t)))], 2),
            "max_s": round(t[-1], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--presets", nargs="*", default=["torofun-4p", "playcard-2p"])
    parser.add_argument("--baseline", help="a checkout of the old code, its extension built")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--one", nargs=2, metavar=("PRESET", "INDEX"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one[0], int(args.one[1]))
        return
    roots = {"new": str(ROOT)} | ({"old": str(Path(args.baseline).resolve())} if args.baseline else {})
    figures: dict[str, object] = {}
    print(f"whole analysis with PIMC (defaults), CPU s per deal on one core, {args.deals} deals a preset"
          + (", old and new interleaved" if args.baseline else ""))
    for name in args.presets:
        got: dict[str, list[dict[str, object]]] = {label: [] for label in roots}
        for index in range(args.deals):
            for label in (list(roots) if index % 2 else list(roots)[::-1]):
                got[label].append(run(roots[label], name, index))
                print(f"  {name} deal {index} {label}: {got[label][-1]['cpu_s']:.2f} s", flush=True)
        row: dict[str, object] = {}
        for label, results in got.items():
            row[label] = f = summary([float(str(r["cpu_s"])) for r in results])
            print(f"  {name:<12} {label}: median {f['median_s']:6.2f} s  p90 {f['p90_s']:6.2f} s  max {f['max_s']:6.2f} s")
        if args.baseline:
            old, new = row["old"], row["new"]
            assert isinstance(old, dict) and isinstance(new, dict)
            row["ratio"] = {q: round(old[q] / max(new[q], 1e-9), 2) for q in ("median_s", "p90_s", "max_s")}
            row["same_json"] = sum(a["digest"] == b["digest"] for a, b in zip(got["old"], got["new"]))
            print(f"  {'':<12} old/new: " + "  ".join(f"{q} {r}" for q, r in row["ratio"].items())  # type: ignore[union-attr]
                  + f"  same JSON {row['same_json']}/{args.deals}")
        figures[name] = row
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(json.dumps({"pimc_analysis": figures}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
