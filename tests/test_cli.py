"""The tute command: output, determinism, exit codes and the one output switch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutepgn.cli.main import app
from tutepgn.notation import iter_records

runner = CliRunner()


def test_simulate_same_seed_same_output() -> None:
    args = ["simulate", "--rules", "torofun-3p", "--deals", "5", "--seed", "11"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    records = list(iter_records(first.output, strict=True))
    assert len(records) == 5
    record = records[0]
    assert record.tags["Rules"] == "torofun-3p"
    assert record.tags["Deal"].startswith("N:") and " W:" in record.tags["Deal"] and " E:" in record.tags["Deal"]
    assert record.termination == record.tags["Result"] != "*"
    other = runner.invoke(app, ["simulate", "--rules", "torofun-3p", "--deals", "5", "--seed", "12"])
    assert other.output != first.output


def test_simulate_matches_writes_every_deal_of_each_match() -> None:
    result = runner.invoke(app, ["simulate", "--rules", "ludoteka-pairs match_target=2", "--matches", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    records = list(iter_records(result.output, strict=True))
    assert records[0].tags["DealNo"] == "1" and records[0].tags["MatchScore"] == "NS:0 WE:0"
    assert records[0].tags["Rules"] == "ludoteka-pairs match_target=2"
    assert sum(r.tags["DealNo"] == "1" for r in records) == 2
    assert len({r.tags["Match"] for r in records}) == 2


def test_simulate_sheet_prints_totals() -> None:
    result = runner.invoke(app, ["simulate", "--rules", "playcard-2p", "--deals", "1", "--sheet"])
    assert result.exit_code == 0, result.output
    assert "card points" in result.output and "match points" in result.output


def test_simulate_output_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["simulate", "--deals", "3", "-o", str(target)])
    assert result.exit_code == 0
    assert len(list(iter_records(target, strict=True))) == 3


def test_bad_ruleset_and_bot_exit_2() -> None:
    for args in (["simulate", "--rules", "chinchon"], ["simulate", "--rules", "playcard-2p hand_size=30"],
                 ["simulate", "--rules", "playcard-2p colour=red"], ["simulate", "--bot", "clever"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output


# -- The one output switch: --format on every command that prints data, --json and --nl its short forms ----------

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("formats") / "a.duckdb"
    result = runner.invoke(app, ["import", str(SAMPLES / "tutes.tpgn"), str(SAMPLES / "doubles.tpgn"),
                                 "--db", str(path), "--jobs", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["added"] > 0
    return path


def lines(text: str) -> list[object]:
    return [json.loads(line) for line in text.splitlines()]


def test_json_is_the_short_form_of_format_json(db: Path) -> None:
    for args in (["rules"], ["rules", "torofun-2p"], ["stats", "--db", str(db)], ["search", "--db", str(db)],
                 ["sql", "SELECT id, trump FROM deals ORDER BY id", "--db", str(db)], ["validate", str(SAMPLES / "tutes.tpgn")],
                 ["archive", "verify", "--db", str(db)]):
        long, short = runner.invoke(app, [*args, "--format", "json"]), runner.invoke(app, [*args, "--json"])
        assert long.exit_code == short.exit_code == 0, (args, long.output)
        data = json.loads(long.stdout)
        if "validate" in args:  # the run's seconds differ
            short_data = json.loads(short.stdout)
            data["summary"].pop("seconds"), short_data["summary"].pop("seconds")
            assert data == short_data
        else:
            assert long.stdout == short.stdout, args


def test_nl_is_one_document_a_line(db: Path) -> None:
    rows = json.loads(runner.invoke(app, ["search", "--db", str(db), "--json"]).stdout)
    assert rows and lines(runner.invoke(app, ["search", "--db", str(db), "--format", "nl"]).stdout) == rows
    assert lines(runner.invoke(app, ["search", "--db", str(db), "--nl"]).stdout) == rows
    sql = ["sql", "SELECT id, trump FROM deals ORDER BY id", "--db", str(db)]
    assert lines(runner.invoke(app, [*sql, "--nl"]).stdout) == json.loads(runner.invoke(app, [*sql, "--json"]).stdout)
    reports = lines(runner.invoke(app, ["validate", "--format", "nl", str(SAMPLES / "tutes.tpgn")]).stdout)
    assert "summary" in reports[-1] and all("findings" in r for r in reports[:-1])  # type: ignore[operator]


def test_json_arrays_are_written_one_way(db: Path) -> None:
    empty = runner.invoke(app, ["search", "--db", str(db), "--player", "Nobody", "--json"])
    assert empty.exit_code == 0 and empty.stdout == "[]\n"
    assert runner.invoke(app, ["sql", "SELECT 1 WHERE false", "--db", str(db), "--json"]).stdout == "[]\n"
    two = runner.invoke(app, ["sql", "SELECT * FROM range(2) t(n)", "--db", str(db), "--json"]).stdout
    assert two == '[\n{"n": 0},\n{"n": 1}\n]\n'
    simulated = runner.invoke(app, ["simulate", "--deals", "2", "--format", "json"]).stdout
    assert simulated.startswith("[\n{") and simulated.endswith("}\n]\n") and len(json.loads(simulated)) == 2


def test_csv_and_record_forms(db: Path) -> None:
    sql = runner.invoke(app, ["sql", "SELECT 1 AS a, 'x' AS b", "--db", str(db), "--format", "csv"])
    assert sql.stdout.splitlines() == ["a,b", "1,x"]
    found = runner.invoke(app, ["search", "--db", str(db), "--format", "csv"]).stdout.splitlines()
    assert found[0].startswith("id,hash,") and len(found) == 1 + len(json.loads(
        runner.invoke(app, ["search", "--db", str(db), "--json"]).stdout))
    records = runner.invoke(app, ["search", "--db", str(db), "--format", "jsonl"]).stdout  # kept: whole records
    assert all("events" in r for r in lines(records))  # type: ignore[operator]
    exported = runner.invoke(app, ["export", "--db", str(db), "--format", "jsonl"]).stdout
    assert exported == records


def test_simulate_writes_records_in_each_form() -> None:
    tpgn = runner.invoke(app, ["simulate", "--deals", "3", "--seed", "5"]).stdout
    jsonl = runner.invoke(app, ["simulate", "--deals", "3", "--seed", "5", "--format", "jsonl"]).stdout
    back = runner.invoke(app, ["convert", "-", "--to", "tpgn"], input=jsonl)
    assert back.exit_code == 0 and back.stdout == runner.invoke(app, ["convert", "-", "--to", "tpgn"], input=tpgn).stdout


def test_a_form_a_command_does_not_have_is_a_usage_error(db: Path) -> None:
    for args in (["rules", "--format", "csv"], ["stats", "--db", str(db), "--format", "nl"],
                 ["validate", "--format", "table", str(SAMPLES / "tutes.tpgn")], ["sql", "SELECT 1", "-f", "tpgn"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args


def test_rebuild_and_verify_in_json(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "b.duckdb"
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(db), "-o", str(target), "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["db"] == str(target) and summary["backup"] is None and summary["added"] > 0
    verified = json.loads(runner.invoke(app, ["archive", "verify", "--db", str(target), "--json"]).stdout)
    assert verified["problems"] == [] and verified["deals"] == summary["added"]


def test_filters_are_generated_from_the_model(db: Path) -> None:
    from tutepgn.archive import SearchFilters
    for command in ("search", "stats", "export"):
        help_text = runner.invoke(app, [command, "--help"], terminal_width=200).stdout
        for name in SearchFilters.model_fields:
            assert "--" + name.replace("_", "-") in help_text, (command, name)
    for spelling in ("--invalid", "--not-doubled", "--no-tute"):  # the spellings scripts use are kept
        assert runner.invoke(app, ["search", "--db", str(db), spelling, "--json"]).exit_code == 0
    some = json.loads(runner.invoke(app, ["stats", "--db", str(db), "--tute", "--json"]).stdout)
    every = json.loads(runner.invoke(app, ["stats", "--db", str(db), "--json"]).stdout)
    assert 0 < some["totals"]["deals"] < every["totals"]["deals"]


def test_replay_json_gives_every_frame() -> None:
    from tutepgn.check.replay import frame_data, frames, pick_record
    steps = frames(pick_record(SAMPLES / "ludoteka-match.tpgn", 2))
    result = runner.invoke(app, ["replay", str(SAMPLES / "ludoteka-match.tpgn"), "--record", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(json.dumps([frame_data(s) for s in steps]))


def test_version_is_the_installed_package_version() -> None:
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output == f"tute {version('tutepgn')}\n"
    assert version("tutepgn") in Path("pyproject.toml").read_text(encoding="utf-8")
    assert runner.invoke(app, ["--version", "search", "--bogus"]).output == result.output  # it answers first
