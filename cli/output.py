"""What every command shares: the consoles, the exit codes, the one output switch and the one error shape.

A command that prints data takes ``--format`` (:func:`format_option`, with the
forms that fit it; ``--json`` and ``--nl`` are short for ``--format json`` and
``--format nl``) and writes through :func:`emit`.  A command that stops on an
error raises :func:`fail`: a readable line on stderr, or, when the command line
asks for JSON, a :class:`tutepgn.errors.Problem` (status = the exit code).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from datetime import date
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer
from typer.exceptions import TyperException

from tutepgn.cli.usage import spoken
from tutepgn.errors import NotationError, OutputError, TuteError
from tutepgn.i18n import N_, gettext as _
from tutepgn.visible import visible

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.table import Table
    from rich.text import Text

    from tutepgn.errors import ErrorItem, Problem

    out: Console
    err: Console


@cache
def console(name: str) -> Console:
    """The console ``out`` (stdout) or ``err`` (stderr), made when first used: rich loads when a command prints
    with it, not for ``tute --help`` (``bench/cli_startup.py``).  On ``out`` a closed pipe (``| head``) ends
    the command with status 0, as every command's own writes do (:func:`closed_pipe`), where rich would exit
    with 1.  Neither replaces ``:name:`` with an emoji: a player's name or a comment is printed as written."""
    from rich.console import Console
    from rich.segment import Segment

    class VisibleConsole(Console):
        """Every character it writes that is not its own styling or cursor control is visible: a control
        character in a record's text (a name, an event, a comment) or in an input echoed in an error is escaped
        (:func:`tutepgn.visible.visible`), never obeyed by the terminal.  Tables escape their cells before they
        are measured (:func:`table`), so that their columns line up; this catches whatever else is shown."""

        def render(self, renderable: Any, options: Any = None) -> Iterator[Segment]:
            for segment in super().render(renderable, options):
                yield segment if segment.control else Segment(visible(segment.text, "lines"), segment.style)

    class StdoutConsole(VisibleConsole):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise closed_pipe()

    return StdoutConsole(emoji=False) if name == "out" else VisibleConsole(stderr=True, emoji=False)


def __getattr__(name: str) -> Console:
    """``out`` and ``err``, the two consoles (:func:`console`)."""
    if name in ("out", "err"):
        return console(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
"""Exit codes: 0 success, 1 invalid or mismatched records (or a failed check), 2 unreadable input, a usage
error, or an archive or output that cannot be opened or written (docs/cli.md)."""


class Format(str, Enum):
    """The forms a command can print: for people (table, text) or for programs (the rest)."""

    table = "table"
    text = "text"
    json = "json"
    nl = "nl"
    jsonl = "jsonl"
    csv = "csv"
    tpgn = "tpgn"
    parquet = "parquet"


JSON_MODE = frozenset({"json", "nl"})
"""The forms of data for programs: a command line asking for one gets its errors as a JSON problem too
(record forms such as ``jsonl`` or ``convert --to json`` are files, whose errors stay readable lines)."""


def format_option(*forms: str, help: str = "") -> Any:
    """``--format``/``-f`` limited to ``forms`` (the first is the default), the same option on every command."""
    choices = Enum("Forms", {form: form for form in forms}, type=str)  # type: ignore[misc]
    return Annotated[choices, typer.Option("--format", "-f", help=_(help or N_("Output")) + ".",
                                      show_default=True)]


JsonFlag = Annotated[bool, typer.Option("--json", help="Short for --format json.")]
NlFlag = Annotated[bool, typer.Option("--nl", help="Short for --format nl: one JSON document a line.")]


def chosen(fmt: str | Enum, as_json: bool = False, nl: bool = False) -> Format:
    """The form asked for: ``--json`` and ``--nl`` win over ``--format`` (they are its short forms)."""
    return Format.json if as_json else Format.nl if nl else Format(getattr(fmt, "value", fmt))


def json_default(value: object) -> object:
    """JSON for what the archive returns beyond JSON's types: dates as ISO text, anything else as text."""
    return value.isoformat() if isinstance(value, date) else str(value)


def dumps(data: object) -> str:
    """One JSON document on one line, the way every command writes JSON: its control characters escaped as JSON
    escapes (``\\u009b``: the same data, which a terminal does not obey; :func:`tutepgn.visible.visible`)."""
    import json  # loaded by a command that writes JSON, not by every start (bench/cli_startup.py)

    return visible(json.dumps(data, default=json_default, ensure_ascii=False), "json")


def emit(form: Format, data: Any, *, columns: Sequence[str] | None = None,
         render: Callable[[], Iterable[RenderableType]] | None = None) -> None:
    """Write ``data`` in ``form``: a list as a JSON array, JSON lines or CSV rows (``columns``, else the keys);
    anything else as one JSON document; for people, what ``render`` gives, else a table of the rows."""
    rows = data if isinstance(data, list) else None
    if form == Format.json:
        if rows is None:
            typer.echo(dumps(data))
        else:
            from tutepgn.notation import jsonform  # the reader loads when a command writes, not for --help
            sys.stdout.writelines(jsonform.join(map(dumps, rows)))
    elif form == Format.nl:
        for item in rows if rows is not None else [data]:
            typer.echo(dumps(item))
    elif form == Format.csv:
        import csv

        writer = csv.writer(sys.stdout)  # RFC 4180 lines, as the archive's CSV export writes them
        names = list(columns or (rows[0] if rows else ()))
        writer.writerow(map(visible, map(str, names)))
        writer.writerows([visible(v) if isinstance(v, str) else v for v in _cells(row, names)] for row in rows or ())
    elif render is not None:
        for renderable in render():
            console("out").print(renderable)
    else:
        names = list(columns or (rows[0] if rows else ()))
        console("out").print(table(names, (_cells(row, names) for row in rows or ())))


class Screen:
    """A text stream that writes :func:`tutepgn.visible.visible` lines (each control character escaped; line
    breaks and tabs kept) to the stream it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(visible(text, "lines"))

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.stream.flush()


def data_out() -> TextIO:
    """Where a command writes records or rows as data (tpgn, JSON, CSV) when no file is given: stdout as it is
    into a file or a pipe, so that the data stays intact; on a terminal, through :class:`Screen`, so that a
    control character in a record is shown escaped rather than obeyed."""
    return Screen(sys.stdout) if sys.stdout.isatty() else sys.stdout  # type: ignore[return-value]


def _cells(row: Any, names: Sequence[str]) -> list[Any]:
    return [row[name] for name in names] if isinstance(row, dict) else list(row)


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], **options: Any) -> Table:
    """A table of plain cells (never read as markup, control characters escaped: :func:`cell`), None shown empty."""
    from rich.table import Table

    grid = Table(*(visible(str(name)) for name in columns), **options)
    for row in rows:
        grid.add_row(*[cell(v) for v in row])
    return grid


def cell(value: object) -> Text:
    """A value as a table's cell: plain text (never markup), control characters escaped before the table
    measures it (:func:`tutepgn.visible.visible`), None empty."""
    from rich.text import Text

    return Text("" if value is None else visible(str(value)))


# -- Errors ----------------------------------------------------------------------------------------

_TITLES: tuple[tuple[type[BaseException], str], ...] = (
    (NotationError, N_("Syntax error")), (TyperException, N_("Usage error")), (TimeoutError, N_("Time limit")),
    (FileExistsError, N_("File exists")), (OutputError, N_("Cannot write")), (OSError, N_("Unreadable input")),
    (UnicodeError, N_("Unreadable input")), (ValueError, N_("Invalid value")), (Exception, N_("Error")))
"""A problem's title by the error's kind, in English: put in the language spoken when the problem is shown, as
the service does (the title is for people; ``type`` and ``status`` are for programs)."""


def problem(exc: BaseException, status: int, instance: str | None, items: Sequence[ErrorItem] = ()) -> Problem:
    """``exc`` as the one JSON error shape; its items are ``items``, else the error itself (located if it can be)."""
    from tutepgn.errors import ErrorItem, Problem  # pydantic loads when an error is shown as JSON

    title = _(next(t for kind, t in _TITLES if isinstance(exc, kind)))
    message = spoken(exc.format_message()) if isinstance(exc, TyperException) else str(exc)
    own = exc.item() if isinstance(exc, TuteError) else ErrorItem(message=message)
    return Problem(title=title, status=status, detail=message, instance=instance, errors=list(items) or [own])


def json_requested(words: Sequence[str]) -> bool:
    """Whether a command line asks for JSON data: ``--json``, ``--nl``, ``--format json`` or ``--format nl``."""
    for i, word in enumerate(words):
        if word in ("--json", "--nl"):
            return True
        name, eq, value = word.partition("=")
        if name in ("--format", "-f") and (value if eq else words[i + 1] if i + 1 < len(words) else "") in JSON_MODE:
            return True
    return False


@dataclass
class Invocation:
    """The command line running now: its words decide JSON mode; its command names the problem (``instance``)."""

    words: list[str] = field(default_factory=list)
    command: str = "tute"

    @property
    def json(self) -> bool:
        """Whether the command line asks for JSON output, so its errors are JSON too."""
        return json_requested(self.words)


invocation = Invocation()
"""Set by the root command (``cli/main.py``) before a command runs."""


ERROR = N_("error")
"""The label of an error's line on stderr, unless the command gives another (marked ``N_``, said when shown)."""


def say(exc: BaseException, status: int = EXIT_USAGE, label: str = ERROR, items: Sequence[ErrorItem] = ()) -> None:
    """Report an error on stderr: a problem in JSON mode (with ``items`` when there are several), else
    ``label: message`` on one line, the label in the language spoken."""
    if invocation.json:
        typer.echo(visible(problem(exc, status, invocation.command, items).model_dump_json(), "json"), err=True)
    else:
        from rich.text import Text

        console("err").print(Text.assemble((f"{_(label)}:", "red"), f" {exc}"), soft_wrap=True, highlight=False)


def fail(exc: BaseException, status: int = EXIT_USAGE, label: str = ERROR,
         items: Sequence[ErrorItem] = ()) -> typer.Exit:
    """Report ``exc`` (see :func:`say`) and give the exit to raise: ``raise fail(exc) from None``."""
    say(exc, status, label, items)
    return typer.Exit(status)


def closed_pipe() -> typer.Exit:
    """The exit when the reader of stdout went away (``tute export | head -1``): a normal end, status 0.

    What is still buffered for stdout goes to the null device, so that Python's
    last flush does not fail again on the closed pipe.
    """
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
    return typer.Exit(EXIT_OK)
