"""The archive at scale: import simulated deals into DuckDB, import them again, then time searches and stats.

1. Generates ``--deals`` simulated deals, the presets in equal shares, with
   ``tutepgn.recording.simulate.deal_records`` (a different seed per file), in 2 worker
   processes.  Files are cached under ``bench/out/deals/`` (git-ignored) and
   reused when present.
2. Imports them into a fresh DuckDB file with ``Archive.import_sources(jobs=2)``
   (what ``tute import --jobs 2`` runs), ``--import-runs`` times, and prints
   the median time, deals/s and the peak memory: the max RSS of the main
   process (getrusage), and the peak RSS of the whole process tree, workers
   included (sampled from /proc).  The import runs in a child process so that
   generation does not count.
3. Imports the same files again: 0 rows must be added.
4. Times every documented search filter (``--runs`` times each, random-ish
   parameters; what ``tute search`` runs: the first page of 50 by date, then
   the count), and ``stats``.  Targets: search p95 <= 100 ms, stats p95 <= 1 s.

    python bench/archive.py [--deals 1000000] [--import-runs 1] [--runs 20] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tutepgn.archive import Archive, SearchFilters
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import PLAYERS, deal_records

OUT = Path(__file__).resolve().parent / "out"
CHUNK = 10_000
"""Deals per generated file."""
SEARCH_TARGET_MS, STATS_TARGET_MS = 100.0, 1000.0


# ---------------------------------------------------------------------------
# 1. Generation (cached).

def _plan(deals: int) -> list[tuple[str, int, int, Path]]:
    """(preset, seed, count, path) of every file: the presets in equal shares, CHUNK deals a file at most."""
    names = list(PRESETS)
    share = [deals // len(names) + (1 if i < deals % len(names) else 0) for i in range(len(names))]
    plan = []
    for i, (name, total) in enumerate(zip(names, share)):
        for chunk, start in enumerate(range(0, total, CHUNK)):
            count = min(CHUNK, total - start)
            seed = 90_000 + 1_000 * i + chunk
            plan.append((name, seed, count, OUT / "deals" / f"{name}-s{seed}-n{count}.tpgn"))
    return plan


def _generate(name: str, seed: int, count: int, path: str) -> int:
    partial = Path(path + ".part")
    with partial.open("w", encoding="utf-8", newline="\n") as handle:
        for i, record in enumerate(deal_records(preset(name), count, seed=seed)):
            handle.write(("\n" if i else "") + record.tpgn())
    partial.replace(path)  # only whole files are ever reused
    return count


def generate(deals: int, jobs: int) -> tuple[list[Path], float, int]:
    """The files of ``deals`` deals, generating the missing ones; returns them, seconds, and deals generated."""
    plan = _plan(deals)
    (OUT / "deals").mkdir(parents=True, exist_ok=True)
    missing = [p for p in plan if not p[3].exists()]
    start = time.perf_counter()
    made = 0
    if missing:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for n in pool.map(_generate, *zip(*[(a, b, c, str(d)) for a, b, c, d in missing])):
                made += n
    return [p[3] for p in plan], time.perf_counter() - start, made


# ---------------------------------------------------------------------------
# 2-3. Import, in a child process (python bench/archive.py --import-phase DB FILE...).

def _tree_rss(root: int) -> int:
    """RSS in bytes of a process and all its descendants, from /proc (0 where /proc is missing)."""
    parents: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        parents.setdefault(int(stat[1]), []).append(pid)
        rss[pid] = int(stat[21]) * page
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(parents.get(pid, ()))
    return total


def import_phase(db: Path, files: list[Path], jobs: int, runs: int) -> dict[str, Any]:
    """``runs`` imports into a fresh file each (the last one kept), then the same files again into it."""
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.25):
            peak[0] = max(peak[0], _tree_rss(os.getpid()))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    seconds = []
    for run in range(runs):
        for stale in (db, db.with_name(db.name + ".wal")):
            stale.unlink(missing_ok=True)
        with Archive(db) as archive:
            first = archive.import_sources(files, jobs=jobs)
            seconds.append(first.seconds)
            if run < runs - 1:
                continue
            again = archive.import_sources(files, jobs=jobs)
            rows = {t: archive.con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # type: ignore[index]
                    for t in ("deals", "plays", "declarations", "hands", "issues")}
    done.set()
    sampler.join()
    kb = 1024  # ru_maxrss is in KiB on Linux
    median = statistics.median(seconds)
    return {
        "import": {**first.to_dict(), "seconds": round(median, 3)}, "import_seconds_runs": [round(x, 1) for x in seconds],
        "reimport": again.to_dict(), "rows": rows,
        "db_bytes": db.stat().st_size,
        "wal_bytes": wal.stat().st_size if (wal := db.with_name(db.name + ".wal")).exists() else 0,
        "main_max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kb / 2**20, 1),
        "tree_peak_rss_mb": round(peak[0] / 2**20, 1),
    }


# ---------------------------------------------------------------------------
# 4. Searches and stats.

def filter_makers() -> dict[str, Callable[[random.Random], dict[str, Any]]]:
    """Every documented filter (and the combinations docs/archive.md shows), each with random-ish parameters."""
    names = list(PLAYERS)
    presets = list(PRESETS)

    def day(rng: random.Random) -> str:
        return f"{rng.choice((2025, 2026))}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"

    def window(rng: random.Random) -> dict[str, Any]:
        a, b = sorted((day(rng), day(rng)))
        return {"since": a, "until": b}

    def held(rng: random.Random) -> dict[str, Any]:
        cards = rng.sample([f"{r}{s}" for r in (1, 3, 12, 11, 10, 7) for s in "OCEB"], rng.choice((1, 2)))
        return {"held": [f"{rng.choice('NS')}:{','.join(cards)}"]}

    two = lambda rng: rng.sample(names, 2)  # noqa: E731
    return {
        "player": lambda r: {"player": r.choice(names)},
        "player+seat": lambda r: {"player": r.choice(names), "seat": r.choice("NWSE")},
        "partner": lambda r: dict(zip(("player", "partner"), two(r))),
        "opponent": lambda r: dict(zip(("player", "opponent"), two(r))),
        "since": lambda r: {"since": day(r)},
        "until": lambda r: {"until": day(r)},
        "since+until": window,
        "event": lambda r: {"event": r.choice(("simulated", "deals", "copa", "Liga", "100%"))},
        "site": lambda r: {"site": r.choice(("simulator", "tutepgn", "Bar", "León"))},
        "rules": lambda r: {"rules": r.choice(presets)},
        "trump": lambda r: {"trump": r.choice("OCEB")},
        "winner": lambda r: {"winner": r.choice([*names, "NS", "WE", "N", "S"])},
        "loser": lambda r: {"loser": r.choice([*names, "NS", "WE"])},
        "min_points": lambda r: {"min_points": r.randint(60, 150)},
        "max_points": lambda r: {"max_points": r.randint(40, 90)},
        "min_margin": lambda r: {"min_margin": r.randint(10, 120)},
        "max_margin": lambda r: {"max_margin": r.randint(0, 20)},
        "cante": lambda r: {"cante": r.choice(("any", "20", "40"))},
        "cante_suit": lambda r: {"cante_suit": r.choice("OCEB")},
        "cante_by": lambda r: {"cante_by": r.choice(names)},
        "unsung": lambda r: {"unsung": r.choice(("any", "40"))},
        "tute": lambda r: {"tute": r.random() < 0.7},
        "tute_rank": lambda r: {"tute_rank": r.choice((11, 12))},
        "exchange": lambda r: {"exchange": r.random() < 0.5},
        "doubled": lambda r: {"doubled": r.random() < 0.5},
        "tie_break": lambda r: {"tie_break": r.random() < 0.7},
        "valid": lambda r: {"valid": r.random() < 0.3},
        "issue": lambda r: {"issue": r.choice(("must_follow", "must_beat", "unfinished", "score_mismatch"))},
        "held": held,
        "comment": lambda r: {"comment": r.choice(("cuarenta", "tute", "!!", "50%"))},
        "match": lambda r: {"match": f"sim-{r.randint(0, 99)}-{r.randint(1, 9)}"},
        "sang 40 and lost": lambda r: (lambda p: {"cante": "40", "cante_by": p, "loser": p})(r.choice(names)),
        "player, year, trump": lambda r: {"player": r.choice(names), "since": "2026-01-01", "until": "2026-12-31",
                                          "trump": r.choice("OCEB")},
        "rules, doubled, min_points": lambda r: {"rules": r.choice(presets), "doubled": True,
                                                 "min_points": r.randint(80, 120)},
    }


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def time_searches(db: Path, runs: int, seed: int = 7,
                  opener: Callable[[Path], Archive] = lambda p: Archive(p, read_only=True)) -> dict[str, Any]:
    """Every filter's search and count timed ``runs`` times, and stats, on the archive ``opener`` opens at ``db``
    (a file; bench/scale.py also times a Parquet dataset)."""
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    every: list[float] = []  # every search's time, whatever its filter
    with opener(db) as archive:
        archive.search(SearchFilters(), limit=50)  # warm up
        for name, make in filter_makers().items():
            page_ms, total_ms, hits = [], [], []
            for _ in range(runs):
                filters = SearchFilters(**make(rng))
                t0 = time.perf_counter()
                archive.search(filters, limit=50)
                t1 = time.perf_counter()
                hits.append(archive.count(filters))
                t2 = time.perf_counter()
                page_ms.append((t1 - t0) * 1000)
                total_ms.append((t2 - t0) * 1000)
            every.extend(total_ms)
            out[name] = {"p50_ms": round(_pct(total_ms, 0.5), 1), "p95_ms": round(_pct(total_ms, 0.95), 1),
                         "page_p95_ms": round(_pct(page_ms, 0.95), 1), "median_hits": statistics.median(hits)}
        stats_ms = []
        for _ in range(runs):
            t0 = time.perf_counter()
            archive.stats()
            stats_ms.append((time.perf_counter() - t0) * 1000)
    return {"searches": out, "all_p95_ms": round(_pct(every, 0.95), 1),
            "stats": {"p50_ms": round(_pct(stats_ms, 0.5), 1), "p95_ms": round(_pct(stats_ms, 0.95), 1)}}


# ---------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20, help="timings per search filter and of stats (at least 20)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for generation and import")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--import-runs", type=int, default=1, help="fresh imports; the median time is reported")
    parser.add_argument("--import-phase", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_phase:
        db, *files = args.import_phase
        print(json.dumps(import_phase(Path(db), [Path(f) for f in files], args.jobs, args.import_runs)))
        return

    files, gen_seconds, made = generate(args.deals, args.jobs)
    print(f"files: {len(files)} in {OUT / 'deals'}; generated {made:,} deals in {gen_seconds:.1f} s"
          + (f" ({made / gen_seconds:,.0f}/s)" if made else " (all cached)"))

    db = OUT / f"archive-{args.deals}.duckdb"
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    child = subprocess.run([sys.executable, __file__, "--jobs", str(args.jobs), "--import-runs", str(args.import_runs),
                            "--import-phase", str(db), *map(str, files)], capture_output=True, text=True, check=True)
    imp = json.loads(child.stdout.strip().splitlines()[-1])
    first, again = imp["import"], imp["reimport"]
    rate = first["records"] / first["seconds"]
    print(f"import: {first['records']:,} records, {first['added']:,} added, {first['invalid']:,} invalid in "
          f"{first['seconds']:.1f} s = {rate:,.0f} deals/s (jobs={args.jobs}; median of {args.import_runs} fresh "
          f"imports: {', '.join(f'{x:.1f}' for x in imp['import_seconds_runs'])} s)")
    print("  rows: " + ", ".join(f"{k} {v:,}" for k, v in imp["rows"].items())
          + f"; file {imp['db_bytes'] / 2**20:,.0f} MiB + write-ahead log {imp['wal_bytes'] / 2**20:,.0f} MiB")
    print(f"  peak memory: main process {imp['main_max_rss_mb']:,} MiB, whole process tree (workers too) "
          f"{imp['tree_peak_rss_mb']:,} MiB")
    print(f"import again: {again['records']:,} records, {again['added']:,} rows added in {again['seconds']:.1f} s "
          f"({again['records'] / again['seconds']:,.0f} deals/s)" + ("" if again["added"] == 0 else "  <-- MUST BE 0"))

    timed = time_searches(db, max(args.runs, 1))
    print(f"searches on {first['added']:,} deals ({args.runs} runs each; first page of 50 by date + count):")
    print(f"  {'filter':30} {'p50 ms':>8} {'p95 ms':>8} {'page p95':>9} {'hits p50':>10}")
    worst = 0.0
    for name, t in timed["searches"].items():
        worst = max(worst, t["p95_ms"])
        flag = "" if t["p95_ms"] <= SEARCH_TARGET_MS else "  over target"
        print(f"  {name:30} {t['p50_ms']:8.1f} {t['p95_ms']:8.1f} {t['page_p95_ms']:9.1f} "
              f"{t['median_hits']:10,.0f}{flag}")
    s = timed["stats"]
    print(f"stats: p50 {s['p50_ms']:.0f} ms, p95 {s['p95_ms']:.0f} ms")
    ok = {"search_p95": worst <= SEARCH_TARGET_MS, "stats_p95": s["p95_ms"] <= STATS_TARGET_MS,
          "reimport_adds_nothing": again["added"] == 0}
    print(f"targets: search p95 <= {SEARCH_TARGET_MS:.0f} ms: {'yes' if ok['search_p95'] else 'NO'} "
          f"(worst {worst:.1f} ms); stats p95 <= {STATS_TARGET_MS / 1000:.0f} s: {'yes' if ok['stats_p95'] else 'NO'}; "
          f"re-import adds 0: {'yes' if ok['reimport_adds_nothing'] else 'NO'}")
    if args.json:
        figures = {"deals": args.deals, "jobs": args.jobs, "runs": args.runs, "generated": made,
                   "generation_seconds": round(gen_seconds, 1), "import_deals_per_s": round(rate),
                   **imp, **timed, "targets_met": ok}
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
