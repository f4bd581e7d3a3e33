"""Splitting a stream of Tute PGN into records, and reading only their tags.

Records are split line by line, without reading the whole input into memory:
a record starts at its first tag line, and a tag line after the play has
begun starts the next record (docs/notation.md, "Records in a file").  The
header scan (:func:`scan_headers`) reads only the tags of every record,
jumping from record to record in the export layout.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, NamedTuple, Union

from .tags import TAG_NAME, TAG_VALUE, unescape

Source = Union[str, os.PathLike, IO[str]]
"""A path, the text itself, or a text stream."""


def open_source(source: Source) -> tuple[Iterator[str], str | None, IO[str] | None]:
    """Text blocks of a source (path, text or text stream), its name, and the handle to close.

    The blocks come without a BOM and with LF line ends.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and not source.lstrip().startswith("[") and os.path.isfile(source)):
        handle = open(source, encoding="utf-8-sig", newline=None)
        return _read_blocks(handle), str(source), handle
    if isinstance(source, str):
        text = source[1:] if source.startswith("\ufeff") else source
        return iter((text.replace("\r\n", "\n") if "\r" in text else text,)), None, None
    name = getattr(source, "name", None)
    return _read_blocks(source), name if isinstance(name, str) else None, None


def _read_blocks(stream: IO[str]) -> Iterator[str]:
    """Blocks of about a mebibyte, BOM and CRLF removed, never splitting a CRLF."""
    first = True
    while True:
        block = stream.read(BLOCK_SIZE)
        if not block:
            return
        if first:
            block = block.lstrip("\ufeff")
            first = False
        if block.endswith("\r"):
            block += stream.read(1)
        yield block.replace("\r\n", "\n") if "\r" in block else block


_BOUNDARY = re.compile(r"^[ \t]*(?![\[;\s])[^\n]*\n(?:[ \t]*(?:;[^\n]*)?\n)*(?=[ \t]*\[)", re.M)
"""A play line, then blank or ``;`` lines, right before a tag line: a record ends there."""
BLOCK_SIZE = 1 << 20
"""How much text a stream is read in at a time (records may straddle blocks)."""


def split_records(blocks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Yield ``(first line number, text)`` of each record in a stream of text blocks.

    A tag line (starting with ``[``) after the play has begun starts the next
    record; lines starting with ``;`` before the tags are comments on the file.
    Blocks may cut records anywhere: the tail is carried to the next block.
    """
    carry = ""
    line = 1
    for block in blocks:
        text = carry + block if carry else block
        start = 0
        while (end := _next_record(text, start)) >= 0:
            chunk = text[start:end]
            yield _trim_file_comments(line, chunk)
            line += chunk.count("\n")
            start = end
        carry = text[start:]
    if carry and any(x.strip() and x.lstrip()[:1] != ";" for x in carry.split("\n")):
        yield _trim_file_comments(line, carry)


_FILE_COMMENT = re.compile(r"(?:[ \t]*(?:;[^\n]*)?\n)+")


def _trim_file_comments(line: int, chunk: str) -> tuple[int, str]:
    """Drop the ``;`` lines on the file around a record: before its first tag line, after its termination."""
    if chunk[:1] != "[":
        m = _FILE_COMMENT.match(chunk)
        if m is not None and chunk[m.end():].lstrip(" \t")[:1] == "[":
            line += chunk.count("\n", 0, m.end())
            chunk = chunk[m.end():]
    tail = chunk.rstrip()
    last = tail[tail.rfind("\n") + 1:].lstrip()
    while last[:1] == ";":
        tail = tail[:tail.rfind("\n") + 1].rstrip()
        last = tail[tail.rfind("\n") + 1:].lstrip()
    return line, chunk if len(tail) == len(chunk.rstrip()) else tail + "\n"


def iter_raw_records(sources: Iterable[Source]) -> Iterator[tuple[str | None, int, int, str]]:
    """Split sources into records without parsing them: (source name, index, first line, text).

    The text of each record can be parsed anywhere (another process) with :func:`parse_record`.
    """
    for source in sources:
        blocks, name, handle = open_source(source)
        try:
            for index, (first_line, text) in enumerate(split_records(blocks)):
                yield name, index, first_line, text
        finally:
            if handle is not None:
                handle.close()


def batch_records(raw: Iterable[tuple[str | None, int, int, str]],
                  size: int) -> Iterator[list[tuple[str | None, int, int, str]]]:
    """Group split records into batches of about ``size``, never splitting a run of one Match tag,
    so that whoever handles a batch (a worker process) sees each match whole."""
    batch: list[tuple[str | None, int, int, str]] = []
    last: str | None = None
    for item in raw:
        match = scan_tags(item[3]).get("Match") if "[Match " in item[3] else None
        if len(batch) >= size and (match is None or match != last):
            yield batch
            batch = []
        batch.append(item)
        last = match
    if batch:
        yield batch


def scan_tags(text: str) -> dict[str, str]:
    """The tags of one record's text, without parsing its play (the first of a repeated tag wins)."""
    out: dict[str, str] = {}
    m = _TAG_SCAN.match(text)
    while m is not None:  # tag after tag, as the grammar reads them: blank lines between tags, none in the play
        name, value = m.group(1), m.group(2)
        if name not in out:
            out[name] = unescape(value)
        m = _TAG_SCAN.match(text, m.end())
    return out


_TAG_SCAN = re.compile(rf'(?:\s|;[^\n]*+)*+\[\s*({TAG_NAME.pattern})\s*"({TAG_VALUE})"\s*\]')


class Headers(NamedTuple):
    """A record's tags from a header-only scan, with where the record starts."""
    tags: dict[str, str]
    index: int
    line: int
    source: str | None


def scan_headers(source: Source) -> Iterator[Headers]:
    """Read only the tags of every record; the play is skipped, never parsed.

    Records are delimited as in :func:`split_records`.  The export format is
    read by jumping from record to record with ``str.find``; a record in any
    other layout has its tags read by :func:`scan_tags`.
    """
    blocks, name, handle = open_source(source)
    index = 0
    line = 1
    carry = ""
    try:
        for block in blocks:
            text = carry + block if carry else block
            pos = 0
            while True:
                export = _export_header(text, pos)
                if export is not None:  # the common case, in one step
                    tags, lines, pos = export
                    yield Headers(tags, index, line, name)
                    index += 1
                    line += lines
                    continue
                nxt = _next_record(text, pos)
                if nxt < 0:
                    break
                start = _record_start(text, pos)
                yield Headers(_header_tags(text, start, nxt), index, line + text.count("\n", pos, start), name)
                index += 1
                line += text.count("\n", pos, nxt)
                pos = nxt
            carry = text[pos:]
        if carry.strip():
            start = _record_start(carry, 0)
            tags = _header_tags(carry, start, len(carry))
            if tags or any(x.strip() and x.lstrip()[:1] != ";" for x in carry.split("\n")):
                yield Headers(tags, index, line + carry.count("\n", 0, start), name)
    finally:
        if handle is not None:
            handle.close()


_COMMENTS_BEFORE_TAGS = re.compile(r"(?:[ \t]*(?:;[^\n]*)?\n)+(?=[ \t]*\[)")


def _record_start(text: str, pos: int) -> int:
    """Where the record at ``pos`` starts: after the ``;`` and blank lines on the file before its first tag line."""
    if text[pos:pos + 1] == "[":
        return pos
    m = _COMMENTS_BEFORE_TAGS.match(text, pos)
    return pos if m is None else m.end()


def _export_bounds(text: str, pos: int) -> tuple[int, int] | None:
    """For a record at ``pos`` in export layout (lines, a blank line, the play) with another record after
    it: where its head ends and where the next record starts.  None: let the general rule decide.
    The caller checks that the head holds tag lines only."""
    if not text.startswith("[", pos):
        return None
    head_end = text.find("\n\n", pos)
    if head_end < 0 or text[head_end + 2:head_end + 3] in ("", "[", "\n", " ", "\t", ";", "\r"):
        return None  # no blank line, or no play after it
    nxt = text.find("\n[", head_end)
    if nxt < 0 or text.find("\n ", head_end, nxt) >= 0 or text.find("\n\t", head_end, nxt) >= 0:
        return None  # the last record here, or an indented line that might begin a record
    return head_end, nxt + 1


def _next_record(text: str, pos: int) -> int:
    """Where the record starting at ``pos`` ends (the next record's first tag line), or -1."""
    bounds = _export_bounds(text, pos)
    if bounds is not None and text.count("\n[", pos, bounds[0]) == text.count("\n", pos, bounds[0]):
        return bounds[1]  # tag lines only before the blank line: the next record starts at the next tag line
    m = _BOUNDARY.search(text, pos)
    return -1 if m is None else m.end()


def _export_header(text: str, pos: int) -> tuple[dict[str, str], int, int] | None:
    """The record at ``pos`` if it is in export layout with plain tag lines, and another record follows:
    its tags, its number of lines and where the next record starts.  None: let the general path decide."""
    bounds = _export_bounds(text, pos)
    if bounds is None:
        return None
    head_end, nxt = bounds
    # Plain tag lines [Name "value"] only: two splits in C rather than a regex match per line.
    head = text[pos + 1:head_end - 2]
    lines = head.count("\n") + 1
    if not text.startswith('"]', head_end - 2) or "\\" in head or head.count('"') != 2 * lines - 1:
        return None  # an escape, or a quote inside a value
    parts = head.replace('"]\n[', ' "').split(' "')
    tags = dict(zip(parts[::2], parts[1::2]))
    if len(parts) != 2 * lines or len(tags) != lines:
        return None  # a line that is no tag line, or a repeated tag
    if not tags.keys() <= _TAG_NAMES:  # names seen before are known good; check the others once
        if not all(TAG_NAME.fullmatch(name) for name in tags):
            return None
        if len(_TAG_NAMES) < 4096:
            _TAG_NAMES.update(tags)
    return tags, lines + text.count("\n", head_end + 1, nxt), nxt


_TAG_NAMES: set[str] = set()
"""Tag names that read as names (the grammar's rule): a file repeats a few dozen."""


def _header_tags(text: str, start: int, end: int) -> dict[str, str]:
    """The tags of the record in ``text[start:end]``: one regex pass where it is in export layout."""
    head_end = text.find("\n\n", start, end)
    if head_end < 0 or text[start] != "[" or text[head_end + 2:head_end + 3] in ("[", "\n", " ", "\t"):
        return scan_tags(text[start:end])  # not export layout (maybe more tags after a blank line)
    pairs = _EXPORT_TAG.findall(text, start, head_end)
    tags = dict(pairs)
    if len(pairs) != text.count("\n", start, head_end) + 1 or len(tags) != len(pairs):
        return scan_tags(text[start:end])  # a line that is no plain tag line, an escape, or a repeated tag
    return tags


_EXPORT_TAG = re.compile(rf'^\[({TAG_NAME.pattern}) "([^"\\\n]*)"\]$', re.M)
"""A whole tag line of the export format, without escapes."""
