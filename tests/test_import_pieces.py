"""A worker builds a piece's Arrow tables a chunk of records at a time (so it holds one chunk's Python objects,
not its whole piece's): the tables are the same whatever the chunk, a deal twice in a piece is stored once
even when its two copies fall in different chunks, and every deal keeps its place in the piece."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutepgn.archive import rows
from tutepgn.notation.inputs import expand
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


def test_an_import_holds_no_earlier_piece_and_restores_the_connection(piece: list[rows.Raw], tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """One transaction of many pieces: Arrow memory stays that of one piece (a view registered and dropped
    inside a transaction kept its table until the commit: 27 MB a piece of 8,000 deals), and DuckDB's
    settings are the connection's own again after the import."""
    import pyarrow as pa

    from tutepgn.archive import Archive, ingest

    monkeypatch.setattr(ingest, "WORK_SIZE", 10)
    held: list[int] = []
    with Archive(tmp_path / "a.duckdb", memory_limit="300MB") as archive:
        before = archive.con.execute("SELECT current_setting('threads'), current_setting('memory_limit')").fetchone()
        summary = archive.import_raw(piece, batch_size=10 ** 6,
                                     progress=lambda read, added: held.append(pa.total_allocated_bytes()))
        after = archive.con.execute("SELECT current_setting('threads'), current_setting('memory_limit')").fetchone()
    assert summary.added == len(piece) - 10 and len(held) > 8
    assert max(held[4:]) < 3 * max(held[:4]), held  # flat, not growing with every piece
    assert after == before


def test_a_default_batch_is_whole_pieces_and_whole_row_groups_of_deals(tmp_path: Path) -> None:
    """A batch that ends inside a DuckDB row group leaves a part-filled one, which a later checkpoint merges
    with its neighbours by rewriting them (12 s of 1,000,000 deals' import): the default batch is whole pieces
    and whole row groups, of the size DuckDB really uses."""
    import duckdb

    from tutepgn.archive import ingest
    from tutepgn.archive.defaults import BATCH_SIZE, ROW_GROUP_ROWS

    piece = ingest.piece_size()
    assert piece == ingest.WORK_SIZE and BATCH_SIZE % piece == 0 and BATCH_SIZE % ROW_GROUP_ROWS == 0
    con = duckdb.connect(str(tmp_path / "groups.duckdb"))
    con.execute("CREATE TABLE t AS SELECT range AS i FROM range(?)", [2 * ROW_GROUP_ROWS + 5])
    con.execute("CHECKPOINT")
    counts = con.execute("SELECT row_group_id, max(count) FROM pragma_storage_info('t') "
                         "GROUP BY ALL ORDER BY ALL").fetchall()
    assert [count for _, count in counts] == [ROW_GROUP_ROWS, ROW_GROUP_ROWS, 5]
