"""The PIMC bots' rollouts, old code against new, interleaved: arena boards of ``pimc-40w`` against ``heuristic``.

Each board (``tutepgn.play.arena.play_board``, seed 38, duplicate, the ``worlds`` budget) is played in a
subprocess of each checkout, the old first for one board and the new first for the next; each prints the
board's CPU seconds on one core, its result (points and score) and a digest of its two deals' logs (every
action), which must be the same old and new.

    python bench/rollout.py [--boards 3] [--presets playcard-2p torofun-4p] [--baseline /tmp/old-rollout] [--json OUT]

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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 38
"""The arena's seed of docs/play.md's runs."""
BOTS = ("pimc-40w", "heuristic")


def one(name: str, index: int) -> None:
    """Play board ``index`` and print its CPU seconds, its result and a digest of its two deals' logs."""
    from tutepgn.play import arena

    logs: list[str] = []
    play_game = arena.play_game

    def logged(rules: Any, deal: Any, first: Any, second: Any, seed: str) -> tuple[float, float]:
        result = play_game(rules, deal, first, second, seed)
        logs.append(repr(deal.log))
        return result

    arena.play_game = logged
    start = time.process_time()
    board = arena.play_board(name, BOTS[0], BOTS[1], SEED, True, "worlds", index)
    seconds = time.process_time() - start
    digest = hashlib.sha256("\n".join(logs).encode()).hexdigest()[:16]
    print(json.dumps({"cpu_s": seconds, "points": board.points, "score": board.score, "log": digest}))


def run(root: str, name: str, index: int) -> dict[str, Any]:
    """One board played by the checkout ``root`` in a subprocess."""
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", name, str(index)], env=env,
                         check=True, capture_output=True, text=True, cwd=root).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def summary(times: list[float]) -> dict[str, float]:
    """Median, p90 and max of CPU seconds."""
    t = sorted(times)
    return {"median_s": round(statistics.median(t), 2), "p90_s": round(t[min(len(t) - 1, int(0.9 * len(t)))], 2),
            "max_s": round(t[-1], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--presets", nargs="*", default=["playcard-2p", "torofun-4p"])
    parser.add_argument("--baseline", help="a checkout of the old code, its extension built")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--one", nargs=2, metavar=("PRESET", "INDEX"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one[0], int(args.one[1]))
        return
    roots = {"new": str(ROOT)} | ({"old": str(Path(args.baseline).resolve())} if args.baseline else {})
    figures: dict[str, object] = {}
    print(f"arena boards {BOTS[0]} v {BOTS[1]} (seed {SEED}, duplicate), CPU s per board on one core, "
          f"{args.boards} boards a preset" + (", old and new interleaved" if args.baseline else ""))
    for name in args.presets:
        got: dict[str, list[dict[str, Any]]] = {label: [] for label in roots}
        for index in range(args.boards):
            for label in (list(roots) if index % 2 else list(roots)[::-1]):
                got[label].append(run(roots[label], name, index))
                r = got[label][-1]
                print(f"  {name} board {index} {label}: {r['cpu_s']:.2f} s  points {r['points']} score {r['score']}",
                      flush=True)
        row: dict[str, object] = {}
        for label, results in got.items():
            row[label] = f = summary([r["cpu_s"] for r in results])
            print(f"  {name:<12} {label}: median {f['median_s']:6.2f} s  p90 {f['p90_s']:6.2f} s  max {f['max_s']:6.2f} s")
        if args.baseline:
            old, new = row["old"], row["new"]
            assert isinstance(old, dict) and isinstance(new, dict)
            row["ratio"] = {q: round(old[q] / max(new[q], 1e-9), 2) for q in ("median_s", "p90_s", "max_s")}
            row["same_results"] = sum((a["points"], a["score"]) == (b["points"], b["score"])
                                      for a, b in zip(got["old"], got["new"]))
            row["same_logs"] = sum(a["log"] == b["log"] for a, b in zip(got["old"], got["new"]))
            print(f"  {'':<12} old/new: " + "  ".join(f"{q} {v}" for q, v in row["ratio"].items())  # type: ignore[union-attr]
                  + f"  same results {row['same_results']}/{args.boards}, same logs {row['same_logs']}/{args.boards}")
        figures[name] = row
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(json.dumps({"rollout": figures}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
