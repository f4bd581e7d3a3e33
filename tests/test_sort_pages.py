"""Every sort, paged forwards and backwards by cursor, over an archive file and a dataset: each deal once, in
the documented order, with deals that have no date or no result and deals dated on the last day a date holds
(which an order on ``coalesce(date, DATE '9999-12-31')`` would have mixed with the undated ones)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.dataset import dataset_archive, import_dataset
from tutepgn.archive.search import SORTS
from tutepgn.notation.inputs import expand
from tutepgn.notation import iter_raw_records

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DATE = re.compile(r'^\[Date "[^"]*"\]$', re.M)


def reference(sort: str, rows: list[dict[str, Any]]) -> list[int]:
    """The order docs/archive.md gives: a deal without the value last by date, first by points or margin
    ascending and last descending; then the id."""
    column = {"date": "date", "points": "winner_points", "margin": "margin", "id": "id"}[sort.lstrip("-")]
    desc = sort.startswith("-")

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        value = row[column]
        if value is None:
            return (1 if column == "date" or desc else -1, 0, row["id"])
        number = value.toordinal() if column == "date" else value
        return (0, -number if desc else number, row["id"])

    return [r["id"] for r in sorted(rows, key=key)]


@pytest.fixture(scope="module", params=["file", "dataset"])
def archive(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("dates")
    count = 0

    def redate(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return {0: '[Date "????.??.??"]', 1: '[Date "9999.12.31"]'}.get(count % 6, match.group(0))

    for i, source in enumerate(expand([str(SAMPLES)])):
        (folder / f"{i:03d}.tpgn").write_text(DATE.sub(redate, source.read_text(encoding="utf-8")), encoding="utf-8")
    sources = expand([str(folder)])
    if request.param == "file":
        with Archive(folder / "a.duckdb") as writer:
            writer.import_sources(sources)
        opened = Archive(folder / "a.duckdb", read_only=True)
    else:
        import_dataset(folder / "d", iter_raw_records(sources), [str(s) for s in sources])
        opened = dataset_archive(folder / "d")
    yield opened
    opened.close()


@pytest.mark.parametrize("sort", list(SORTS))
def test_pages_by_cursor_walk_every_deal_once_in_order_both_ways(archive: Archive, sort: str) -> None:
    rows = archive.search(SearchFilters(), sort=sort, limit=None, columns=("id", "date", "winner_points", "margin"))
    assert any(r["date"] is None for r in rows) and any(r["date"] and r["date"].year == 9999 for r in rows)
    expected = reference(sort, rows)
    assert [r["id"] for r in rows] == expected
    pages: list[tuple[list[int], str | None]] = []  # each page's ids, and the cursor of the page before it
    after = None
    while True:
        page, following, preceding = archive.page(SearchFilters(), sort=sort, limit=17, after=after)
        pages.append(([r["id"] for r in page], preceding))
        if following is None:
            break
        after = following
    assert [i for ids, _ in pages for i in ids] == expected and len(pages) > 3
    backward, before = pages[-1]
    while before:
        page, _following, before = archive.page(SearchFilters(), sort=sort, limit=17, before=before)
        backward = [r["id"] for r in page] + backward
    assert backward == expected
