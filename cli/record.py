"""``tute record``: record deals played at a real table, entry by entry, saved after each one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from tutepgn.cli.usage import reason
from tutepgn.cli.output import fail, out
from tutepgn.errors import LimitError, TuteError
from tutepgn.i18n import gettext as _
from tutepgn.notation.inputs import read_line
from tutepgn.notation import SEAT_TAGS
from tutepgn.cli.render import render_frame
from tutepgn.recording.recorder import ENTRIES, Recorder, Reply, default_path, parse_tags, read_turned
from tutepgn.recording.session import Session
from tutepgn.rules import ruleset
from tutepgn.words import seat_words
from tutepgn.visible import visible

if TYPE_CHECKING:
    from tutepgn.tournament import TableStart


def _show(reply: Reply) -> None:
    """Print a reply: the position, the message (red when refused), then the legal choices."""
    if reply.frame is not None:
        out.print(render_frame(reply.frame))
    if reply.message:
        out.print(Text(reply.message, style="red" if reply.refused else ""))
    if reply.legal:
        out.print(Text(_("legal now: {legal}", legal=reply.legal), style="cyan"))


def ask(prompt: str) -> str:
    """A line typed after ``prompt``, as ``input()`` reads it but bounded (:func:`tutepgn.notation.inputs.read_line`): a
    line over ``TUTEPGN_MAX_LINE_BYTES`` is refused, unread and unshown, and asked for again."""
    while True:
        sys.stdout.write(visible(prompt))
        sys.stdout.flush()
        try:
            return read_line(sys.stdin.buffer, sys.stdin.encoding or "utf-8")
        except LimitError as exc:
            out.print(Text(str(exc), style="red"))


def record(
    rules: Annotated[str | None, typer.Option("--rules", "-r", help="Preset name plus overrides, e.g. 'playcard-2p match_target=5'.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The new .tpgn file (default: tute-DATE-TIME.tpgn here); never overwritten.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Go on with an unfinished recording (a deal or a match) from its file.")] = None,
    single: Annotated[bool, typer.Option("--single", help="Record one deal, not a match until its target.")] = False,
    players: Annotated[str | None, typer.Option(help="The players' names in seat order (N W S E; N W E; N S), separated by commas; asked when not given.")] = None,
    event: Annotated[str | None, typer.Option(help="The event (Event tag); asked when not given.")] = None,
    seed: Annotated[int | None, typer.Option(help="Shuffle the deal from this seed (the hands are then known).")] = None,
    deal: Annotated[str | None, typer.Option(help="The hands, when known, as in a Deal tag: 'N:1O 3O ... W:...'.")] = None,
    stock: Annotated[str | None, typer.Option(help="With --deal, 2 players: the stock from top to bottom, the turned card last.")] = None,
    turned: Annotated[str | None, typer.Option(help="The card turned to show trump (of the first deal); asked when not given.")] = None,
    dealer: Annotated[str, typer.Option(help="The (first) dealer's seat letter.")] = "N",
    tags: Annotated[list[str] | None, typer.Option("--tags", "--tag", help="A tag as Name=value, e.g. Site=Club; repeat for more.")] = None,
    round_no: Annotated[int | None, typer.Option("--round", min=1, help="With --event (a stored event's name) and --table: record at the event's table, its rules, players and tags (Event, Round, Table) filled in.")] = None,
    table: Annotated[int | None, typer.Option("--table", min=1, help="The event's table (with --event and --round).")] = None,
    board: Annotated[int | None, typer.Option("--board", min=1, help="A duplicate event: record this board, its hands as every table deals them.")] = None,
    db: Annotated[Path | None, typer.Option("--db", envvar="TUTEPGN_DB", help="The archive file that holds the event (--round, --table).")] = None,
) -> None:
    """Record a deal or a match at the table: type each card and declaration as it happens.

    The hands are unknown, as at a real table: give the turned card, then each
    card as it is played (several to a line, or a whole trick: 1. S 6B 7B 12B
    4B), each declaration as it is shown (N 40, E 20C, S tute 12, S x7B), ?
    for the position, undo (undo 3: the last three).  Each entry is judged at
    once from the cards seen (a revoke is named with the trick that proves
    it); a refused entry is not applied.  With --seed or --deal the hands are
    known and one deal is recorded.  The file is rewritten after every entry;
    Ctrl-C or the end of input stops with everything entered saved, and
    --resume FILE goes on.
    """
    try:
        if round_no is not None or table is not None or board is not None:
            if resume is not None or seed is not None or deal or stock or players:
                raise ValueError(_("an event's table gives the players and the cards: give no --resume, --seed, "
                                   "--deal, --stock or --players with --round"))
            start = _event_table(db, event, round_no, table, board)
            if rules is not None and rules.split()[0] != start.rules:
                raise ValueError(_("the event is played under {rules}, not {given}", rules=start.rules, given=rules))
            rules, event = rules or start.rules, start.event
            players = ",".join(start.players.get(seat, "?") for seat in ruleset(rules).seat_names)
            tags = [*(f"{k}={v}" for k, v in start.tags.items()), *(tags or [])]
            if start.board is not None:
                b = start.board
                path = output or default_path()
                out.print(Text(_("Deal board {board}: {dealer} deals; the turned card is {turned}.", board=b.board,
                                 dealer=b.dealer, turned=b.turned)))
                for seat, cards in b.hands.items():
                    out.print(Text("  " + " ".join((seat, start.players.get(seat, "") + ":", *cards))))
                if b.stock:
                    out.print(Text("  " + _("stock, from the top: {cards}", cards=b.stock)))
                player_tags = {SEAT_TAGS[s]: name for s, name in start.players.items()}
                _known(rules, None, b.deal, b.stock, b.turned, b.dealer, {**parse_tags(tags), **player_tags}, path)
                return
        if resume is not None:
            if rules or output or seed is not None or deal or stock or turned or players or event or tags:
                raise ValueError(_("--resume goes on with the file as it is: give no other option"))
            session = Session.resume(resume)
            path = resume
        elif seed is not None or deal or stock:
            path = output or default_path()
            _known(rules, seed, deal, stock, turned, dealer, parse_tags(tags or []), path)
            return
        else:
            path = output or default_path()
            session = Session.new(_required(rules), path, tags=parse_tags(tags or []), dealer=dealer,
                                  match=not single)
            if turned is not None:
                read_turned(session.rules, turned)
            _table_tags(session.rules.seat_names, session.tags, players, event)
    except OSError as exc:
        raise fail(OSError(_("cannot record to {path}: {reason}", path=exc.filename or output, reason=reason(exc))
                           if exc.strerror else exc)) from None
    except (TuteError, ValueError) as exc:
        raise fail(exc) from None
    except (KeyboardInterrupt, EOFError):
        out.print(Text("\n" + _("Stopped before the first deal: nothing was written.")))
        return
    _run(session, path, turned)


def _event_table(db: Path | None, event: str | None, round_no: int | None, table: int | None,
                 board: int | None) -> TableStart:
    """The stored event's table to record at (:func:`tutepgn.tournament.table_start`), or exit 2 saying why not."""
    from tutepgn.cli.event import stored
    from tutepgn.tournament import table_start

    if event is None or round_no is None or table is None:
        raise ValueError(_("a table of an event is given by --event, --round and --table together"))
    return table_start(stored(db, event), round_no, table, board)


def _required(rules: str | None) -> str:
    if not rules:
        raise ValueError(_("give the rules (--rules PRESET), or --resume FILE"))
    return rules


def _table_tags(seats: tuple[str, ...], tags: dict[str, str], players: str | None, event: str | None) -> None:
    """Ask once for the event and the players (unless given), into ``tags``."""
    if event is not None:
        tags["Event"] = event
    elif "Event" not in tags:
        tags["Event"] = ask(_("Event: ")).strip() or "?"
    names = [name.strip() for name in players.split(",")] if players is not None else []
    if players is not None and len(names) != len(seats):
        raise ValueError(_("--players gives {given} names; this table has {n} seats ({seats})", given=len(names),
                           n=len(seats), seats=" ".join(seats)))
    for i, seat in enumerate(seats):
        tag = SEAT_TAGS[seat]
        if names:
            tags[tag] = names[i] or "?"
        elif tag not in tags:
            named = seat_words(seat)  # "Norte" where seats are said in words, else the tag's name, "North"
            tags[tag] = ask(_("{tag} ({seat}): ", tag=tag if named == seat else named, seat=seat)).strip() or "?"


def _known(rules: str | None, seed: int | None, deal: str | None, stock: str | None, turned: str | None,
           dealer: str, tags: dict[str, str], path: Path) -> None:
    """One deal whose hands are known (shuffled from a seed, or entered)."""
    recorder = Recorder.start(_required(rules), seed=seed, deal=deal, stock=stock, turned=turned, dealer=dealer,
                              tags=tags, path=path)
    out.print(Text(_("Recording a deal of {rules} to {path}.\nEnter {entries}; Ctrl-C or end of input stops, keeping "
                     "the record so far.", rules=recorder.deal.rules, path=path, entries=_(ENTRIES))))
    out.print(render_frame(recorder.frame()))
    if _entries(recorder, path):
        out.print(Text(_("Deal complete: the record is saved in {path}.", path=path)))


def _run(session: Session, path: Path, turned: str | None) -> None:
    """Deal after deal until the session is over: the turned card, then the entries."""
    kind = _("a match to {target}", target=session.match.target) if session.match is not None else _("a deal")
    hands = _("hands known") if session.current is not None and session.current.seen is None else _("hands unknown")
    out.print(Text(_("Recording {what} of {rules} to {path}, {hands}.\nEnter {entries}; Ctrl-C or end of input stops, "
                     "keeping everything entered (tute record --resume {path}).", what=kind, rules=session.rules,
                     path=path, hands=hands, entries=_(ENTRIES))))
    try:
        while not session.over:
            recorder = session.current
            if recorder is None:
                recorder = _next_deal(session, turned)
                turned = None
            out.print(render_frame(recorder.frame()))
            if not _entries(recorder, path):
                return
            out.print(Text(session.finish(), style="bold"))
    except (KeyboardInterrupt, EOFError):
        held = _("{path} holds every deal so far", path=path) if session.done else _("nothing was written")
        out.print(Text("\n" + _("Stopped before the next deal: {held}.", held=held)))
        return
    except OSError as exc:
        raise fail(OSError(_("cannot write {path}: {reason}", path=path, reason=reason(exc)))) from None
    out.print(Text(_("Complete: the records are saved in {path}.", path=path) if len(session.done) > 1 else
                   _("Complete: the record is saved in {path}.", path=path)))


def _next_deal(session: Session, turned: str | None) -> Recorder:
    """Start the next deal, asking for its turned card until it is one."""
    number = len(session.done) + 1
    while True:
        text = turned or ask(_("Deal {number}, dealt by {dealer}. The turned card: ", number=number,
                                 dealer=session.dealer))
        turned = None
        try:
            return session.next_deal(text)
        except ValueError as exc:
            out.print(Text(str(exc), style="red"))


def _entries(recorder: Recorder, path: Path) -> bool:
    """Read entries until the deal is over (True), or until Ctrl-C or the end of input (False: saved)."""
    try:
        while not recorder.over:
            reply = recorder.enter(ask(recorder.prompt()))
            _show(reply)
            if reply.end:
                raise EOFError
    except (KeyboardInterrupt, EOFError):
        _save(recorder, path)
        out.print(Text("\n" + _("Stopped: {n} entries saved in {path} as an unfinished record (*).",
                                 n=recorder.saved, path=path)))
        return False
    except OSError as exc:
        raise _write_failed(recorder, path, exc) from None
    return True


def _save(recorder: Recorder, path: Path) -> None:
    """Make sure the file holds every accepted entry, even if the interrupt came in the middle of a save."""
    try:
        recorder.ensure_saved()
    except OSError as exc:
        raise _write_failed(recorder, path, exc) from None


def _write_failed(recorder: Recorder, path: Path, exc: OSError) -> typer.Exit:
    return fail(OSError(_("cannot write {path}: {reason}; the file holds the first {n} entries", path=path,
                          reason=reason(exc), n=max(recorder.saved, 0))))
