"""Conversions between the forms of a record: ``.tpgn`` text, a JSON array, JSON lines.

:func:`convert` reads any of them (the form told by the file's extension or
its content) and writes one, record by record, so that archives of any size
stream through.  A record that cannot be read is reported (in
:attr:`Conversion.errors`, or to a callback) and left out of the output, never
dropped silently; a request the target cannot honour (``.tpgn`` cards with
spaces in them) is refused up front with :class:`ConvertError`.

>>> text = '[Rules "playcard-2p"]\\n[Trump "12O"]\\n\\n1. N 1O 3O\\n*\\n'
>>> conversion = convert(text, to="jsonl", cards="en")
>>> line = "".join(conversion)
>>> '"card":"ace of coins"' in line, conversion.written, conversion.failed
(True, 1, 0)
>>> from tutepgn.notation import read_record
>>> "".join(convert(line, to="tpgn")) == read_record(text).tpgn()
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, Literal

from ..cards import CARD_STYLES, TOKEN_STYLES
from ..errors import ConvertError, NotationError, TuteError
from ..i18n import gettext as _
from . import Record, jsonform, tpgn, write_record
from .inputs import not_a_file

__all__ = ["FORMATS", "Conversion", "ConvertError", "convert", "format_of_path", "iter_input", "sniff"]

Format = Literal["tpgn", "json", "jsonl"]
FORMATS: tuple[Format, ...] = ("tpgn", "json", "jsonl")
"""The forms of a record: Tute PGN text, a JSON array of records, one JSON record a line."""

EXTENSIONS: dict[str, Format] = {".tpgn": "tpgn", ".pgn": "tpgn", ".json": "json", ".jsonl": "jsonl",
                                 ".ndjson": "jsonl"}
"""File name extensions and the form they say a file is in."""

_SNIFF = 1 << 16


def format_of_path(path: str | os.PathLike[str] | None) -> Format | None:
    """The form a file name says (by its extension), or None."""
    if path is None:
        return None
    return EXTENSIONS.get(Path(path).suffix.lower())


def sniff(head: str) -> Format:
    """The form of a text from its beginning: a JSON array, JSON lines, or else Tute PGN.

    A ``.tpgn`` record starts with a tag (``[Name "value"]``), a ``;`` line
    or a comment; a JSON array with ``[`` then ``{`` or ``]``; JSON lines
    with ``{`` and a whole JSON object on the first line.
    """
    text = head.lstrip("\ufeff \t\r\n")
    if text.startswith("["):
        return "json" if text[1:].lstrip()[:1] in ("{", "]") else "tpgn"
    if text.startswith("{") and text[1:].lstrip()[:1] in ('"', "}"):
        first, newline, _ = text.partition("\n")
        if not newline:
            return "jsonl"  # one line, or a first line longer than the sniffed head
        try:
            json.loads(first)
        except ValueError:
            return "json"  # one object spread over lines
        return "jsonl"
    return "tpgn"


class _Peeked:
    """A text stream whose beginning was read to sniff its form, read again from the start."""

    def __init__(self, head: str, stream: IO[str]) -> None:
        self._head = head
        self._stream = stream
        self.name = getattr(stream, "name", None)

    def read(self, size: int = -1) -> str:
        if not self._head:
            return self._stream.read(size)
        if size is None or size < 0:
            out, self._head = self._head + self._stream.read(), ""
            return out
        out, self._head = self._head[:size], self._head[size:]
        return out


Source = Any
"""A path (str or PathLike), a text stream, or the text itself."""


def _open(source: Source, fmt: Format | None) -> tuple[Source, Format]:
    """The source ready to read, and its form: as given, else by extension, else by content."""
    if fmt is not None and fmt not in FORMATS:
        raise ConvertError(_("unknown input form {form!r}; forms are {forms}", form=fmt, forms=", ".join(FORMATS)))
    if isinstance(source, (str, os.PathLike)):
        is_text = isinstance(source, str) and ("\n" in source or source.lstrip()[:1] in ("", "[", "{"))
        if not is_text:
            path = Path(source)
            if not path.is_file():
                raise FileNotFoundError(not_a_file(path))
            if fmt is None:
                fmt = format_of_path(path)
                if fmt is None or fmt == "json":  # .json files are often JSON lines: look
                    with path.open(encoding="utf-8-sig") as handle:
                        fmt = sniff(handle.read(_SNIFF))
            return path, fmt
        assert isinstance(source, str)  # is_text: only a str holds the text itself
        return source, fmt or sniff(source[:_SNIFF])
    if fmt is None:
        head = source.read(_SNIFF)
        return _Peeked(head, source), sniff(head)
    return source, fmt


def iter_input(source: Source, *, fmt: Format | None = None, cards: str | None = None) -> Iterator[Record]:
    """Every record of a source in any form, leniently: a record that cannot be read comes with ``errors``.

    ``cards`` is the card style of ``.tpgn`` input (as its Cards tag would
    say); JSON records name their own style.  A JSON document that is not
    JSON at all raises :class:`~tutepgn.errors.JsonRecordError`.
    """
    opened, form = _open(source, fmt)
    return _read(opened, form, cards)


def _read(opened: Source, form: Format, cards: str | None) -> Iterator[Record]:
    if form == "tpgn":
        return tpgn.iter_load(opened, cards=cards)
    return jsonform.iter_load(opened, lines=form == "jsonl")


class Conversion:
    """A conversion under way: iterate over it for the output text, piece by piece.

    While it runs, :attr:`read` counts the records read, :attr:`written` those
    written and :attr:`failed` those left out because they could not be read;
    their errors go to ``on_error`` when given, else to :attr:`errors`.
    :attr:`warnings` says what was asked but could not apply.
    """

    def __init__(self, source: Source, to: str, cards: str, from_cards: str | None, from_format: str | None,
                 on_error: Callable[[NotationError], None] | None) -> None:
        if to not in FORMATS:
            raise ConvertError(_("unknown target form {form!r}; forms are {forms}", form=to,
                                 forms=", ".join(FORMATS)))
        if cards not in CARD_STYLES:
            raise ConvertError(_("unknown card style {style!r}; styles are {styles}", style=cards,
                                 styles=", ".join(CARD_STYLES)))
        if to == "tpgn" and cards not in TOKEN_STYLES:
            raise ConvertError(_("card style {style!r} cannot be written in .tpgn: its cards have spaces in them; "
                                 "use one of {styles}, or --to json / jsonl", style=cards,
                                 styles=", ".join(TOKEN_STYLES)))
        if from_cards is not None and from_cards not in TOKEN_STYLES:
            raise ConvertError(_("a .tpgn record cannot be read in card style {style!r}; styles for .tpgn input are "
                                 "{styles}", style=from_cards, styles=", ".join(TOKEN_STYLES)))
        self.to: Format = to
        self.cards = cards
        self.source, self.input_format = _open(source, from_format)  # type: ignore[arg-type]
        self.from_cards = from_cards
        self.warnings: list[str] = []
        if from_cards is not None and self.input_format != "tpgn":
            self.warnings.append(_("--from-cards {style} ignored: JSON records name their card style in their "
                                   "cards field", style=from_cards))
        self.errors: list[NotationError] = []
        self.on_error = on_error
        self.read = self.written = self.failed = 0

    def _report(self, error: NotationError) -> None:
        self.failed += 1
        if self.on_error is not None:
            self.on_error(error)
        else:
            self.errors.append(error)

    def _records(self) -> Iterator[Record]:
        return _read(self.source, self.input_format, self.from_cards)

    def _write(self, record: Record) -> str:
        if self.to == "tpgn":
            return write_record(record, self.cards)
        return jsonform.to_json(record, self.cards)

    def __iter__(self) -> Iterator[str]:
        if self.to == "tpgn":
            return tpgn.join(self._texts())
        return jsonform.join(self._texts(), lines=self.to == "jsonl")

    def _texts(self) -> Iterator[str]:
        """Each record written, those that cannot be read or written reported and left out."""
        to = self.to
        for record in self._records():
            self.read += 1
            if record.errors:
                for error in record.errors[:-1]:
                    (self.on_error or self.errors.append)(error)
                self._report(record.errors[-1])
                continue
            try:
                text = self._write(record)
            except (TuteError, ValueError) as exc:
                self._report(NotationError(_("cannot be written as {form}: {reason}", form=to, reason=exc),
                                           line=record.line, column=1,
                                           source=record.source, index=record.index))
                continue
            self.written += 1
            yield text


def convert(source: Source, to: str = "tpgn", cards: str = "es", from_cards: str | None = None, *,
            from_format: str | None = None, on_error: Callable[[NotationError], None] | None = None) -> Conversion:
    """Convert every record of ``source`` (a path, a text stream or the text) to the form ``to``.

    ``cards`` is the card style to write (``tpgn`` takes only single-token
    styles); ``from_cards`` the style of ``.tpgn`` input that has no Cards
    tag.  The input form is ``from_format`` if given, else told by the
    extension or the content.  Raises :class:`ConvertError` for a request that
    cannot be done and ``OSError`` for a file that cannot be opened, before any
    output; the returned :class:`Conversion` yields the output as it reads.
    """
    return Conversion(source, to, cards, from_cards, from_format, on_error)
