"""Valid records mutated at random (bytes, lines, tokens): reading, validating and building archive rows
never raise anything but the library's located errors.  A few hundred examples by default; at least
10,000 with ``make test-slow`` (``pytest -m slow``)."""

from __future__ import annotations

import io
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutepgn.archive.rows import arrow_batch
from tutepgn.errors import NotationError
from tutepgn.notation import iter_raw_records, iter_records, jsonform
from tutepgn.notation import read_record
from tutepgn.check.validate import validate_records, validate_text

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import BASE, GOOD, UNICODE_DIGITS  # noqa: E402

SEEDS = [BASE, *GOOD]
TOKENS = ["\n", " ", "[", "]", '"', "{", "}", "\\", ";", "$999", "$255", "99999999999", "²", "١٢", "\x00", "\r",
          "\ufeff", "20C", "x7O", "tute 12", "1O", "13B", "N", "W:", "NS+1", "*", "9" * 5000, *UNICODE_DIGITS]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A valid record with a few random edits: bytes changed, lines dropped or doubled, tokens put in."""
    data = bytearray(draw(st.sampled_from(SEEDS)).encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["byte", "token", "line", "cut"]))
        at = draw(st.integers(0, len(data)))
        if kind == "byte":
            data[at:at + 1] = bytes([draw(st.integers(0, 255))])
        elif kind == "token":
            data[at:at] = draw(st.sampled_from(TOKENS)).encode("utf-8")
        elif kind == "line":
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines[i:i + 1] = [] if draw(st.booleans()) else [lines[i], lines[i]]
            data = bytearray(b"\n".join(lines))
        else:
            del data[at:at + draw(st.integers(1, 40))]
    return bytes(data)


def _check(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    batch = GOOD[0] + "\n" + text + "\n\n" + GOOD[1]
    with tempfile.NamedTemporaryFile(suffix=".tpgn") as raw:  # the bytes as they are, through the file reader
        raw.write(GOOD[0].encode() + b"\n" + data + b"\n\n" + GOOD[1].encode())
        raw.flush()
        records = list(iter_records(Path(raw.name)))
    for report in validate_records(records):
        report.to_dict()
        for error in report.record.errors:
            assert error.line is not None and error.message
    raws = list(iter_raw_records([io.StringIO(batch)]))
    tables = arrow_batch(raws)
    assert tables["deals"].num_rows >= 1
    reports, _, errors = validate_text(batch)
    assert all(isinstance(e, NotationError) and e.line >= 1 for e in errors)
    try:
        record = read_record(text)
    except NotationError:
        return
    jsonform.from_json(jsonform.to_json(record))


FEW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(mutated())
def test_mutated_records(data: bytes) -> None:
    _check(data)


@pytest.mark.slow
@MANY
@given(mutated())
def test_mutated_records_many(data: bytes) -> None:
    _check(data)
