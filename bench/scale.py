"""Past one machine: the same simulated deals imported into the DuckDB file, into a Parquet dataset, and into a
Parquet dataset by a Dask ``LocalCluster`` of 2 workers, all in one run; the cluster's per-piece task time and
its scheduler overhead per task; search p95 over the dataset against the file.

1. Generates N simulated deals (``bench/archive.py``'s files, cached under ``bench/out/deals/``).
2. Imports them on this machine with 2 worker processes into a fresh DuckDB file (``tute import -j 2``) and into
   a fresh dataset (``tute import -j 2 --to parquet DEST``); then on a ``LocalCluster`` of 2 worker processes
   (1 thread each), started before the clock starts (``--no-cluster``: not).  Each in a child process of its own.
3. From the cluster run's task stream: each piece's task time (its compute, on the worker), and the scheduler's
   overhead per task (the round trip of 200 empty tasks, one at a time).
4. Search p95 (the first page of 50 by date, then the count: what ``tute search`` runs) for every filter of
   ``bench/archive.py``, over the file and over the dataset: the p95 of every search whatever its filter (target:
   the dataset within 2 times the file), and each filter's own p95 beside the file's.

5. ``--interleaved``: the searches again, file and dataset alternating on the same filters (which goes first
   alternating too), each filter's median and p90 over both, wall and CPU time of this process: on a shared
   machine, the load falls alike on both.  ``--searches-only`` times the searches of an earlier run's file and
   dataset without importing again.

    python bench/scale.py [--deals 1000000] [--runs 20] [--interleaved] [--searches-only] [--no-cluster] [--json OUT]

``make bench`` runs ``--deals 100000 --interleaved --no-cluster``: its dataset line is the interleaved medians.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from archive import OUT, filter_makers, generate, time_searches  # bench/archive.py, beside this script

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.dataset import dataset_archive, import_dataset
from tutepgn.notation import iter_raw_records

NOOP_TASKS = 200
"""Empty tasks sent one after the other to measure the scheduler's overhead per task."""


def nothing(x: int) -> int:
    """An empty task."""
    return x


def phase(kind: str, dest: Path, files: list[str]) -> dict[str, Any]:
    """One import, in this (child) process: ``file``, ``parquet`` or ``dask``."""
    names = list(files)
    if kind == "file":
        with Archive(dest) as archive:
            summary = archive.import_sources(files, jobs=2)
        return {"summary": summary.to_dict(), "bytes": dest.stat().st_size}
    if kind == "parquet":
        summary = import_dataset(dest, iter_raw_records(files), names, jobs=2)
        return {"summary": summary.to_dict(), "bytes": sum(p.stat().st_size for p in dest.rglob("*.parquet"))}
    import dask
    import distributed

    from tutepgn.archive.cluster import LOCAL_CONFIG, import_cluster

    with dask.config.set(LOCAL_CONFIG), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.submit(nothing, 0).result()  # the workers are up before the clock starts
        with distributed.get_task_stream(client) as stream:
            summary = import_cluster(client, str(dest), iter_raw_records(files), names)
        computes = [s["stop"] - s["start"] for t in stream.data if t["key"].startswith("tute-import")
                    for s in t["startstops"] if s["action"] == "compute"]
        t0 = time.perf_counter()
        for i in range(NOOP_TASKS):
            client.submit(nothing, i, pure=False).result()
        overhead = (time.perf_counter() - t0) / NOOP_TASKS
    return {"summary": summary.to_dict(), "tasks": len(computes),
            "task_seconds_mean": sum(computes) / max(len(computes), 1), "task_seconds_max": max(computes, default=0),
            "scheduler_overhead_seconds": overhead}


def run_phase(kind: str, dest: Path, files: list[Path]) -> dict[str, Any]:
    """:func:`phase` in a child process (a fresh interpreter: nothing cached from the others), with the CPU
    seconds of the process and all its descendants (workers, a cluster's scheduler and nannies): on a shared
    machine, the figure the other jobs disturb least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.run([sys.executable, __file__, "--phase", kind, str(dest), *map(str, files)],
                           capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {**json.loads(child.stdout.strip().splitlines()[-1]),
            "cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1)}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def interleaved(db: Path, dest: Path, runs: int, seed: int = 11) -> dict[str, Any]:
    """Each filter's search (the first page of 50 by date, then the count) over the file and over the dataset,
    alternating on the same filters: per filter, the median and p90 of wall and CPU ms, both ways."""
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    with Archive(db, read_only=True) as file, dataset_archive(dest) as dataset:
        for archive in (file, dataset):
            archive.search(SearchFilters(), limit=50)  # warm up
        for name, make in filter_makers().items():
            timed: dict[str, dict[str, list[float]]] = {"file": {"wall": [], "cpu": []},
                                                        "dataset": {"wall": [], "cpu": []}}
            for run in range(runs):
                filters = SearchFilters(**make(rng))
                pair = [("file", file), ("dataset", dataset)]
                for kind, archive in (pair if run % 2 == 0 else pair[::-1]):
                    w0, c0 = time.perf_counter(), time.process_time()
                    archive.search(filters, limit=50)
                    archive.count(filters)
                    timed[kind]["wall"].append((time.perf_counter() - w0) * 1000)
                    timed[kind]["cpu"].append((time.process_time() - c0) * 1000)
            out[name] = {kind: {f"{clock}_{q}": round(f(values), 2) for clock, values in clocks.items()
                                for q, f in (("p50", statistics.median), ("p90", lambda v: _pct(v, 0.9)))}
                         for kind, clocks in timed.items()}
    return out


def medians_ratio(figures: dict[str, Any], clock: str = "wall") -> dict[str, float]:
    """Each filter's median over the dataset divided by its median over the file (``figures``: :func:`interleaved`'s):
    the figure held to 2 times, here and in ``make bench``'s table."""
    return {name: both["dataset"][f"{clock}_p50"] / max(both["file"][f"{clock}_p50"], 0.01)
            for name, both in figures.items()}


def print_interleaved(figures: dict[str, Any], runs: int) -> None:
    """The interleaved table: per filter, median and p90 (wall ms) over the file and the dataset, and the
    ratio of the medians (wall, then CPU)."""
    load = os.getloadavg()
    print(f"searches interleaved ({runs} runs each, page + count), ms (load average {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f}):")
    print(f"  {'filter':28} {'file p50':>8} {'p90':>6} {'data p50':>8} {'p90':>6} {'ratio':>6} {'cpu':>6}")
    wall, cpu = medians_ratio(figures), medians_ratio(figures, "cpu")
    for name, both in figures.items():
        f, d = both["file"], both["dataset"]
        print(f"  {name:28} {f['wall_p50']:8.1f} {f['wall_p90']:6.1f} {d['wall_p50']:8.1f} {d['wall_p90']:6.1f} "
              f"{wall[name]:6.2f} {cpu[name]:6.2f}")
    print(f"  within 2 times the file's median: {sum(r <= 2 for r in wall.values())} of {len(wall)}; worst "
          f"{max(wall.values()):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20, help="timings per search filter")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--interleaved", action="store_true", help="also time file and dataset alternating")
    parser.add_argument("--searches-only", action="store_true",
                        help="time the searches of the file and dataset an earlier run left (no import)")
    parser.add_argument("--no-cluster", action="store_true", help="leave out the import on a Dask LocalCluster")
    parser.add_argument("--phase", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        kind, dest, *files = args.phase
        print(json.dumps(phase(kind, Path(dest), files)))
        return
    db, dest, dask_dest = (OUT / f"scale-{args.deals}.duckdb", OUT / f"scale-{args.deals}-parquet",
                           OUT / f"scale-{args.deals}-dask")
    if args.searches_only:
        found = interleaved(db, dest, args.runs)
        print_interleaved(found, args.runs)
        if args.json:
            Path(args.json).write_text(json.dumps({"deals": args.deals, "interleaved": found}, indent=2) + "\n")
        return
    files, gen_seconds, made = generate(args.deals, 2)
    print(f"{args.deals:,} simulated deals in {len(files)} files ({made:,} generated in {gen_seconds:.0f} s)", flush=True)
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    for stale in (dest, dask_dest):
        shutil.rmtree(stale, ignore_errors=True)
    figures: dict[str, Any] = {"deals": args.deals}
    kinds = (("file", db), ("parquet", dest)) + (() if args.no_cluster else (("dask", dask_dest),))
    for kind, target in kinds:
        figures[kind] = run_phase(kind, target, files)
        figures[kind]["load_average"] = load = os.getloadavg()  # the machine is shared: say how busy it was
        s = figures[kind]["summary"]
        print(f"import into {kind:8}: {s['records']:,} records, {s['added']:,} added in {s['seconds']:.1f} s = "
              f"{s['records'] / s['seconds']:,.0f} deals/s, {figures[kind]['cpu_seconds']:,.0f} s of CPU "
              f"(load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})", flush=True)
    if not args.no_cluster:
        ratio = figures["dask"]["summary"]["seconds"] / figures["parquet"]["summary"]["seconds"]
        d = figures["dask"]
        cpu_ratio = figures["dask"]["cpu_seconds"] / max(figures["parquet"]["cpu_seconds"], 0.1)
        figures["dask_over_parquet"] = round(ratio, 3)
        print(f"  Dask (LocalCluster, 2 workers) / single machine into Parquet: {ratio:.2f} (target <= 1.20); "
              f"CPU seconds: {cpu_ratio:.2f}")
        print(f"  per-piece task: {d['tasks']} tasks, mean {d['task_seconds_mean']:.2f} s, max "
              f"{d['task_seconds_max']:.2f} s; scheduler overhead per task: {d['scheduler_overhead_seconds'] * 1000:.1f} ms")
    print(f"  sizes: file {figures['file']['bytes'] / 2**20:,.0f} MiB, dataset {figures['parquet']['bytes'] / 2**20:,.0f} MiB")
    over_file = time_searches(db, args.runs)
    over_dataset = time_searches(dest, args.runs, opener=lambda p: dataset_archive(p))
    load = os.getloadavg()
    print(f"searches ({args.runs} runs each; the first page of 50 by date + the count), p95 in ms "
          f"(load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}):")
    print(f"  {'filter':30} {'file':>8} {'dataset':>8} {'ratio':>6}")
    ratios = []  # each filter's p95 over the dataset / over the file
    for name, t in over_file["searches"].items():
        other = over_dataset["searches"][name]["p95_ms"]
        ratios.append(other / max(t["p95_ms"], 0.1))
        print(f"  {name:30} {t['p95_ms']:8.1f} {other:8.1f} {ratios[-1]:6.2f}")
    p95 = lambda timed: max(t["p95_ms"] for t in timed["searches"].values())  # noqa: E731
    worst, within = max(ratios), sum(r <= 2 for r in ratios)
    every = over_dataset["all_p95_ms"] / max(over_file["all_p95_ms"], 0.1)
    print(f"  every search ({len(over_file['searches'])} filters x {args.runs} runs), p95: file "
          f"{over_file['all_p95_ms']:.1f} ms, dataset {over_dataset['all_p95_ms']:.1f} ms, ratio {every:.2f} (target <= 2)")
    print(f"  per filter: {within} of {len(over_file['searches'])} within 2 times; worst p95: file {p95(over_file):.1f} "
          f"ms, dataset {p95(over_dataset):.1f} ms; worst ratio {worst:.2f}; stats p95: file "
          f"{over_file['stats']['p95_ms']:.0f} ms, dataset {over_dataset['stats']['p95_ms']:.0f} ms")
    if args.interleaved:
        figures["interleaved"] = interleaved(db, dest, args.runs)
        print_interleaved(figures["interleaved"], args.runs)
    figures.update(searches_file=over_file, searches_dataset=over_dataset, search_p95_ratio=round(every, 2),
                   filters_within_2=within, worst_search_ratio=round(worst, 2))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
