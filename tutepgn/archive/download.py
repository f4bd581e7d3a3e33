"""Writing matching deals out: tpgn, json, jsonl and csv as text (to a file, or streamed), parquet to a directory.

Records go out through the notation's writers of several records
(:func:`tutepgn.notation.tpgn.join`, :func:`tutepgn.notation.jsonform.join`), and rows
through :func:`csv_text` (control characters escaped), for ``tute export`` and the service's downloads alike.  Stored texts go out as they
are when nothing needs changing (tpgn in Spanish cards: no parsing at all).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import NotationError
from ..i18n import gettext as _
from ..notation import Record, jsonform, parse_record, scan_tags, to_json, tpgn
from .columns import CSV_COLUMNS
from .defaults import EXPORT_FORMATS
from .printing import csv_form, csv_value
from .search import Sample, SearchFilters

if TYPE_CHECKING:
    from .store import Archive


def csv_text(rows: Iterable[dict[str, Any]], lang: str | None = None) -> Iterator[str]:
    """A header of :data:`.columns.CSV_COLUMNS`, then a line per row (lists space-separated), each text's control
    characters escaped (:func:`tutepgn.visible.visible`: a CSV is read on screens and in spreadsheets, and the
    record itself, intact, is the tpgn or JSON export).  ``lang`` None is the scripts' CSV (``,`` and a point);
    a language gives its spreadsheets' CSV (:func:`.printing.table_csv`: in Spanish ``;`` and a decimal comma)."""
    separator, decimal = csv_form(lang)
    spreadsheet = lang is not None
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator)
    if spreadsheet:
        buffer.write("\ufeff")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([csv_value(v, decimal, spreadsheet) for v in row.values()])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()  # the header, when no row follows it


def written(texts: Iterable[str], fmt: str, cards: str) -> Iterator[str]:
    """Stored texts as records in ``fmt`` (tpgn or JSON, one document each) with ``cards``; a record flagged
    at import keeps its text in tpgn and gives its tags in JSON (``tute show`` writes one deal so)."""
    return (one_written(text, fmt, cards) for text in texts)


def one_written(text: str, fmt: str, cards: str) -> str:
    """One stored text as :func:`written` writes it."""
    try:
        record = parse_record(text)
    except NotationError as exc:
        if fmt == "tpgn":
            return text
        record = Record.unreadable(exc, scan_tags(text), 1)
    return record.tpgn(cards) if fmt == "tpgn" else to_json(record, cards)


def identified(rows: Iterable[dict[str, Any]], cards: str) -> Iterator[str]:
    """Rows (id, hash, text) as JSON records, each with the deal's ``id`` (a string: exact in JavaScript too) and
    ``hash`` first, to join it back to the archive's tables (the JSON form ignores both on input:
    :data:`tutepgn.notation.jsonmodel.ARCHIVE_FIELDS`)."""
    for row in rows:
        yield f'{{"id":"{row["id"]}","hash":"{row["hash"]}",' + one_written(row["text"], "json", cards)[1:]


def chunks(archive: Archive, filters: SearchFilters | None, fmt: str, *, cards: str = "es", sort: str = "date",
           limit: int | None = None, batch: int | None = None, lang: str | None = None,
           sample: Sample | None = None) -> Iterator[str]:
    """Matching deals (``sample``: a sample of them) as text in ``fmt`` (tpgn, json, jsonl, csv: for scripts, or
    for ``lang``'s spreadsheets), piece by piece (``batch``: see :meth:`Archive.iter_rows`)."""
    return _formatted(archive, filters, fmt, cards, sort, limit, iter, batch, lang, sample)


def _formatted(archive: Archive, filters: SearchFilters | None, fmt: str, cards: str, sort: str, limit: int | None,
               tap: Callable[[Iterable[Any]], Iterator[Any]], batch: int | None = None, lang: str | None = None,
               sample: Sample | None = None) -> Iterator[str]:
    """:func:`chunks`, with every deal read passed through ``tap`` (which counts them, for :func:`export`)."""
    if fmt == "csv":
        return csv_text(tap(archive.iter_rows(filters, sort=sort, limit=limit, columns=CSV_COLUMNS, batch=batch,
                                              sample=sample)), lang)
    if fmt not in EXPORT_FORMATS or fmt == "parquet":
        raise ValueError(_("unknown format {form!r}; formats are {forms}", form=fmt, forms=", ".join(EXPORT_FORMATS)))
    if fmt in ("json", "jsonl"):
        rows = tap(archive.iter_rows(filters, sort=sort, limit=limit, columns=("id", "hash", "text"), batch=batch,
                                     sample=sample))
        return jsonform.join(identified(rows, cards), lines=fmt == "jsonl")
    texts = tap(archive.texts(filters, sort=sort, limit=limit, batch=batch, sample=sample))
    return tpgn.join(texts if cards == "es" else written(texts, fmt, cards))


def export(archive: Archive, filters: SearchFilters | None, fmt: str, out: IO[str] | str | os.PathLike[str], *,
           cards: str = "es", sort: str = "date", limit: int | None = None, sample: Sample | None = None) -> int:
    """Write matching deals (``sample``: a sample of them) to a stream or path (parquet: to a directory); return
    how many."""
    if fmt == "parquet":
        return export_parquet(archive, filters, None if hasattr(out, "write") else Path(out), sample)
    count = 0

    def counted(items: Iterable[Any]) -> Iterator[Any]:
        nonlocal count
        for item in items:
            count += 1
            yield item

    pieces = _formatted(archive, filters, fmt, cards, sort, limit, counted, sample=sample)  # an unknown format fails here
    if hasattr(out, "write"):
        for piece in pieces:
            out.write(piece)
    else:
        with open(out, "w", encoding="utf-8", newline="\n" if fmt != "csv" else "") as handle:
            for piece in pieces:
                handle.write(piece)
    return count


def export_parquet(archive: Archive, filters: SearchFilters | None, directory: Path | None,
                   sample: Sample | None = None) -> int:
    """Matching deals, with every table's rows, into the Parquet dataset at ``directory`` (:mod:`.dataset`: the
    deals partitioned by preset and year); returns how many were added (those it held already are not)."""
    if directory is None:
        raise ValueError(_("parquet goes to a directory, not a stream: give -o DIR"))
    from .dataset import export_dataset  # Arrow: the dataset's files

    where, params = archive.where(filters, sample)
    return export_dataset(archive.con, where, params, directory)
