"""Fuzzing the reader: damaged records fail only with a located NotationError.

Valid records (simulated deals of every preset, in export format and in a
lax layout) are mutated character by character and token by token.  Reading
the result strictly either succeeds or raises :class:`NotationError` with a
line and column; reading it leniently never raises, and the first error it
keeps is the one strict mode raised.  The header scan never raises, and its loop in C reads the same headers
as its loop in Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tutepgn.errors import NotationError
from tutepgn.notation import export_reader, iter_records, scan_headers, scan_tags, split
from tutepgn.notation.export_reader import read_export
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records, match_records

LAX = ('; a file comment\n  [Event "Club night"]   [Site "Ma\\"drid"]\n[Rules\t  "playcard-2p"]\n\n[Trump "3O"]\n'
       "{An intro comment\nover two lines, with a \\} brace}\n1.  N\tAO !  SE ?! {first trick}\n"
       "  N 20c $12 ; she had both\n2. N cc rb\nS 40 {in trump}   S x7O S tute R\n3.   S 7o\n*\n")


@lru_cache(maxsize=1)
def pool() -> tuple[str, ...]:
    """Seed records: simulated deals and match deals of all five presets, and a lax record."""
    texts = [LAX]
    for name in PRESETS:
        texts.extend(r.tpgn() for r in deal_records(preset(name), 4, seed=17))
        texts.extend(r.tpgn() for r in match_records(preset(name), 1, seed=5))
    return tuple(texts)


ALPHABET = '[]"{}\\;*.+$!?:= \t\n\r\ufeff0123456789NWSEOCEBxtuteAaRrSsCc#-_\u00e9'
TOKENS = ("[", "]", '"', "{", "}", ";", "*", "NS+1", "WE+match", "N+2", "1.", "13.", "N", "W", "S", "E", "40",
          "40O", "20C", "tute", "12", "x7B", "1O", "12B", "$300", "!?", '[Rules "torofun-3p"]', '[Rules "?"]',
          '[Result "*"]', '[Cards "fr"]', '[Cards "it"]', '[Trump "1O"]', "\n\n", "\n[", "\\", '\\"')

T = TypeVar("T")

_TOKEN = re.compile(r"\S+|\s+")


def mutate(text: str, ops: list[tuple[int, int, int, int]]) -> str:
    """Apply mutations; each op is (kind, position, other position, choice) as drawn integers."""
    for kind, a, b, pick in ops:
        if kind < 3:  # character level
            n = len(text)
            i, j = (a % (n + 1), b % (n + 1)) if n else (0, 0)
            if kind == 0 and n:  # delete a character
                text = text[:i] + text[i + 1:]
            elif kind == 1:  # insert a character
                text = text[:i] + ALPHABET[pick % len(ALPHABET)] + text[i:]
            elif n >= 2:  # swap two characters
                i, j = sorted((min(i, n - 1), min(j, n - 1)))
                text = text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:] if i != j else text
        else:  # token level
            tokens = _TOKEN.findall(text)
            n = len(tokens)
            if not n:
                text = TOKENS[pick % len(TOKENS)]
                continue
            i, j = a % n, b % n
            if kind == 3:  # delete a token
                del tokens[i]
            elif kind == 4:  # duplicate a token
                tokens.insert(i, tokens[i])
            elif kind == 5:  # swap two tokens
                tokens[i], tokens[j] = tokens[j], tokens[i]
            else:  # insert a token from the notation's vocabulary
                tokens.insert(i, TOKENS[pick % len(TOKENS)] + " ")
            text = "".join(tokens)
    return text


OPS = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**3)),
               min_size=1, max_size=5)


@st.composite
def damaged(draw: st.DrawFn) -> str:
    seeds = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=3))
    texts = pool()
    text = "\n".join(texts[s % len(texts)] for s in seeds)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return mutate(text, draw(OPS))


def located(error: NotationError, text: str) -> None:
    assert type(error.line) is int and type(error.column) is int, error
    assert error.line >= 1 and error.column >= 1, error
    assert error.line <= text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1, error  # a lone CR ends a line
    assert isinstance(error.message, str) and isinstance(error.text, str) and isinstance(error.expected, str)
    assert str(error)


@settings(derandomize=True, database=None, max_examples=2500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(damaged(), st.sampled_from([None, None, None, "es", "es-letters", "it", "fr"]))
def test_damaged_records_fail_only_with_located_notation_errors(text: str, cards: str | None) -> None:
    # Strict: success, or a NotationError with a line and column (any other exception fails the test).
    strict_error = None
    try:
        strict = list(iter_records(text, strict=True, cards=cards))
    except NotationError as exc:
        strict_error = exc
        located(exc, text)
        assert type(exc.index) is int and exc.index >= 0
    # Lenient: never raises; errors land on their records, the first is the strict one.
    lenient = list(iter_records(text, cards=cards))
    assert [r.index for r in lenient] == list(range(len(lenient)))
    errors = [e for r in lenient for e in r.errors]
    for record in lenient:
        for error in record.errors:
            located(error, text)
            assert error.index == record.index
    if strict_error is None:
        assert errors == []
        assert [(r.tags, r.entries, r.termination) for r in strict] == [
            (r.tags, r.entries, r.termination) for r in lenient]
    else:
        assert errors, "strict mode raised where lenient mode found nothing"
        first = errors[0]
        assert (first.index, first.line, first.column, first.text, first.message) == (
            strict_error.index, strict_error.line, strict_error.column, strict_error.text, strict_error.message)
    # The header scan reads the same records' worth of tags, and never raises.
    headers = list(scan_headers(text))
    assert all(isinstance(h.tags, dict) and h.line >= 1 for h in headers)


@settings(derandomize=True, database=None, max_examples=1000, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=200))
def test_arbitrary_text_fails_only_with_located_notation_errors(text: str) -> None:
    try:
        list(iter_records(text, strict=True))
    except NotationError as exc:
        located(exc, text)
    for record in iter_records(text):
        for error in record.errors:
            located(error, text)
    list(scan_headers(text))


def both_scans(text: str) -> tuple[list[split.Headers], list[split.Headers]]:
    """The headers of ``text`` as the scan reads them with its C loop and with its Python loop."""
    return in_c_and_in_python(split, "C_SCAN", lambda: list(scan_headers(text)))


def in_c_and_in_python(module: object, switch: str, read: Callable[[], T]) -> tuple[T, T]:
    """What ``read()`` gives with ``module``'s C loop on (``switch`` None), then off (False)."""
    try:
        setattr(module, switch, None)
        in_c = read()
        setattr(module, switch, False)
        return in_c, read()
    finally:
        setattr(module, switch, None)


@settings(derandomize=True, database=None, max_examples=1500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(damaged())
def test_the_header_scan_reads_the_same_headers_in_c_and_in_python(text: str) -> None:
    if split.c_scan() is None:
        return  # the extension is not built: there is one loop only
    in_c, in_python = both_scans(text)
    assert in_c == in_python


def test_a_head_line_that_is_no_tag_line_leaves_the_fast_loops() -> None:
    # One line without its opening quote, the next with two: as many quotes and tags as plain lines would
    # have, but not one tag a line.  Neither loop reads them as tags; the general rule does.
    record = '[Rules "torofun-2p"]\n[AB"]\n[A "b "c"]\n\n1. N 1O 3O\n*\n'
    text = record + "\n" + record
    in_c, in_python = both_scans(text)
    assert in_python[0].tags == scan_tags(record) == {"Rules": "torofun-2p"}
    if split.c_scan() is not None:
        assert in_c == in_python


# ---------------------------------------------------------------------------
# The export reader's trick lines: its loop in C reads the same records as its loop in Python.


def read_both(text: str) -> tuple[list[tuple], list[tuple]]:
    """Every record of ``text`` as the export reader reads it (None where it declines), with the trick lines read
    in C and in Python."""
    def records() -> list[tuple]:
        found = []
        for line, raw in split.split_records([text]):
            record = read_export(raw, line)
            found.append(None if record is None else (record.tags, record.tag_lines, record.events, record.termination,
                                                      record.tpgn()))
        return found
    return in_c_and_in_python(export_reader, "C_TRICKS", records)


@settings(derandomize=True, database=None, max_examples=1500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(damaged())
def test_the_trick_lines_read_the_same_in_c_and_in_python(text: str) -> None:
    if export_reader.c_tricks() is None:
        return  # the extension is not built: there is one loop only
    in_c, in_python = read_both(text)
    assert in_c == in_python


TRICKS = '[Rules "torofun-2p"]\n[Result "*"]\n\n1. N 1O 3O\n{}*\n'


@pytest.mark.parametrize("line", [
    "2. S 12B 10O", "2. S 11C 7E", "02. S 12B 10O", "2. S 12B 10O ", "2. S 12B  10O", "2.  S 12B 10O", "2. X 12B 10O",
    "2. SS 12B 10O", "2. S 8B 10O", "2. S 12b 10O", "2. S 13B 10O", "2. S 12B", "2. S 12B 10O 1C", "3. S 12B 10O",
    "2.S 12B 10O", "2. S 012B 10O", "2. S 12B\t10O", "2. S 1OB 10O", "S 20B", "2. S 12B 10O\r"])
def test_each_kind_of_line_reads_the_same_in_c_and_in_python(line: str) -> None:
    text = TRICKS.replace("{}", line + "\n")
    in_c, in_python = read_both(text)
    assert in_c == in_python
    if line in ("2. S 12B 10O", "2. S 11C 7E", "S 20B"):
        assert in_c[0] is not None  # read by the export reader, not declined
    if export_reader.c_tricks() is not None and line == "2. S 12B 10O":
        assert len(in_c[0][2]) == 4
