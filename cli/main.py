"""The ``tute`` command: the app and its commands, each registered here from the module that defines it.

A command parses its options, makes one library call and maps errors (see
``cli/output.py`` for the output switch and the error shape they share).
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from tutepgn.cli import analyse, archive, convert, record, replay, rules, serve, simulate, validate
from tutepgn.cli.output import EXIT_USAGE, closed_pipe, fail, invocation
from tutepgn.errors import SettingError


class TuteGroup(TyperGroup):
    """The root command: notes the command line for the error shape, and in JSON mode reports a usage
    error (a missing argument, a bad value, an unknown option or command) as a JSON problem too.  A closed
    stdout (``| head``) ends any command normally; a bad ``TUTEPGN_*`` setting is a usage error (status 2)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        invocation.words = list(args)
        invocation.command = " ".join(["tute", *self.command_path(ctx, args)])
        return super().parse_args(ctx, args)

    def command_path(self, ctx: typer.Context, words: list[str]) -> list[str]:
        """The leading words that name a command (``archive verify``)."""
        names: list[str] = []
        group: Any = self
        for word in words:
            command = group.get_command(ctx, word) if isinstance(group, TyperGroup) else None
            if command is None:
                break
            names.append(word)
            group = command
        return names

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # a reader that went away shows here, not in Python's last flush
        except BrokenPipeError:  # tute export | head -1: the reader has what it wanted
            raise closed_pipe() from None
        except SettingError as exc:  # a bad TUTEPGN_* value, met by whichever command needed it first
            raise fail(exc) from None
        except TyperException as exc:
            if not invocation.json:
                raise
            raise fail(exc, getattr(exc, "exit_code", EXIT_USAGE)) from None


app = typer.Typer(cls=TuteGroup, help="tutepgn: record, check and search games of Tute.", no_args_is_help=True,
                  add_completion=False)
app.command()(simulate.simulate)
app.command()(rules.rules)
app.command()(validate.validate)
app.command()(convert.convert)
app.command()(replay.replay)
app.command()(record.record)
app.command()(analyse.analyse)
app.command("import")(archive.import_)
app.command()(archive.search)
app.command()(archive.stats)
app.command()(archive.export)
app.command()(archive.sql)
archive_app = typer.Typer(help="Check, rebuild or analyse the archive file.", no_args_is_help=True)
archive_app.command()(archive.verify)
archive_app.command()(archive.rebuild)
archive_app.command()(archive.analyse)
app.add_typer(archive_app, name="archive")
app.command()(serve.serve)


def main() -> None:
    """Entry point for ``python -m tutepgn.cli`` and the ``tute`` script."""
    app()
