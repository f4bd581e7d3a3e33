"""A worker builds a piece's Arrow tables a chunk of records at a time (so it holds one chunk's Python objects,
not its whole piece's): the tables are the same whatever the chunk, a deal twice in a piece is stored once
even when its two copies fall in different chunks, and every deal keeps its place in the piece."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutepgn.archive import rows
from tutepgn.inputs import expand
from tutepgn.notation import iter_raw_records

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture(scope="module")
def piece() -> list[rows.Raw]:
    """Every sample record, then its first ten again (duplicates, in later chunks than their first copies)."""
    raw = list(iter_raw_records(expand([str(SAMPLES)])))
    return raw + raw[:10]


def test_the_tables_are_the_same_whatever_the_chunk(piece: list[rows.Raw], monkeypatch: pytest.MonkeyPatch) -> None:
    whole = rows.arrow_batch(piece)
    monkeypatch.setattr(rows, "CHUNK", 7)
    chunked = rows.arrow_batch(piece)
    assert whole.keys() == chunked.keys()
    for name in whole:
        assert chunked[name].equals(whole[name]), name
    assert whole["deals"].num_rows == len(piece) - 10  # the repeated ten are stored once
    assert chunked["deals"].column("import_index").to_pylist() == list(range(len(piece) - 10))
    assert rows.arrow_batch([])["deals"].num_rows == 0
