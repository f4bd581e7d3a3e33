"""Peak memory of ``tute validate`` and ``tute import`` on the worst single inputs of issue 13.

Each input is written to a temporary folder, then each command runs in a child process; the figure is the
child's peak RSS (``ru_maxrss``) minus its RSS at start (measured by running ``tute --help`` the same way).
Target: at most 500 MB above start.  Run: ``python bench/hostile_memory.py`` (about a minute).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "samples" / "tie-decided-by-last-trick.tpgn").read_text(encoding="utf-8")
TUTE = str(Path(sys.executable).with_name("tute"))
TARGET_MB = 500


def inputs() -> dict[str, str]:
    """The worst inputs: huge comments, a huge record of tricks, lines of cantes, deep JSON."""
    cut = BASE.rindex("\nNS+1")
    play, end = BASE[:cut], BASE[cut:]
    tricks = "".join(f"\n{n}. N 1O 3O 4O 5O" for n in range(11, 11 + 25_000_000 // 20))
    return {
        "comment-10MB.tpgn": BASE.replace("{75 points", "{" + "x" * 10_000_000),
        "comment-50MB.tpgn": BASE.replace("{75 points", "{" + "x" * 50_000_000),
        "tricks-25MB.tpgn": play + tricks + end,
        "cantes-2MiB.tpgn": play + "\nN 20C" * ((2 << 20) // 6) + end,
        "deep-json.tpgn": "[" * 5_000_000,
    }


def peak_mb(args: list[str]) -> float:
    """Peak RSS in MB of ``tute ARGS`` run as a child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([TUTE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(after, before) / 1024  # ru_maxrss is the largest child so far, in KB: run the smallest first


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        start = peak_mb(["--help"])
        print(f"tute at start: {start:.0f} MB RSS; target: at most {TARGET_MB} MB above it")
        rows = []
        for name, text in inputs().items():
            path = Path(tmp) / name
            path.write_text(text, encoding="utf-8")
            for command in (["validate", str(path)], ["import", "--db", str(Path(tmp) / "a.duckdb"), "-j", "1",
                                                      str(path)]):
                # a fresh measure per run: ru_maxrss of children is a running maximum, so use one grandchild each
                out = subprocess.run([sys.executable, __file__, "--one", *command], capture_output=True, text=True)
                rows.append((name, command[0], float(out.stdout.strip() or "nan") - start))
            path.unlink()
        for name, command, mb in rows:
            print(f"  {command:<8} {name:<20} {mb:>8.0f} MB above start  {'ok' if mb <= TARGET_MB else 'OVER'}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(f"{peak_mb(sys.argv[2:]):.1f}")
    else:
        main()
