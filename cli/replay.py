"""``tute replay``: step through a deal in the terminal, or print every frame when piped."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
import typer

from tutepgn.cli.usage import reason
from tutepgn.cli.output import Format, JsonFlag, chosen, emit, fail, format_option, out
from tutepgn.errors import TuteError
from tutepgn.i18n import N_, gettext as _

if TYPE_CHECKING:  # the reader loads when the command runs, not for ``tute --help``
    from tutepgn.check.replay import Frame

NEXT, PREVIOUS, FIRST, LAST, QUIT = "next", "previous", "first", "last", "quit"
KEYS = {
    **dict.fromkeys(("\x1b[C", "\xe0M", "\x00M", "n", " ", "\r", "\n"), NEXT),
    **dict.fromkeys(("\x1b[D", "\xe0K", "\x00K", "p", "b"), PREVIOUS),
    **dict.fromkeys(("\x1b[H", "\x1b[1~", "\x1bOH", "\xe0G", "\x00G", "g"), FIRST),
    **dict.fromkeys(("\x1b[F", "\x1b[4~", "\x1bOF", "\xe0O", "\x00O", "G"), LAST),
    **dict.fromkeys(("q", "Q", "\x1b"), QUIT),
}
"""Keys as ``click.getchar`` returns them (Unix escape sequences and Windows scan codes) and what they do."""
HELP = N_("→ n space: next   ← p b: previous   Home g: first   End G: last   q: quit")


def move(index: int, key: str, count: int) -> int | None:
    """The frame to show after ``key`` (unknown keys stay put), or None to quit."""
    action = KEYS.get(key)
    if action == QUIT:
        return None
    if action == NEXT:
        return min(index + 1, count - 1)
    if action == PREVIOUS:
        return max(index - 1, 0)
    if action == FIRST:
        return 0
    if action == LAST:
        return count - 1
    return index


def _browse(steps: list[Frame], first: int = 0) -> None:
    """Show one frame at a time, driven by the keyboard, from frame ``first``."""
    from tutepgn.cli.render import render_frame

    index: int | None = first
    while index is not None:
        out.clear()
        out.print(render_frame(steps[index], len(steps)))
        out.print(_(HELP), style="dim", highlight=False)
        try:
            key = click.getchar()
        except (KeyboardInterrupt, EOFError):
            return
        index = move(index, key, len(steps))


def replay(
    file: Annotated[Path | None, typer.Argument(help="A .tpgn file (none with --from: the position alone).")] = None,
    record: Annotated[int, typer.Option("--record", "-n", help="Which record of the file, counting from 1.")] = 1,
    show_all: Annotated[bool, typer.Option("--all", help="Print every frame in order instead of stepping.")] = False,
    start: Annotated[str | None, typer.Option(
        "--from", help="Start from this position string (docs/notation.md): alone, show it; with a file, start "
                       "at the first frame in that position.")] = None,
    positions: Annotated[bool, typer.Option("--positions", help="Print each frame's position string, one a line.")]
    = False,
    link: Annotated[bool, typer.Option("--link", help="Print the link that shows the deal on the service's "
                                                      "/view page, no archive needed.")] = False,
    base: Annotated[str, typer.Option("--base", help="The service's address, for --link.")] = "http://127.0.0.1:8000",
    fmt: format_option("text", "json", help="Output (json: every frame as data, an array)") = "text",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
) -> None:
    """Step through a deal: the hands, the trick on the table, points so far, cantes and exchanges.

    In a terminal, keys move between frames (→/n/space next, ←/p/b previous,
    Home/g first, End/G last, q quit); piped or with --all, every frame is
    printed in order.  --from starts from a position string, --positions
    prints them, --link prints the deal's shareable link.
    """
    from tutepgn.check.moment import Moment
    from tutepgn.check.moment import positions as position_strings
    from tutepgn.cli.render import render_frame
    from tutepgn.check.replay import frame_data, frames, pick_record
    from tutepgn.notation.share import deal_link

    form = chosen(fmt, as_json)
    index = 0
    try:
        if file is None:
            if start is None:
                raise ValueError(_("give a .tpgn file, or a position string with --from"))
            steps = [Moment.parse(start).frame()]
        else:
            chosen_record = pick_record(file, record)
            if link:
                out.print(deal_link(chosen_record.tpgn(), base), highlight=False, soft_wrap=True)
                return
            steps = frames(chosen_record)
            if positions or start is not None:
                texts = position_strings(chosen_record)
                if positions:
                    out.print("\n".join(texts), highlight=False, soft_wrap=True)
                    return
                if start not in texts:
                    assert start is not None  # positions is false here
                    Moment.parse(start)  # a string that does not read says why; one that does is not in the deal
                    raise ValueError(_("no frame of record {record} of {file} is in the position given", record=record, file=file))
                index = texts.index(start)
    except OSError as exc:
        raise fail(OSError(_("cannot read {file}: {reason}", file=file, reason=reason(exc)))) from None
    except (TuteError, ValueError) as exc:
        raise fail(exc) from None
    if form == Format.json:
        emit(form, [frame_data(step) for step in steps[index:]])
        return
    if show_all or not (sys.stdin.isatty() and sys.stdout.isatty()):
        for step in steps[index:]:
            out.print(render_frame(step, len(steps)), highlight=False)
        return
    _browse(steps, index)
