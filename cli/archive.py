"""``tute import``, ``search``, ``stats``, ``export``, ``sql`` and ``archive verify|rebuild``: the archive commands.

Every command takes ``--db PATH`` (default: $TUTEPGN_DB, else the file in
the user's data directory, see docs/archive.md).  Filters are the same
everywhere and come from :class:`tutepgn.archive.SearchFilters`.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Optional

import duckdb
import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from tutepgn.errors import ArchiveError
from tutepgn.archive import BATCH_SIZE, EXPORT_FORMATS, Archive, default_path, run_sql
from tutepgn.cli.main import EXIT_OK, _fail, app, err, out
from tutepgn.archive import SORTS, SearchFilters

archive_app = typer.Typer(help="Check or rebuild the archive file.", no_args_is_help=True)
app.add_typer(archive_app, name="archive")

DbOption = Annotated[Optional[Path], typer.Option("--db", envvar="TUTEPGN_DB", help="The archive file (default: see docs/archive.md).")]


def _open(db: Path | None, *, read_only: bool, check_schema: bool = True) -> Archive:
    try:
        return Archive(db or default_path(), read_only=read_only, check_schema=check_schema)
    except (FileNotFoundError, duckdb.Error, ArchiveError) as exc:
        raise _fail(exc) from None


def _filters(**given: Any) -> SearchFilters:
    """The filters given on the command line, validated by the library's model."""
    try:
        return SearchFilters(**{k: v for k, v in given.items() if v is not None and v != []})
    except ValidationError as exc:
        problems = "; ".join((f"--{'.'.join(map(str, e['loc'])).replace('_', '-')}: " if e["loc"] else "")
                             + e["msg"].removeprefix("Value error, ") for e in exc.errors())
        raise _fail(ValueError(problems)) from None


def _expand(paths: list[str]) -> list[object]:
    sources: list[object] = []
    for p in paths:
        if p == "-":
            sources.append(sys.stdin)
        elif Path(p).is_dir():
            sources.extend(sorted(Path(p).rglob("*.tpgn")))
        elif Path(p).is_file():
            sources.append(Path(p))
        else:
            raise _fail(FileNotFoundError(f"{p}: no such file or directory"))
    return sources


@app.command("import")
def import_cmd(
    paths: Annotated[list[str], typer.Argument(help="Files, directories (searched for *.tpgn) or - for stdin.")],
    db: DbOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes that parse and validate.")] = 2,
    skip_invalid: Annotated[bool, typer.Option("--skip-invalid", help="Leave invalid records out instead of storing them flagged.")] = False,
    batch_size: Annotated[int, typer.Option(min=1, help="Records per transaction: an interrupted import keeps "
                                            "whole batches only.")] = BATCH_SIZE,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Parse, validate and store records; records already in the archive are not added again."""
    sources = _expand(paths)
    archive = _open(db, read_only=False)
    progress = Progress(TextColumn("importing"), BarColumn(), TextColumn("{task.completed:,} records"),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=err,
                        disable=not err.is_terminal, transient=True)
    start = time.perf_counter()
    try:
        with progress:
            task = progress.add_task("import", total=None, rate="")

            def report(records: int, added: int) -> None:
                rate = records / max(time.perf_counter() - start, 1e-9)
                progress.update(task, completed=records, rate=f"{rate:,.0f}/s, {added:,} new")

            summary = archive.import_sources(sources, jobs=jobs, skip_invalid=skip_invalid, batch_size=batch_size,
                                             progress=report)
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(exc) from None
    finally:
        archive.close()
    if as_json:
        typer.echo(json.dumps({"db": str(archive.path), **summary.to_dict()}))
    else:
        err.print(f"{archive.path}: {summary}", soft_wrap=True, highlight=False)


@app.command()
def search(
    db: DbOption = None,
    player: Annotated[Optional[str], typer.Option(help="A player's name, at any seat (or at --seat).")] = None,
    seat: Annotated[Optional[str], typer.Option(help="With --player: N, W, S or E.")] = None,
    partner: Annotated[Optional[str], typer.Option(help="With --player: the partner.")] = None,
    opponent: Annotated[Optional[str], typer.Option(help="With --player: an opponent.")] = None,
    since: Annotated[Optional[str], typer.Option(help="On or after YYYY-MM-DD.")] = None,
    until: Annotated[Optional[str], typer.Option(help="On or before YYYY-MM-DD.")] = None,
    event: Annotated[Optional[str], typer.Option(help="Text in Event.")] = None,
    site: Annotated[Optional[str], typer.Option(help="Text in Site.")] = None,
    rules: Annotated[Optional[str], typer.Option(help="Preset name or whole Rules spec.")] = None,
    trump: Annotated[Optional[str], typer.Option(help="Trump suit O, C, E or B.")] = None,
    winner: Annotated[Optional[str], typer.Option(help="Winning side label or player.")] = None,
    loser: Annotated[Optional[str], typer.Option(help="A player (or side) who did not win.")] = None,
    min_points: Annotated[Optional[int], typer.Option(help="Winner's total at least.")] = None,
    max_points: Annotated[Optional[int], typer.Option(help="Winner's total at most.")] = None,
    min_margin: Annotated[Optional[int], typer.Option(help="Winning margin at least.")] = None,
    max_margin: Annotated[Optional[int], typer.Option(help="Winning margin at most.")] = None,
    cante: Annotated[Optional[str], typer.Option(help="any, 20 or 40.")] = None,
    cante_suit: Annotated[Optional[str], typer.Option(help="A cante in this suit.")] = None,
    cante_by: Annotated[Optional[str], typer.Option(help="A cante by this player.")] = None,
    unsung: Annotated[Optional[str], typer.Option(help="any or 40: a seat dealt a cante that it never sang.")] = None,
    tute: Annotated[Optional[bool], typer.Option("--tute/--no-tute", help="Ended by a tute (or not).")] = None,
    tute_rank: Annotated[Optional[int], typer.Option(help="12 reyes or 11 caballos.")] = None,
    exchange: Annotated[Optional[bool], typer.Option("--exchange/--no-exchange", help="With an exchange (or not).")] = None,
    doubled: Annotated[Optional[bool], typer.Option("--doubled/--not-doubled", help="Worth double (or not).")] = None,
    tie_break: Annotated[Optional[bool], typer.Option("--tie-break/--no-tie-break", help="A tie decided by the last trick.")] = None,
    valid: Annotated[Optional[bool], typer.Option("--valid/--invalid", help="Validated (or not).")] = None,
    issue: Annotated[Optional[str], typer.Option(help="A validator finding code, e.g. must_follow.")] = None,
    held: Annotated[Optional[list[str]], typer.Option(help="SEAT:CARDS dealt, e.g. S:1O,3O (repeatable).")] = None,
    comment: Annotated[Optional[str], typer.Option(help="Text in the comments.")] = None,
    match: Annotated[Optional[str], typer.Option(help="A Match id.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, json, jsonl, tpgn or csv.")] = "table",
    limit: Annotated[int, typer.Option(help="At most this many deals.")] = 50,
    offset: Annotated[int, typer.Option(help="Skip this many first.")] = 0,
    sort: Annotated[str, typer.Option(help=f"One of {', '.join(SORTS)}.")] = "date",
) -> None:
    """Find deals: every filter is optional and all given filters must match."""
    filters = _filters(player=player, seat=seat, partner=partner, opponent=opponent, since=since, until=until,
                       event=event, site=site, rules=rules, trump=trump, winner=winner, loser=loser,
                       min_points=min_points, max_points=max_points, min_margin=min_margin, max_margin=max_margin,
                       cante=cante, cante_suit=cante_suit, cante_by=cante_by, unsung=unsung, tute=tute,
                       tute_rank=tute_rank, exchange=exchange, doubled=doubled, tie_break=tie_break, valid=valid,
                       issue=issue, held=held, comment=comment, match=match)
    if fmt not in ("table", "json", "jsonl", "tpgn", "csv"):
        raise _fail(ValueError(f"unknown format {fmt!r}: table, json, jsonl, tpgn or csv"))
    if sort not in SORTS:
        raise _fail(ValueError(f"unknown sort {sort!r}: {', '.join(SORTS)}"))
    archive = _open(db, read_only=True)
    try:
        if fmt == "json":
            rows = archive.search(filters, sort=sort, limit=limit, offset=offset)
            typer.echo(json.dumps(rows, default=_json_default, ensure_ascii=False))
            return
        if fmt != "table":
            if offset:
                raise _fail(ValueError("--offset works with --format table or json"))
            archive.export(filters, fmt, sys.stdout, sort=sort, limit=limit)
            return
        rows = archive.search(filters, sort=sort, limit=limit, offset=offset)
        total = archive.count(filters)
    finally:
        archive.close()
    table = Table(title=f"{total:,} deals" + (f", showing {offset + 1}-{offset + len(rows)}" if rows else ""))
    for col in ("id", "date", "event", "rules", "players", "trump", "score", "result", "valid"):
        table.add_column(col)
    for r in rows:
        names = " ".join(n for n in (r["north"], r["west"], r["south"], r["east"]) if n)
        score = " ".join(f"{s}:{v}" for s, v in zip(r["sides"] or (), r["score"] or ()))
        table.add_row(*map(Text, (str(r["id"]), r["date_text"] or "", r["event"] or "", r["rules"] or "", names,
                                  r["trump"] or "", score, r["result"] or "", "yes" if r["valid"] else "NO")))
    out.print(table)


def _json_default(value: object) -> object:
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@app.command()
def stats(
    db: DbOption = None,
    player: Annotated[Optional[str], typer.Option(help="Only deals with this player.")] = None,
    since: Annotated[Optional[str], typer.Option(help="On or after YYYY-MM-DD.")] = None,
    until: Annotated[Optional[str], typer.Option(help="On or before YYYY-MM-DD.")] = None,
    rules: Annotated[Optional[str], typer.Option(help="Preset name or Rules spec.")] = None,
    trump: Annotated[Optional[str], typer.Option(help="Trump suit.")] = None,
    event: Annotated[Optional[str], typer.Option(help="Text in Event.")] = None,
    valid: Annotated[Optional[bool], typer.Option("--valid/--invalid", help="Validated (or not).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="Draw the points distribution to FILE.png or FILE.svg.")] = None,
) -> None:
    """Statistics: per player, per ruleset, per trump, points, las cuarenta, mano."""
    filters = _filters(player=player, since=since, until=until, rules=rules, trump=trump, event=event, valid=valid)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise _fail(ValueError("--plot writes .png or .svg"))
    archive = _open(db, read_only=True)
    try:
        result = archive.stats(filters)
    finally:
        archive.close()
    if plot is not None:
        from tutepgn.plot import plot_points
        plot_points(result["points"], plot)
        err.print(f"wrote {plot}", soft_wrap=True, highlight=False)
    if as_json:
        typer.echo(json.dumps(result, default=_json_default, ensure_ascii=False))
        return
    t = result["totals"]
    out.print(f"{t['deals']:,} deals, {t['finished']:,} finished, {t['invalid']:,} invalid; average winner total "
              f"{t['avg_winner_points']}; {t['tutes']} tutes, {t['doubles']} doubles, {t['tie_breaks']} ties on the last trick")
    for title, key in (("Players", "players"), ("Rulesets", "rulesets"), ("Trump suits", "trumps"),
                       ("Winner's points", "points")):
        rows = result[key]
        if not rows:
            continue
        table = Table(title=title, title_justify="left")
        for col in rows[0]:
            table.add_column(col, justify="right" if col not in ("player", "preset", "trump") else "left")
        for row in rows[:50]:
            table.add_row(*[Text("" if v is None else str(v)) for v in row.values()])
        out.print(table)
    c, m = result["cuarenta"], result["mano"]
    out.print(f"Las cuarenta: the side dealt rey and caballo of trump won {c['won_by_holder']:,} of {c['deals']:,} "
              f"deals ({c['rate']}).")
    out.print(f"Mano: mano's side won {m['won_by_mano']:,} of {m['deals']:,} deals ({m['rate']}; "
              f"an even chance would be {m['even_chance']}).")


@app.command()
def export(
    db: DbOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=", ".join(EXPORT_FORMATS) + ".")] = "tpgn",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="File (a directory for parquet); stdout if not given.")] = None,
    cards: Annotated[str, typer.Option(help="Card style for tpgn/json/jsonl: es, es-letters, it, fr (json also en, names).")] = "es",
    player: Annotated[Optional[str], typer.Option(help="Only deals with this player.")] = None,
    since: Annotated[Optional[str], typer.Option(help="On or after YYYY-MM-DD.")] = None,
    until: Annotated[Optional[str], typer.Option(help="On or before YYYY-MM-DD.")] = None,
    rules: Annotated[Optional[str], typer.Option(help="Preset name or Rules spec.")] = None,
    event: Annotated[Optional[str], typer.Option(help="Text in Event.")] = None,
    valid: Annotated[Optional[bool], typer.Option("--valid/--invalid", help="Validated (or not).")] = None,
    match: Annotated[Optional[str], typer.Option(help="A Match id.")] = None,
    limit: Annotated[Optional[int], typer.Option(help="At most this many deals.")] = None,
) -> None:
    """Write deals out exactly as stored (tpgn), as JSON or CSV, or as partitioned Parquet."""
    filters = _filters(player=player, since=since, until=until, rules=rules, event=event, valid=valid, match=match)
    if fmt not in EXPORT_FORMATS:
        raise _fail(ValueError(f"unknown format {fmt!r}: {', '.join(EXPORT_FORMATS)}"))
    archive = _open(db, read_only=True)
    try:
        count = archive.export(filters, fmt, output if output is not None else sys.stdout, cards=cards,
                               limit=limit)
    except ValueError as exc:
        raise _fail(exc) from None
    finally:
        archive.close()
    err.print(f"exported {count:,} deals" + (f" to {output}" if output else ""), soft_wrap=True, highlight=False)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="One SQL statement, run read-only.")],
    db: DbOption = None,
    timeout: Annotated[float, typer.Option(help="Seconds before the query is stopped.")] = 10.0,
    max_rows: Annotated[int, typer.Option(help="At most this many rows.")] = 10_000,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON rows.")] = False,
) -> None:
    """Run SQL on a read-only connection: no writes, no files, no network, a time limit, a row cap."""
    try:
        columns, rows, cut = run_sql(db or default_path(), query, timeout=timeout, max_rows=max_rows)
    except FileNotFoundError as exc:
        raise _fail(exc) from None
    except duckdb.InterruptException:
        raise _fail(TimeoutError(f"the query ran over {timeout:g} s and was stopped")) from None
    except duckdb.Error as exc:
        raise _fail(exc) from None
    if as_json:
        typer.echo(json.dumps([dict(zip(columns, r)) for r in rows], default=_json_default, ensure_ascii=False))
    else:
        table = Table(*columns)
        for row in rows:
            table.add_row(*[Text("" if v is None else str(v)) for v in row])
        out.print(table)
    if cut:
        err.print(f"only the first {max_rows:,} rows are shown", soft_wrap=True, highlight=False)


@archive_app.command()
def verify(db: DbOption = None) -> None:
    """Check hashes, ids and counts; exit 1 if anything is wrong."""
    archive = _open(db, read_only=True)
    try:
        problems = archive.verify()
        count = archive.count()
    finally:
        archive.close()
    for problem in problems:
        err.print(f"[red]problem:[/red] {escape(problem)}", highlight=False, soft_wrap=True)
    err.print(f"{archive.path}: {count:,} deals, {len(problems)} problems", soft_wrap=True, highlight=False)
    raise typer.Exit(EXIT_OK if not problems else 1)


@archive_app.command()
def rebuild(
    db: DbOption = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the new file here; without it the archive is replaced (old file kept as .bak).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1)] = 2,
) -> None:
    """Build a fresh archive file from the stored records (re-parsed and re-validated)."""
    source = db or default_path()
    target = output or source.with_name(source.name + ".rebuild")
    if target.exists():
        raise _fail(FileExistsError(f"{target} exists: remove it or choose another --output"))
    archive = _open(source, read_only=True, check_schema=False)  # rebuild is how an old file is brought up to date
    try:
        summary = archive.rebuild(target, jobs=jobs)
    finally:
        archive.close()
    if output is None:
        backup = source.with_name(source.name + ".bak")
        source.replace(backup)
        target.replace(source)
        err.print(f"rebuilt {source} ({summary}); the old file is {backup}", highlight=False, soft_wrap=True)
    else:
        err.print(f"rebuilt into {target} ({summary})", highlight=False, soft_wrap=True)

