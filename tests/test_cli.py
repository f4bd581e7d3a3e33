"""The tute command: output, determinism and exit codes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tutepgn.cli.main import app

runner = CliRunner()


def test_simulate_same_seed_same_output() -> None:
    args = ["simulate", "--rules", "torofun-3p", "--deals", "5", "--seed", "11"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    lines = first.output.splitlines()
    assert len(lines) == 5
    record = json.loads(lines[0])
    assert record["rules"] == "torofun-3p"
    assert sorted(record["hands"]) == ["E", "N", "W"]
    assert sum(record["score"]["card_points"]) == 120 or record["score"]["tute"]
    other = runner.invoke(app, ["simulate", "--rules", "torofun-3p", "--deals", "5", "--seed", "12"])
    assert other.output != first.output


def test_simulate_matches_writes_every_deal_of_each_match() -> None:
    result = runner.invoke(app, ["simulate", "--rules", "ludoteka-pairs match_target=2", "--matches", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert records[0]["first_of_match"] is True
    assert records[0]["rules"] == "ludoteka-pairs match_target=2"
    assert sum(r["first_of_match"] for r in records) == 2


def test_simulate_sheet_prints_totals() -> None:
    result = runner.invoke(app, ["simulate", "--rules", "playcard-2p", "--deals", "1", "--sheet"])
    assert result.exit_code == 0, result.output
    assert "card points" in result.output and "match points" in result.output


def test_simulate_output_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["simulate", "--deals", "3", "-o", str(target)])
    assert result.exit_code == 0
    assert len(target.read_text(encoding="utf-8").splitlines()) == 3


def test_bad_ruleset_and_bot_exit_2() -> None:
    for args in (["simulate", "--rules", "chinchon"], ["simulate", "--rules", "playcard-2p hand_size=30"],
                 ["simulate", "--rules", "playcard-2p colour=red"], ["simulate", "--bot", "clever"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output
