"""``tute validate``: check records, settle disputed counts, optionally fix Score and Result."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from tutepgn.cli.scale import cluster_option
from tutepgn.cli.output import (EXIT_INVALID, EXIT_OK, Format, JsonFlag, NlFlag, chosen, dumps, err, fail,
                                format_option, out)
from tutepgn.cli.rules import ruleset as ruleset_of
from tutepgn.errors import NotationError
from tutepgn.i18n import N_, gettext as _, ngettext
from tutepgn.notation.inputs import expand


def validate(
    paths: Annotated[list[str], typer.Argument(help="Files, directories (searched for *.tpgn) or - for stdin.")],
    rules: Annotated[str | None, typer.Option("--rules", "-r", help="Validate under this ruleset instead of each record's Rules tag.")] = None,
    fmt: format_option("text", "json", "nl", help="Output (json: one document, the summary and every report, schema in "  # type: ignore[valid-type]  # an option built at run time
                                                  "docs/validate.md; nl: one report a line, then the summary)") = "text",
    as_json: JsonFlag = False,
    nl: NlFlag = False,
    explain: Annotated[bool, typer.Option("--explain", help="Print each record's full score sheet.")] = False,
    strict: Annotated[bool, typer.Option("--strict/--lenient", help="--strict: stop at the first syntax error (exit 2); --lenient (default): report it and go on.")] = False,
    fix: Annotated[bool, typer.Option("--fix-results", help="Write corrected Score and Result tags to FILE.fixed.tpgn.")] = False,
    in_place: Annotated[bool, typer.Option("--in-place", help="With --fix-results: rewrite the file itself, keeping FILE.bak.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes (use the machine's cores for big inputs).")] = 1,
    cluster: cluster_option(N_("Validate")) = None,  # type: ignore[valid-type]  # an option built at run time
) -> None:
    """Replay every record under its rules; report each illegal play or declaration and each wrong count.

    Exit codes: 0 all valid, 1 some invalid or mismatched, 2 unreadable input or usage error.
    """
    from tutepgn.cli.scale import on_cluster
    from tutepgn.cli.sheets import findings_text, score_sheet  # the validator loads when the command runs
    from tutepgn.check.report_model import ReportModel
    from tutepgn.check.validate import Summary, tally, validate_sources

    form = chosen(fmt, as_json, nl)
    ruleset = ruleset_of(rules) if rules else None
    try:
        sources = expand(paths)
    except FileNotFoundError as exc:
        raise fail(exc) from None
    if fix and any(s is sys.stdin for s in sources):
        raise fail(ValueError(_("--fix-results needs files, not stdin")))
    if in_place and not fix:
        raise fail(ValueError(_("--in-place goes with --fix-results")))
    summary = Summary()
    per_file: dict[str, list[dict]] = {}
    reports: list[dict] = []
    show_progress = err.is_terminal and form == Format.text
    progress = Progress(TextColumn(_("validating")), BarColumn(),
                        TextColumn(_("{done} records", done="{task.completed:,}")),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=err,
                        disable=not show_progress, transient=True)
    try:
        with progress, on_cluster(cluster, "tute-validate") as mapper:
            task = progress.add_task("validate", total=None, rate="")
            reports_of = validate_sources(sources, ruleset, strict=strict, jobs=jobs, sheets=explain or form != Format.text,
                                          mapper=mapper)
            for report in tally(reports_of, summary):
                if fix:
                    per_file.setdefault(str(report["source"]), []).append(report)
                if form == Format.json:
                    reports.append(report)
                elif form == Format.nl:
                    typer.echo(dumps(report))
                elif explain:
                    model = ReportModel.model_validate(report)
                    out.print(score_sheet(model))
                    out.print(findings_text(model), soft_wrap=True)
                elif report["findings"]:
                    out.print(findings_text(ReportModel.model_validate(report), info=False), end="", soft_wrap=True)
                if summary.records % 1000 == 0:
                    progress.update(task, completed=summary.records,
                                    rate=f"{summary.records / max(summary.seconds, 1e-9):,.0f}/s")
    except NotationError as exc:
        raise fail(exc, label=N_("syntax error")) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(exc, label=N_("unreadable input")) from None
    if fix:
        for name, file_reports in per_file.items():
            _write_fixed(Path(name), file_reports, in_place)
    if form == Format.json:
        typer.echo(dumps({"summary": summary.to_dict(), "reports": reports}))
    elif form == Format.nl:
        typer.echo(dumps({"summary": summary.to_dict()}))
    else:
        err.print(str(summary), soft_wrap=True, highlight=False)
    raise typer.Exit(EXIT_OK if summary.invalid == 0 else EXIT_INVALID)


def _write_fixed(path: Path, reports: list[dict], in_place: bool) -> None:
    """Write the corrected file and say where (never silently)."""
    from tutepgn.check.fixes import write_fixed

    fixed, target, backup = write_fixed(path, reports, in_place=in_place)
    if not fixed:
        err.print(_("{path}: nothing to fix", path=path), soft_wrap=True)
        return
    message = (ngettext("{path}: corrected Score/Result in {n} record, written to {target} (original kept as {backup})",
                        "{path}: corrected Score/Result in {n} records, written to {target} (original kept as {backup})",
                        fixed, path=path, target=target, backup=backup) if backup else
               ngettext("{path}: corrected Score/Result in {n} record, written to {target}",
                        "{path}: corrected Score/Result in {n} records, written to {target}", fixed, path=path,
                        target=target))
    err.print(message, soft_wrap=True)
