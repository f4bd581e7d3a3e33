"""Reading and writing ``.tpgn`` files: one record, a string, a file, or a stream of millions of records.

The reader splits its input into records (:mod:`~tutepgn.notation.split`)
and reads each by the export fast path (:mod:`~tutepgn.notation.export_reader`),
else by the grammar (:mod:`~tutepgn.notation.grammar`); both give the same
:class:`~tutepgn.notation.record.Record`.  Every syntax error is a
:class:`~tutepgn.errors.NotationError` with the source, the record index,
line, column, the offending text and what was expected.  ``strict=True``
raises the first one; otherwise the error is kept on the record
(``record.errors``) and reading goes on with the next record.

The writer puts a blank line between two records.  As in endplay's parsers:
:func:`load`, :func:`loads` and :func:`iter_load` read; :func:`dump`,
:func:`dumps` and :func:`iter_dump` write.

>>> rec = read_record('[Rules "playcard-2p"]\\n1. N 1O 3O\\n*')
>>> rec.entries[0][:3]
(Play(0, '1O'), 2, 6)
>>> loads(dumps([rec, rec]))[1].events == rec.events
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO

from ..errors import NotationError
from ..i18n import gettext as _
from .export_reader import read_export
from .grammar import read_grammar, syntax_errors
from .record import Record, check_counts
from .split import Source, Unread, open_source, scan_tags, split_records
from .writer import write_record


def parse_record(text: str, *, first_line: int = 1, source: str | None = None, index: int = 0,
                 cards: str | None = None, strict: bool = False) -> Record:
    """Parse the text of one record.  Syntax errors raise :class:`NotationError`, and so do a record the
    splitter refused unread (:class:`~tutepgn.notation.split.Unread`: too large, or not UTF-8) and one with
    more tricks or declarations than the archive counts (:func:`~tutepgn.notation.record.check_counts`)."""
    if type(text) is Unread:
        raise text.error(source, index)
    record = read_export(text, first_line) if cards is None or cards == "es" else None
    if record is not None:
        record.source, record.index = source, index
    else:
        record = read_grammar(text, first_line, source, index, cards, strict)
    check_counts(record)
    return record


def iter_records(source: Source, *, strict: bool = False, cards: str | None = None) -> Iterator[Record]:
    """Read every record of a path, a text or a text stream, one at a time.

    In lenient mode (the default) a record with errors is yielded with
    ``record.errors`` set (a record that could not be parsed at all has its
    tags and no events: :meth:`Record.unreadable`) and reading goes on; with
    ``strict=True`` the first error raises.
    """
    blocks, name, handle = open_source(source)
    try:
        for index, (first_line, text) in enumerate(split_records(blocks)):
            yield parse_or_placeholder(text, first_line=first_line, source=name, index=index, cards=cards,
                                       strict=strict)
    finally:
        if handle is not None:
            handle.close()


def parse_or_placeholder(text: str, *, first_line: int = 1, source: str | None = None, index: int = 0,
                         cards: str | None = None, strict: bool = False) -> Record:
    """:func:`parse_record`, but a record that cannot be parsed at all comes as :meth:`Record.unreadable`
    (unless ``strict``), with every syntax error found in it: what a lenient reader of many records (a
    worker process) yields."""
    try:
        return parse_record(text, first_line=first_line, source=source, index=index, cards=cards, strict=strict)
    except NotationError as exc:
        exc.source, exc.index = source, index
        if strict:
            raise
        record = Record.unreadable(exc, scan_tags(text), first_line)
        if type(text) is not Unread:
            record.errors = syntax_errors(text, first_line, source, index, cards) or record.errors
        return record


iter_load = iter_records
"""The reader of many records under the name endplay's parsers use."""


def read_record(source: Source, *, strict: bool = True, cards: str | None = None) -> Record:
    """Read exactly one record (the first) from a path, text or stream; strict by default."""
    for record in iter_records(source, strict=strict, cards=cards):
        return record
    raise NotationError(_("no record found"), line=1, column=1, expected=_("a record: tags, play, termination"))


def loads(text: str, *, strict: bool = False, cards: str | None = None) -> list[Record]:
    """Every record of a text."""
    return list(iter_records(text, strict=strict, cards=cards))


def load(fp: IO[str], *, strict: bool = False, cards: str | None = None) -> list[Record]:
    """Every record of a text stream."""
    return list(iter_records(fp, strict=strict, cards=cards))


def join(texts: Iterable[str]) -> Iterator[str]:
    """Records written one by one (each ending with a newline) as the pieces of a file: a blank line between two."""
    first = True
    for text in texts:
        yield text if first else "\n" + text
        first = False


def iter_dump(records: Iterable[Record], cards: str = "es") -> Iterator[str]:
    """The export format of records, piece by piece (one piece a record), for streaming."""
    return join(write_record(record, cards) for record in records)


def dumps(records: Iterable[Record], cards: str = "es") -> str:
    """Records in export format, as one text."""
    return "".join(iter_dump(records, cards))


def dump(records: Iterable[Record], fp: IO[str], cards: str = "es") -> None:
    """Write records in export format to a text stream."""
    fp.writelines(iter_dump(records, cards))
