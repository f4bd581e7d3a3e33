"""The ladder of levels measured: the arena's pairs played on duplicate deals from a seed, stored as they end, and
the table docs/play.md shows printed from the store.

The pairs (upper against lower): greedy against random, heuristic against random and against greedy, the two
PIMC levels against heuristic (pimc-5 first: it costs a tenth of the other) and the strongest (pimc-40w) against
pimc-5; ``--pairs cheap`` plays only those without PIMC, ``--pairs pimc`` only those with.  The PIMC bots play by
their worlds only (no clock), so the boards, plays and result are the same on any machine.  Every board is kept
in ``--store`` (a DuckDB archive, table ``arena_boards``) as it ends: run again with the same seed and the
boards already there are read, not played, so a run stopped is resumed and a larger ``--deals`` adds only the
boards missing.  Run it under ``nice -n 19`` on a shared machine; ``--deals 0`` prints the table alone.

    nice -n 19 python bench/arena.py --store bench/out/arena.duckdb --presets playcard-2p torofun-4p \\
        --deals 200 [--seed 38] [--jobs 1] [--pairs all|cheap|pimc | --pair UPPER LOWER ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tutepgn import preset
from tutepgn.archive import Archive
from tutepgn.archive.arena_boards import ArenaStore, arena_boards
from tutepgn.play.arena import Decisions, Interval, arena
from tutepgn.play.ladder import Ladder, ladders

CHEAP = [("greedy", "random"), ("heuristic", "random"), ("heuristic", "greedy")]
"""The pairs without a PIMC bot: seconds for thousands of boards."""
PIMC = [("pimc-5", "heuristic"), ("pimc-40w", "pimc-5"), ("pimc-40w", "heuristic")]
"""The pairs with one: each PIMC level against the one below it, then the strongest against the heuristic bot."""


def interval(i: Interval, digits: int = 1) -> str:
    """``+12.3 (+4.1, +20.5)``."""
    return f"{i.mean:+.{digits}f} ({i.low:+.{digits}f}, {i.high:+.{digits}f})"


def ms(seconds: float) -> str:
    """Seconds as milliseconds, to three figures or so: ``48``, ``4.5``, ``0.07``."""
    value = seconds * 1000
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def seconds(d: Decisions) -> str:
    """``48 / 69`` (median / p90 CPU milliseconds per decision), ``-`` when none was timed."""
    if d.median is None or d.p90 is None:
        return "-"
    return f"{ms(d.median)} / {ms(d.p90)}"


def table(ladder: Ladder) -> list[str]:
    """The ladder as the Markdown table of docs/play.md: each bot with its step from the one below."""
    lines = [f"{ladder.rules} (budget: {ladder.budget})", "",
             "| bot | against the one below | boards | points per deal (95% CI) | deal-win difference (95% CI) "
             "| told apart | CPU ms per decision (median / p90) |",
             "|---|---|---|---|---|---|---|"]
    for at, rung in enumerate(ladder.rungs):
        step = ladder.steps[at - 1] if at else None
        if step is None:
            against = f"{ladder.rungs[at - 1].bot} | 0 | not measured" if at else "— | |"
            lines.append(f"| {rung.bot} | {against} | | | {seconds(rung.decisions)} |")
            continue
        told = "yes" if step.apart else "**no**"
        lines.append(f"| {step.upper} | {step.lower} | {step.boards} | {interval(step.points)} | "
                     f"{interval(step.wins, 2)} | {told} | {seconds(rung.decisions)} |")
    for other in ladder.others:
        told = "yes" if other.apart else "**no**"
        lines.append(f"| {other.upper} | {other.lower} | {other.boards} | {interval(other.points)} | "
                     f"{interval(other.wins, 2)} | {told} | |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, default=Path("bench/out/arena.duckdb"))
    parser.add_argument("--presets", nargs="+", default=["playcard-2p", "torofun-4p"])
    parser.add_argument("--deals", type=int, default=200, help="duplicate boards per pair (0: the table alone)")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pairs", choices=("all", "cheap", "pimc"), default="all")
    parser.add_argument("--pair", nargs=2, action="append", metavar=("UPPER", "LOWER"),
                        help="play this pair instead of --pairs' (repeat for more)")
    parser.add_argument("--json", type=Path, help="also write each pair's result here")
    args = parser.parse_args()
    pairs = [tuple(p) for p in args.pair] if args.pair else {"all": CHEAP + PIMC, "cheap": CHEAP, "pimc": PIMC}[args.pairs]
    results = []
    with Archive(args.store) as archive:
        store = ArenaStore(archive)
        for name in args.presets:
            for upper, lower in pairs if args.deals else []:
                start = time.perf_counter()
                try:
                    result = arena(preset(name), upper, lower, args.deals, seed=args.seed, jobs=args.jobs,
                                   store=store)
                except (ValueError, RuntimeError) as exc:  # the boards before it are stored; the next pair runs
                    print(f"{name} {upper} vs {lower}: stopped: {exc}", flush=True)
                    continue
                results.append(result.to_dict())
                print(f"{name} {upper} vs {lower}: {len(result.boards)} boards ({result.resumed} stored before), "
                      f"points {interval(result.points)}, wins {interval(result.wins, 2)}, "
                      f"ms/decision {seconds(result.decisions[0])} vs {seconds(result.decisions[1])}, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
        print()
        for ladder in ladders(b for b in arena_boards(archive) if b.rules in args.presets):
            print("\n".join(table(ladder)), end="\n\n")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
