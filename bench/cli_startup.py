"""CPU time of the ``tute`` command's start-up: ``tute --help`` and ``tute rules`` (target: under 0.3 s each).

Each command line runs ``--runs`` times as a fresh process (``python -m tutepgn.cli``, what the ``tute``
script runs); the figure is the CPU time (user + system) the child used, the median and the least of the
runs, so a loaded machine shows in the spread and not in the verdict.  It also names the heavy modules
(pyarrow, numpy, duckdb, matplotlib, lark) each command line imported.

    python bench/cli_startup.py [--runs 7] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

TARGET = 0.3
COMMANDS = [["--help"], ["rules"], ["rules", "ludoteka-pairs"], ["search", "--help"], ["show", "--help"]]
HEAVY = ("pyarrow", "numpy", "duckdb", "matplotlib", "lark", "uvicorn", "fastapi")
PROBE = ("import runpy, sys\n"
         "sys.argv = ['tute', *sys.argv[1:]]\n"
         "try:\n"
         "    runpy.run_module('tutepgn.cli', run_name='__main__')\n"
         "except SystemExit:\n"
         "    pass\n"
         "finally:\n"
         "    sys.stderr.write(' '.join(m for m in {heavy!r} if m in sys.modules))\n")


def cpu_seconds(args: list[str]) -> float:
    """The user + system CPU time of one run of ``tute ARGS`` in a fresh process."""
    process = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def heavy_imports(args: list[str]) -> list[str]:
    """The heavy modules ``tute ARGS`` imports (its output thrown away)."""
    run = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args], capture_output=True, text=True)
    return run.stderr.strip().rsplit("\n", 1)[-1].split()


def main() -> None:
    """Measure every command line and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    options = parser.parse_args()
    figures = []
    print(f"{'command':28} {'median s':>9} {'least s':>8}  target  heavy modules imported")
    for args in COMMANDS:
        runs = [cpu_seconds(args) for _ in range(options.runs)]
        heavy = heavy_imports(args)
        median = statistics.median(runs)
        verdict = "ok" if median < TARGET else "SLOW"
        line = " ".join(["tute", *args])
        print(f"{line:28} {median:9.3f} {min(runs):8.3f}  {verdict:6}  {', '.join(heavy) or '-'}")
        figures.append({"command": line, "cpu_median_s": median, "cpu_least_s": min(runs), "runs": options.runs,
                        "heavy_imports": heavy})
    if options.json:
        options.json.write_text(json.dumps({"cli_startup": figures, "target_s": TARGET}, indent=1) + "\n")


if __name__ == "__main__":
    main()
