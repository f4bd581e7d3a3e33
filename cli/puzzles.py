"""``tute puzzles NAME``: the positions of a player's archived deals where their card lost the most, asked one at a
time in the terminal (``--format json``: the puzzles without their answers, for scripts)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Group
from rich.rule import Rule
from rich.text import Text

from tutepgn.cli.output import Format, JsonFlag, chosen, emit, fail, format_option, out
from tutepgn.errors import ArchiveError, IllegalAction, UnknownPlayer
from tutepgn.i18n import gettext as _

if TYPE_CHECKING:  # the archive loads when the command runs, not for ``tute --help``
    from tutepgn.archive import Archive
    from tutepgn.archive.puzzles import Puzzle, Verdict

QUIT = ("q", "quit", "salir")
"""What ends the puzzles at a prompt."""


def puzzles(
    name: Annotated[str, typer.Argument(help="The player, by the name the records give (exactly).")],
    db: Annotated[Path | None, typer.Option("--archive", "--db", envvar="TUTEPGN_DB",
                                            help="The archive file (default: see docs/archive.md).")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="At most this many puzzles.")] = 20,
    fmt: format_option("text", "json", help="Output (text: asked one at a time; json: the puzzles without "  # type: ignore[valid-type]  # an option built at run time
                                            "their answers)") = "text",
    as_json: JsonFlag = False,
) -> None:
    """Puzzles from a player's own mistakes: choose the card, then see the best one and the best line."""
    from tutepgn.archive.puzzles import puzzles as found_puzzles
    from tutepgn.cli.archive import existing_archive, open_archive

    form = chosen(fmt, as_json)
    archive = open_archive(existing_archive(db), read_only=True)
    try:
        try:
            listed = found_puzzles(archive, name, limit=limit)
        except (UnknownPlayer, ArchiveError) as exc:
            raise fail(exc) from None
        if form == Format.json:
            emit(form, [p.model_dump(mode="json") for p in listed])
            return
        if not listed:
            out.print(_("No puzzles: no card of {name} lost enough in the analysed deals.", name=name))
            return
        for number, puzzle in enumerate(listed, 1):
            if not ask_puzzle(archive, puzzle, number, len(listed)):
                break
    finally:
        archive.close()


def ask_puzzle(archive: Archive, puzzle: Puzzle, number: int, total: int) -> bool:
    """Ask one puzzle: the position, a card typed until one is legal, the verdict; whether to go on."""
    from tutepgn.archive.puzzles import check_answer
    from tutepgn.check.moment import Moment
    from tutepgn.cli.record import ask
    from tutepgn.cli.render import render_frame

    out.print(Rule(Text(_("Puzzle {n} of {total}", n=number, total=total), style="bold"), align="left"))
    out.print(_("Deal {deal}, trick {trick}: {seat} ({player}) to play", deal=puzzle.deal_id, trick=puzzle.trick,
                seat=puzzle.seat, player=puzzle.player))
    shown = render_frame(Moment.parse(puzzle.position).frame())
    out.print(Group(*shown.renderables[1:]) if isinstance(shown, Group) else shown)  # no "start of the deal" title
    out.print(Text(_("legal now: {legal}", legal=" ".join(puzzle.legal)), style="cyan"))
    while True:
        try:
            typed = ask(_("Your card (q to quit): ")).strip()
        except EOFError:
            return False
        if typed.lower() in QUIT:
            return False
        if not typed:
            continue
        try:
            verdict = check_answer(archive, puzzle.id, typed)
        except (IllegalAction, ValueError) as exc:
            out.print(Text(str(exc), style="red"))
            continue
        show_verdict(verdict)
        break
    if number == total:
        return False
    try:
        return ask(_("Enter: next puzzle, q: quit ")).strip().lower() not in QUIT
    except EOFError:
        return False


def show_verdict(verdict: Verdict) -> None:
    """Right or wrong, the best cards, the card played, why, and the best line."""
    out.print(Text(_("Right!") if verdict.correct else _("Not the best card."),
                   style="bold green" if verdict.correct else "bold red"))
    out.print(_("The best card: {best} · you played: {played}", best=" ".join(verdict.best), played=verdict.played))
    out.print(verdict.explanation)
    if verdict.best_line:
        out.print(_("The best line: {line}", line=", ".join(verdict.best_line)))  # steps "W 6E", mover first
    else:
        out.print(Text(_("The analysis stored for this deal has no best line: `tute archive analyse` stores it."),
                       style="dim"))
