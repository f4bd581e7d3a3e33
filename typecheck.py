"""Run mypy on the package as it is installed: ``api/`` as ``tutepgn.api``, ``cli/`` as ``tutepgn.cli``.

mypy names a module after its path, and cannot read the package-dir mapping of pyproject.toml (nor the editable
install's import hook that applies it), so ``from tutepgn.cli.output import fail`` would be a missing module to it.
This script gives mypy every source under its installed name; the settings are pyproject.toml's ``[tool.mypy]``.
Usage: ``python typecheck.py`` (``make test`` runs it); extra arguments go to mypy.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from mypy import build
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent


def installed_name(path: Path, package_dirs: dict[str, str]) -> str:
    """``api/routes/deals.py`` -> ``tutepgn.api.routes.deals``, by the package-dir table (longest match)."""
    relative = path.resolve().relative_to(ROOT)
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    for package, folder in sorted(package_dirs.items(), key=lambda item: -len(Path(item[1]).parts)):
        base = Path(folder).parts
        if tuple(parts[:len(base)]) == base:
            return ".".join([package, *parts[len(base):]])
    return ".".join(parts)


def main(argv: list[str]) -> int:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_dirs = config["tool"]["setuptools"]["package-dir"]
    sources, options = process_options(["--config-file", str(ROOT / "pyproject.toml"), *argv])
    renamed = [BuildSource(s.path, installed_name(Path(s.path), package_dirs) if s.path else s.module, s.text,
                           s.base_dir) for s in sources]
    result = build.build(renamed, options, stdout=sys.stdout, stderr=sys.stderr)
    for line in result.errors:
        print(line)
    files = len({line.split(":", 1)[0] for line in result.errors if ": error:" in line})
    errors = sum(": error:" in line for line in result.errors)
    if errors:
        print(f"Found {errors} errors in {files} files (checked {len(renamed)} source files)")
        return 1
    print(f"Success: no issues found in {len(renamed)} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
