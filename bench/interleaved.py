"""Old code against new on the same work, interleaved: each item (a deal, a board) is run in a subprocess of
each checkout, the old first for one item and the new first for the next, so that a slow spell of the machine
falls on both.  The scripts that time two checkouts this way (``rollout.py``, ``pimc_analysis.py``) share it;
each runs itself with ``--one NAME INDEX`` in the checkout and prints one JSON line with ``cpu_s``."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Result = dict[str, Any]


def run(script: Path, root: str, name: str, index: int) -> Result:
    """Item ``index`` of ``name`` by the checkout ``root``: the last line ``script --one`` prints there."""
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, str(script), "--one", name, str(index)], env=env, check=True,
                         capture_output=True, text=True, cwd=root).stdout
    result: Result = json.loads(out.strip().splitlines()[-1])
    return result


def summary(times: Sequence[float]) -> dict[str, float]:
    """Median, p90 and max of CPU seconds."""
    t = sorted(times)
    return {"median_s": round(statistics.median(t), 2), "p90_s": round(t[min(len(t) - 1, int(0.9 * len(t)))], 2),
            "max_s": round(t[-1], 2)}


def interleave(script: Path, roots: dict[str, str], name: str, count: int,
               show: Callable[[int, str, Result], None]) -> dict[str, list[Result]]:
    """``count`` items of ``name`` by every checkout of ``roots`` (label -> folder), alternating which goes first;
    ``show`` is told each result as it comes."""
    got: dict[str, list[Result]] = {label: [] for label in roots}
    for index in range(count):
        for label in (list(roots) if index % 2 else list(roots)[::-1]):
            got[label].append(run(script, roots[label], name, index))
            show(index, label, got[label][-1])
    return got


def report(name: str, got: dict[str, list[Result]], same: dict[str, tuple[str, ...]]) -> dict[str, object]:
    """Print each checkout's median, p90 and max and, with ``old`` and ``new``, the ratios old / new and, for each
    entry of ``same`` (a figure's name -> the keys compared), on how many items both agree; return the figures."""
    row: dict[str, object] = {}
    for label, results in got.items():
        row[label] = f = summary([float(r["cpu_s"]) for r in results])
        print(f"  {name:<12} {label}: median {f['median_s']:6.2f} s  p90 {f['p90_s']:6.2f} s  max {f['max_s']:6.2f} s")
    if "old" in got:
        old, new = summary([float(r["cpu_s"]) for r in got["old"]]), summary([float(r["cpu_s"]) for r in got["new"]])
        ratio = {q: round(old[q] / max(new[q], 1e-9), 2) for q in ("median_s", "p90_s", "max_s")}
        row["ratio"] = ratio
        agree = {figure: sum(all(a[k] == b[k] for k in keys) for a, b in zip(got["old"], got["new"]))
                 for figure, keys in same.items()}
        row.update(agree)
        count = len(got["new"])
        print(f"  {'':<12} old/new: " + "  ".join(f"{q} {v}" for q, v in ratio.items()) + "  "
              + ", ".join(f"{figure.replace('_', ' ')} {n}/{count}" for figure, n in agree.items()))
    return row


def load() -> str:
    """The machine's load, printed at the end of a run."""
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
