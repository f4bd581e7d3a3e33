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
import time
from pathlib import Path

from interleaved import Result, interleave, load, report
from typing import Any

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
SEED = 38
"""The arena's seed of docs/play.md's runs."""
BOTS = ("pimc-40w", "heuristic")


def one(name: str, index: int) -> None:
    """Play board ``index`` and print its CPU seconds, its result and a digest of its two deals' logs."""
    from tutepgn.play import arena

    logs: list[str] = []
    play_game = arena.play_game

    def logged(rules: Any, deal: Any, first: Any, second: Any, seed: str) -> tuple[float, float]:
        result: tuple[float, float] = play_game(rules, deal, first, second, seed)
        logs.append(repr(deal.log))
        return result

    arena.play_game = logged
    start = time.process_time()
    board = arena.play_board(name, BOTS[0], BOTS[1], SEED, True, "worlds", index)
    seconds = time.process_time() - start
    digest = hashlib.sha256("\n".join(logs).encode()).hexdigest()[:16]
    print(json.dumps({"cpu_s": seconds, "points": board.points, "score": board.score, "log": digest}))


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
        def show(index: int, label: str, r: Result) -> None:
            print(f"  {name} board {index} {label}: {r['cpu_s']:.2f} s  points {r['points']} score {r['score']}",
                  flush=True)

        got = interleave(SCRIPT, roots, name, args.boards, show)
        figures[name] = report(name, got, {"same_results": ("points", "score"), "same_logs": ("log",)})
    print(load())
    if args.json:
        Path(args.json).write_text(json.dumps({"rollout": figures}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
