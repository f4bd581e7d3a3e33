"""The tute command: output, determinism and exit codes."""

from __future__ import annotations

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
