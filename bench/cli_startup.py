"""CPU time of the ``tute`` command's start-up: ``tute --help`` and ``tute rules`` (target: under 0.3 s each).

Each command line runs ``--runs`` times as a fresh process (``python -m tutepgn.cli``, what the ``tute``
script runs); the figure is the CPU time (user + system) the child used, the median and the least of the
runs, so a loaded machine shows in the spread and not in the verdict; reference lines give the floors on
the same machine at the same time: the interpreter alone; with typer (what ``tute --help`` cannot do
without); with typer and rich's table (what ``tute rules`` prints with); and pydantic, which no command line
here loads (typer checks values with it, ``cli/main.py``'s ``PlainValue`` takes text and choices as they are;
the rulesets are dataclasses).  The Spanish lines add the catalogue (Babel reads the PO files).  It also names
the heavy modules (pyarrow, numpy, duckdb, matplotlib, lark, pydantic) each command line imported.

Python caches compiled modules (``__pycache__``) as it does for any user; an environment that forbids it
(``PYTHONDONTWRITEBYTECODE``) would compile every module of the package at every start, so the
children run without it, after one run that fills the cache.

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
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children's environment: Python's bytecode cache on, as a user has it."""
COMMANDS = [["--help"], ["rules"], ["rules", "ludoteka-pairs"], ["search", "--help"], ["show", "--help"],
            ["--lang", "es", "--help"], ["--lang", "es", "rules"]]
REFERENCES = {"(python alone)": "pass", "(python + typer)": "import typer",
              "(python + typer, rich table)": "import typer, rich.console, rich.table",
              "(python + pydantic)": "from pydantic import BaseModel"}
HEAVY = ("pyarrow", "numpy", "duckdb", "matplotlib", "lark", "uvicorn", "fastapi", "pydantic")
PROBE = ("import runpy, sys\n"
         "sys.argv = ['tute', *sys.argv[1:]]\n"
         "try:\n"
         "    runpy.run_module('tutepgn.cli', run_name='__main__')\n"
         "except SystemExit:\n"
         "    pass\n"
         "finally:\n"
         "    sys.stderr.write(' '.join(m for m in {heavy!r} if m in sys.modules))\n")


def cpu_seconds(args: list[str], code: str | None = None) -> float:
    """The user + system CPU time of one run of ``tute ARGS`` (or of Python running ``code``) in a fresh
    process."""
    command = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m", "tutepgn.cli", *args]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def heavy_imports(args: list[str]) -> list[str]:
    """The heavy modules ``tute ARGS`` imports (its output thrown away)."""
    run = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args], capture_output=True, text=True,
                         env=ENV)
    return run.stderr.strip().rsplit("\n", 1)[-1].split()


def main() -> None:
    """Measure every command line and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    options = parser.parse_args()
    figures = []
    print(f"{'command':30} {'median s':>9} {'least s':>8}  target  heavy modules imported")
    for args in COMMANDS:
        heavy = heavy_imports(args)  # also fills the bytecode cache
        runs = [cpu_seconds(args) for _ in range(options.runs)]
        median = statistics.median(runs)
        verdict = "ok" if median < TARGET else "SLOW"
        line = " ".join(["tute", *args])
        print(f"{line:30} {median:9.3f} {min(runs):8.3f}  {verdict:6}  {', '.join(heavy) or '-'}")
        figures.append({"command": line, "cpu_median_s": median, "cpu_least_s": min(runs), "runs": options.runs,
                        "heavy_imports": heavy})
    for label, code in REFERENCES.items():
        runs = [cpu_seconds([], code) for _ in range(options.runs)]
        print(f"{label:30} {statistics.median(runs):9.3f} {min(runs):8.3f}")
        figures.append({"command": label, "cpu_median_s": statistics.median(runs), "cpu_least_s": min(runs),
                        "runs": options.runs})
    if options.json:
        options.json.write_text(json.dumps({"cli_startup": figures, "target_s": TARGET}, indent=1) + "\n")


if __name__ == "__main__":
    main()
