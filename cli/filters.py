"""The archive filters as command-line options, generated from :class:`tutepgn.archive.SearchFilters`.

A field of the model is an option of ``tute search``, ``stats`` and ``export``
with no edit here: its name (``min_points`` is ``--min-points``), its type (a
flag pair for a yes/no field, a repeatable option for a list) and its
description as help.  The model validates the values, so the messages are the
library's, named by option.
"""

from __future__ import annotations

import functools
import inspect
import re
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal

import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from tutepgn.cli.output import fail
from tutepgn.errors import ErrorItem
from tutepgn.archive import SearchFilters
from tutepgn.i18n import gettext as _

NEGATIVE = {"valid": "--invalid", "doubled": "--not-doubled"}
"""The spelling of a yes/no filter's "no" where it is not ``--no-NAME``."""


def option_name(field: str) -> str:
    """``min_points`` -> ``--min-points``."""
    return "--" + field.replace("_", "-")


def _option_type(annotation: Any) -> Any:
    """The type the option reads: bool, int, a list of text, or text the model then checks (dates, suits ...)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)] \
        if typing.get_origin(annotation) in (typing.Union, types.UnionType) else [annotation]
    kind = args[0] if len(args) == 1 else str
    if typing.get_origin(kind) is Literal:
        return int if all(type(v) is int for v in typing.get_args(kind)) else str
    if typing.get_origin(kind) is list:
        return list[str]
    return kind if kind in (bool, int) else str


def _help(field: FieldInfo) -> str:
    """The field's description in the language spoken, its references to other fields written as options."""
    return re.sub(r"`(\w+)`", lambda m: option_name(m.group(1)) if m.group(1) in SearchFilters.model_fields
                  else m.group(0), _(field.description) if field.description else "")


def _parameter(name: str, field: FieldInfo) -> inspect.Parameter:
    kind = _option_type(field.annotation)
    decls = [f"{option_name(name)}/{NEGATIVE.get(name, '--no-' + name.replace('_', '-'))}"] if kind is bool \
        else [option_name(name)]
    option = typer.Option(*decls, help=_help(field), rich_help_panel="Filters")
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[kind | None, option])


FILTER_PARAMETERS = [_parameter(name, field) for name, field in SearchFilters.model_fields.items()]


def search_filters(given: dict[str, Any]) -> SearchFilters:
    """The filters given on the command line, validated by the library's model (exit 2 naming the option)."""
    try:
        return SearchFilters(**{k: v for k, v in given.items() if v is not None and v != []})
    except ValidationError as exc:
        problems = [(f"{option_name('.'.join(map(str, e['loc'])))}: " if e["loc"] else "")
                    + e["msg"].removeprefix("Value error, ") for e in exc.errors()]
        raise fail(ValueError("; ".join(problems)), items=[ErrorItem(message=p) for p in problems]) from None


def with_filters(command: Callable[..., None]) -> Callable[..., None]:
    """The command with its ``filters: SearchFilters`` parameter turned into one option per filter."""
    signature = inspect.signature(command, eval_str=True)
    own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values() if p.name != "filters"]

    @functools.wraps(command)
    def wrapper(**options: Any) -> None:
        given = {name: options.pop(name) for name in SearchFilters.model_fields}
        command(filters=search_filters(given), **options)

    parameters = own + FILTER_PARAMETERS
    wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
    return wrapper

