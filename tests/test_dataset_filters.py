"""Every documented search filter answers the same over a Parquet dataset as over the archive file: the count,
the rows in order, the first page and the ids; and the searches the dataset's statistics prove empty are
answered without a query."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.dataset import dataset_archive, import_dataset
from tutepgn.notation import iter_raw_records
from tutepgn.notation.inputs import expand

ROOT = Path(__file__).resolve().parent.parent
FILTERS: list[dict[str, Any]] = [
    {"player": "Inés"}, {"player": "ines", "seat": "S"}, {"player": "Inés", "partner": "Hugo"},
    {"player": "Inés", "opponent": "Hugo"}, {"player": "Nadie"},
    {"since": "2025-06-01"}, {"until": "2025-03-01"}, {"since": "2025-01-01", "until": "2025-12-31"},
    {"since": "2030-01-01"}, {"until": "2000-01-01"},
    {"event": "Liga"}, {"event": "simulated"}, {"event": "100%"}, {"site": "León"}, {"site": "nowhere"},
    *({"rules": name} for name in ("ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p")),
    {"rules": "ludoteka-pairs match_target=6"}, {"rules": "torofun-3p match_target=6"},
    *({"trump": suit} for suit in "OCEB"),
    {"winner": "NS"}, {"winner": "WE"}, {"winner": "N"}, {"winner": "Inés"}, {"loser": "NS"}, {"loser": "Hugo"},
    {"min_points": 101}, {"min_points": 150}, {"min_points": 400}, {"max_points": 60}, {"max_points": 0},
    {"min_margin": 100}, {"min_margin": 500}, {"max_margin": 5}, {"max_margin": -500},
    {"cante": "any"}, {"cante": "20"}, {"cante": "40"}, {"cante_suit": "O"}, {"cante_by": "Inés"},
    {"unsung": "any"}, {"unsung": "40"}, {"tute": True}, {"tute": False}, {"tute_rank": 11}, {"tute_rank": 12},
    {"exchange": True}, {"exchange": False}, {"doubled": True}, {"doubled": False},
    {"tie_break": True}, {"tie_break": False}, {"valid": True}, {"valid": False},
    {"issue": "unfinished"}, {"issue": "must_follow"}, {"held": ["N:1O,3O"]}, {"held": ["S:1C"]},
    {"comment": "cantes"}, {"comment": "cuarenta"}, {"comment": "50%"},
    {"match": "sim-2025-1"}, {"match": "SanJose2025-R3-M2"}, {"match": "sim-99-9"},
    {"tag": ["Event:*Tute*"]},
    {"cante": "40", "cante_by": "Inés", "loser": "Inés"},
    {"player": "Inés", "since": "2025-01-01", "until": "2025-12-31", "trump": "O"},
    {"rules": "torofun-4p", "doubled": True, "min_points": 100}, {"rules": "ludoteka-pairs", "match": "sim-2025-2"},
    {"rules": "torofun-3p", "match": "SanJose2025-R3-M2"}, {"valid": True, "comment": "cantes", "trump": "C"},
]
"""The filters of docs/archive.md and bench/archive.py, with values that match deals and values that match none."""


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Archive, Archive]:
    """The samples in an archive file and in a dataset."""
    root = tmp_path_factory.mktemp("filters")
    sources = expand([str(ROOT / "samples")])
    with Archive(root / "a.duckdb") as archive:
        archive.import_sources(sources)
    import_dataset(root / "d", iter_raw_records(sources), [str(s) for s in sources], jobs=1)
    return Archive(root / "a.duckdb", read_only=True), dataset_archive(root / "d")


@pytest.mark.parametrize("given", FILTERS, ids=lambda given: ",".join(f"{k}={v}" for k, v in given.items()))
def test_every_filter_answers_alike_over_the_dataset(both: tuple[Archive, Archive], given: dict[str, Any]) -> None:
    file, dataset = both
    filters = SearchFilters(**given)
    for archive in (dataset, dataset.reader()):
        assert archive.count(filters) == file.count(filters)
        assert archive.search(filters, limit=400) == file.search(filters, limit=400)
        assert archive.search(filters, sort="-points", limit=7) == file.search(filters, sort="-points", limit=7)
        assert archive.page(filters, limit=5) == file.page(filters, limit=5)
        assert archive.ids(filters).to_pylist() == file.ids(filters).to_pylist()
        assert archive.deal_page(filters) == file.deal_page(filters)


def test_the_filters_match_some_deals_and_miss_others(both: tuple[Archive, Archive]) -> None:
    file, _ = both
    counts = [file.count(SearchFilters(**given)) for given in FILTERS]
    assert sum(c == 0 for c in counts) >= 12 and sum(c > 0 for c in counts) >= 50, counts


def test_what_the_statistics_rule_out_is_answered_without_a_query(tmp_path: Path) -> None:
    sources = expand([str(ROOT / "samples")])
    import_dataset(tmp_path / "d", iter_raw_records(sources), [], jobs=1)
    dataset = dataset_archive(tmp_path / "d")
    reader = dataset.reader()
    decided = [{"valid": True}, {}]  # of every row group, all its deals
    counts = [dataset.count(SearchFilters(**given)) for given in decided]
    assert counts == [296, 296]
    dataset.con.close()  # any query now fails
    assert [dataset.count(SearchFilters(**given)) for given in decided] == counts  # counted from the footers
    for given in ({"match": "sim-99-9"}, {"comment": "x", "since": "2030-01-01"},
                  {"issue": "must_follow"}, {"valid": False}, {"since": "2030-01-01"}, {"min_points": 400},
                  {"rules": "playcard-2p", "until": "2024-12-31"}):  # 2024's deals are all ludoteka-pairs
        filters = SearchFilters(**given)
        assert dataset.count(filters) == reader.count(filters) == 0, given
        assert dataset.search(filters) == [] and dataset.page(filters) == ([], None, None), given
        assert len(dataset.ids(filters)) == 0, given
    with pytest.raises(Exception):
        dataset.count(SearchFilters(match="sim-2025-1"))
    with pytest.raises(ValueError):
        dataset.search(SearchFilters(match="sim-99-9"), sort="nothing")


def test_the_filters_at_the_edges_of_the_statistics_answer_alike(both: tuple[Archive, Archive]) -> None:
    """A filter on the least or greatest value a column holds matches its deals over the dataset too (the
    statistics rule out only what lies beyond them)."""
    file, dataset = both
    low_date, high_date, low_points, high_points, low_margin, high_margin, low_match, high_match = file.con.execute(
        "SELECT min(date), max(date), min(winner_points), max(winner_points), min(margin), max(margin), "
        "min(match_id), max(match_id) FROM deals").fetchone()  # type: ignore[misc]
    edges: list[dict[str, Any]] = [
        {"since": high_date}, {"until": low_date}, {"min_points": high_points}, {"max_points": low_points},
        {"min_margin": high_margin}, {"max_margin": low_margin}, {"match": low_match}, {"match": high_match},
        {"tute_rank": 11, "exchange": True}, {"since": high_date, "until": high_date},
    ]
    for given in edges:
        filters = SearchFilters(**given)
        assert dataset.count(filters) == file.count(filters) > 0, given
        assert dataset.search(filters) == file.search(filters), given


def test_a_first_page_that_holds_every_match_is_the_count(both: tuple[Archive, Archive]) -> None:
    """``tute search`` asks for the first page, then the count: when the page holds every deal the search
    matches, the count is the page's length, with no second query; a full page, an offset page or another
    search's filters still count by query."""
    file, dataset = both
    for given in ({"event": "Liga"}, {"player": "Inés"}, {"site": "León"}, {"trump": "O"}):
        filters = SearchFilters(**given)
        for limit, offset in ((400, 0), (5, 0), (400, 3)):
            reader = dataset.reader()
            reader.search(filters, limit=limit, offset=offset)
            assert reader.count(filters) == file.count(filters), (given, limit, offset)
            assert reader.count(SearchFilters(valid=False, **given)) == file.count(SearchFilters(valid=False, **given))
        reader = dataset.reader()
        rows, following, _ = reader.page(filters, limit=5)
        assert (following is not None) == (file.count(filters) > 5) and reader.count(filters) == file.count(filters)
    assert file.count(SearchFilters(trump="O")) > 5
    reader = dataset.reader()
    filters = SearchFilters(event="Liga")
    found = reader.search(filters, limit=400)
    assert 0 < len(found) < 400
    reader.con.close()  # any query now fails
    assert reader.count(filters) == len(found)
    reader = dataset.reader()
    rows, following, _ = reader.page(filters, limit=400)
    reader.con.close()
    assert following is None and reader.count(filters) == len(rows) == len(found)


def test_a_preset_finds_its_deals_with_overrides_and_a_spec_its_own(both: tuple[Archive, Archive]) -> None:
    """The rules filter reads one column (a preset's name: ``preset``; a whole spec: ``rules``), and finds what
    both columns found together: a preset's deals with or without overrides, a spec's deals only."""
    file, dataset = both
    specs = [spec for (spec,) in file.con.execute("SELECT DISTINCT rules FROM deals").fetchall()]
    assert any(" " in spec for spec in specs)  # some deal's rules override its preset's
    for value in {*specs, *(spec.split()[0] for spec in specs)}:
        either = file.con.execute("SELECT count(*) FROM deals WHERE preset = ? OR rules = ?", [value, value])
        expected = either.fetchone()[0]  # type: ignore[index]
        assert file.count(SearchFilters(rules=value)) == dataset.count(SearchFilters(rules=value)) == expected > 0


def test_a_dataset_partitioned_by_preset_and_year_keeps_its_layout(
        both: tuple[Archive, Archive], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dataset written before the deals were partitioned by year alone (``deals/preset=P/year=Y/``) is read
    as it is, and an import into it writes its deals the same way (a reader's Hive partitions must agree from
    file to file); its searches answer as the file's."""
    import tutepgn.archive.dataset as module

    file, _ = both
    sources = expand([str(ROOT / "samples")])
    with monkeypatch.context() as old:
        old.setattr(module, "PARTITIONS", {"deals": ("preset", "year")})
        import_dataset(tmp_path / "d", iter_raw_records(sources[:2]), [], jobs=1)
    import_dataset(tmp_path / "d", iter_raw_records(sources), [], jobs=1)
    folders = {p.relative_to(tmp_path / "d" / "deals").parts[0] for p in (tmp_path / "d" / "deals").rglob("*.parquet")}
    assert folders and all(folder.startswith("preset=") for folder in folders), folders
    dataset = dataset_archive(tmp_path / "d")
    for given in FILTERS:
        filters = SearchFilters(**given)
        assert dataset.count(filters) == file.count(filters), given
        assert dataset.search(filters, limit=400) == file.search(filters, limit=400), given
