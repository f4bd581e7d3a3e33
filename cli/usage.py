"""The command-line framework's own messages (typer and the click it ships) in the language spoken.

typer words its usage errors in English, in f-strings (its copy of click has no gettext at all): "No such option:
--bogus", "Missing argument 'paths'.", "Try 'tute validate --help' for help.".  So they are put in the reader's
language when shown, not when made: each message typer can give is written here as a template of the catalogue,
in typer's own words; an error's text is matched against the templates and said again in the language spoken,
its pieces (a nested message, a reason from the system) translated in turn.  A text no template matches is shown
as typer wrote it.  :func:`show` writes the error the way typer does (the usage line, the hint, "Error: ..."),
each word spoken; ``tests/test_i18n_cli.py`` runs ``tute --lang es`` with bad command lines and looks for English.
"""

from __future__ import annotations

import re
import string
from functools import cache

import typer
from typer.exceptions import TyperException

from tutepgn.i18n import N_, PYDANTIC_MESSAGES, SOURCE, gettext as _, language

TEMPLATES = (
    N_("No such option: {name} (Possible options: {options})"),
    N_("No such option: {name}"),
    N_("No such command {name}. Did you mean {suggestions}?"),
    N_("No such command {name}."),
    N_("Missing command."),
    N_("Missing argument {name}. {message}"),
    N_("Missing argument {name}."),
    N_("Missing option {name}. {message}"),
    N_("Missing option {name}."),
    N_("Invalid value for {name}: {message}"),
    N_("Got unexpected extra argument(s) ({arguments})"),
    N_("Option {name} does not take a value."),
    N_("Option {name} requires an argument."),
    N_("Option {name} requires {count} arguments."),
    N_("Value error, {message}"),
    N_("{value} is not one of {choices}."),
    N_("{number} is not in the range x>={ge}."),  # typer 0.27 and later check a number's bounds with click's range
    N_("{number} is not in the range x>{gt}."),
    N_("{number} is not in the range x<={le}."),
    N_("{number} is not in the range x<{lt}."),
    N_("{number} is not in the range {ge}<=x<={le}."),
    N_("{number} is not in the range {bounds}."),
    *PYDANTIC_MESSAGES.values(),
)
"""Every message typer words itself (``typer/_click``, ``typer/core.py``) that the options of ``tute`` can meet, in
its words: of the templates an error's whole text matches, the most particular (the most words of its own, not
placeholders) says it, a nested ``{message}`` spoken too."""
REASONS = (N_("No such file or directory"), N_("Permission denied"), N_("Is a directory"), N_("Not a directory"),
           N_("File exists"), N_("No space left on device"))
"""The system's reasons (``strerror``) for a file it would not open or write, as the commands quote them."""
TRY = N_("Try '{command} {option}' for help.")
"""The hint under the usage line."""
ERROR = N_("Error: {message}")
"""The line of the error itself."""
ABORTED = N_("Aborted!")
"""What typer says when Ctrl-C (or the end of the input at a prompt) stops a command."""


@cache
def particular_first() -> list[str]:
    """:data:`TEMPLATES`, those with more words of their own first: "greater than or equal to {ge}" is tried
    before "greater than {gt}", which its text matches too."""
    return sorted(TEMPLATES, key=lambda t: -sum(len(literal) for literal, *_rest in string.Formatter().parse(t)))


@cache
def pattern(template: str) -> re.Pattern[str]:
    """The English texts ``template`` words: its placeholders match any text (the last one, all that is left)."""
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name == "number":  # a number out of its range: never the text of a message around it
            parts.append(r"(?P<number>[-+]?[0-9][0-9.eE+-]*)")
        elif name is not None:
            parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def spoken(text: str) -> str:
    """A message of typer's (or a system's reason) in the language spoken; ``text`` itself in English or when no
    template matches it."""
    if language() == SOURCE:
        return text
    if text in REASONS:
        return _(text)
    for template in particular_first():
        found = pattern(template).match(text)
        if found:
            values = found.groupdict()
            if "message" in values:
                values["message"] = spoken(values["message"])
            return _(template, **values)
    return text


def show(exc: TyperException) -> typer.Exit:
    """Write a usage error (or another of typer's errors) on stderr as typer would, in the language spoken, and
    give the exit to raise: its usage line (already spoken: ``cli/main.py``'s ``SpokenFormatter``), the hint
    to ask for help, and the error."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        typer.echo(ctx.get_usage(), err=True)
        if ctx.command.get_help_option(ctx) is not None:
            typer.echo(_(TRY, command=ctx.command_path, option=ctx.help_option_names[0]), err=True)
        typer.echo(err=True)
    typer.echo(_(ERROR, message=spoken(exc.format_message())), err=True)
    return typer.Exit(exc.exit_code)


def aborted() -> typer.Exit:
    """Say that the command was stopped (Ctrl-C, or no more input at a prompt), as typer does in English, and give
    the exit to raise (status 1, as typer's)."""
    typer.echo("", err=True)
    typer.echo(_(ABORTED), err=True)
    return typer.Exit(1)


def reason(exc: OSError) -> str:
    """Why the system refused a file, in the language spoken (its ``strerror``: "No such file or directory")."""
    return spoken(exc.strerror) if exc.strerror else str(exc)
