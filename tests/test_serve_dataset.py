"""``tute serve --dataset``: the service answers the same search pages and deal pages from a Parquet dataset as
from the archive file, on the samples and on simulated deals (2,000 here; 20,000 under the ``slow`` marker)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutepgn.archive import Archive
from tutepgn.archive.dataset import import_dataset
from tutepgn.api.app import Settings, create_app
from tutepgn.notation.inputs import expand
from tutepgn.notation import iter_raw_records
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
SEARCHES = [
    {}, {"rules": "torofun-3p"}, {"sort": "points"}, {"sort": "-margin", "limit": 7}, {"player": "Ana"},
    {"trump": "O", "sort": "-date"}, {"since": "2025-06-01", "until": "2025-12-31"}, {"tute": "true"},
    {"cante": "40", "winner": "NS"}, {"min_points": "100", "sort": "-points"}, {"event": "no such event"},
    {"held": "N:1O,3O"}, {"doubled": "true", "limit": 3},
]
"""Searches as the service's clients send them: filters, sorts, page sizes (one that matches nothing)."""


def served(sources: list[Any], root: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Clients of a service over an archive file and over a dataset of the same sources."""
    names = [str(s) for s in sources]
    with Archive(root / "a.duckdb") as archive:
        archive.import_sources(sources, jobs=2)
    import_dataset(root / "d", iter_raw_records(sources), names, jobs=2)
    over_file = create_app(Settings(db=root / "a.duckdb", read_only=True))
    over_dataset = create_app(Settings(dataset=root / "d"))
    with TestClient(over_file) as a, TestClient(over_dataset) as b:
        yield a, b


def same_answers(file: TestClient, dataset: TestClient, pages: int = 3) -> int:
    """Every search (its first pages, by the next cursors), the HTML search page, and every deal of those pages
    as JSON, text, score sheet and HTML page: the same answers.  Returns how many deals were compared."""
    seen: set[int] = set()
    for search in SEARCHES:
        params = dict(search)
        for _ in range(pages):
            a, b = file.get("/api/v1/deals", params=params), dataset.get("/api/v1/deals", params=params)
            assert a.status_code == b.status_code == 200 and a.json() == b.json(), search
            seen.update(item["id"] for item in a.json()["items"])
            if a.json()["previous"]:  # the page before
                back = {k: v for k, v in params.items() if k != "cursor"} | {"before": a.json()["previous"]}
                a_back, b_back = file.get("/api/v1/deals", params=back), dataset.get("/api/v1/deals", params=back)
                assert a_back.status_code == 200 and a_back.json()["items"] and a_back.json() == b_back.json(), search
            if not a.json()["next"]:
                break
            params["cursor"] = a.json()["next"]
        html = {k: v for k, v in search.items() if k != "limit"}
        assert file.get("/", params=html).text == dataset.get("/", params=html).text, search
    for stat in ({}, {"rules": "ludoteka-pairs"}):
        assert file.get("/api/v1/stats", params=stat).json() == dataset.get("/api/v1/stats", params=stat).json()
    assert file.get("/api/v1/players").json() == dataset.get("/api/v1/players").json()
    for deal in sorted(seen)[:60]:
        for path in (f"/api/v1/deals/{deal}", f"/api/v1/deals/{deal}.tpgn", f"/api/v1/deals/{deal}/sheet",
                     f"/deals/{deal}"):
            a, b = file.get(path), dataset.get(path)
            assert a.status_code == b.status_code == 200 and a.content == b.content, path
    assert file.get("/api/v1/deals/1").status_code == dataset.get("/api/v1/deals/1").status_code == 404
    return len(seen)


def test_the_samples_are_served_alike(tmp_path: Path) -> None:
    for file, dataset in served(expand([str(ROOT / "samples")]), tmp_path):
        assert same_answers(file, dataset) > 100
        assert dataset.get("/api/v1/health").json()["deals"] == 296
        assert dataset.post("/api/v1/import", content="x").status_code in (401, 403, 405, 409)


def simulated(root: Path, count: int) -> list[Path]:
    """``count`` simulated deals, the presets in equal shares, a file each."""
    files = []
    for i, name in enumerate(PRESETS):
        path = root / f"{name}.tpgn"
        path.write_text("\n".join(r.tpgn() for r in deal_records(preset(name), count // len(PRESETS), seed=500 + i)),
                        encoding="utf-8")
        files.append(path)
    return files


def test_simulated_deals_are_served_alike(tmp_path: Path) -> None:
    for file, dataset in served(simulated(tmp_path, 2000), tmp_path):
        assert same_answers(file, dataset) > 300


@pytest.mark.slow
def test_20000_simulated_deals_are_served_alike(tmp_path: Path) -> None:
    for file, dataset in served(simulated(tmp_path, 20_000), tmp_path):
        assert same_answers(file, dataset, pages=5) > 500
