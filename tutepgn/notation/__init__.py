"""Tute PGN: the record of a deal, and its two forms, ``.tpgn`` text and JSON.

* :mod:`.record`: :class:`Record` (tags, entries, intro, termination), :class:`Entry`, :class:`Note`;
* :mod:`.tags`: :class:`Header`, what the tags mean, read once with the error at the tag at fault;
* :mod:`.tpgn`: reading (``load``, ``loads``, ``iter_load``, ``read_record``) and writing (``dump``,
  ``dumps``, ``iter_dump``) ``.tpgn`` text, by way of :mod:`.split` (records in a stream, the header scan),
  :mod:`.export` (the export format's fast path), :mod:`.grammar` (anything else) and :mod:`.writer`;
* :mod:`.jsonform`: the same for JSON documents and JSON lines; :mod:`.jsonmodel` their pydantic models
  and schema.

>>> from tutepgn.notation import read_record, tpgn
>>> record = read_record('[Rules "playcard-2p"]\\n[Trump "12O"]\\n\\n1. N 1O 3O\\nN 40\\n*')
>>> [entry.line for entry in record.entries], record.header().trump
([4, 4, 5], 0)
>>> tpgn.dumps([record, record]).splitlines()[-4:]
['', '1. N 1O 3O', 'N 40', '*']
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:  # what the lazy exports below give, seen by type checkers and editors
    from ..errors import JsonRecordError, NotationError
    from . import jsonform, tpgn
    from .jsonform import from_json, record_to_model, to_json
    from .jsonmodel import RecordModel, json_schema
    from .record import NAG_GLYPHS, Entry, Note, Record
    from .split import Headers, Source, batch_records, iter_raw_records, scan_headers, scan_tags, split_records
    from .tags import (CARD_TAGS, PLAY_TAG, RESULT_ONLY, SEAT_TAGS, TAG_NAME, UNFINISHED, Header, format_side_values, parse_side_values,
        read_date, read_number, result_text, rules_of)
    from .tpgn import iter_records, parse_or_placeholder, parse_record, read_record
    from .writer import annotation_text, canonical_tags, export_text, play_lines, write_record

__getattr__, __dir__ = lazy_exports(__name__, {
    "..errors": ("JsonRecordError", "NotationError"),
    ".": ("jsonform", "tpgn"),
    ".jsonform": ("from_json", "record_to_model", "to_json"),
    ".jsonmodel": ("RecordModel", "json_schema"),
    ".record": ("NAG_GLYPHS", "Entry", "Note", "Record"),
    ".split": ("Headers", "Source", "batch_records", "iter_raw_records", "scan_headers", "scan_tags",
               "split_records"),
    ".tags": ("CARD_TAGS", "PLAY_TAG", "RESULT_ONLY", "SEAT_TAGS", "TAG_NAME", "UNFINISHED", "Header", "format_side_values",
              "parse_side_values", "read_date", "read_number", "result_text", "rules_of"),
    ".tpgn": ("iter_records", "parse_or_placeholder", "parse_record", "read_record"),
    ".writer": ("annotation_text", "canonical_tags", "export_text", "play_lines", "write_record"),
}, globals())
"""Imported on first use (:mod:`tutepgn.lazy`): a command that never reads a record never loads the grammar."""

VERSION = 1
"""The notation's version, documented in docs/notation.md (the grammar file's header says it too)."""

__all__ = [
    "CARD_TAGS", "NAG_GLYPHS", "PLAY_TAG", "RESULT_ONLY", "SEAT_TAGS", "TAG_NAME", "UNFINISHED", "VERSION", "Entry", "Header", "Headers",
    "annotation_text", "export_text",
    "JsonRecordError", "NotationError", "Note", "Record", "RecordModel", "Source", "batch_records", "canonical_tags",
    "format_side_values", "from_json", "iter_raw_records", "iter_records", "json_schema", "jsonform",
    "parse_or_placeholder", "parse_record", "parse_side_values", "play_lines", "read_date", "read_number", "read_record",
    "record_to_model",
    "result_text", "rules_of", "scan_headers", "scan_tags", "split_records", "to_json", "tpgn", "write_record",
]
