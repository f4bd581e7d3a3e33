"""Splitting a stream of Tute PGN into records, and reading only their tags.

Records are split line by line, without reading the whole input into memory:
a record starts at its first tag line, and a tag line after the play has
begun starts the next record (docs/notation.md, "Records in a file").  The
header scan (:func:`scan_headers`) reads only the tags of every record,
jumping from record to record in the export layout.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from functools import partial
from itertools import accumulate, count, repeat
from typing import IO, NamedTuple

from ..errors import NotationError
from ..limits import max_record_bytes
from .tags import TAG_NAME, TAG_VALUE, unescape

Source = str | os.PathLike[str] | IO[str]
"""A path, the text itself, or a text stream."""


def open_source(source: Source) -> tuple[Iterator[str], str | None, IO[str] | IO[bytes] | None]:
    """Text blocks of a source (path, text or text stream), its name, and the handle to close.

    The blocks come without a BOM and with LF line ends (CRLF and a lone CR read as LF, from a file, a
    stream or a text alike).  A file (or a stream with a byte buffer, such as stdin) is decoded here, so
    that bytes that are not UTF-8 are placed at their real offset in the file (:class:`Blocks`) and
    refuse only the record they are in.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and not source.lstrip().startswith("[") and os.path.isfile(source)):
        handle = open(source, "rb")
        return Blocks(handle), str(source), handle
    if isinstance(source, str):
        text = source[1:] if source.startswith("\ufeff") else source
        return iter((_line_ends(text),)), None, None
    name = getattr(source, "name", None)
    name = name if isinstance(name, str) else None
    buffer = getattr(source, "buffer", None)
    if buffer is not None and hasattr(buffer, "read1"):
        return Blocks(buffer), name, None
    return _read_blocks(source), name, None


def _read_blocks(stream: IO[str]) -> Iterator[str]:
    """Blocks of about a mebibyte of a text stream, BOM and CRLF removed, never splitting a CRLF."""
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
        yield _line_ends(block)


def _line_ends(text: str) -> str:
    """LF line ends for CRLF and lone CR, as a file is read (Python's universal newlines)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class Blocks:
    """Text blocks of a byte stream, decoded as UTF-8 (BOM dropped, CRLF and CR read as LF).

    A byte that is not UTF-8 does not stop the reading: it is kept as a lone surrogate
    (``surrogateescape``) and its place, ``[line, column, byte offset in the stream, byte, how many on
    the line]``, is put in :attr:`bad`, where :func:`split_records` finds it and refuses the record it
    is in, naming the offset.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.bad: list[list[int]] = []
        self.offset = 0
        """Bytes of the stream decoded so far."""
        self.line, self.column = 1, 0
        """The line being read, and how many characters of it came in earlier blocks."""
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        data = self.stream.read(BLOCK_SIZE)
        while data.endswith(b"\r"):  # a CRLF is never split between blocks
            more = self.stream.read(1)
            data += more
            if not more:
                break
        start = self.offset - len(self.decoder.getstate()[0])  # where the first character of this block starts
        text = self._decode(data)
        if not data and not text:
            raise StopIteration
        if self.offset == 0 and text.startswith("\ufeff"):
            text, start = text[1:], start + 3
        self.offset += len(data)
        if self.decoder.errors != "strict":
            self._place(text, start)
            state, self.decoder = self.decoder.getstate(), codecs.getincrementaldecoder("utf-8")()
            self.decoder.setstate(state)  # strict again, keeping the bytes of a character cut by the block's end
        text = _line_ends(text)
        lines = text.count("\n")
        self.line += lines
        self.column = len(text) - text.rfind("\n") - 1 if lines else self.column + len(text)
        return text

    def _decode(self, data: bytes) -> str:
        """``data`` decoded; on bytes that are not UTF-8, decoded again keeping them as surrogates."""
        pending = self.decoder.getstate()[0]
        try:
            return self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            pass
        self.decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        return self.decoder.decode(pending + data, final=not data)

    def _place(self, text: str, start: int) -> None:
        """Put in :attr:`bad` where the bytes kept as surrogates in ``text`` (starting at byte ``start``) stand:
        the first of each line, with how many the line has.  One pass, whatever their number (a Latin-1
        file has one on every other line)."""
        line, column, offset, at = self.line, self.column, start, 0
        for m in _SURROGATE.finditer(text):
            piece = text[at:m.start()]
            breaks = piece.count("\n") + piece.count("\r") - piece.count("\r\n")
            last = max(piece.rfind("\n"), piece.rfind("\r"))
            line, column = line + breaks, (len(piece) - last - 1 if breaks else column + len(piece))
            offset += len(piece.encode("utf-8", "surrogateescape"))
            if self.bad and self.bad[-1][0] == line:
                self.bad[-1][4] += 1
            else:
                self.bad.append([line, column + 1, offset, ord(m[0]) - 0xDC00, 1])
            column, offset, at = column + 1, offset + 1, m.end()


_SURROGATE = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as ``surrogateescape`` keeps it."""


class Unread(str):
    """The text of a record refused before it is parsed (too large, or not UTF-8): its head only, for its
    tags, with why and where (:meth:`error`).  :func:`~tutepgn.notation.tpgn.parse_record` refuses it."""

    message: str
    line: int
    column: int

    @classmethod
    def of(cls, text: str, message: str, line: int, column: int = 1) -> Unread:
        """The refusal of ``text`` (kept: its first lines, bytes that are not UTF-8 shown as U+FFFD)."""
        head = text[:_HEAD]
        if len(text) > _HEAD and "\n" in head:
            head = head[:head.rfind("\n") + 1]
        out = cls(_SURROGATE.sub("\ufffd", head))
        out.message, out.line, out.column = message, line, column
        return out

    def error(self, source: str | None = None, index: int | None = None) -> NotationError:
        """The refusal as a located error."""
        return NotationError(self.message, line=self.line, column=self.column, source=source, index=index)


_HEAD = 4096
"""How much of a refused record is kept (its tags, for whoever lists it)."""


def text_size(text: str) -> int:
    """The size of a text in UTF-8 bytes (its length when it is ASCII: no encoding)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogateescape"))


_BOUNDARY = re.compile(r"^[ \t]*(?![\[;\s])[^\n]*\n(?:[ \t]*(?:;[^\n]*)?\n)*(?=[ \t]*\[)", re.M)
"""A play line, then blank or ``;`` lines, right before a tag line: a record ends there."""
BLOCK_SIZE = 1 << 20
"""How much text a stream is read in at a time (records may straddle blocks)."""


def split_records(blocks: Iterable[str], max_bytes: int | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(first line number, text)`` of each record in a stream of text blocks.

    A tag line (starting with ``[``) after the play has begun starts the next
    record; lines starting with ``;`` before the tags are comments on the file.
    Blocks may cut records anywhere: the tail is carried to the next block.
    A record over ``max_bytes`` (default :func:`~tutepgn.limits.max_record_bytes`), or holding bytes that
    are not UTF-8 (:class:`Blocks`), comes as :class:`Unread` text: the rest of it is skipped unkept.
    """
    limit = max_record_bytes() if max_bytes is None else max_bytes
    bad = getattr(blocks, "bad", None)
    blocks = iter(blocks)
    carry = ""
    line = 1
    text: str | None = None  # text to split before the next block is read: what follows a skipped record
    while True:
        if text is None:
            block = next(blocks, None)
            if block is None:
                break
            text = carry + block if carry else block
        start = 0
        while (end := _next_record(text, start)) >= 0:
            chunk = text[start:end]
            first, record = _trim_file_comments(line, chunk)
            line += chunk.count("\n")
            yield first, (record if len(record) <= limit >> 2 and not bad else _checked(first, record, line, limit, bad))
            start = end
        carry, text = text[start:], None
        if len(carry) > limit and text_size(carry) > limit:  # no end in sight: skip the rest of this record
            first = _trim_file_comments(line, carry[:_HEAD])[0]
            yield first, Unread.of(carry, _too_large(limit), first)
            line, text = _skip(carry, blocks, line, limit)
            if bad:
                _pop_bad(bad, line)
            carry = ""
            if text is None:
                return
    if carry and any(x.strip() and x.lstrip()[:1] != ";" for x in carry.split("\n")):
        first, record = _trim_file_comments(line, carry)
        yield first, _checked(first, record, line + carry.count("\n") + 1, limit, bad)


def _too_large(limit: int) -> str:
    return (f"the record is larger than {limit:,} bytes (TUTEPGN_MAX_RECORD_BYTES): it was refused unread; "
            "a real record is under 2 KB")


def _checked(first: int, text: str, end_line: int, limit: int, bad: list[list[int]] | None) -> str:
    """The record's text, or :class:`Unread` when it is too large or holds bytes that are not UTF-8
    (those before line ``end_line`` are taken out of ``bad``)."""
    if text_size(text) > limit:
        if bad:
            _pop_bad(bad, end_line)
        return Unread.of(text, _too_large(limit), first)
    found = _pop_bad(bad, end_line) if bad else []
    found = [b for b in found if b[0] >= first]
    if not found:
        return text
    line, column, offset, byte, _ = found[0]
    others = sum(b[4] for b in found) - 1
    more = f" (and {others} more)" if others else ""
    return Unread.of(text, f"byte 0x{byte:02x} at offset {offset:,} of the file is not UTF-8{more}: the file must "
                           "be UTF-8 text", line, column)


def _pop_bad(bad: list[list[int]], end_line: int) -> list[list[int]]:
    """Take out of ``bad`` the places before line ``end_line``."""
    n = 0
    while n < len(bad) and bad[n][0] < end_line:
        n += 1
    found = bad[:n]
    del bad[:n]
    return found


def _skip(carry: str, blocks: Iterator[str], line: int, limit: int) -> tuple[int, str | None]:
    """Read past a record too large to keep (``carry`` is its start, on line ``line``), line by line, holding
    at most ``limit`` characters of a line: the line the next record starts on, and the text from there to
    the end of the block read (None at the end of the input).  The next record starts as :data:`_BOUNDARY`
    says: at a tag line after a play line and blank or ``;`` lines only."""
    played = False
    segment = carry
    while True:
        lines = segment.split("\n")
        partial = lines.pop()
        if len(partial) > limit:  # a line longer than a record: only its start tells what it is
            partial = partial[:64]
        for i, text in enumerate(lines):
            head = text.lstrip(" \t")[:1]
            if head == "[" and played:
                return line + i, "\n".join(lines[i:] + [partial])
            if head not in ("", ";", "["):
                played = not head.isspace()
        line += len(lines)
        block = next(blocks, None)
        if block is None:
            return line, None
        segment = partial + block


_FILE_COMMENT = re.compile(r"(?:[ \t]*(?:;[^\n]*)?\n)+")


def _trim_file_comments(line: int, chunk: str) -> tuple[int, str]:
    """Drop the ``;`` lines on the file around a record: before its first tag line, after its termination."""
    if chunk[:1] != "[":
        m = _FILE_COMMENT.match(chunk)
        if m is not None and chunk[m.end():].lstrip(" \t")[:1] == "[":
            line += chunk.count("\n", 0, m.end())
            chunk = chunk[m.end():]
    # Backwards by index, never by copies of the tail: 300,000 ";" lines after a record took 9 s when each
    # step copied and stripped what was left of it.
    whole = end = _stripped_end(chunk, len(chunk))
    while True:
        start = chunk.rfind("\n", 0, end) + 1
        if chunk[start:end].lstrip()[:1] != ";":
            break
        end = _stripped_end(chunk, start)
    return line, chunk if end == whole else chunk[:end] + "\n"


def _stripped_end(text: str, end: int) -> int:
    """Where ``text[:end].rstrip()`` ends, without copying it."""
    while end and text[end - 1].isspace():
        end -= 1
    return end


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
    index: int  # type: ignore[assignment]  # shadows tuple.index() on purpose: read by name, never called
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
    scan = c_scan()
    try:
        for block in blocks:
            text = carry + block if carry else block
            pos = 0
            while True:
                if scan is None:  # the common case: records in export layout, one after another
                    pos, index, line = yield from _export_headers(text, pos, index, line, name)
                else:
                    heads, lines, pos = scan(text, pos)
                    yield from map(_HEADERS, zip(heads, count(index), accumulate(lines, initial=line), repeat(name)))
                    index, line = index + len(heads), line + sum(lines)
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


C_SCAN: bool | None = None
"""Whether the header scan reads records in export layout in C (``scan_export`` in the solver's extension,
the same conditions as :func:`_export_headers`): None, if built, on first use; False, the Python loop (a
test sets it to hold both to the same headers)."""


def c_scan() -> Callable[[str, int], tuple[list[dict[str, str]], list[int], int]] | None:
    """The C loop of the header scan, or None when the extension is not built or :data:`C_SCAN` is False.
    Imported on first use: a command that never scans does not load the extension."""
    global C_SCAN
    if C_SCAN is False:
        return None
    from ..native import ccore
    C_SCAN = ccore is not None
    return None if ccore is None else ccore.scan_export


_HEADERS = partial(tuple.__new__, Headers)
"""A :class:`Headers` from a tuple of its fields (no Python frame per record)."""


def _export_headers(text: str, pos: int, index: int, line: int,
                    name: str | None) -> Generator[Headers, None, tuple[int, int, int]]:
    """The headers of the records from ``pos`` on while they are in export layout with plain tag lines and
    another record follows (the conditions of :func:`_export_bounds`, inlined: this is the scan's hot loop);
    returns where it stopped, with the index and line of the record there, for the general path to go on."""
    find, count, startswith, new = text.find, text.count, text.startswith, tuple.__new__
    while startswith("[", pos):
        head_end = find("\n\n", pos)
        if head_end < 0 or text[head_end + 2:head_end + 3] in _NO_PLAY:
            break  # no blank line, or no play after it
        nxt = find("\n[", head_end) + 1
        if not nxt or find("\n ", head_end, nxt) >= 0 or find("\n\t", head_end, nxt) >= 0:
            break  # the last record here, or an indented line that might begin a record
        if not startswith('"]', head_end - 2):
            break
        tags = plain_tags(text[pos + 1:head_end - 2])
        if tags is None:
            break
        lines = len(tags)
        yield new(Headers, (tags, index, line, name))
        index += 1
        line += lines + count("\n", head_end + 1, nxt)
        pos = nxt
    return pos, index, line


_NO_PLAY = frozenset(("", "[", "\n", " ", "\t", ";", "\r"))
"""What the line after a head's blank line may not start with for the export layout: it must be the play."""


def plain_tags(head: str) -> dict[str, str] | None:
    """The tags of a head of plain tag lines in export layout, without the first ``[`` and the last ``"]``
    (``Name "value"]\\n[Name "value``): each line one tag, a name as the grammar reads one, a value without a
    quote, backslash or line break, no tag twice.  None otherwise, for a slower reader to decide.  The reader's
    fast path and the header scan read every record's tags here: a few splits in C, no regex match per line."""
    lines = head.count("\n") + 1
    if "\\" in head or head.count('"') != 2 * lines - 1:
        return None  # an escape, or a quote inside a value
    pieces = head.split('"]\n[')
    try:  # each line splits in exactly two at its one ' "', or dict() refuses it
        tags = dict(map(str.split, pieces, _OPENING, _ONCE))
    except ValueError:
        return None
    if len(pieces) != lines or len(tags) != lines:
        return None  # a line break that is not between two tag lines, or a repeated tag
    if not tags.keys() <= _TAG_NAMES:  # names seen before are known good; check the others once
        if not all(TAG_NAME.fullmatch(tag) for tag in tags):
            return None
        if len(_TAG_NAMES) < 4096:
            _TAG_NAMES.update(tags)
    return tags


_OPENING, _ONCE = repeat(' "'), repeat(1)
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
