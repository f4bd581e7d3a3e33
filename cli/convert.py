"""``tute convert``: a thin layer over :func:`tutepgn.notation.convert.convert`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from tutepgn.cards import CARD_STYLES, TOKEN_STYLES
from tutepgn.cli.usage import reason
from tutepgn.cli.output import EXIT_INVALID, data_out, fail, say
from tutepgn.errors import TuteError
from tutepgn.i18n import gettext as _, ngettext
from tutepgn.visible import visible


def convert(
    source: Annotated[str, typer.Argument(metavar="IN", help="Input: a .tpgn, .json or .jsonl file, or - for stdin. "
                                                              "The form is told by the extension or the content.")],
    to: Annotated[str | None, typer.Option("--to", "-t", help="Target form: tpgn, json (an array) or jsonl (one "
                                                                  "record a line). Default: from the -o extension.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    cards: Annotated[str, typer.Option(help=_("Card style to write: {styles} (tpgn takes only {tokens}).",
                                              styles=", ".join(CARD_STYLES), tokens=", ".join(TOKEN_STYLES)))] = "es",
    from_cards: Annotated[str | None, typer.Option("--from-cards", help=_(
        "Card style of .tpgn input without a Cards tag: {styles}.", styles=", ".join(TOKEN_STYLES)))] = None,
) -> None:
    """Convert records between Tute PGN, JSON and JSON lines, in any card style.

    Records that cannot be read are reported on stderr with their location and
    left out (exit 1); bad options or unreadable input exit 2.
    """
    from tutepgn.notation import convert as convert_mod  # the reader loads when the command runs

    target = to or convert_mod.format_of_path(output)
    if target is None:
        raise fail(ValueError(_("say which form to write: --to tpgn, json or jsonl (or give -o a .tpgn, .json or "
                                ".jsonl name)")))
    if output is not None and source != "-" and os.path.exists(source) and output.exists() \
            and output.resolve() == Path(source).resolve():
        raise fail(ValueError(_("{output} is the input too: write the output to another file", output=output)))

    try:
        conversion = convert_mod.convert(sys.stdin if source == "-" else source, to=target, cards=cards,
                                         from_cards=from_cards, on_error=say)
    except (TuteError, OSError) as exc:
        raise fail(exc) from None
    for warning in conversion.warnings:
        typer.echo(visible(_("warning: {warning}", warning=warning)), err=True)
    try:
        stream = output.open("w", encoding="utf-8", newline="\n") if output else data_out()
    except OSError as exc:
        raise fail(OSError(_("cannot write {path}: {reason}", path=output, reason=reason(exc)))) from None
    try:
        for chunk in conversion:
            stream.write(chunk)
    except (TuteError, OSError, UnicodeDecodeError) as exc:
        raise fail(OSError(_("input unreadable: {reason}", reason=exc))) from None
    finally:
        if output:
            stream.close()
        else:
            stream.flush()
    if conversion.failed:
        raise fail(ValueError(ngettext("{n} of {read} records could not be read and was left out",
                                       "{n} of {read} records could not be read and were left out",
                                       conversion.failed, read=conversion.read)), EXIT_INVALID)
