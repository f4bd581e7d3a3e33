"""``tute import``, ``search``, ``stats``, ``export``, ``sql`` and ``archive verify|rebuild|analyse``: the archive commands.

Every command takes ``--db PATH`` (default: $TUTEPGN_DB, else the file in
the user's data directory, see docs/archive.md).  Filters are the same
everywhere: one option per field of :class:`tutepgn.archive.SearchFilters`.
"""

from __future__ import annotations

import time
from pathlib import Path
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, TypeVar
from collections.abc import Callable

import typer
from rich.console import RenderableType
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from tutepgn.archive.defaults import BATCH_SIZE, EXPORT_FORMATS, SQL_MEMORY, SQL_MEMORY_ENV
from tutepgn.archive.search import SORTS, SearchFilters
from tutepgn.cards import SUIT_LETTERS, SUIT_NAMES
from tutepgn.cli.filters import option_name, with_filters
from tutepgn.cli.scale import cluster_option
from tutepgn.cli.usage import reason
from tutepgn.cli.output import (EXIT_INVALID, EXIT_OK, Format, JsonFlag, NlFlag, cell, chosen, data_out, emit, err,
                                fail, format_option, table)
from tutepgn.errors import ArchiveError, LimitError, OutputError
from tutepgn.i18n import N_, gettext as _, ngettext
from tutepgn.notation.inputs import expand

if TYPE_CHECKING:  # DuckDB and Arrow load when a command opens the archive, not for ``tute --help``
    from tutepgn.archive import Archive, ImportSummary, ServiceArchive
    from tutepgn.notation import Source

T = TypeVar("T")

DatasetOption = Annotated[Path | None, typer.Option(
    "--dataset", metavar="DEST", show_default=False,
    help="Read the Parquet dataset at DEST (tute import --to parquet) instead of the archive file.")]
DbOption = Annotated[Path | None, typer.Option("--db", envvar="TUTEPGN_DB", help="The archive file (default: see docs/archive.md).")]
RECORD_FORMS = ("tpgn", "jsonl", "csv")
"""Forms of ``tute search`` that the archive writes itself, as ``tute export`` does."""


def open_archive(db: Path | None, *, read_only: bool, check_schema: bool = True) -> Archive:
    """The archive at ``db`` (else the default file), or exit 2 saying why it cannot be opened."""
    import duckdb

    from tutepgn.archive import Archive, default_path
    try:
        return Archive(db or default_path(), read_only=read_only, check_schema=check_schema)
    except (FileNotFoundError, duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None


def reading(db: Path | None, dataset: Path | None = None) -> Archive | ServiceArchive:
    """The archive at ``db`` to read (the service that holds it, while one does), or the Parquet dataset at
    ``dataset``, or exit 2 saying why not."""
    if dataset is not None:
        from tutepgn.cli.scale import open_dataset
        return open_dataset(dataset)
    import duckdb

    from tutepgn.archive import default_path, open_reader
    try:
        return open_reader(db or default_path())
    except (FileNotFoundError, duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None


def existing_archive(db: Path | None) -> Path:
    """The archive file at ``db`` (else the default file), or exit 2 if there is none: for the commands that
    must not create one."""
    from tutepgn.archive import default_path
    source = db or default_path()
    if not source.exists():
        raise fail(FileNotFoundError(_("no archive at {path}", path=source)))
    return source


def say_summary(form: Format, path: Path | str, summary: Any, key: str = "db") -> None:
    """A long command's summary (an import's, an analysis run's): JSON on stdout (the archive under ``key``),
    else a line on stderr."""
    if form == Format.json:
        emit(form, {key: str(path), **summary.to_dict()})
    else:
        err.print(_("{path}: {summary}", path=path, summary=summary), soft_wrap=True, highlight=False)


def import_or_fail(archive: Archive | ServiceArchive, sources: Sequence[Source], **options: Any) -> ImportSummary:
    """Import into ``archive``, or exit 2 saying why not: unreadable input, a record the archive cannot
    store, an archive that cannot be written (a full disk: what was committed stays, and the problem says
    how many records that was)."""
    try:
        return archive.import_sources(sources, **options)
    except (OSError, UnicodeDecodeError, ArchiveError, ValueError) as exc:
        raise fail(exc) from None


def import_(
    paths: Annotated[list[str], typer.Argument(help="Files, directories (searched for *.tpgn) or - for stdin.")],
    db: DbOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes that parse and validate.")] = 2,
    skip_invalid: Annotated[bool, typer.Option("--skip-invalid", help="Leave invalid records out instead of storing them flagged.")] = False,
    batch_size: Annotated[int, typer.Option(min=1, help="Records per transaction: an interrupted import keeps "
                                            "whole batches only.")] = BATCH_SIZE,
    fmt: format_option("text", "json", help="The summary (text: on stderr; json: on stdout)") = "text",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
    to: Annotated[tuple[str, str] | None, typer.Option(
        "--to", metavar="parquet DEST", show_default=False,
        help="--to parquet DEST: write a Parquet dataset at DEST (a folder or a URL) instead of the archive file: "
             "docs/scale.md.")] = None,
    cluster: cluster_option(N_("Import (with --to parquet)")) = None,  # type: ignore[valid-type]  # an option built at run time
) -> None:
    """Parse, validate and store records; records already in the archive are not added again."""
    form = chosen(fmt, as_json)
    try:
        sources = expand(paths)
    except FileNotFoundError as exc:
        raise fail(exc) from None
    if to is not None or cluster:
        from tutepgn.cli.scale import import_dataset
        dest, summary = import_dataset(sources, to, cluster, jobs=jobs, skip_invalid=skip_invalid,
                                       progress=import_progress)
        return say_summary(form, dest, summary, key="dataset")
    import duckdb

    from tutepgn.archive import default_path, open_writer
    try:  # while a service holds the archive, the records go to it
        archive = open_writer(db or default_path())
    except (duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None
    try:
        with import_progress() as report:
            summary = import_or_fail(archive, sources, jobs=jobs, skip_invalid=skip_invalid, batch_size=batch_size,
                                     progress=report)
    finally:
        archive.close()
    say_summary(form, archive.path, summary)


@contextmanager
def import_progress() -> Iterator[Callable[[int, int], None]]:
    """An import's progress on a terminal's stderr: records read, the rate, the deals added."""
    progress = Progress(TextColumn(_("importing")), BarColumn(),
                        TextColumn(_("{done} records", done="{task.completed:,}")),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=err,
                        disable=not err.is_terminal, transient=True)
    start = time.perf_counter()
    with progress:
        task = progress.add_task("import", total=None, rate="")

        def report(records: int, added: int) -> None:
            rate = records / max(time.perf_counter() - start, 1e-9)
            progress.update(task, completed=records, rate=_("{rate:,.0f}/s, {added:,} new", rate=rate, added=added))

        yield report


@with_filters
def search(
    filters: SearchFilters,
    db: DbOption = None,
    fmt: format_option("table", "json", "nl", "csv", "tpgn", "jsonl",  # type: ignore[valid-type]  # an option built at run time
                       help="Output (table, json, nl: the rows; csv: the export's columns; tpgn, jsonl: the "
                            "records)") = "table",
    as_json: JsonFlag = False,
    nl: NlFlag = False,
    limit: Annotated[int, typer.Option(help="At most this many deals.")] = 50,
    offset: Annotated[int, typer.Option(help="Skip this many first.")] = 0,
    sort: Annotated[str, typer.Option(help=_("One of {sorts}.", sorts=", ".join(SORTS)))] = "date",
    dataset: DatasetOption = None,
) -> None:
    """Find deals: every filter is optional and all given filters must match."""
    form = chosen(fmt, as_json, nl)
    if sort not in SORTS:
        raise fail(ValueError(_("unknown sort {sort}: {sorts}", sort=repr(sort), sorts=", ".join(SORTS))))
    if form in RECORD_FORMS and offset:
        raise fail(ValueError(_("--offset works with --format table, json or nl")))
    archive = reading(db, dataset)
    try:
        if form in RECORD_FORMS:
            archive.export(filters, form.value, data_out(), sort=sort, limit=limit)
            return
        rows = archive.search(filters, sort=sort, limit=limit, offset=offset)
        total = archive.count(filters) if form == Format.table else 0
        emptied = archive.emptied_by(filters) if not rows and not offset else None
    except ArchiveError as exc:  # what the service that holds the archive cannot answer
        raise fail(exc) from None
    finally:
        archive.close()
    emit(form, rows, render=lambda: [_deals_table(rows, total, offset)])
    if emptied is not None:  # a note, not an error: the search ran, and says why it found nothing
        err.print(emptied.text(option_name(emptied.filter)), soft_wrap=True, highlight=False)


DEAL_COLUMNS = (N_("id"), N_("date"), N_("event"), N_("rules"), N_("players"), N_("trump"), N_("score"), N_("result"),
                N_("valid"))
"""The headers of ``tute search``'s table (said in the language spoken when shown)."""


def _deals_table(rows: list[dict], total: int, offset: int) -> Table:
    """Found deals for people: players in seat order, the score as SIDE:POINTS."""
    grid = Table(title=ngettext("{n:,} deal, showing {first}-{last}", "{n:,} deals, showing {first}-{last}", total,
                                first=offset + 1, last=offset + len(rows)) if rows else
                 ngettext("{n:,} deal", "{n:,} deals", total))
    for col in DEAL_COLUMNS:
        grid.add_column(_(col))
    for r in rows:
        names = " ".join(n for n in (r["north"], r["west"], r["south"], r["east"]) if n)
        score = " ".join(f"{s}:{v}" for s, v in zip(r["sides"] or (), r["score"] or ()))
        grid.add_row(*map(cell, (r["id"], r["date_text"], r["event"], r["rules"], names, r["trump"], score,
                                 r["result"], _("result only") if r.get("result_only") else _("yes") if r["valid"]
                                 else _("NO"))))
    return grid


def show(
    deal: Annotated[int, typer.Argument(help="The deal's id, as `tute search` lists it.")],
    db: DbOption = None,
    fmt: format_option("tpgn", "json", help="The record (tpgn: as stored; json: the record as JSON, "  # type: ignore[valid-type]  # an option built at run time
                                            "docs/json.md)") = "tpgn",
    as_json: JsonFlag = False,
    cards: Annotated[str, typer.Option(help="Card style: es, es-letters, it, fr (json also en, names).")] = "es",
    dataset: DatasetOption = None,
) -> None:
    """Print one archived deal: its record, as stored or as JSON."""
    from tutepgn.archive.download import written

    form = chosen(fmt, as_json)
    archive, text = _ask(db, lambda a: a.text(deal), dataset)
    if text is None:
        raise fail(LookupError(_("no deal {deal} in {path}: `tute search` lists the ids", deal=deal,
                                 path=archive.path)))
    try:
        shown = text if form == Format.tpgn and cards == "es" else next(written([text], form.value, cards))
    except ValueError as exc:  # an unknown card style
        raise fail(exc) from None
    data_out().write(shown if shown.endswith("\n") else shown + "\n")


def _ask(db: Path | None, query: Callable[[Any], T], dataset: Path | None = None) -> tuple[Any, T]:
    """One question to the archive (the file, the service that holds it, or a dataset), closed after; errors as
    exit 2."""
    archive = reading(db, dataset)
    try:
        return archive, query(archive)
    except ArchiveError as exc:
        raise fail(exc) from None
    finally:
        archive.close()


@with_filters
def stats(
    filters: SearchFilters,
    db: DbOption = None,
    fmt: format_option("table", "json") = "table",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the points distribution to FILE.png or FILE.svg.")] = None,
    dataset: DatasetOption = None,
) -> None:
    """Statistics: per player, per ruleset, per trump, points, las cuarenta, mano."""
    form = chosen(fmt, as_json)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise fail(ValueError(_("--plot writes .png or .svg")))
    _archive, result = _ask(db, lambda a: a.stats(filters), dataset)
    if plot is not None:
        from tutepgn.cli.plot import plot_points
        plot_points(result["points"], plot)
        err.print(_("wrote {path}", path=plot), soft_wrap=True, highlight=False)
    emit(form, result, render=lambda: _stats_text(result))


HEADERS = {
    "player": N_("player"), "deals": N_("deals"), "wins": N_("wins"), "win_rate": N_("won %"),
    "avg_points": N_("average points"), "tutes": N_("tutes"), "cantes": N_("cantes sung"), "preset": N_("ruleset"),
    "avg_winner_points": N_("winner's average"), "doubles": N_("doubled"), "tie_breaks": N_("ties on the last trick"),
    "trump": N_("trump"), "avg_margin": N_("average margin"), "points_from": N_("winner's points"),
}
"""The statistics' keys (their JSON form) as the table headers ``tute stats`` prints (said in the language spoken)."""
STATS_TABLES = ((N_("Players"), "players"), (N_("Rulesets"), "rulesets"), (N_("Trump suits"), "trumps"),
                (N_("Winner's points"), "points"))
"""The tables of ``tute stats``: title, key of the statistics."""
TEXT_COLUMNS = ("player", "preset", "trump")


def percent(rate: float | None) -> str:
    """A rate (0 to 1) as a percentage, one decimal: ``0.457`` -> ``45.7%``."""
    return "" if rate is None else f"{rate:.1%}"


def stat_cell(key: str, value: Any) -> str:
    """One value of the statistics for people: rates as percentages, trumps by name, points as a range."""
    if value is None:
        return ""
    if key == "win_rate":
        return percent(value)
    if key == "trump":
        return SUIT_NAMES[SUIT_LETTERS.index(value)] if value in SUIT_LETTERS else str(value)
    if key == "points_from":
        return f"{value}-{value + 9}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _stats_text(result: dict) -> list[RenderableType]:
    """The statistics for people: a line of totals, a table per grouping (50 rows at most), two sentences."""
    t = result["totals"]
    shown: list[RenderableType] = [_(
        "{deals:,} deals, {finished:,} finished, {invalid:,} invalid; average winner total {avg_winner_points}; "
        "{tutes} tutes, {doubles} doubles, {tie_breaks} ties on the last trick", **t)]
    for title, key in STATS_TABLES:
        rows = result[key]
        if not rows:
            continue
        grid = Table(title=_(title), title_justify="left")
        for col in rows[0]:
            grid.add_column(_(HEADERS[col]) if col in HEADERS else col,
                            justify="left" if col in TEXT_COLUMNS else "right")
        for row in rows[:50]:
            grid.add_row(*[cell(stat_cell(k, v)) for k, v in row.items()])
        shown.append(grid)
    c, d, m = result["cuarenta_sung"], result["cuarenta_dealt"], result["mano"]
    shown.append(_("Las cuarenta: the side that sang them won {won:,} of {deals:,} deals ({rate}).",
                   won=c["won"], deals=c["deals"], rate=percent(c["rate"])))
    shown.append(_("Las cuarenta: the side dealt rey and caballo of trump, sung or not, won {won:,} of {deals:,} "
                   "deals ({rate}).", won=d["won"], deals=d["deals"], rate=percent(d["rate"])))
    shown.append(_("Mano: mano's side won {won:,} of {deals:,} deals ({rate}; an even chance would be {even}).",
                   won=m["won_by_mano"], deals=m["deals"], rate=percent(m["rate"]), even=percent(m["even_chance"])))
    return shown


@with_filters
def export(
    filters: SearchFilters,
    db: DbOption = None,
    fmt: format_option(*EXPORT_FORMATS, help="Form of the records") = "tpgn",  # type: ignore[valid-type]  # an option built at run time
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File (a directory for parquet); stdout if not given.")] = None,
    cards: Annotated[str, typer.Option(help="Card style for tpgn/json/jsonl: es, es-letters, it, fr (json also en, names).")] = "es",
    limit: Annotated[int | None, typer.Option(help="At most this many deals.")] = None,
    sort: Annotated[str, typer.Option(help=_("One of {sorts}, or a column of table deals (- before it: descending).",
                                             sorts=", ".join(SORTS)))] = "date",
    sample: Annotated[int | None, typer.Option(min=0, help="A sample of this many of the matching deals, the same "
                                               "for the same --seed.")] = None,
    seed: Annotated[int, typer.Option(help="The seed of --sample.")] = 0,
    dataset: DatasetOption = None,
) -> None:
    """Write deals out exactly as stored (tpgn), as JSON or CSV, or as a Parquet dataset (docs/scale.md)."""
    from tutepgn.archive.search import Sample

    form = chosen(fmt)
    archive = reading(db, dataset)
    try:
        count = archive.export(filters, form.value, output if output is not None else data_out(), cards=cards,
                               limit=limit, sort=sort, sample=None if sample is None else Sample(sample, seed))
    except (ValueError, ArchiveError) as exc:
        raise fail(exc) from None
    except BrokenPipeError:
        raise
    except OSError as exc:  # a full disk, /dev/full, no permission
        raise fail(OutputError(_("cannot write {path}: {reason}", path=output or "stdout",
                                 reason=reason(exc)))) from None
    finally:
        archive.close()
    err.print(ngettext("exported {n:,} deal to {path}", "exported {n:,} deals to {path}", count, path=output) if output
              else ngettext("exported {n:,} deal", "exported {n:,} deals", count), soft_wrap=True, highlight=False)


def sql(
    query: Annotated[str, typer.Argument(help="One SQL statement, run read-only.")],
    db: DbOption = None,
    timeout: Annotated[float, typer.Option(help="Seconds before the query is stopped.")] = 10.0,
    max_rows: Annotated[int, typer.Option(help="At most this many rows.")] = 10_000,
    memory: Annotated[int | None, typer.Option(
        min=64 * 2**20, envvar=SQL_MEMORY_ENV, show_default=False,
        help=_("Bytes of memory the query may take [default: {memory}].", memory=format(SQL_MEMORY, ",")))] = None,
    fmt: format_option("table", "json", "nl", "csv") = "table",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
    nl: NlFlag = False,
    dataset: DatasetOption = None,
) -> None:
    """Run SQL on a read-only connection in a process of its own: no writes, no files, no network, a time
    limit, a memory limit, a row cap."""
    form = chosen(fmt, as_json, nl)
    import duckdb

    from tutepgn.archive import default_path, run_sql
    try:
        columns, rows, cut = run_sql(dataset or db or default_path(), query, timeout=timeout, max_rows=max_rows,
                                     memory=memory, dataset=dataset is not None)
    except (OSError, ValueError, LimitError, duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None
    if form in (Format.json, Format.nl):
        emit(form, [dict(zip(columns, row)) for row in rows])
    else:
        emit(form, rows, columns=columns, render=lambda: [table(columns, rows)])
    if cut:
        err.print(_("only the first {n:,} rows are shown", n=max_rows), soft_wrap=True, highlight=False)


def verify(
    db: DbOption = None,
    fmt: format_option("text", "json", help="The findings (json: on stdout, {db, deals, problems})") = "text",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
) -> None:
    """Check hashes, ids and counts; exit 1 if anything is wrong."""
    form = chosen(fmt, as_json)
    archive = open_archive(db, read_only=True)
    try:
        problems = archive.verify()
        count = archive.count()
    finally:
        archive.close()
    if form == Format.json:
        emit(form, {"db": str(archive.path), "deals": count, "problems": problems})
    else:
        for problem in problems:
            err.print(Text.assemble((_("problem:"), "red"), f" {problem}"), highlight=False, soft_wrap=True)
        err.print(_("{path}: {deals:,} deals, {problems} problems", path=archive.path, deals=count,
                    problems=len(problems)), soft_wrap=True, highlight=False)
    raise typer.Exit(EXIT_OK if not problems else EXIT_INVALID)


def rebuild(
    db: DbOption = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the new file here; without it the archive is replaced (old file kept as .bak).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes that parse and validate.")] = 2,
    fmt: format_option("text", "json", help="The summary (text: on stderr; json: on stdout)") = "text",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
) -> None:
    """Build a fresh archive file from the stored records (re-parsed and re-validated)."""
    form = chosen(fmt, as_json)
    source = existing_archive(db)
    import duckdb

    from tutepgn.archive import rebuild_file
    try:
        summary, backup = rebuild_file(source, output, jobs=jobs)
    except (FileExistsError, duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None
    if form == Format.json:
        emit(form, {"db": str(output or source), "backup": backup and str(backup), **summary.to_dict()})
    elif backup is not None:
        err.print(_("rebuilt {path} ({summary}); the old file is {backup}", path=source, summary=summary,
                    backup=backup), highlight=False, soft_wrap=True)
    else:
        err.print(_("rebuilt into {path} ({summary})", path=output, summary=summary), highlight=False, soft_wrap=True)


def analyse(
    db: DbOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes that analyse.")] = 2,
    cantes: Annotated[bool, typer.Option("--cantes/--no-cantes", help="Values count cantes (the default: as the "
                                          "score sheet does); --no-cantes: card points and the last ten.")] = True,
    pimc: Annotated[int, typer.Option("--pimc", min=0, help="PIMC's worlds per decision made with hidden cards "
                                      "(0: double dummy only).")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the PIMC worlds.")] = 0,
    inference: Annotated[bool, typer.Option("--inference", help="Weight the worlds by the likelihood of the plays "
                                            "made.")] = False,
    fmt: format_option("text", "json", help="The summary (text: on stderr; json: on stdout)") = "text",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
    dataset: Annotated[Path | None, typer.Option(
        "--dataset", metavar="DEST", show_default=False,
        help="Analyse the deals of the Parquet dataset at DEST, the analyses stored in it.")] = None,
    cluster: cluster_option("Analyse") = None,  # type: ignore[valid-type]  # an option built at run time
) -> None:
    """Analyse every deal not analysed yet for these options (and this version of the analysis: rows of an older
    one are analysed again): resumable, an interrupted run keeps its batches."""
    from tutepgn.archive.analyses import AnalysisKey

    form = chosen(fmt, as_json)
    key = AnalysisKey(cantes=cantes, worlds=pimc, seed=seed, inference=inference)
    progress = Progress(TextColumn(_("analysing")), BarColumn(),
                        TextColumn(_("{done}/{total} deals", done="{task.completed:,}", total="{task.total:,}")),
                        TimeElapsedColumn(), console=err, disable=not err.is_terminal, transient=True)
    if dataset is not None:
        from tutepgn.cli.scale import analyse_dataset
        with progress:
            task = progress.add_task("analyse", total=None)
            summary = analyse_dataset(dataset, cluster, key, jobs=jobs,
                                      progress=lambda done, total: progress.update(task, completed=done, total=total))
        return say_summary(form, dataset, summary, key="dataset")
    source = existing_archive(db)
    archive = open_archive(source, read_only=False)
    import duckdb

    from tutepgn.cli.scale import on_cluster

    try:
        with progress, on_cluster(cluster, "tute-archive-analyse") as mapper:
            task = progress.add_task("analyse", total=None)
            summary = archive.analyse(key, jobs=jobs, mapper=mapper,
                                      progress=lambda done, total: progress.update(task, completed=done, total=total))
    except duckdb.Error as exc:
        raise fail(ArchiveError(_("the archive could not be written ({reason}): analyse again to finish",
                                  reason=exc))) from None
    finally:
        archive.close()
    say_summary(form, archive.path, summary)
