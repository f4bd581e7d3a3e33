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
import time
from pathlib import Path

from interleaved import Result, interleave, load, report

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
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
        def show(index: int, label: str, r: Result) -> None:
            print(f"  {name} deal {index} {label}: {r['cpu_s']:.2f} s", flush=True)

        got = interleave(SCRIPT, roots, name, args.deals, show)
        figures[name] = report(name, got, {"same_json": ("digest",)})
    print(load())
    if args.json:
        Path(args.json).write_text(json.dumps({"pimc_analysis": figures}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
