"""``tute play``: one deal against the bots in the terminal; the deal written as a record at the end."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from tutepgn.cli.output import EXIT_INVALID, fail, out
from tutepgn.cli.record import ask
from tutepgn.cli.render import card_text
from tutepgn.cli.usage import reason
from tutepgn.errors import TuteError
from tutepgn.i18n import gettext as _
from tutepgn.recording.commands import HELP_WORDS
from tutepgn.words import seat_words, suit_words

if TYPE_CHECKING:
    from tutepgn.play.table import Scene, Table


def play(
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name plus overrides, e.g. 'playcard-2p'.")] = "ludoteka-pairs",
    seat: Annotated[str, typer.Option("--seat", "-s", help="Your seat's letter (N W S E; N W E; N S).")] = "S",
    level: Annotated[int, typer.Option("--level", "-l", min=1, max=5, help="The bots' level, 1 (random) to 5 (the strongest PIMC): docs/play.md.")] = 3,
    seed: Annotated[int, typer.Option(help="Shuffle the deal from this seed (the same seed, the same cards).")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The .tpgn file written at the end (default: tute-DATE-TIME.tpgn here); never overwritten.")] = None,
    name: Annotated[str | None, typer.Option(help="Your name in the record.")] = None,
) -> None:
    """Play a deal against the bots: your hand and the trick are shown, you type your cards as in tute record
    (3O, 40, 20C, tute 12, x7B); the cantes, the tute and the exchange are offered when legal.  At the end the
    deal is written as a .tpgn record.  Ctrl-C or the end of input stops, writing the deal so far unfinished."""
    from tutepgn.play.table import Table
    from tutepgn.recording.recorder import default_path, write_atomic
    from tutepgn.rules import ruleset

    try:
        r = ruleset(rules)
        letter = seat.strip().upper()
        if letter not in r.seat_names:
            raise ValueError(_("{seat} is not a seat here; seats are {seats}", seat=letter, seats=" ".join(r.seat_names)))
        path = output or default_path()
        if path.exists():
            raise ValueError(_("{path} exists: give another --output", path=path))
        table = Table(r, r.seat_names.index(letter), level, seed=seed, name=name)
    except (TuteError, ValueError) as exc:
        raise fail(exc) from None
    out.print(Text(_("You sit at {seat}; the bots play at level {level}. Type a card or a declaration; ? shows your "
                     "choices.", seat=seat_words(letter), level=level), style="bold"))
    finished = _deal(table)
    try:
        write_atomic(path, table.record().tpgn())
    except OSError as exc:
        raise fail(OSError(_("cannot write {path}: {reason}", path=path, reason=reason(exc)))) from None
    if not finished:
        out.print(Text("\n" + _("Stopped: the deal so far is saved in {path} as an unfinished record (*).",
                                path=path)))
        raise typer.Exit(EXIT_INVALID)
    out.print(Text(_("The record is saved in {path}.", path=path)))


def _deal(table: Table) -> bool:
    """Play until the deal is over (True) or the person stops (False)."""
    try:
        while True:
            for action in table.advance():
                out.print(Text(table.said(action)))
            scene = table.scene()
            _draw(scene)
            if scene.over:
                return True
            _turn(table, scene)
    except (KeyboardInterrupt, EOFError):
        return False


def _turn(table: Table, scene: Scene) -> None:
    """Ask for the person's line until one is accepted."""
    prompt = (_("Declare ({options}) or press Enter to pass: ", options=" ".join(scene.options)) if scene.may_pass
              else _("Your play: "))
    while True:
        line = ask(prompt)
        if line.strip().lower() in HELP_WORDS:
            out.print(Text(_("You may enter {options}", options=" ".join(scene.options)), style="cyan"))
            continue
        try:
            action = table.enter(line)
        except TuteError as exc:
            out.print(Text(str(exc), style="red"))
            out.print(Text(_("You may enter {options}", options=" ".join(scene.options)), style="cyan"))
            continue
        if action is not None:
            out.print(Text(table.said(action)))
        return


def _draw(scene: Scene) -> None:
    """The table as the person sees it: the muestra and the stock, the trick, the points, the hand."""
    head = Text(_("Trick {n}", n=scene.tricks + 1) if not scene.over else _("Deal over"), style="bold")
    head.append("  " + _("trump {suit}, muestra ", suit=suit_words(scene.trump)))
    head.append_text(card_text(scene.turned))
    if scene.stock:
        head.append("  " + _("stock {n}", n=scene.stock))
    out.print(head)
    if scene.last:
        last = Text(_("Last trick: "))
        last.append_text(_seated(scene.last))
        last.append("  " + _("won by {seat}", seat=seat_words(scene.last_winner or "")))
        out.print(last)
    if scene.trick:
        trick = Text(_("On the table: "))
        trick.append_text(_seated(scene.trick))
        out.print(trick)
    points = "  ".join(f"{label} {p}" for label, p in scene.points)
    line = Text(_("Points: {points}", points=points))
    if scene.cantes:
        line.append("  " + _("Cantes: {cantes}", cantes=", ".join(scene.cantes)))
    out.print(line)
    if scene.over:
        out.print(Text(scene.result, style="bold"))
        return
    hand = Text(_("Your hand ({seat}): ", seat=scene.seat))
    hand.append_text(Text(" ").join(card_text(c) for c in scene.hand) if scene.hand else Text("-"))
    out.print(hand)
    if scene.options:
        out.print(Text(_("You may enter {options}", options=" ".join(scene.options)), style="cyan"))


def _seated(cards: tuple[tuple[str, str], ...]) -> Text:
    """Cards with their seats: ``N 3O  E 1O``."""
    return Text("  ").join(Text(f"{seat} ").append_text(card_text(card)) for seat, card in cards)
