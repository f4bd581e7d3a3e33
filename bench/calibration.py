"""The deal-win probability calibrated by self-play: fit it (``--fit``), then measure it on other deals.

``--fit`` plays ``--deals`` self-play deals per preset (:func:`tutepgn.recording.simulate.simulate_deals`, the
bot :data:`BOT`, seed :data:`FIT_SEED`), and at every trick start it asks the C
solver, a cartas vistas with cantes counted, for each side's value from there.  A side's projected total is its
points so far (cards, cantes sung) plus that value; its margin is its projected total less the best other side's.
The logistic of :mod:`tutepgn.analysis.outcome` is fitted per preset to who actually won the deal (a tute
included), and the coefficients, with the frequencies of plain, doubled and tute wins over at least
:data:`OUTCOME_DEALS` deals of the same stream (what :class:`~tutepgn.analysis.outcome.MatchModel` reads), are
written to ``tutepgn/analysis/outcome.json`` (with ``--preset``, that preset's entries only).

Without ``--fit`` it evaluates the committed coefficients on ``--deals`` OTHER self-play deals per preset (seed
:data:`EVAL_SEED`): the Brier score and a reliability table (ten bins of predicted probability: the mean
prediction, the observed frequency of a win, the count), printed as Markdown.

The positions: every trick start (the leader to play, the cantes of the window already sung) of a 3- or
4-player deal from ``--from-trick`` on, and of a 2-player deal once the stock is empty (the search sings no
cante while the stock has cards).  Both the fit and the evaluation are reproducible: same seeds, same figures
(whatever ``--jobs``).  The solved samples are kept in :data:`CACHE`, so that a refit reads them.  The committed
data and the table in docs/analysis.md came from:

    python bench/calibration.py --fit --deals 2000 --preset playcard-2p --preset torofun-2p
    python bench/calibration.py --fit --deals 300 --preset ludoteka-pairs --preset torofun-3p --preset torofun-4p
    python bench/calibration.py --deals 2000 --from-trick 3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tutepgn.analysis.outcome import DATA_FILE, Logistic, fit_logistic, logistic_for, points_left
from tutepgn.analysis.position import Position
from tutepgn.analysis.solve import Solver
from tutepgn.engine import Deal
from tutepgn.events import Play
from tutepgn.recording.simulate import simulate_deals
from tutepgn.rules import PRESETS, preset

BOT = "heuristic"
"""The self-play bot of the committed data (tutepgn/analysis/outcome.json records it): the simulator's strongest
bot, the one that plays like a careful club player (:mod:`tutepgn.policy`), so that the chances are those of
play that resembles people's."""
FIT_SEED = 33
"""The seed of the fit's deals."""
EVAL_SEED = 3_300_000
"""The seed of the evaluation's deals: other deals than the fit's."""
DATA_PATH = Path(__file__).resolve().parent.parent / "tutepgn" / "analysis" / DATA_FILE

Sample = tuple[float, int, bool]
"""A position seen from one side: its margin, the points left, whether it won the deal."""


def trick_starts(deal: Deal, from_trick: int = 1) -> Iterator[Deal]:
    """The finished ``deal`` replayed, yielded at each trick start from ``from_trick`` on (the lead about to be
    played, the window's cantes already sung), once the stock is empty."""
    replay = deal.restart()
    for action in deal.log:
        if (type(action) is Play and not replay.trick and not replay.stock_left
                and len(replay.tricks) + 1 >= from_trick):
            yield replay
        replay.apply(action)


def deal_samples(deal: Deal, from_trick: int = 1) -> list[Sample]:
    """Every side's sample at every trick start of a finished deal (a fresh solver per deal: a table kept
    across deals only slows the search)."""
    r = deal.rules
    sheet = deal.score()
    solver = Solver()
    seat_of = [next(s for s in range(r.players) if r.side_of(s) == k) for k in range(r.sides)]
    samples: list[Sample] = []
    for moment in trick_starts(deal, from_trick):
        so_far = moment.score().totals
        projected = [so_far[k] + solver.value(Position.from_deal(moment, seat_of[k], cantes=True))
                     for k in range(r.sides)]
        left = points_left(moment)
        for k in range(r.sides):
            margin = projected[k] - max(p for o, p in enumerate(projected) if o != k)
            samples.append((float(margin), left, sheet.winner == k))
    return samples


def outcome_counts(deals: Sequence[Deal]) -> dict[str, int]:
    """How the deals were won: plainly, doubled, by a tute."""
    sheets = [d.score() for d in deals]
    tute = sum(s.tute is not None for s in sheets)
    doubled = sum(s.tute is None and s.doubled for s in sheets)
    return {"plain": len(sheets) - tute - doubled, "doubled": doubled, "tute": tute}


def _chunk(job: tuple[str, int, int, int, int]) -> tuple[list[Sample], dict[str, int]]:
    """One worker's share: deals ``start..start+count`` of the seeded stream (simulated whole, kept in part)."""
    name, seed, start, count, from_trick = job
    deals = list(simulate_deals(preset(name), start + count, seed=seed, bot=BOT))[start:]  # type: ignore[arg-type]
    samples = [s for d in deals for s in deal_samples(d, from_trick)]
    return samples, outcome_counts(deals)


CACHE = Path(os.environ.get("TUTEPGN_CALIBRATION_CACHE", Path(tempfile.gettempdir()) / "tutepgn-calibration"))
"""Where the solved samples are kept (by preset, seed, deals, first trick and bot): a refit or a new form of the
curve reads them instead of solving again."""


def collect(name: str, deals: int, seed: int, from_trick: int, jobs: int) -> tuple[list[Sample], dict[str, int]]:
    """The samples and outcome counts of ``deals`` self-play deals of preset ``name`` (the same whatever ``jobs``),
    from the cache when they were solved before."""
    cached = CACHE / f"{name}-{seed}-{deals}-{from_trick}-{BOT}.json"
    if cached.exists():
        kept = json.loads(cached.read_text(encoding="utf-8"))
        return [(m, left, w) for m, left, w in kept["samples"]], kept["counts"]
    samples, counts = _collect(name, deals, seed, from_trick, jobs)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"samples": samples, "counts": counts}), encoding="utf-8")
    return samples, counts


def _collect(name: str, deals: int, seed: int, from_trick: int, jobs: int) -> tuple[list[Sample], dict[str, int]]:
    size = -(-deals // jobs)
    parts = [(name, seed, i, min(size, deals - i), from_trick) for i in range(0, deals, size)]
    if jobs == 1:
        results = [_chunk(p) for p in parts]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_chunk, parts))
    samples = [s for part, _counts in results for s in part]
    counts = {k: sum(c[k] for _part, c in results) for k in ("plain", "doubled", "tute")}
    return samples, counts


OUTCOME_DEALS = 2000
"""Self-play deals per preset whose outcomes (plain, doubled, tute) the match model counts: no solving, so at
least this many whatever ``--deals`` (the first of them are the fit's deals)."""


def fit(deals: int, from_trick: int = 1, jobs: int = 1, names: Sequence[str] = tuple(PRESETS),
        outcome_deals: int = OUTCOME_DEALS) -> dict[str, Any]:
    """The data file's content fitted on ``deals`` self-play deals per preset, the outcomes counted over
    ``max(deals, outcome_deals)``."""
    data: dict[str, Any] = {"version": 1, "bot": BOT, "seed": FIT_SEED, "win_probability": {}, "deal_outcomes": {}}
    for name in names:
        started = time.perf_counter()
        samples, counts = collect(name, deals, FIT_SEED, from_trick, jobs)
        logistic = fit_logistic(samples, preset(name).sides)
        data["win_probability"][name] = {**{k: round(getattr(logistic, k), 6) for k in "abcde"}, "deals": deals,
                                         "from_trick": from_trick, "positions": len(samples)}
        if outcome_deals > deals:
            counts = outcome_counts(list(simulate_deals(preset(name), outcome_deals, seed=FIT_SEED,
                                                        bot=BOT)))  # type: ignore[arg-type]
        data["deal_outcomes"][name] = {**counts, "deals": sum(counts.values())}
        print(f"{name}: {len(samples)} samples, {logistic}, "
              f"{counts}, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return data


def reliability(predicted: Sequence[float], won: Sequence[bool], bins: int = 10) -> list[tuple[float, float, int]]:
    """Per bin of predicted probability (tenths): the mean prediction, the observed win frequency, the count."""
    rows: list[tuple[float, float, int]] = []
    for b in range(bins):
        inside = [(p, w) for p, w in zip(predicted, won) if min(int(p * bins), bins - 1) == b]
        if inside:
            rows.append((sum(p for p, _w in inside) / len(inside), sum(w for _p, w in inside) / len(inside),
                         len(inside)))
        else:
            rows.append((float("nan"), float("nan"), 0))
    return rows


def brier(predicted: Sequence[float], won: Sequence[bool]) -> float:
    """The mean squared error of the predictions against the outcomes (0 is perfect; 0.25 is a coin)."""
    return sum((p - w) ** 2 for p, w in zip(predicted, won)) / len(predicted)


def evaluate(deals: int, from_trick: int = 1, jobs: int = 1, names: Sequence[str] = tuple(PRESETS)) -> str:
    """The Markdown report of the committed coefficients on ``deals`` other self-play deals per preset: the
    Brier scores, then one reliability table (per bin, each preset's mean prediction / observed frequency
    (positions), then all presets together)."""
    lines = [f"{deals} self-play deals per preset (bot `{BOT}`, seed {EVAL_SEED}), every side at every trick start "
             f"from trick {from_trick} (2 players: once the stock is empty).", ""]
    every_p: list[float] = []
    every_w: list[bool] = []
    columns: list[list[tuple[float, float, int]]] = []
    for name in names:
        started = time.perf_counter()
        samples, _counts = collect(name, deals, EVAL_SEED, from_trick, jobs)
        curve: Logistic = logistic_for(preset(name))
        predicted = [curve(m, left) for m, left, _w in samples]
        won = [w for _m, _left, w in samples]
        every_p += predicted
        every_w += won
        columns.append(reliability(predicted, won))
        lines.append(f"* {name}: Brier **{brier(predicted, won):.4f}** over {len(samples)} positions")
        print(f"{name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    lines += [f"* all presets: Brier **{brier(every_p, every_w):.4f}** over {len(every_p)} positions", ""]
    columns.append(reliability(every_p, every_w))
    lines += ["| predicted | " + " | ".join((*names, "all")) + " |", "|---" * (len(names) + 2) + "|"]
    for b in range(10):
        cells = [f"{c[b][0]:.2f} / {c[b][1]:.2f} ({c[b][2]})" if c[b][2] else "-" for c in columns]
        lines.append(f"| {b / 10:.1f}-{(b + 1) / 10:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines + ["", "Each cell: mean predicted chance / observed frequency of a win (positions)."])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", action="store_true", help="fit the coefficients and write the data file")
    parser.add_argument("--deals", type=int, help="deals per preset (fit: 500; evaluation: 2000)")
    parser.add_argument("--from-trick", type=int, default=1, help="first trick start valued (3 or 4 players)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--preset", action="append", choices=tuple(PRESETS), help="only these presets")
    args = parser.parse_args(argv)
    names = args.preset or tuple(PRESETS)
    if args.fit:
        data = fit(args.deals or 500, args.from_trick, args.jobs, names)
        if args.preset:  # keep the other presets' fits
            old = json.loads(DATA_PATH.read_text(encoding="utf-8"))
            for key in ("win_probability", "deal_outcomes"):
                data[key] = {**old[key], **data[key]}
        DATA_PATH.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {DATA_PATH}", file=sys.stderr)
    else:
        print(evaluate(args.deals or 2000, args.from_trick, args.jobs, names))


if __name__ == "__main__":
    main()
