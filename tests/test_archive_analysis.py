"""Analyses stored in the archive, on real DuckDB files: filling (resumable, in worker processes), the rows
against the library's own analysis of each record, the analysis filters against an oracle, old files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tutepgn.analysis.annotate import analyse_record, deal_of
from tutepgn.analysis.version import ANALYSIS_VERSION
from tutepgn.archive import Archive, SearchFilters, rebuild_file
from tutepgn.archive.analyses import VERSION_KEY, AnalysisKey
from tutepgn.cards import card_code
from tutepgn.errors import ArchiveError
from tutepgn.events import Play
from tutepgn.notation import parse_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
QUICK = ("tutes.tpgn", "playcard-exchange-and-late-cante.tpgn", "torofun-2p-exchange-7-and-2.tpgn",
         "torofun-2p-italian-cards.tpgn", "torofun-3p.tpgn", "unfinished-deal.tpgn", "torofun-4p-lost-cante.tpgn")
"""Samples quick to analyse: 2 and 3 players, an unfinished deal, one whole 4-player deal."""
UNREADABLE = '[Event "broken"]\n[Rules "torofun-4p"]\n\n1. 1O 3O {\n'
DD = AnalysisKey(worlds=0)
"""Cantes counted, double dummy alone: the quick key the tests fill with (PIMC's worlds take seconds a deal)."""


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of the quick samples and one unreadable record, analysed once (one process)."""
    db = tmp_path_factory.mktemp("analysis") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / name for name in QUICK] + [UNREADABLE])
        summary = archive.analyse(DD)
        assert summary.analysed == archive.count() and summary.failed == 1 and summary.skipped == 0
    return db


def rows(db: Path) -> list[dict[str, Any]]:
    with duckdb.connect(str(db), read_only=True) as con:
        cursor = con.execute("SELECT a.*, d.text FROM analyses a JOIN deals d ON d.id = a.deal_id ORDER BY deal_id")
        names = [c[0] for c in cursor.description]
        return [dict(zip(names, r)) for r in cursor.fetchall()]


def test_rows_agree_with_the_librarys_analysis_of_each_record(filled: Path) -> None:
    stored = rows(filled)
    assert len(stored) == 10 and all(r["version"] == DD.version == "2:dd" and r["cantes"] for r in stored)
    assert VERSION_KEY == "2:pimc20:seed0"  # the library's defaults
    broken = [r for r in stored if r["error"] is not None]
    assert len(broken) == 1 and broken[0]["analysis"] is None and broken[0]["par"] is None
    for row in stored:
        if row["error"] is not None:
            continue
        deal = deal_of(parse_record(row["text"]), up_to_illegal=True)
        analysis = analyse_record(parse_record(row["text"]), up_to_illegal=True, **DD.options())
        data = json.loads(row["analysis"])
        assert data == analysis.to_dict()
        assert row["par"] == list(analysis.par) and row["actual"] == list(analysis.actual)
        assert row["par_diff"] == [a - p for a, p in zip(analysis.actual, analysis.par)]
        seats = deal.rules.seat_names
        for letter in "NWSE":
            expected = analysis.costs[seats.index(letter)] if letter in seats else None
            assert row[f"cost_{letter.lower()}"] == expected
        assert (row["inaccuracies"], row["mistakes"], row["blunders"]) == tuple(
            sum(p.mark == m for p in analysis.plays) for m in ("?!", "?", "??"))
        assert row["plays"] == sum(p["double_dummy"] for p in data["plays"]) == len(analysis.valued)
        record = parse_record(row["text"])
        for play in data["plays"]:  # each play names the record's event it was, for the replay page's frames
            event = record.events[play["index"]]
            assert type(event) is Play and event.seat == play["seat"] and card_code(event.card) == play["card"]
    assert any(r["blunders"] for r in stored if r["error"] is None)  # the filters below have something to find


def test_rows_are_keyed_by_version_and_parameters_and_old_rows_are_never_read(filled: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(filled.read_bytes())
    with Archive(db) as archive:
        deal = archive.search(SearchFilters(analysed=True), limit=1, columns=("id",))[0]["id"]
        first = archive.analysis(deal, DD)
        assert first is not None and first["version"] == 2 and first["worlds"] == 0
        assert archive.analysis(deal) is None  # the default key (20 worlds) has no row yet
        assert archive.analysis(deal, AnalysisKey(cantes=False, worlds=0)) is None
        archive.con.execute("UPDATE analyses SET version = '1' WHERE deal_id = ?", [deal])  # a row of version 1
        assert archive.analysis(deal, DD) is None  # never read as the new form
        assert archive.count(SearchFilters(analysed=True)) == len([r for r in rows(filled) if r["error"] is None]) - 1
        again = archive.analyse(DD)  # what `tute archive analyse` does: the deal is analysed again
        assert (again.analysed, again.failed) == (1, 0) and archive.analysis(deal, DD) == first


def test_filling_is_resumable_and_workers_give_the_same_rows(filled: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(filled.read_bytes())
    with Archive(db) as archive:
        total = archive.count()
        again = archive.analyse(DD)
        assert (again.analysed, again.skipped) == (0, total)
        archive.con.execute("DELETE FROM analyses WHERE deal_id IN (SELECT deal_id FROM analyses "
                            "WHERE error IS NULL ORDER BY deal_id LIMIT 3)")
        seen: list[tuple[int, int]] = []
        resumed = archive.analyse(DD, jobs=2, progress=lambda done, of: seen.append((done, of)))
        assert (resumed.analysed, resumed.skipped, resumed.failed) == (3, total - 3, 0) and seen[-1] == (3, 3)
    assert rows(db) == rows(filled)


def test_an_interrupted_fill_keeps_its_committed_batches(filled: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(filled.read_bytes())
    with Archive(db) as archive:
        archive.con.execute("DELETE FROM analyses")

        def stop(done: int, total: int) -> None:
            if done >= 6:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            archive.analyse(DD, batch_size=2, progress=stop)
        assert archive.con.execute("SELECT count(*) FROM analyses").fetchone()[0] == 6  # three batches committed
        assert archive.analyse(DD).analysed == archive.count() - 6
    assert rows(db) == rows(filled)


def test_analysis_filters_match_an_oracle_over_the_rows(filled: Path) -> None:
    good = [r for r in rows(filled) if r["error"] is None]
    costs = lambda r: [r[f"cost_{s}"] for s in "nwse" if r[f"cost_{s}"] is not None]  # noqa: E731
    oracle: list[tuple[SearchFilters, set[int]]] = [
        (SearchFilters(analysed=True), {r["deal_id"] for r in good}),
        (SearchFilters(blunders=True), {r["deal_id"] for r in good if r["blunders"]}),
        (SearchFilters(blunders=False), {r["deal_id"] for r in good if not r["blunders"]}),
        (SearchFilters(mistakes=True), {r["deal_id"] for r in good if r["blunders"] + r["mistakes"]}),
        (SearchFilters(max_cost=5), {r["deal_id"] for r in good if max(costs(r), default=0) <= 5}),
        (SearchFilters(min_cost=10), {r["deal_id"] for r in good if max(costs(r), default=0) >= 10}),
        (SearchFilters(cost_seat="N", max_cost=3), {r["deal_id"] for r in good if (r["cost_n"] or 0) <= 3}),
        (SearchFilters(par_diff_max=-20), {r["deal_id"] for r in good if min(r["par_diff"]) <= -20}),
        (SearchFilters(par_diff_max=-20, blunders=True),
         {r["deal_id"] for r in good if min(r["par_diff"]) <= -20 and r["blunders"]}),
        (SearchFilters(analysis_cantes=False), set()),
    ]
    with Archive(filled, read_only=True) as archive:
        every = {r["id"] for r in archive.search(limit=None, columns=("id",))}
        assert archive.count(SearchFilters(analysed=False)) == len(every) - len(good)
        for filters, expected in oracle:
            found = {r["id"] for r in archive.search(filters, limit=None, columns=("id",))}
            assert found == expected, filters
        assert 0 < len(oracle[1][1]) < len(good) and 0 < len(oracle[7][1]) < len(good)
    with pytest.raises(ValueError, match="cost_seat needs"):
        SearchFilters(cost_seat="N")
    with pytest.raises(ValueError, match="analysis filters"):
        SearchFilters(analysed=False, blunders=True)


def test_a_rebuild_keeps_the_stored_analyses(filled: Path, tmp_path: Path) -> None:
    rebuilt = tmp_path / "rebuilt.duckdb"
    rebuild_file(filled, rebuilt)
    assert rows(rebuilt) == rows(filled)


def test_an_archive_without_the_analyses_table(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "tutes.tpgn"])
        archive.con.execute("DROP TABLE analyses")
    with pytest.raises(ArchiveError, match="tute archive rebuild"):
        Archive(db, read_only=True)
    with Archive(db) as archive:  # opened for writing, it gets the table
        assert archive.count(SearchFilters(analysed=True)) == 0
        assert archive.analyse(DD).analysed == 3
    with Archive(db, read_only=True) as archive:
        assert archive.count(SearchFilters(analysed=True)) == 3
        assert archive.analysis(archive.search(limit=1, columns=("id",))[0]["id"], DD)["version"] == ANALYSIS_VERSION


def test_tute_archive_analyse(tmp_path: Path) -> None:
    db = tmp_path / "cli.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "tutes.tpgn", SAMPLES / "torofun-3p.tpgn"])
    command = [sys.executable, "-m", "tutepgn.cli", "archive", "analyse", "--db", str(db), "--json", "--jobs", "1",
               "--pimc", "0"]
    first = subprocess.run(command, capture_output=True, text=True, check=True)
    assert json.loads(first.stdout) | {"seconds": 0} == {"db": str(db), "analysed": 4, "failed": 0, "skipped": 0,
                                                          "result_only": 0, "seconds": 0}
    second = subprocess.run([*command, "--cantes"], capture_output=True, text=True, check=True)  # the default
    assert json.loads(second.stdout)["skipped"] == 4
    third = subprocess.run([*command, "--no-cantes"], capture_output=True, text=True, check=True)  # another key
    assert json.loads(third.stdout)["analysed"] == 4
    with Archive(db, read_only=True) as archive:
        assert archive.count(SearchFilters(analysis_cantes=True)) == archive.count(SearchFilters(
            analysis_cantes=False)) == 4


def test_importing_the_archive_does_not_load_the_solver() -> None:
    """The stored rows' version comes from a module of its own: searches and imports never load the solver."""
    code = ("import sys, tutepgn.archive, tutepgn.archive.store; "
            "print(*(m in sys.modules for m in ('tutepgn.analysis.deal_analysis', 'tutepgn.analysis.solve')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
