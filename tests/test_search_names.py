"""Search as a club player types it, on a real DuckDB archive: names by word in any case and accent, the
rules aliases the notation accepts, side labels in any case, a clear refusal for what is no filter, and a
search that finds nothing saying which filter left no deal (library, ``tute search`` and the API).
``tute search --json`` and ``tute show ID``, as a program reads them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from typer.testing import CliRunner

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive, SearchFilters, name_words
from tutepgn.archive import names as seat_names
from tutepgn.cli.main import app
from tutepgn.notation import Record, parse_record, tpgn
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
TABLES = {  # Round tag -> (rules, seats)
    "1": ("ludoteka-pairs", {"North": "Ana García", "West": "José Núñez", "South": "María Ana López", "East": "Íñigo"}),
    "2": ("playcard-2p", {"North": "ana", "South": "Luis Peña"}),
    "3": ("torofun-3p", {"North": "Anabel Ruiz", "West": "GARCÍA Pérez, Lola", "East": "Luis Peña"}),
}


def _record(round_: str, seed: int) -> Record:
    rules, seats = TABLES[round_]
    record = next(deal_records(preset(rules), 1, seed=seed))
    for tag in ("North", "West", "South", "East"):
        record.tags.pop(tag, None)
    record.tags.update(seats)
    record.tags["Round"] = round_
    return record


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("names")
    source = folder / "club.tpgn"
    source.write_text(tpgn.dumps([_record(r, 700 + int(r)) for r in TABLES]), encoding="utf-8")
    path = folder / "club.duckdb"
    with Archive(path) as archive:
        archive.import_sources([source])
    return path


def rounds(db: Path, **filters: object) -> set[str]:
    with Archive(db, read_only=True) as archive:
        return {parse_record(archive.text(row["id"])).tags["Round"]  # type: ignore[arg-type]
                for row in archive.search(SearchFilters(**filters), limit=None)}


def test_name_words_drop_case_and_accents() -> None:
    assert name_words("  GARCÍA Pérez, Lola ") == ["garcia", "perez", "lola"]
    assert name_words("Íñigo") == ["inigo"]


@pytest.mark.parametrize(("name", "found"), [
    ("Ana", {"1", "2"}),            # "Ana García", "María Ana López", "ana"; not "Anabel" (a word, not a prefix)
    ("ana", {"1", "2"}),
    ("garcia", {"1", "3"}),         # a surname, without its accent, wherever it stands in the name
    ("García Ana", {"1"}),          # every word, in any order
    ("inigo", {"1"}),
    ("nunez jose", {"1"}),
    ("Peña", {"2", "3"}),
    ("Zoe", set()),
])
def test_player_names_match_by_word_in_any_case_and_accent(db: Path, name: str, found: set[str]) -> None:
    assert rounds(db, player=name) == found


def test_every_name_filter_matches_the_same_way(db: Path) -> None:
    assert rounds(db, player="ana garcia", seat="n") == {"1"}          # a seat letter in lower case too
    assert rounds(db, player="ana garcia", seat="S") == set()
    assert rounds(db, player="garcia", partner="maria lopez") == {"1"}
    assert rounds(db, player="garcia", opponent="inigo") == {"1"}
    assert rounds(db, player="garcia", opponent="maria") == set()      # her partner, not an opponent
    assert rounds(db, player="ANA", opponent="pena") == {"2"}
    # names both filters hold: one seat holding both is no pair of opponents
    assert rounds(db, player="garcia", opponent="lola") == set()       # Lola García alone at her table
    assert rounds(db, player="pena", opponent="luis") == set()
    assert rounds(db, player="ana", opponent="ana garcia") == set()    # her partner holds "ana" too
    with Archive(db, read_only=True) as archive:
        rows = archive.search(SearchFilters(), limit=None, columns=("id", "round", "winner", "north", "south"))
    two = next(r for r in rows if r["round"] == "2")
    winner, loser = ("ANA", "luis") if two["winner"] == "N" else ("luis", "ANA")
    assert "2" in rounds(db, winner=winner) and "2" not in rounds(db, winner=loser)
    assert "2" in rounds(db, loser=loser) and "2" not in rounds(db, loser=winner)


@pytest.mark.parametrize("few", [0, 100])
def test_many_names_match_as_few_do(db: Path, few: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A filter whose words several names hold compares the seats with them in an IN list, or with a subquery
    beyond FEW_NAMES: both find the same deals."""
    monkeypatch.setattr(seat_names, "FEW_NAMES", few)
    assert rounds(db, player="Ana") == {"1", "2"} and rounds(db, player="luis pena") == {"2", "3"}
    assert rounds(db, player="garcia", opponent="inigo") == {"1"} and rounds(db, player="zoe") == set()


def test_names_are_read_again_once_deals_come_in(tmp_path: Path) -> None:
    """The names a filter resolves against are kept between searches, and read again when the archive holds
    more deals: a player first seen in a later import is found by the same open archive."""
    first, later = _record("1", 801), _record("2", 802)
    later.tags["North"] = "Zoe Ruiz"
    (tmp_path / "a.tpgn").write_text(tpgn.dumps([first]), encoding="utf-8")
    (tmp_path / "b.tpgn").write_text(tpgn.dumps([later]), encoding="utf-8")
    with Archive(tmp_path / "names.duckdb") as archive:
        archive.import_sources([tmp_path / "a.tpgn"])
        reader = archive.reader()
        assert reader.count(SearchFilters(player="zoe")) == 0
        archive.import_sources([tmp_path / "b.tpgn"])
        assert reader.count(SearchFilters(player="zoe")) == 1 and archive.count(SearchFilters(player="ruiz zoe")) == 1
        reader.close()
        assert not archive.seat_names.fixed  # open for writing: the names are checked before each search
    with Archive(tmp_path / "names.duckdb", read_only=True) as archive:  # no process can write it meanwhile
        assert archive.seat_names.fixed and archive.reader().seat_names is archive.seat_names
        assert archive.count(SearchFilters(player="zoe")) == 1



def test_side_labels_and_rules_aliases_are_read_as_the_notation_reads_them(db: Path) -> None:
    assert SearchFilters(winner="ns").winner == "NS" and SearchFilters(loser=" we ").loser == "WE"
    assert SearchFilters(rules="LUDOTEKA").rules == "ludoteka-pairs"
    assert SearchFilters(rules="playcard").rules == "playcard-2p"
    assert rounds(db, rules="ludoteka") == {"1"}
    assert rounds(db, rules="ludoteka") == rounds(db, rules="ludoteka-pairs")
    with Archive(db, read_only=True) as archive:
        winner = archive.search(SearchFilters(rules="ludoteka"), columns=("id", "winner"))[0]["winner"]
    assert rounds(db, winner=winner.lower()) == rounds(db, winner=winner) and "1" in rounds(db, winner=winner.lower())


@pytest.mark.parametrize(("filters", "words"), [
    ({"rules": "chinchon"}, "unknown ruleset 'chinchon'"),
    ({"player": "--"}, "is not a name"),
    ({"winner": "?"}, "is not a name"),
])
def test_what_is_no_filter_is_refused_in_words(filters: dict[str, str], words: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(words)):
        SearchFilters(**filters)


def test_an_empty_search_names_the_filter_that_left_no_deal(db: Path) -> None:
    with Archive(db, read_only=True) as archive:
        alone = archive.emptied_by(SearchFilters(player="ana", event="no such event"))
        assert alone is not None and (alone.filter, alone.value, alone.alone, alone.before) == (
            "event", "no such event", True, 3)
        together = archive.emptied_by(SearchFilters(player="luis", rules="ludoteka"))
        assert together is not None and (together.filter, together.alone, together.before) == ("rules", False, 2)
        assert "among the 2 deals the filters before it matched" in together.text()
        assert archive.emptied_by(SearchFilters(player="ana")) is None
        page = archive.deal_page(SearchFilters(player="luis", rules="ludoteka"))
        assert page.items == [] and page.emptied == together


def test_tute_search_says_why_it_found_nothing_and_json_stays_clean(db: Path) -> None:
    result = runner.invoke(app, ["search", "--db", str(db), "--player", "luis", "--rules", "ludoteka"])
    assert result.exit_code == 0
    assert "no deal matches --rules ludoteka-pairs among the 2 deals the filters before it matched" in result.output
    result = runner.invoke(app, ["search", "--db", str(db), "--player", "luis", "--rules", "ludoteka", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == []
    result = runner.invoke(app, ["search", "--db", str(db), "--winner", "?", "--json"])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["instance"] == "tute search" and "--winner" in problem["detail"]


def test_tute_search_json_is_the_rows_as_every_command_writes_json(db: Path) -> None:
    as_json = runner.invoke(app, ["search", "--db", str(db), "--player", "Ana", "--json"])
    nl = runner.invoke(app, ["search", "--db", str(db), "--player", "Ana", "--nl"])
    by_format = runner.invoke(app, ["search", "--db", str(db), "--player", "Ana", "--format", "json"])
    assert as_json.exit_code == nl.exit_code == 0 and as_json.stdout == by_format.stdout
    rows = json.loads(as_json.stdout)
    assert rows == [json.loads(line) for line in nl.stdout.splitlines()]
    assert {parse_record_round(db, r["id"]) for r in rows} == {"1", "2"}
    assert all(isinstance(r["id"], int) and "north" in r for r in rows)


def parse_record_round(db: Path, deal: int) -> str:
    with Archive(db, read_only=True) as archive:
        return parse_record(archive.text(deal)).tags["Round"]  # type: ignore[arg-type]


def test_tute_show_prints_one_archived_deal(db: Path) -> None:
    with Archive(db, read_only=True) as archive:
        row = archive.search(SearchFilters(player="inigo"))[0]
        stored = archive.text(row["id"])
    shown = runner.invoke(app, ["show", str(row["id"]), "--db", str(db)])
    assert shown.exit_code == 0 and shown.stdout == stored.rstrip("\n") + "\n"  # type: ignore[union-attr]
    as_json = runner.invoke(app, ["show", str(row["id"]), "--db", str(db), "--json"])
    assert json.loads(as_json.stdout)["tags"]["East"] == "Íñigo"
    missing = runner.invoke(app, ["show", "12345", "--db", str(db)])
    assert missing.exit_code == 2 and "no deal 12345" in missing.stderr


def test_the_service_says_why_a_search_is_empty(db: Path) -> None:
    service = create_app(Settings(db=db, read_only=True))
    with TestClient(service) as client:
        empty = client.get("/api/v1/deals", params={"player": "luis", "rules": "ludoteka"}).json()
        assert empty["items"] == [] and empty["emptied"] == {
            "filter": "rules", "value": "ludoteka-pairs", "alone": False, "before": 2}
        found = client.get("/api/v1/deals", params={"player": "ANA"}).json()
        assert len(found["items"]) == 2 and found["emptied"] is None
        page = client.get("/", params={"player": "luis", "rules": "ludoteka"}).text
        assert "no deal matches rules=ludoteka-pairs among the 2 deals" in page
    service.state.archive.close()


def test_the_readme_search_showcase_finds_deals_in_the_samples(tmp_path: Path) -> None:
    line = next(l for l in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if l.startswith("tute search"))
    words = line.split("#")[0].split()[2:]
    db = tmp_path / "samples.duckdb"
    assert runner.invoke(app, ["import", str(ROOT / "samples"), "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["search", *words, "--db", str(db), "--json"])
    assert result.exit_code == 0 and len(json.loads(result.stdout)) >= 1, line


def test_tute_stats_reads_as_words_and_percentages(db: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "won %" in result.stdout and "average points" in result.stdout and "cantes sung" in result.stdout
    assert "win_rate" not in result.stdout and "avg_points" not in result.stdout
    rates = re.findall(r"\b\d{1,3}\.\d%", result.stdout)
    assert rates, result.stdout  # every rate as a percentage, one decimal
    data = json.loads(runner.invoke(app, ["stats", "--db", str(db), "--json"]).stdout)
    ana = next(p for p in data["players"] if p["player"] == "ana")
    assert f"{ana['win_rate']:.1%}" in result.stdout  # the JSON keeps the rate as a number
