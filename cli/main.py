"""The ``tute`` command: the app and its commands, each registered here by the module that defines it.

A command parses its options, makes one library call and maps errors (see
``cli/output.py`` for the output switch and the error shape they share).  A
command's module is imported when that command runs (or its own ``--help`` is
asked for): ``tute --help`` lists the commands from their docstrings, read from
the sources, so it loads neither pydantic nor DuckDB (``bench/cli_startup.py``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Iterator, MutableMapping
from enum import Enum
from functools import cache
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup
from typer.exceptions import TyperException

from tutepgn.cli import usage
from tutepgn.cli.output import EXIT_USAGE, closed_pipe, fail, invocation
from tutepgn.errors import SettingError
from tutepgn.i18n import N_, from_environment, gettext as _, set_language

COMMANDS: dict[str, str] = {
    "simulate": "simulate:simulate", "rules": "rules:rules", "validate": "validate:validate",
    "convert": "convert:convert", "replay": "replay:replay", "record": "record:record", "play": "play:play", "arena": "arena:arena", "analyse": "analyse:analyse",
    "import": "archive:import_", "search": "archive:search", "show": "archive:show", "stats": "archive:stats",
    "export": "archive:export", "sql": "archive:sql", "puzzles": "puzzles:puzzles",
    "ratings": "ratings:ratings", "archive": "", "serve": "serve:serve", "event": "",
}
"""Every command, in the order ``tute --help`` lists them: its module in ``cli/`` and function ("" for the
``archive`` and ``event`` groups, :data:`GROUPS`)."""
ARCHIVE_COMMANDS = {"verify": "archive:verify", "rebuild": "archive:rebuild", "analyse": "archive:analyse"}
ARCHIVE_HELP = N_("Check, rebuild or analyse the archive file.")
EVENT_COMMANDS = {"new": "event:new", "add": "event:add", "pair": "event:pair", "result": "event:result",
                  "standings": "event:standings", "crosstable": "event:crosstable", "history": "event:history",
                  "sheets": "event:sheets", "ratings": "ratings:ratings"}
EVENT_HELP = N_("Run a club's torneo or liga: entrants, pairings, results, standings.")
GROUPS = {"archive": (ARCHIVE_COMMANDS, ARCHIVE_HELP), "event": (EVENT_COMMANDS, EVENT_HELP)}
"""The groups of commands: their subcommands and their help."""
CLICK_WORDS = (N_("Options"), N_("Commands"), N_("Arguments"), N_("Show this message and exit."))
"""The words click and typer write around a help (their own gettext has no Spanish): put in the language spoken
by :class:`SpokenFormatter` and :meth:`PlainTypes.get_help_option`."""
HELP_EXTRAS = {"default": N_("default: {value}"), "env var": N_("env var: {value}"), "required": N_("required")}
"""The notes typer adds in brackets after an option's help (``[default: 2; x>=1]``), by their English name."""
VALUE_TYPES = {"str": N_("str"), "int": N_("int"), "int range": N_("int range"), "float": N_("float"),
               "path": N_("path"), "str,str": N_("str,str")}
"""The kinds of value typer names in an option's help (``--db <path>``), by their English name."""
VALUE_TYPE = re.compile(r"<(" + "|".join(re.escape(k) for k in VALUE_TYPES) + r")>")


def function_of(spec: str) -> Any:
    """The command function a ``module:function`` spec names (its module imported now)."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(f"tutepgn.cli.{module}"), name)


def build(name: str) -> Any:
    """The click command (or the group: ``archive``, ``event``) ``name``, built by typer from its function."""
    if not COMMANDS[name]:
        subcommands, help_text = GROUPS[name]
        group = typer.Typer(name=name, cls=TuteSubgroup, help=help_text, no_args_is_help=True,
                            add_completion=False, rich_markup_mode=None)
        for sub, spec in subcommands.items():
            function = function_of(spec)
            group.command(sub, cls=TuteCommand, short_help=summary(_(inspect.cleandoc(function.__doc__ or ""))))(
                function)
        built = typer.main.get_command(group)
    else:
        single = typer.Typer(add_completion=False, rich_markup_mode=None)
        single.command(name, cls=TuteCommand)(function_of(COMMANDS[name]))
        built = typer.main.get_command(single)
    built.name = name
    return built


def plain_type(param: Any) -> None:
    """Help shows a value's type, but not a flag's (``<bool>``), and a list's item type (``<str>``, given once
    per value) rather than ``<list[str]>``."""
    if getattr(param, "is_flag", False):
        param.metavar = ""
    elif (param.multiple or param.nargs != 1) and hasattr(param, "display_type"):  # typer < 0.27 only
        label = param.display_type(None).replace("<list[", "<").replace("]>", ">")
        param.display_type_rich = lambda ctx: label  # an argument's metavar would rename it too


HelpFormatter: Any = typer.Context.formatter_class
"""click's help formatter as typer ships it (a module typer keeps private: no name to import it by)."""


class SpokenFormatter(HelpFormatter):
    """click's help formatter (as typer ships it), its own words (``Usage:``, the sections' titles) in the language spoken."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        args = args.replace("[OPTIONS]", _("[OPTIONS]")).replace("COMMAND [ARGS]...", _("COMMAND [ARGS]..."))
        super().write_usage(prog, args, _("Usage:") + " " if prefix is None else prefix)

    def section(self, name: str) -> Any:
        return super().section(_(name))

    def write_dl(self, rows: Any, *args: Any, **options: Any) -> None:
        super().write_dl([(VALUE_TYPE.sub(lambda m: f"<{_(VALUE_TYPES[m[1]])}>", term), spoken_extras(text))
                          for term, text in rows], *args, **options)


def spoken_extras(text: str) -> str:
    """An option's help with typer's bracketed notes (``[default: 2; required]``) in the language spoken."""
    head, bracket, tail = text.rpartition("[")
    if not bracket or not tail.endswith("]"):
        return text
    notes = [note.partition(": ") for note in tail[:-1].split("; ")]
    return head + "[" + "; ".join(_(HELP_EXTRAS[name], value=value) if name in HELP_EXTRAS else name + sep + value
                                  for name, sep, value in notes) + "]"


class SpokenContext(typer.Context):
    """The context of a command of ``tute``: its help written by :class:`SpokenFormatter`."""

    formatter_class = SpokenFormatter


class PlainTypes:
    """The help of a command of ``tute`` in the language spoken (the command's docstring, each parameter's
    ``help=``: messages of the catalogue, ``tests/i18ncheck.py``'s ``cli_help``), with plain types (:func:`plain_type`),
    the help option included."""

    params: list[Any]
    help: str | None
    context_class: type[Any] = SpokenContext

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            plain_type(option)
            option.help = _(option.help)
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.help = _(self.help) if self.help else self.help
        for param in self.params:
            plain_type(param)
            if getattr(param, "help", None):
                param.help = _(param.help)
        super().format_help(ctx, formatter)  # type: ignore[misc]


class PlainValue:
    """Stands in for a parameter's ``get_runtime_param``: a value of text or of a choice (an Enum) is taken as it
    is, without pydantic.  typer checks every value with a pydantic TypeAdapter, and loading pydantic is most of
    the CPU time of ``tute rules`` (``bench/cli_startup.py``).  Any other type, and a word that is not one of
    the choices, go to typer's own check (its result and its errors)."""

    def __init__(self, param: Any) -> None:
        self.typer_check = param.get_runtime_param

    def __call__(self) -> PlainValue:
        return self

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        kind = param.type_descriptor.annotation
        if param.nargs == 1 and not param.multiple:
            if value is None or (kind is str and isinstance(value, str)):
                return value
            if isinstance(kind, type) and issubclass(kind, Enum):
                for choice in kind:
                    if value is choice or value == choice.value:
                        return choice
        return self.typer_check().coerce(value, param=param, ctx=ctx)


def plain_value(param: Any) -> Any:
    """``param``, its value checked by :class:`PlainValue` if typer would check it with pydantic."""
    if hasattr(param, "type_descriptor"):
        param.get_runtime_param = PlainValue(param)
    return param


class PlainValues:
    """A command whose parameters, ``--help`` included, take text and choices without pydantic
    (:class:`PlainValue`)."""

    params: list[Any]

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        for param in self.params:
            plain_value(param)

    def get_help_option(self, ctx: Any) -> Any:
        return plain_value(super().get_help_option(ctx))  # type: ignore[misc]


class TuteCommand(PlainValues, PlainTypes, TyperCommand):
    """A command of ``tute``."""


class TuteSubgroup(PlainValues, PlainTypes, TyperGroup):
    """A group of commands of ``tute`` (``tute archive``)."""


@cache
def source(module: str) -> str:
    """The text of ``cli/MODULE.py``, read without importing it."""
    spec = importlib.util.find_spec(f"tutepgn.cli.{module}")
    assert spec is not None and spec.origin is not None
    with open(spec.origin, encoding="utf-8") as fp:
        return fp.read()


DOCSTRING = re.compile(r"^    [rR]?(\"\"\"|''')", re.MULTILINE)
"""The opening of a function's docstring: the first line of its body that starts with triple quotes."""


def docstring(module: str, function: str) -> str:
    """The docstring of ``function`` of ``cli/MODULE.py``, read from the source: only the docstring's literal is
    parsed (parsing the whole modules cost ``tute --help`` a tenth of its CPU time, ``bench/cli_startup.py``)."""
    text = source(module)
    opening = DOCSTRING.search(text, text.index(f"\ndef {function}("))
    assert opening is not None, f"cli/{module}.py: {function} has no docstring"
    end = text.index(opening[1], opening.end()) + 3
    return inspect.cleandoc(ast.literal_eval(text[opening.start():end].strip()))


def listed(name: str) -> TyperCommand:
    """What ``tute --help`` shows of command ``name``: its name and its docstring's first paragraph, whole,
    its module not imported."""
    spec = COMMANDS[name]
    module, _sep, function = spec.partition(":")
    text = _(docstring(module, function) if spec else GROUPS[name][1])
    return TyperCommand(name, help=text, short_help=summary(text))


def summary(text: str) -> str:
    """A command's line in its group's help: its docstring's first paragraph, whole (click would cut it)."""
    return " ".join(text.split("\n\n")[0].split())


class Commands(MutableMapping[str, Any]):
    """The root's commands by name, each built (its module imported) when first looked up."""

    def __init__(self) -> None:
        self.built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self.built:
            if name not in COMMANDS:
                raise KeyError(name)
            self.built[name] = build(name)
        return self.built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.built[name]

    def __iter__(self) -> Iterator[str]:
        return iter([*COMMANDS, *(n for n in self.built if n not in COMMANDS)])

    def __len__(self) -> int:
        return len(list(iter(self)))


class TuteGroup(PlainValues, PlainTypes, TyperGroup):
    """The root command: notes the command line for the error shape, and in JSON mode reports a usage
    error (a missing argument, a bad value, an unknown option or command) as a JSON problem too.  A closed
    stdout (``| head``) ends any command normally; a bad ``TUTEPGN_*`` setting is a usage error (status 2)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.commands = Commands()

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The root's help lists each command by its docstring, without importing the commands' modules."""
        commands = self.commands
        self.commands = {name: listed(name) for name in commands}
        try:
            super().format_help(ctx, formatter)
        finally:
            self.commands = commands

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        invocation.words = list(args)
        try:  # before any command is built or help written: the help, too, comes in the language asked for
            set_language(spoken(args))
        except SettingError as exc:
            raise fail(exc) from None
        invocation.command = " ".join(["tute", *self.command_path(ctx, args)])
        try:
            return super().parse_args(ctx, args)
        except TyperException as exc:  # an unknown option before the command, a missing command
            raise said(exc) from None

    def command_path(self, ctx: typer.Context, words: list[str]) -> list[str]:
        """The leading words that name a command (``archive verify``), after the root's own options (``--lang es``)."""
        names: list[str] = []
        group: Any = self
        value = False
        for word in words:
            if not names and (value or word.startswith("-")):
                value = word == "--lang"
                continue
            command = group.get_command(ctx, word) if isinstance(group, TyperGroup) else None
            if command is None:
                break
            names.append(word)
            group = command
        return names

    def invoke(self, ctx: Any) -> Any:
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
            raise said(exc) from None
        except (KeyboardInterrupt, EOFError):  # what typer would say "Aborted!" of, in English
            raise usage.aborted() from None


def said(exc: TyperException) -> Any:
    """A usage error (or another error of typer's) reported in the language spoken: a JSON problem in JSON mode,
    else as typer shows it (:func:`tutepgn.cli.usage.show`); the exit to raise.  A bare ``tute`` (typer's error
    that is the help itself) is left to typer."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # as typer itself tells it (the class is not public)
        return exc
    if invocation.json:
        return fail(exc, getattr(exc, "exit_code", EXIT_USAGE))
    return usage.show(exc)


app = typer.Typer(cls=TuteGroup, help="tutepgn: record, check and search games of Tute.", no_args_is_help=True,
                  add_completion=False, rich_markup_mode=None)


VERSION_HELP = N_("Print the version of tutepgn and exit.")


def print_version(asked: bool) -> None:
    """``tute --version``: the installed package's version (its metadata, as pip and the service's OpenAPI
    document give it), then exit."""
    if asked:
        from importlib.metadata import version

        typer.echo(_("tute {version}", version=version("tutepgn")))
        raise typer.Exit()


LANG_HELP = N_("The language of messages and help: es or en (default: TUTEPGN_LANG, then the locale, then en).")


def spoken(args: list[str]) -> str:
    """The language a command line asks for: ``--lang`` before the command's name, else the environment's."""
    for i, word in enumerate(args):
        if not word.startswith("-"):
            break
        if word == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return from_environment()


@app.callback()
def root(lang: str = typer.Option("", "--lang", metavar="LANG", help=LANG_HELP),
         version: bool = typer.Option(False, "--version", is_eager=True, callback=print_version,
                                      help=VERSION_HELP)) -> None:
    """tutepgn: record, check and search games of Tute."""


def main() -> None:
    """Entry point for ``python -m tutepgn.cli`` and the ``tute`` script."""
    app()
