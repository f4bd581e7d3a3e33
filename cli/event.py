"""``tute event new|add|pair|result|standings|crosstable|history|sheets``: a club's torneo or liga in the archive
file.

Each command makes one call of :mod:`tutepgn.archive.events` (writes) or of :mod:`tutepgn.tournament` on the
stored event (reads), or of :mod:`tutepgn.archive.event_sheets` (the standings and table sheets as files);
the formats, Swiss rules, byes and tie-breaks are in docs/club.md, the files in docs/printing.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from tutepgn.cli.archive import DbOption, open_archive
from tutepgn.cli.usage import reason
from tutepgn.cli.output import JsonFlag, Format, chosen, emit, err, fail, format_option, table
from tutepgn.errors import EventError, UnknownRuleset
from tutepgn.i18n import N_, gettext as _

if TYPE_CHECKING:
    from rich.console import RenderableType

    from tutepgn.archive import Archive
    from tutepgn.tournament import Event, Round

T = TypeVar("T")


class KindChoice(str, Enum):
    torneo = "torneo"
    liga = "liga"


class FormatChoice(str, Enum):
    swiss = "swiss"
    round_robin = "round-robin"
    knockout = "knockout"
    duplicate = "duplicate"


EventArg = Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")]
SCORE = re.compile(r"^\s*(\d{1,6})\s*-\s*(\d{1,6})\s*$")


def score(text: str | None, what: str) -> tuple[int, int]:
    """``2-1`` as (2, 1); nothing as (0, 0); anything else a usage error naming ``what``."""
    if text is None:
        return (0, 0)
    found = SCORE.match(text)
    if found is None:
        raise fail(ValueError(_("{what} is written home-away, as 2-1, not {text!r}", what=what, text=text)))
    return (int(found[1]), int(found[2]))


def on_archive(db: Path | None, work: Callable[[Archive], T], *, read_only: bool) -> T:
    """``work`` on the archive file, closed after; an event's refusal or a bad ruleset as exit 2."""
    archive = open_archive(db, read_only=read_only)
    try:
        return work(archive)
    except (EventError, UnknownRuleset) as exc:
        raise fail(exc) from None
    finally:
        archive.close()


def stored(db: Path | None, name: str) -> Event:
    """The stored event ``name``, read-only."""
    from tutepgn.archive.events import load_event
    return on_archive(db, lambda a: load_event(a, name), read_only=True)


def new(
    name: EventArg,
    kind: Annotated[KindChoice, typer.Option("--kind", help="torneo (a championship) or liga (a league).")] = KindChoice.torneo,
    rules: Annotated[str, typer.Option("--rules", help="The ruleset's preset (tute rules lists them).")] = "ludoteka-pairs",
    fmt: Annotated[FormatChoice, typer.Option("--format", help="How rounds are paired.")] = FormatChoice.swiss,
    rounds: Annotated[int, typer.Option("--rounds", min=0, max=1000, help="Rounds to play (0: all the format gives).")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the pairings and of duplicate boards.")] = 0,
    boards: Annotated[int, typer.Option("--boards", min=1, max=64, help="Duplicate: boards each table plays a round.")] = 2,
    db: DbOption = None,
) -> None:
    """Create an event (torneo or liga) in the archive file."""
    from tutepgn.archive.events import create_event
    from tutepgn.tournament import Event

    try:
        event = Event.new(name, kind=kind.value, rules=rules, format=fmt.value, planned_rounds=rounds, seed=seed,
                          boards_per_round=boards)
    except (EventError, UnknownRuleset) as exc:
        raise fail(exc) from None
    on_archive(db, lambda a: create_event(a, event), read_only=False)
    err.print(_("created {event}: {kind}, {format}, {rules}", event=name, kind=kind.value, format=fmt.value,
                rules=rules), soft_wrap=True, highlight=False)


def add(
    name: EventArg,
    entrants: Annotated[list[str], typer.Argument(metavar="ENTRANT", help="A pair as Name/Name, or one player.")],
    db: DbOption = None,
) -> None:
    """Register pairs ("Ana Pérez/Bea Gil") or single players in an event."""
    from tutepgn.archive.events import add_entrants

    added = on_archive(db, lambda a: add_entrants(a, name, entrants), read_only=False)
    for entrant in added:
        typer.echo(str(entrant))


SHEET_HEADERS = (N_("table"), N_("home"), N_("away"))


def sheet(event: Event, rnd: Round) -> Iterator[RenderableType]:
    """A round's table sheet: each table with its entrants (a bye said), and a duplicate round's boards."""
    from tutepgn.tournament import round_boards

    names = {e.number: e.name for e in event.entrants}
    rows = [(t.number, f"{t.home}. {names[t.home]}", _("bye") if t.away is None else f"{t.away}. {names[t.away]}")
            for t in rnd.tables]
    yield table([_(h) for h in SHEET_HEADERS], rows, title=_("{event}: round {round}", event=event.name,
                                                            round=rnd.number))
    if event.format == "duplicate":
        from tutepgn.rules import preset
        seats = preset(event.rules).seat_names
        yield _("boards of the round: {boards}", boards=", ".join(
            f"{b.number} ({_('dealer')} {seats[b.dealer]})" for b in round_boards(event, rnd.number)))


def pair(name: EventArg, db: DbOption = None,
         fmt: format_option("table", "json") = "table",  # type: ignore[valid-type]  # an option built at run time
         as_json: JsonFlag = False,
         ranking: Annotated[str | None, typer.Option(
             "--ranking", metavar="N,N,...", help="Knockout: the seeding, entrant numbers best first.")] = None,
         ) -> None:
    """Pair the event's next round and print its table sheet."""
    from tutepgn.archive.events import load_event, pair_round

    try:
        seeding = None if ranking is None else [int(n) for n in ranking.split(",")]
    except ValueError:
        raise fail(ValueError(_("--ranking is entrant numbers separated by commas, not {text!r}",
                                text=ranking))) from None

    def work(archive: Archive) -> tuple[Event, Round]:
        rnd = pair_round(archive, name, seeding)
        return load_event(archive, name), rnd

    event, rnd = on_archive(db, work, read_only=False)
    emit(chosen(fmt, as_json), rnd.model_dump(mode="json"), render=lambda: sheet(event, rnd))


def result(
    name: EventArg,
    round_no: Annotated[int, typer.Option("--round", min=1, help="The round.")],
    table_no: Annotated[int, typer.Option("--table", min=1, help="The table.")],
    matches: Annotated[str | None, typer.Argument(metavar="SCORE", help="Matches won, home-away (2-1); a duplicate board's points.")] = None,
    deals: Annotated[str | None, typer.Option("--deals", help="Deals won, home-away.")] = None,
    points: Annotated[str | None, typer.Option("--points", help="Points made, home-away.")] = None,
    board: Annotated[int | None, typer.Option("--board", min=1, help="Duplicate: the board whose points SCORE gives.")] = None,
    from_deals: Annotated[bool, typer.Option("--from-deals", help="Work the result out from the archive's deals tagged with the event, round and table (no SCORE).")] = False,
    db: DbOption = None,
) -> None:
    """Enter a table's result (again for the same table: a correction)."""
    from tutepgn.archive.events import enter_board, enter_result, result_from_deals
    from tutepgn.tournament import BoardResult, Result

    if from_deals:
        res = on_archive(db, lambda a: enter_result(a, name, round_no, result_from_deals(a, name, round_no, table_no)),
                         read_only=False)
        err.print(_("round {round}, table {table}: {home}-{away}", round=round_no, table=table_no,
                    home=res.matches[0], away=res.matches[1]), soft_wrap=True, highlight=False)
        return
    if matches is None:
        raise fail(ValueError(_("give the SCORE (matches won, home-away), or --from-deals")))
    won = score(matches, _("the score"))
    if board is not None:
        entry = BoardResult(table=table_no, board=board, points=won)
        on_archive(db, lambda a: enter_board(a, name, round_no, entry), read_only=False)
        err.print(_("round {round}, table {table}, board {board}: {home}-{away}", round=round_no, table=table_no,
                    board=board, home=won[0], away=won[1]), soft_wrap=True, highlight=False)
        return
    res = Result(table=table_no, matches=won, deals=score(deals, "--deals"), points=score(points, "--points"))
    on_archive(db, lambda a: enter_result(a, name, round_no, res), read_only=False)
    err.print(_("round {round}, table {table}: {home}-{away}", round=round_no, table=table_no, home=won[0],
                away=won[1]), soft_wrap=True, highlight=False)


STANDING_HEADERS = {"place": N_("place"), "name": N_("entrant"), "played": N_("played"), "matches_won": N_("matches won"),
                    "matches_lost": N_("matches lost"), "deals_difference": N_("deals +/-"),
                    "points_difference": N_("points +/-"), "head_to_head": N_("head to head")}
RANK_HEADERS = {"place": N_("place"), "name": N_("entrant"), "boards": N_("boards"), "matchpoints": N_("matchpoints"),
                "top": N_("top"), "percentage": N_("percentage"), "par_difference": N_("against par")}


FILE_FORMS = ("pdf", "xlsx", "csv")
"""The forms ``--output`` writes (the service's downloads)."""
OutputOption = Annotated[Path | None, typer.Option(
    "--output", "-o", help="Write the file here (pdf, xlsx or csv: the form is --format's, or the file's ending).")]


def written_form(fmt: str, output: Path | None) -> str | None:
    """The file form to write (None: print as usual): ``--format`` if it names one, else the ending of
    ``--output``; a usage error for a PDF or a workbook without a file, or a file in a form no file takes."""
    if output is None:
        if fmt in ("pdf", "xlsx"):
            raise fail(ValueError(_("--format {form} writes a file: give --output FILE", form=fmt)))
        return None
    form = fmt if fmt in FILE_FORMS else output.suffix.lstrip(".").lower() if fmt == "table" else fmt
    if form not in FILE_FORMS:
        raise fail(ValueError(_("--output writes {forms}: give --format, or a file ending in one of them",
                                forms=", ".join(FILE_FORMS))))
    return form


def save(output: Path, body: bytes) -> None:
    """Write a file that was asked for, and say where (a path that cannot be written: the usage error)."""
    try:
        output.write_bytes(body)
    except OSError as exc:
        raise fail(OSError(_("cannot write {path}: {reason}", path=output, reason=reason(exc)))) from None
    err.print(_("written to {path}", path=output), soft_wrap=True, highlight=False)


def standings(name: EventArg, db: DbOption = None,
              fmt: format_option("table", "json", "csv", "pdf", "xlsx") = "table",  # type: ignore[valid-type]  # an option built at run time
              as_json: JsonFlag = False,
              par: Annotated[bool, typer.Option("--par", help="Duplicate: add each entrant's difference to par.")] = False,
              output: OutputOption = None,
              ) -> None:
    """The event's standings (a duplicate event's: by matchpoints), tie-breaks as docs/club.md says."""
    from tutepgn.tournament import ranking, standings as ordered

    form = written_form("json" if as_json else getattr(fmt, "value", fmt), output)
    event = stored(db, name)
    if form is not None and output is not None:
        from tutepgn.archive.event_sheets import standings_download
        from tutepgn.i18n import language

        save(output, standings_download(event, form, language()).body)
        return
    if event.format == "duplicate":
        rows: list[dict[str, Any]] = [line.model_dump() for line in ranking(event, with_par=par)]
        headers = RANK_HEADERS if par else {k: v for k, v in RANK_HEADERS.items() if k != "par_difference"}
    else:
        rows = [line.row() for line in ordered(event)]
        headers = STANDING_HEADERS
    form = chosen(fmt, as_json)
    if form == Format.csv or form == Format.json:
        emit(form, rows)
        return
    emit(form, rows, render=lambda: [table([_(h) for h in headers.values()],
                                           ([row[k] for k in headers] for row in rows), title=event.name)])


def sheets(name: EventArg,
           url: Annotated[str, typer.Option("--url", help="The service's address the phones reach, e.g. http://192.168.1.10:8000 (tute serve --lan prints it): each QR code is a table's page there.")],
           round_no: Annotated[int | None, typer.Option("--round", min=1, help="The round (default: the last paired).")] = None,
           output: Annotated[Path | None, typer.Option("--output", "-o", help="The PDF to write (default: tute-sheets-EVENT-round-N.pdf here).")] = None,
           db: DbOption = None) -> None:
    """A round's table sheets as a PDF to print: a page per table with its pairs, boxes for the result, a
    QR code of the table's page, and in a duplicate event each board's cards to deal."""
    from tutepgn.archive.event_sheets import table_sheets_pdf
    from tutepgn.i18n import language

    if not url.startswith(("http://", "https://")):
        raise fail(ValueError(_("--url is the service's address, as http://192.168.1.10:8000, not {text!r}",
                                text=url)))
    event = stored(db, name)
    try:
        download = table_sheets_pdf(event, round_no or len(event.rounds), url, language())
    except EventError as exc:
        raise fail(exc) from None
    save(output or Path(download.filename), download.body)


def crosstable(name: EventArg, db: DbOption = None,
               fmt: format_option("table", "json", "csv") = "table",  # type: ignore[valid-type]  # an option built at run time
               as_json: JsonFlag = False) -> None:
    """The event's cross-table: each entrant's matches won against each other, in the standings' order."""
    from tutepgn.tournament import crosstable as cross

    event = stored(db, name)
    rows = cross(event)
    columns = [_("entrant"), *(str(r.entrant) for r in rows)]
    grid = [[f"{r.entrant}. {r.name}", *("—" if r.entrant == other.entrant else cell or "" for other, cell
                                        in zip(rows, r.cells))] for r in rows]
    form = chosen(fmt, as_json)
    if form == Format.json:
        emit(form, [r.model_dump() for r in rows])
    elif form == Format.csv:
        emit(form, grid, columns=columns)
    else:
        emit(form, grid, render=lambda: [table(columns, grid, title=event.name)])


def history(name: EventArg,
            entrant: Annotated[int, typer.Argument(metavar="ENTRANT", help="The entrant's number.")],
            db: DbOption = None,
            fmt: format_option("table", "json") = "table",  # type: ignore[valid-type]  # an option built at run time
            as_json: JsonFlag = False) -> None:
    """An entrant's rounds: table, opponent and result."""
    from tutepgn.tournament import history as rounds_of

    event = stored(db, name)
    try:
        found = rounds_of(event, entrant)
    except EventError as exc:
        raise fail(exc) from None

    def shown(pair: tuple[int, int] | None) -> str:
        return "" if pair is None else f"{pair[0]}-{pair[1]}"

    rows = [(e.round, e.table, _("bye") if e.opponent is None else f"{e.opponent}. {e.opponent_name}",
             shown(e.matches), shown(e.deals), shown(e.points)) for e in found]
    emit(chosen(fmt, as_json), [e.model_dump() for e in found], render=lambda: [table(
        [_("round"), _("table"), _("opponent"), _("matches"), _("deals"), _("points")], rows,
        title=event.entrant(entrant).name)])
