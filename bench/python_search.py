"""The pure-Python search's speed: CPU time (``time.process_time``) of ``Solver("python").value`` per position.

Two rows, a fresh solver per solve, one core: the 2-player endgame (playcard-2p, the stock empty, 8 tricks
left: :func:`solve.endgame`) and the 4-player position with 8 tricks left (torofun-4p, the first 8 plays
made by ``min(deal.legal_plays())``).  ``--baseline DIR`` (a checkout of the old code) times the old search
too, on the same positions, in alternating subprocesses (``--rounds`` rounds, old first in odd rounds, new
first in even ones): each position's time is the median of its rounds, and the values and node counts of
both are compared.

    python bench/python_search.py [--two 20] [--four 20] [--rounds 3] [--baseline /tmp/old] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def positions(two: int, four: int) -> dict[str, list[object]]:
    """The positions of both rows, made by the code on ``sys.path`` (the game is the same in old and new)."""
    from solve import endgame

    from tutepgn import Deal, preset
    from tutepgn.analysis.solve import Position

    def eight_tricks_left(seed: int) -> Deal:
        deal = Deal.shuffled(preset("torofun-4p"), seed)
        for _ in range(8):
            deal.play(min(deal.legal_plays()))
        return deal

    return {"two": [Position.from_deal(endgame(s)) for s in range(two)],
            "four": [Position.from_deal(eight_tricks_left(s)) for s in range(four)]}


def run(two: int, four: int) -> dict[str, list[list[float]]]:
    """Each position solved once: [CPU ms, value, nodes] per position and row."""
    from tutepgn.analysis.solve import Solver

    out: dict[str, list[list[float]]] = {}
    for row, items in positions(two, four).items():
        out[row] = []
        for position in items:
            solver = Solver("python")
            start = time.process_time()
            value = solver.value(position)  # type: ignore[arg-type]
            out[row].append([(time.process_time() - start) * 1000, value, solver.nodes])
    return out


def figures(times: list[float]) -> dict[str, float]:
    """Median, p90 and max in milliseconds."""
    t = sorted(times)
    return {"median_ms": round(statistics.median(t), 2), "p90_ms": round(t[min(len(t) - 1, int(0.9 * len(t)))], 2),
            "max_ms": round(t[-1], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--two", type=int, default=20, help="2-player endgames")
    parser.add_argument("--four", type=int, default=20, help="4-player positions with 8 tricks left")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each code over every position")
    parser.add_argument("--baseline", help="a checkout of the old code: timed interleaved with this one")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run(args.two, args.four)))
        return
    roots = {"new": str(ROOT)} | ({"old": str(Path(args.baseline).resolve())} if args.baseline else {})
    got: dict[str, list[dict[str, list[list[float]]]]] = {label: [] for label in roots}
    for r in range(args.rounds):
        for label in (list(roots)[::-1] if r % 2 == 0 else list(roots)):
            env = {**os.environ, "PYTHONPATH": f"{roots[label]}{os.pathsep}{ROOT / 'bench'}"}
            proc = subprocess.run([sys.executable, __file__, "--child", "--two", str(args.two), "--four",
                                   str(args.four)], env=env, capture_output=True, text=True, check=True)
            got[label].append(json.loads(proc.stdout))
    out: dict[str, dict[str, object]] = {}
    print(f"pure-Python search, CPU ms per solve (median of {args.rounds} rounds a position), 1 core")
    for row in ("two", "four"):
        out[row] = {}
        for label, runs in got.items():
            per = [statistics.median(run[row][i][0] for run in runs) for i in range(len(runs[0][row]))]
            f = figures(per) | {"nodes": sum(int(x[2]) for x in runs[0][row])}
            out[row][label] = f
            print(f"  {row:<5} {label}: median {f['median_ms']:>8.2f}  p90 {f['p90_ms']:>8.2f}  "
                  f"max {f['max_ms']:>8.2f} ms  nodes {f['nodes']:,}")
        if "old" in got:
            same = all([x[1:] for x in a[row]] == [x[1:] for x in b[row]] for a in got["old"] for b in got["new"])
            out[row]["same_values_and_nodes"] = same
            print(f"  {row:<5} the same values and nodes: {same}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"python_search": out}, f, indent=2)


if __name__ == "__main__":
    main()
