"""Results-only records (issue 34): ``[Play "result only"]``, *sin jugadas*, a deal whose cards were not noted.

The notation and both JSON forms carry them byte for byte; the validator checks the Score's totals and the Result
against the ruleset and carries a match on the Result's points; the archive stores them flagged, counts them in
matches, players and statistics, and never as valid play; the pages say "sin jugadas"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.club import matches, player
from tutepgn.check.validate import validate, validate_records
from tutepgn.i18n import speaking
from tutepgn.notation import from_json, iter_records, jsonform, parse_record, to_json
from tutepgn.rules import preset
from tutepgn.score import Outcome, possible_outcomes

MATCH_FILE = Path(__file__).resolve().parent / "data" / "results-only-match.tpgn"
"""Three results-only deals of a ludoteka-pairs match to 4: NS+2, WE+1, NS+2, so NS win it 4-1."""
MATCH_ID = "ArrastreParejas2026-R2-M1"

ONE = """[Event "Liga de invierno"]
[Site "Bar Casa Pascual, Huesca"]
[Date "2026.11.21"]
[Round "3"]
[Rules "ludoteka-pairs"]
[North "Rosario Escartín"]
[West "Mariano Lacasa"]
[South "Fermín Aznar"]
[East "Begoña Salas"]
[Dealer "E"]
[Play "result only"]
[Score "NS:{ns} WE:{we}"]
[Result "{result}"]

{result}
"""


def one(ns: int = 92, we: int = 38, result: str = "NS+1") -> str:
    return ONE.format(ns=ns, we=we, result=result)


def match_text() -> str:
    return MATCH_FILE.read_text(encoding="utf-8")


# -- The notation and the JSON forms -------------------------------------------------------------------------

@pytest.mark.parametrize("strict", [True, False])
def test_a_results_only_record_reads_and_writes_back_byte_for_byte(strict: bool) -> None:
    for text in (one(), match_text()):
        records = list(iter_records(text, strict=strict)) if "\n\n[" in text else [parse_record(text, strict=strict)]
        assert "\n".join(r.tpgn() for r in records) == text
        assert all(r.header().result_only and not r.events for r in records)


def test_the_lax_reader_puts_the_play_tag_in_its_place() -> None:
    lax = one().replace('[Play "result only"]\n', "").replace('[Event', '[Play "result only"] [Event', 1)
    record = parse_record(lax)
    assert record.header().result_only and record.tpgn() == one()


def test_the_import_format_reads_the_spanish_words_and_export_writes_the_tag_value() -> None:
    spanish = parse_record(one().replace('"result only"', '"Sin jugadas"'))
    assert spanish.header().result_only and spanish.tpgn() == one()
    assert json.loads(to_json(spanish))["result_only"] is True


def test_both_json_forms_carry_it_and_read_back_the_same_text() -> None:
    record = parse_record(one())
    data = json.loads(to_json(record))
    assert data["tags"]["Play"] == "result only" and data["result_only"] is True and data["events"] == []
    assert from_json(to_json(record)).tpgn() == one()
    records = list(iter_records(match_text()))
    for lines in (True, False):
        again = jsonform.loads(jsonform.dumps(records, lines=lines), lines=lines)
        assert "\n".join(r.tpgn() for r in again) == match_text()
    assert json.loads(to_json(parse_record(one().replace('[Play "result only"]\n', ""))))["result_only"] is False


def test_a_play_tag_with_another_value_is_a_located_error() -> None:
    text = one().replace('"result only"', '"sin cartas"')
    report = validate(parse_record(text))
    [finding] = report.errors
    assert finding.line == 11 and "result only" in finding.message and not report.valid


# -- The rule: what a score and a result can be -------------------------------------------------------------

def test_possible_outcomes_follow_the_count_and_the_decision() -> None:
    rules = preset("ludoteka-pairs")  # 120 in cards, 10 of last, double over 100 in all, a tute wins the match to 4
    tute = {Outcome(0, 0, True), Outcome(1, 0, True)}
    assert possible_outcomes(rules, (92, 38)) == {Outcome(0, 1)} | tute
    assert possible_outcomes(rules, (112, 38)) == {Outcome(0, 2)} | tute  # 150: a 20 sung; 112 > 100 doubles
    assert possible_outcomes(rules, (65, 65)) == {Outcome(0, 1), Outcome(1, 1)} | tute  # the last trick decides
    assert possible_outcomes(rules, (92, 48)) == tute  # 140: no finished deal (cantes come in 20s), a tute's may
    assert possible_outcomes(rules, (300, 48)) == frozenset()
    assert possible_outcomes(rules, (-5, 135)) == frozenset()
    four = preset("torofun-4p")  # the double counts cards and last ten only, over 120
    assert possible_outcomes(four, (150, 20)) >= {Outcome(0, 1), Outcome(0, 2)}  # with or without 40 in cantes
    assert Outcome(0, 2) not in possible_outcomes(four, (100, 30))


# -- The validator ------------------------------------------------------------------------------------------

def test_a_consistent_results_only_record_is_valid_and_says_so() -> None:
    report = validate(parse_record(one()))
    assert report.valid and report.result_only and not report.findings
    assert report.computed_result == "NS+1" and report.result_ok and report.result_points == (1, 0)
    data = report.to_dict()
    assert data["result_only"] is True and data["sheet"] is None


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "the Result tag says WE+1, but the Score NS:92 WE:38 gives only NS+1, NS+match, WE+match"),
    ("es", "la etiqueta Result dice WE+1, pero la etiqueta Score NS:92 WE:38 solo da NS+1, NS+match, WE+match"),
])
def test_a_result_the_score_does_not_give_is_refused_where_it_stands(lang: str, words: str) -> None:
    with speaking(lang):
        report = validate(parse_record(one(result="WE+1")))
    [finding] = report.errors
    assert finding.code == "result_mismatch" and finding.line == 13 and finding.message.startswith(words)
    assert not report.valid and report.result_points is None


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "the Score NS:300 WE:38 is no deal's count under ludoteka-pairs: the sides' totals add up to 338"),
    ("es", "la etiqueta Score NS:300 WE:38 no es la cuenta de ningún juego con ludoteka-pairs: los bandos suman 338"),
])
def test_an_impossible_score_is_refused_at_its_tag(lang: str, words: str) -> None:
    with speaking(lang):
        report = validate(parse_record(one(ns=300)))
    [finding] = report.errors
    assert finding.code == "score_impossible" and finding.line == 12 and finding.message.startswith(words)


def test_a_double_is_checked_against_the_threshold() -> None:
    assert validate(parse_record(one(ns=112, result="NS+2"))).valid
    report = validate(parse_record(one(ns=112, result="NS+1")))
    assert [f.code for f in report.errors] == ["result_mismatch"]


def test_only_the_result_is_checked_against_what_a_deal_can_give() -> None:
    text = one().replace('[Score "NS:92 WE:38"]\n', "")
    assert validate(parse_record(text)).valid
    report = validate(parse_record(text.replace("NS+1", "NS+3")))
    assert [f.code for f in report.errors] == ["result_mismatch"] and "NS+1, NS+2" in report.errors[0].message


def test_play_in_a_results_only_record_and_an_unfinished_one_are_errors() -> None:
    played = validate(parse_record(one().replace("\nNS+1\n", "\n1. W 1O 3O 4O 5O\nNS+1\n")))
    assert [(f.code, f.line) for f in played.errors] == [("result_only_play", 15)]
    unfinished = validate(parse_record(one(result="*")))
    assert [f.code for f in unfinished.errors] == ["result_only_unfinished"]


def test_a_results_only_match_is_carried_to_its_end() -> None:
    reports = list(validate_records(iter_records(match_text())))
    assert all(r.valid and r.result_only for r in reports)
    assert [r.standing_after for r in reports] == [(2, 0), (2, 1), (4, 1)]
    # A MatchScore that does not follow from the results before it, and a deal after the match's end.
    wrong = match_text().replace('[MatchScore "NS:2 WE:1"]', '[MatchScore "NS:1 WE:1"]')
    assert [f.code for f in list(validate_records(iter_records(wrong)))[2].errors] == ["match_score"]
    fourth = match_text().split("\n\n[Event")[0].replace('[DealNo "1"]', '[DealNo "4"]').replace(
        '[MatchScore "NS:0 WE:0"]', '[MatchScore "NS:4 WE:1"]').replace('[Dealer "N"]', '[Dealer "E"]')
    after = list(validate_records(iter_records(match_text() + "\n" + fourth)))
    assert [f.code for f in after[3].errors] == ["match_over"]


def test_the_summary_counts_them_apart_from_valid_play() -> None:
    from tutepgn.check.validate import Summary
    summary = Summary()
    for report in validate_records(iter_records(match_text() + "\n" + one(result="WE+1"))):
        summary.add(report.to_dict())
    assert (summary.valid, summary.result_only, summary.invalid) == (0, 3, 1)
    with speaking("es"):
        assert str(summary).endswith("; sin jugadas: 3")


# -- The archive and the pages --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def archive_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("results-only") / "archive.duckdb"
    source = db.parent / "club.tpgn"
    source.write_text(match_text() + "\n" + one(result="WE+1"), encoding="utf-8")
    with Archive(db) as archive:
        summary = archive.import_sources([source])
        assert (summary.added, summary.invalid) == (4, 1)
    return db


def test_the_archive_stores_the_flag_and_no_play(archive_file: Path) -> None:
    with Archive(archive_file, read_only=True) as archive:
        rows = archive.con.execute("SELECT valid, result_only, errors, score, winner, match_points FROM deals "
                                   "WHERE match_id IS NOT NULL ORDER BY deal_no").fetchall()
        assert rows == [(False, True, 0, [112, 38], "NS", [2, 0]), (False, True, 0, [60, 90], "WE", [0, 1]),
                        (False, True, 0, [104, 26], "NS", [2, 0])]
        con = archive.con
        assert con.execute("SELECT count(*) FROM plays").fetchone() == (0,)
        assert con.execute("SELECT count(*), count(mask) FROM hands").fetchone() == (16, 0)  # seats, no cards
        totals = archive.stats()["totals"]
        assert (totals["result_only"], totals["invalid"], totals["finished"]) == (4, 1, 3)
        assert archive.verify() == []


def test_skip_invalid_keeps_consistent_results_only_deals(tmp_path: Path) -> None:
    source = tmp_path / "club.tpgn"
    source.write_text(match_text() + "\n" + one(result="WE+1"), encoding="utf-8")
    with Archive(tmp_path / "a.duckdb") as archive:
        summary = archive.import_sources([source], skip_invalid=True)
        assert (summary.added, summary.invalid, summary.skipped_invalid) == (3, 1, 1)
        assert archive.con.execute("SELECT count(*) FROM deals WHERE result_only AND errors = 0").fetchone() == (3,)


def test_the_match_and_the_players_count_them(archive_file: Path) -> None:
    with Archive(archive_file, read_only=True) as archive:
        [match] = matches(archive, MATCH_ID)
        assert match.winner == "NS" and match.standing == [4, 1]
        assert match.winner_players == ["Carmen Lafuente", "Pilar Gracia"]
        assert [d.decides for d in match.deals] == [False, False, True]
        assert all(d.summary.result_only and not d.summary.valid for d in match.deals)
        pilar = player(archive, "Pilar Gracia")
        assert pilar is not None and (pilar.deals, pilar.wins, pilar.losses) == (3, 2, 1)


def test_analyse_skips_them_and_says_why(archive_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(archive_file.read_bytes())
    with Archive(copy) as archive, speaking("es"):
        summary = archive.analyse()
        assert (summary.analysed, summary.result_only) == (0, 4)
        assert "juegos sin jugadas omitidos: 4 (no tienen jugadas que analizar)" in str(summary)


@pytest.fixture(scope="module")
def client(archive_file: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=archive_file))
    with TestClient(app) as c:
        yield c
    app.state.archive.close()


def test_the_match_page_says_sin_jugadas(client: TestClient) -> None:
    page = client.get(f"/matches/{MATCH_ID}?lang=es", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.text.count(">sin jugadas<") == 3 and "✗" not in page.text
    english = client.get(f"/matches/{MATCH_ID}?lang=en", headers={"Accept": "text/html"})
    assert english.text.count(">result only<") == 3
    [match] = client.get(f"/api/v1/matches/{MATCH_ID}").json()
    deal = client.get(f"/api/v1/deals/{match['deals'][0]['summary']['id']}").json()
    assert deal["state"] == "result_only" and deal["summary"]["result_only"] is True
    assert deal["record"]["result_only"] is True
    page = client.get(f"/deals/{match['deals'][0]['summary']['id']}?lang=es", headers={"Accept": "text/html"})
    assert page.status_code == 200 and ">sin jugadas<" in page.text and ">válido<" not in page.text


def test_search_results_show_result_only(client: TestClient) -> None:
    page = client.get("/?lang=es", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.text.count(">sin jugadas<") == 4  # the inconsistent one is no play either
    [wrong] = client.get("/api/v1/deals", params={"event": "Liga de invierno"}).json()["items"]
    assert wrong["result_only"] and not wrong["valid"]
    assert client.get(f"/api/v1/deals/{wrong['id']}").json()["state"] == "invalid"
    page = client.get(f"/deals/{wrong['id']}?lang=es", headers={"Accept": "text/html"})
    assert ">sin jugadas<" not in page.text and "1 error" in page.text


def test_the_cli_table_says_sin_jugadas(archive_file: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tutepgn.cli.main import app

    copy = tmp_path / "copy.duckdb"  # the service of the tests above holds the file open
    copy.write_bytes(archive_file.read_bytes())
    with speaking("en"):  # the command sets the language for the process: put back the tests' own afterwards
        result = CliRunner().invoke(app, ["--lang", "es", "search", "--db", str(copy), "--match", MATCH_ID],
                                    env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.stdout.count("sin jugadas") == 3 and "sí" not in result.stdout.split()
