"""``tute validate``: check records, settle disputed counts, optionally fix Score and Result."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from tutepgn.cli.main import EXIT_INVALID, EXIT_OK, EXIT_USAGE, _fail, _ruleset, app, err, out
from tutepgn.errors import NotationError
from tutepgn.sheets import findings_text, score_sheet
from tutepgn.validate import ReportModel, Summary, fix_results, validate_sources


def _inputs(paths: list[str]) -> list[object]:
    """Files, directories (every .tpgn below them, sorted) and ``-`` for stdin."""
    sources: list[object] = []
    for p in paths:
        if p == "-":
            sources.append(sys.stdin)
            continue
        path = Path(p)
        if path.is_dir():
            sources.extend(sorted(path.rglob("*.tpgn")))
        elif path.is_file():
            sources.append(path)
        else:
            raise _fail(FileNotFoundError(f"{p}: no such file or directory"))
    return sources


@app.command()
def validate(
    paths: Annotated[list[str], typer.Argument(help="Files, directories (searched for *.tpgn) or - for stdin.")],
    rules: Annotated[Optional[str], typer.Option("--rules", "-r", help="Validate under this ruleset instead of each record's Rules tag.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: the summary and every report (schema in docs/validate.md).")] = False,
    nl: Annotated[bool, typer.Option("--nl", help="Print one JSON report per line, then the summary line as JSON.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="Print each record's full score sheet.")] = False,
    strict: Annotated[bool, typer.Option("--strict/--lenient", help="--strict: stop at the first syntax error (exit 2); --lenient (default): report it and go on.")] = False,
    fix: Annotated[bool, typer.Option("--fix-results", help="Write corrected Score and Result tags to FILE.fixed.tpgn.")] = False,
    in_place: Annotated[bool, typer.Option("--in-place", help="With --fix-results: rewrite the file itself, keeping FILE.bak.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes (use the machine's cores for big inputs).")] = 1,
) -> None:
    """Replay every record under its rules; report each illegal play or declaration and each wrong count.

    Exit codes: 0 all valid, 1 some invalid or mismatched, 2 unreadable input or usage error.
    """
    ruleset = _ruleset(rules) if rules else None
    sources = _inputs(paths)
    if fix and any(s is sys.stdin for s in sources):
        raise _fail(ValueError("--fix-results needs files, not stdin"))
    if in_place and not fix:
        raise _fail(ValueError("--in-place goes with --fix-results"))
    summary = Summary()
    start = time.perf_counter()
    per_file: dict[str, list[dict]] = {}
    reports: list[dict] = []
    show_progress = err.is_terminal and not (as_json or nl)
    progress = Progress(TextColumn("validating"), BarColumn(), TextColumn("{task.completed:,} records"),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=err,
                        disable=not show_progress, transient=True)
    try:
        with progress:
            task = progress.add_task("validate", total=None, rate="")
            for report in validate_sources(sources, ruleset, strict=strict, jobs=jobs, sheets=explain or as_json or nl):
                summary.add(report)
                if fix:
                    per_file.setdefault(str(report["source"]), []).append(report)
                if as_json:
                    reports.append(report)
                elif nl:
                    typer.echo(json.dumps(report, ensure_ascii=False))
                elif explain:
                    model = ReportModel.model_validate(report)
                    out.print(score_sheet(model))
                    out.print(findings_text(model), soft_wrap=True)
                elif report["findings"]:
                    out.print(findings_text(ReportModel.model_validate(report), info=False), end="", soft_wrap=True)
                if summary.records % 1000 == 0:
                    elapsed = time.perf_counter() - start
                    progress.update(task, completed=summary.records, rate=f"{summary.records / elapsed:,.0f}/s")
    except NotationError as exc:
        err.print(f"[red]syntax error:[/red] {escape(str(exc))}", soft_wrap=True, highlight=False)
        raise typer.Exit(EXIT_USAGE) from None
    except (OSError, UnicodeDecodeError) as exc:
        err.print(f"[red]unreadable input:[/red] {escape(str(exc))}", soft_wrap=True, highlight=False)
        raise typer.Exit(EXIT_USAGE) from None
    summary.seconds = time.perf_counter() - start
    if fix:
        for name, file_reports in per_file.items():
            _write_fixed(Path(name), file_reports, in_place)
    if as_json:
        typer.echo(json.dumps({"summary": summary.to_dict(), "reports": reports}, ensure_ascii=False))
    elif nl:
        typer.echo(json.dumps({"summary": summary.to_dict()}))
    else:
        err.print(str(summary), soft_wrap=True, highlight=False)
    raise typer.Exit(EXIT_OK if summary.invalid == 0 else EXIT_INVALID)


def _write_fixed(path: Path, reports: list[dict], in_place: bool) -> None:
    """Write the corrected file (never silently: say where, keep a backup in place)."""
    text, fixed = fix_results(path, reports)
    if not fixed:
        err.print(f"{path}: nothing to fix", soft_wrap=True)
        return
    if in_place:
        backup = path.with_name(path.name + ".bak")
        shutil.copy2(path, backup)
        target = path
    else:
        target = path.with_name(path.stem + ".fixed" + path.suffix)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    tmp.replace(target)
    err.print(f"{path}: corrected Score/Result in {fixed} record(s), written to {target}"
              + (f" (original kept as {backup})" if in_place else ""), soft_wrap=True)
