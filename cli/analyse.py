"""``tute analyse``: every card played valued as its player could know it and double dummy, its cost, loss and mark,
par; an annotated copy."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import RenderableType
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from tutepgn.cards import card_code
from tutepgn.cli.scale import cluster_option
from tutepgn.cli.usage import reason
from tutepgn.cli.output import EXIT_INVALID, Format, JsonFlag, NlFlag, chosen, emit, err, fail, format_option, out, say, table
from tutepgn.errors import NotationError, OutputError, TuteError
from tutepgn.i18n import N_, gettext as _, ngettext

if TYPE_CHECKING:  # the solver and the reader load when the command runs, not for ``tute --help``
    from tutepgn.analysis.deal_analysis import DealAnalysis
    from tutepgn.analysis.annotate import RecordAnalysis
    from tutepgn.notation import Record


COLUMNS = (N_("trick"), N_("seat"), N_("card"), N_("valued"), N_("value"), N_("best"), N_("cost"), N_("pimc cost"),
           N_("win"), N_("loss"), N_("mark"))
"""The headers of a deal's table of plays (said in the language spoken when shown)."""
METHODS = {"exact": N_("exact"), "pimc": N_("pimc"), "rollout": N_("rollout")}
"""How a play was valued as its mover could know it, in words."""


def deal_table(analysis: DealAnalysis, seats: tuple[str, ...]) -> Iterable[RenderableType]:
    """A deal's plays as a table (trick, seat, card, how valued, the double-dummy value, best cards and cost, the
    PIMC cost, the deal-win probability after the card, the loss in percentage points and the mark as a word),
    then par, actual, the totals and the outcome."""
    from tutepgn.analysis.outcome import MARK_NAMES

    def number(x: float | None, pattern: str) -> str:
        return "" if x is None else pattern.format(x)

    rows = [(p.trick, seats[p.seat], card_code(p.card), _(METHODS[p.method]) if p.method else "",
             "" if p.value_before is None else p.value_before,
             " ".join(card_code(c) for c in p.best or ()), "" if p.cost is None else p.cost,
             number(p.pimc_cost, "{:.1f}"), number(p.win_after, "{:.0%}"),
             number(None if p.loss is None else 100 * p.loss, "{:.0f}"),
             (_(MARK_NAMES[p.mark]) if p.mark else "") + (" " + _("result") if p.changed_result else ""))
            for p in analysis.plays]
    yield table([_(c) for c in COLUMNS], rows)
    sides = len(analysis.par)
    names = ["".join(s for seat, s in enumerate(seats) if analysis.seat_sides[seat] == k) for k in range(sides)]
    yield Text(_("par {par}   actual {actual}   given {given}   cost {costs}", par=_by_side(names, analysis.par),
                 actual=_by_side(names, analysis.actual), given=_by_side(names, analysis.given),
                 costs=", ".join(f"{seats[s]} {c}" for s, c in enumerate(analysis.costs))))
    outcome = analysis.outcome
    accuracy = ", ".join(f"{seats[s]} {a:.0f}%" for s in range(len(seats)) if (a := analysis.accuracy(s)) is not None)
    yield Text(_("totals {totals}   winner {winner}   accuracy {accuracy}", totals=_by_side(names, analysis.totals),
                 winner=names[outcome.winner] if outcome.winner is not None else "-", accuracy=accuracy or "-"))
    if outcome.tute:
        yield Text(_("a tute ended the deal: it is the deal's outcome"), style="dim")
    elif not analysis.complete:
        yield Text(_("the deal was not played to its last trick (the record stops): actual is what was made until "
                     "then"), style="dim")
    unvalued = sum(p.method is None and not p.double_dummy for p in analysis.plays)
    if unvalued:
        yield Text(ngettext("{n} card played before the stock ran out is not valued (PIMC is off: --pimc 0)",
                            "{n} cards played before the stock ran out are not valued (PIMC is off: --pimc 0)",
                            unvalued), style="dim")


def _by_side(names: list[str], values: tuple[int, ...]) -> str:
    return " ".join(f"{n}:{v}" for n, v in zip(names, values))


def analyse(
    file: Annotated[Path, typer.Argument(help="A .tpgn file.")],
    record: Annotated[int | None, typer.Option("--record", "-n", min=1, help="Only this record of the file, counting from 1.")] = None,
    cantes: Annotated[bool, typer.Option("--cantes/--no-cantes", help="Count cantes in the values, as the score sheet does (the default); --no-cantes: card points and the last ten alone.")] = True,
    pimc: Annotated[int, typer.Option("--pimc", min=0, help="Value each decision made with hidden cards over N worlds the mover could not tell apart (PIMC); 0: double dummy only.")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the PIMC worlds: the same seed, the same values.")] = 0,
    inference: Annotated[bool, typer.Option("--inference", help="Weight the worlds by the likelihood of the plays made (a play model: docs/analysis.md).")] = False,
    stock_horizon: Annotated[int | None, typer.Option("--stock-horizon", min=0, help="2 players: plays made with at most N cards in the stock are valued by worlds searched, earlier ones by worlds played out (default: tutepgn.analysis.STOCK_HORIZON).")] = None,
    fmt: format_option("table", "json", "nl", help="Output (json: an array, one analysis a record, keys in "  # type: ignore[valid-type]  # an option built at run time
                                                  "docs/analysis.md; nl: one a line)") = "table",
    as_json: JsonFlag = False,
    nl: NlFlag = False,
    annotate: Annotated[bool, typer.Option("--annotate", help="Write an annotated copy of the records to -o.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="With --annotate: the file to write.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes (records are analysed apart).")] = 1,
    cluster: cluster_option(N_("Analyse")) = None,  # type: ignore[valid-type]  # an option built at run time
) -> None:
    """Analyse played deals: each card valued as its player could know it (PIMC) and double dummy, the cost, the
    deal-win probability it lost and its mark (inaccuracy from 5 points of probability, mistake from 10, blunder
    from 15), par, what each side made and gave, the result.

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
                                                                             inference=inference, jobs=jobs, mapper=mapper,
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
        raise fail(OSError(_("cannot read {path}: {reason}", path=file, reason=reason(exc)))) from None
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
                                     reason=reason(exc)))) from None
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
