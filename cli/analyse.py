"""``tute analyse``: the double-dummy value of every card played, its cost and mark, par; an annotated copy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import RenderableType
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from tutepgn.cards import card_code
from tutepgn.cli.scale import cluster_option
from tutepgn.cli.output import EXIT_INVALID, Format, JsonFlag, NlFlag, chosen, emit, err, fail, format_option, out, say, table
from tutepgn.errors import NotationError, OutputError, TuteError
from tutepgn.i18n import N_, gettext as _, ngettext

if TYPE_CHECKING:  # the solver and the reader load when the command runs, not for ``tute --help``
    from tutepgn.analysis.deal_analysis import DealAnalysis
    from tutepgn.analysis.annotate import RecordAnalysis
    from tutepgn.notation import Record


COLUMNS = (N_("trick"), N_("seat"), N_("card"), N_("value"), N_("best"), N_("cost"), N_("mark"))
"""The headers of a deal's table of valued plays (said in the language spoken when shown)."""
PIMC_COLUMN = N_("pimc cost")


def deal_table(analysis: DealAnalysis, seats: tuple[str, ...]) -> Iterable[RenderableType]:
    """A deal's valued plays as a table (trick, seat, card, value, best, cost, mark), then par and actual."""
    pimc = any(p.pimc is not None for p in analysis.plays) or any(h.pimc is not None for h in analysis.hidden)
    rows: list[tuple[Any, ...]] = [(p.index, p.trick, seats[p.seat], card_code(p.card), p.value_before,
             " ".join(card_code(c) for c in p.best), p.cost,
             (p.mark or "") + (" " + _("result") if p.changed_result else ""),
             *([f"{p.pimc_cost:.1f}"] if p.pimc_cost is not None else [])) for p in analysis.plays]
    rows += [(h.index, h.trick, seats[h.seat], card_code(h.card), "", "", "", "", f"{h.pimc_cost:.1f}")
             for h in analysis.hidden if h.pimc_cost is not None]  # valued by PIMC alone (the stock had cards)
    rows = [row[1:] for row in sorted(rows, key=lambda row: row[0])]
    yield table([_(c) for c in (*COLUMNS, *([PIMC_COLUMN] if pimc else []))], rows)
    sides = len(analysis.par)
    names = ["".join(s for seat, s in enumerate(seats) if analysis.seat_sides[seat] == k) for k in range(sides)]
    yield Text(_("par {par}   actual {actual}   cost {costs}", par=_by_side(names, analysis.par),
                 actual=_by_side(names, analysis.actual),
                 costs=", ".join(f"{seats[s]} {c}" for s, c in enumerate(analysis.costs))))
    if not analysis.complete:
        yield Text(_("the deal was not played to its last trick (a tute, or the record stops): actual is what "
                     "was made until then"), style="dim")
    from tutepgn.analysis.deal_analysis import NOT_SEEN  # loaded already: the analysis is here

    unvalued = Counter(h.reason for h in analysis.hidden if h.reason is not None)
    for reason, count in unvalued.items():
        if reason == NOT_SEEN:
            yield Text(ngettext("{n} card played before the stock ran out is not valued (double dummy needs every "
                                "card seen)", "{n} cards played before the stock ran out are not valued (double "
                                "dummy needs every card seen)", count), style="dim")
        else:
            yield Text(ngettext("{n} card played before the stock ran out is not valued by PIMC: {reason}",
                                "{n} cards played before the stock ran out are not valued by PIMC: {reason}", count,
                                reason=reason), style="dim")


def _by_side(names: list[str], values: tuple[int, ...]) -> str:
    return " ".join(f"{n}:{v}" for n, v in zip(names, values))


def analyse(
    file: Annotated[Path, typer.Argument(help="A .tpgn file.")],
    record: Annotated[int | None, typer.Option("--record", "-n", min=1, help="Only this record of the file, counting from 1.")] = None,
    cantes: Annotated[bool, typer.Option("--cantes", help="Count cantes in the values (each side sings the most its rules allow).")] = False,
    pimc: Annotated[int, typer.Option("--pimc", min=0, help="Also value each play over N worlds the mover could not tell apart (PIMC).")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the PIMC worlds: the same seed, the same values.")] = 0,
    stock_horizon: Annotated[int | None, typer.Option("--stock-horizon", min=0, help="With --pimc, also value the plays made with at most N cards in the stock (2 players; each card more multiplies the time; default: tutepgn.analysis.STOCK_HORIZON).")] = None,
    fmt: format_option("table", "json", "nl", help="Output (json: an array, one analysis a record, keys in "  # type: ignore[valid-type]  # an option built at run time
                                                  "docs/analysis.md; nl: one a line)") = "table",
    as_json: JsonFlag = False,
    nl: NlFlag = False,
    annotate: Annotated[bool, typer.Option("--annotate", help="Write an annotated copy of the records to -o.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="With --annotate: the file to write.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes (records are analysed apart).")] = 1,
    cluster: cluster_option(N_("Analyse")) = None,  # type: ignore[valid-type]  # an option built at run time
) -> None:
    """Analyse played deals under double dummy: each card's value, the best cards, the cost and its mark
    (?! from 3 points, ? from 10, ?? from 20), par and what each side made.

    Exit codes: 0 every record analysed, 1 some record could not be (illegal, no starting position),
    2 unreadable input, usage error, or an output that cannot be written.
    """
    from tutepgn.analysis.annotate import analyse_records
    from tutepgn.cli.scale import on_cluster
    from tutepgn.notation import tpgn

    form = chosen(fmt, as_json, nl)
    horizon = {} if stock_horizon is None else {"stock_horizon": stock_horizon}  # else the library's default
    if annotate != (output is not None):
        raise fail(ValueError(_("--annotate and -o OUT go together")))
    if not file.is_file():
        raise fail(OSError(_("{path}: no such file", path=file) if not file.exists() else
                           _("{path}: not a file", path=file)))
    results: list[dict] = []
    copies: list[Record] = []
    failed = 0
    progress = Progress(TextColumn(_("analysing")), BarColumn(),
                        TextColumn(_("{done} records", done="{task.completed:,}")),
                        TimeElapsedColumn(), console=err, disable=not (err.is_terminal and form == Format.table),
                        transient=True)
    try:
        with progress, on_cluster(cluster, "tute-analyse") as mapper:
            task = progress.add_task("analyse", total=None)
            for done, (result, copy) in enumerate(analyse_records(file, number=record, cantes=cantes, pimc=pimc, seed=seed,
                                                                             jobs=jobs, mapper=mapper,
                                                                             **horizon), 1):
                progress.update(task, completed=done)
                failed += result.error is not None
                if copy is not None:
                    copies.append(copy)
                if form == Format.table:
                    _print(result, copy)
                elif form == Format.nl:
                    emit(form, result.to_dict())
                else:
                    results.append(result.to_dict())
    except NotationError as exc:
        raise fail(exc) from None
    except OSError as exc:
        raise fail(OSError(_("cannot read {path}: {reason}", path=file, reason=exc.strerror or exc))) from None
    if record is not None and not (copies or failed):
        raise fail(ValueError(_("{path} has no record {number}", path=file, number=record)))
    if form == Format.json:
        emit(form, results)
    if annotate and output is not None:
        try:
            with output.open("w", encoding="utf-8", newline="\n") as fp:
                tpgn.dump(copies, fp)
        except OSError as exc:
            raise fail(OutputError(_("cannot write {path}: {reason}", path=output,
                                     reason=exc.strerror or exc))) from None
    if failed:
        if form == Format.table:
            say(TuteError(ngettext("{n} record could not be analysed", "{n} records could not be analysed", failed)),
                EXIT_INVALID)
        raise typer.Exit(EXIT_INVALID)


def _print(result: RecordAnalysis, copy: Record | None) -> None:
    """One record's table, or its error, for people."""
    if result.analysis is None or copy is None:
        message = result.error.message if result.error else _("not analysed")
        out.print(Text.assemble((_("record {number}:", number=result.index) + " ", "bold"),
                                (_("cannot analyse:") + " ", "red"), message))
        return
    from tutepgn.notation.tags import rules_of

    rules = rules_of(copy.tags.get("Rules", ""))
    out.print(Text(_("record {number}", number=result.index), style="bold"))
    for renderable in deal_table(result.analysis, rules.seat_names):
        out.print(renderable)
