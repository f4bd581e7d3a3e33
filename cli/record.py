"""``tute record``: record a deal played at a real table, entry by entry, saved after each one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.text import Text

from tutepgn.cli.output import fail, out
from tutepgn.errors import TuteError

if TYPE_CHECKING:  # the recorder loads when the command runs, not for ``tute --help``
    from tutepgn.recorder import Recorder, Reply


def _show(reply: Reply) -> None:
    """Print a reply: the position on help, the message (red when refused), then the legal choices."""
    from tutepgn.render import render_frame

    if reply.frame is not None:
        out.print(render_frame(reply.frame))
    if reply.message:
        out.print(Text(reply.message, style="red" if reply.refused else ""))
    if reply.legal:
        out.print(Text(f"legal now: {reply.legal}", style="cyan"))


def record(
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name plus overrides, e.g. 'playcard-2p match_target=5'.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="The new .tpgn file (default: tute-DATE-TIME.tpgn here); never overwritten.")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Shuffle the deal from this seed instead of entering it.")] = None,
    deal: Annotated[Optional[str], typer.Option(help="The hands as in a Deal tag: 'N:1O 3O ... W:...'.")] = None,
    stock: Annotated[Optional[str], typer.Option(help="2 players: the stock from top to bottom, the turned card last.")] = None,
    turned: Annotated[Optional[str], typer.Option(help="The card turned to show trump (3-4 players: one of the dealer's cards).")] = None,
    dealer: Annotated[str, typer.Option(help="The dealer's seat letter.")] = "N",
    tags: Annotated[Optional[list[str]], typer.Option("--tags", "--tag", help="A tag as Name=value, e.g. Event=Club night; repeat for more.")] = None,
) -> None:
    """Record a deal at the table: type each card and declaration as it happens.

    Each line is an entry: a card (1O) for the seat to move, a declaration
    (N 40, E 20C, S tute 12, S x7B), ? or help for the legal choices, or undo.
    An illegal entry is refused with the rule that forbids it.  The file is
    rewritten after every entry; Ctrl-C or the end of input stops with the
    record so far saved as unfinished (*).
    """
    from tutepgn.recorder import ENTRIES, Recorder, default_path, parse_tags
    from tutepgn.render import render_frame

    path = output or default_path()
    try:
        recorder = Recorder.start(rules, seed=seed, deal=deal, stock=stock, turned=turned, dealer=dealer,
                                  tags=parse_tags(tags or []), path=path)
    except OSError as exc:
        raise fail(OSError(f"cannot record to {path}: {exc.strerror}" if exc.strerror else exc)) from None
    except (TuteError, ValueError) as exc:
        raise fail(exc) from None
    out.print(Text(f"Recording a deal of {recorder.deal.rules} to {path}.\nEnter {ENTRIES}; "
                   "Ctrl-C or end of input stops, keeping the record so far."))
    out.print(render_frame(recorder.frame()))
    try:
        while not recorder.deal.over:
            _show(recorder.enter(input(recorder.prompt())))
    except (KeyboardInterrupt, EOFError):
        _save(recorder, path)
        out.print(Text(f"\nStopped: {recorder.saved} entries saved in {path} as an unfinished record (*)."))
        return
    except OSError as exc:
        raise _write_failed(recorder, path, exc) from None
    out.print(Text(f"Deal complete: the record is saved in {path}."))


def _save(recorder: Recorder, path: Path) -> None:
    """Make sure the file holds every accepted entry, even if the interrupt came in the middle of a save."""
    try:
        recorder.ensure_saved()
    except OSError as exc:
        raise _write_failed(recorder, path, exc) from None


def _write_failed(recorder: Recorder, path: Path, exc: OSError) -> typer.Exit:
    return fail(OSError(f"cannot write {path}: {exc.strerror or exc}; the file holds the first "
                         f"{max(recorder.saved, 0)} entries"))
