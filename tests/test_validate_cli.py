"""``tute validate``: exit codes, inputs, output formats, the JSON schema, --fix-results, --jobs.

Most tests call the command in-process (typer's CliRunner); the ones about
stdin, the samples and worker processes run the real ``tute`` executable.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutepgn.cli.main import app
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records, match_records

pytestmark = pytest.mark.usefixtures("replay_backend")  # with the C fast path and without: the same results

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SCHEMA = ROOT / "docs" / "schema" / "validate-report.schema.json"
TUTE = Path(sys.executable).with_name("tute")

runner = CliRunner()

SUMMARY = re.compile(r"(\d+) records?: (\d+) valid, (\d+) invalid, (\d+) score mismatches, (\d+) result mismatches, "
                     r"(\d+) with parse errors; (\d+\.\d\d) s")


def tute(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``tute`` command."""
    command = [str(TUTE)] if TUTE.exists() else [sys.executable, "-m", "tutepgn.cli"]
    return subprocess.run([*command, *args], input=input, capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=False)


def simulated(rules: str, deals: int, seed: int) -> str:
    return "\n".join(r.tpgn() for r in deal_records(preset(rules), deals, seed=seed))


def summary(text: str) -> tuple[int, ...]:
    m = SUMMARY.search(text)
    assert m is not None, text
    return tuple(int(x) for x in m.groups()[:6])


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """A directory of simulated files (15 records), some nested, with one non-.tpgn file that is not read."""
    root = tmp_path / "archive"
    (root / "2p" / "deep").mkdir(parents=True)
    (root / "ludoteka.tpgn").write_text(simulated("ludoteka-pairs", 6, 1), encoding="utf-8")
    (root / "2p" / "playcard.tpgn").write_text(simulated("playcard-2p", 5, 2), encoding="utf-8")
    (root / "2p" / "deep" / "torofun.tpgn").write_text(simulated("torofun-2p", 4, 3), encoding="utf-8")
    (root / "notes.txt").write_text("[Rules \"nonsense\"]\n1. Z\n", encoding="utf-8")
    return root


def one_record(rules: str = "torofun-4p", seed: int = 5) -> str:
    return next(iter(deal_records(preset(rules), 1, seed=seed))).tpgn()


def wrong_score(text: str) -> str:
    """The record with its Score tag's first value raised by 10, and its Result tag and marker set wrong."""
    text = re.sub(r'\[Score "(\w+):(\d+)', lambda m: f'[Score "{m[1]}:{int(m[2]) + 10}', text)
    result = re.search(r'\[Result "([^"]+)"\]', text)
    assert result is not None
    side, points = result[1].split("+")
    wrong = f"{side}+{'2' if points == '1' else '1'}"
    return text.replace(f'[Result "{result[1]}"]', f'[Result "{wrong}"]').replace(f"\n{result[1]}\n", f"\n{wrong}\n")


# ---------------------------------------------------------------------------
# Exit codes and inputs.


def test_samples_validate() -> None:
    files = sorted(SAMPLES.rglob("*.tpgn")) if SAMPLES.is_dir() else []
    if not files:
        pytest.skip("samples/ has no .tpgn files yet")
    done = tute("validate", "samples/")
    assert done.returncode == 0, done.stdout + done.stderr
    records, valid, invalid, *_ = summary(done.stderr)
    assert records == valid > len(files) and invalid == 0


def test_simulated_directory_searched_recursively(archive: Path) -> None:
    result = runner.invoke(app, ["validate", str(archive)])
    assert result.exit_code == 0, result.output
    assert summary(result.stderr) == (15, 15, 0, 0, 0, 0)  # notes.txt is not read
    assert result.stdout == ""  # nothing to say about valid records


def test_invalid_record_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.tpgn"
    path.write_text(one_record() + "\n" + wrong_score(one_record(seed=6)), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert summary(result.stderr) == (2, 1, 1, 1, 1, 0)
    assert "[score_mismatch]" in result.stdout and "[result_mismatch]" in result.stdout
    assert f"{path}:" in result.stdout  # findings name file:line


def test_one_finding_per_line(tmp_path: Path) -> None:
    # Long messages are not wrapped: each finding stays on one line, for grep.
    path = tmp_path / ("a-rather-long-directory-name-" * 3) / "deal.tpgn"
    path.parent.mkdir()
    path.write_text(one_record().replace("\n1. ", "\nW 20C\n1. ", 1), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}:")
    assert lines[0].endswith("[declare_after_won_trick]")


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path / "nowhere.tpgn")])
    assert result.exit_code == 2
    assert "no such file or directory" in result.output


@pytest.mark.parametrize("args", [
    ["validate"],                                   # no path
    ["validate", "--frobnicate", "x.tpgn"],         # unknown option
    ["validate", "--jobs", "0", "x.tpgn"],          # out of range
    ["validate", "--in-place", "FILE"],             # --in-place without --fix-results
    ["validate", "--rules", "chinchon", "FILE"],    # unknown ruleset
])
def test_usage_errors_exit_2(args: list[str], tmp_path: Path) -> None:
    path = tmp_path / "ok.tpgn"
    path.write_text(one_record(), encoding="utf-8")
    args = [str(path) if a == "FILE" else a for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (args, result.output)


def test_strict_stops_at_a_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "syntax.tpgn"
    path.write_text(one_record() + "\n" + one_record(seed=6).replace("\n1. ", "\n1. ?? "), encoding="utf-8")
    lenient = runner.invoke(app, ["validate", str(path)])
    assert lenient.exit_code == 1 and summary(lenient.stderr)[:3] == (2, 1, 1)
    assert "[syntax]" in lenient.stdout
    strict = runner.invoke(app, ["validate", "--strict", str(path)])
    assert strict.exit_code == 2
    assert "syntax error" in strict.output


def test_stdin() -> None:
    done = tute("validate", "-", input=simulated("torofun-3p", 3, 4))
    assert done.returncode == 0, done.stderr
    assert summary(done.stderr)[:2] == (3, 3)
    bad = tute("validate", "-", input=wrong_score(one_record()))
    assert bad.returncode == 1
    assert "<stdin>:" in bad.stdout and "[score_mismatch]" in bad.stdout


def test_summary_line(archive: Path) -> None:
    result = runner.invoke(app, ["validate", str(archive)])
    line = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(SUMMARY.pattern + r"(, [\d,]+ records/s)?", line), line


# ---------------------------------------------------------------------------
# Output formats.


def test_explain_prints_the_score_sheet(tmp_path: Path) -> None:
    path = tmp_path / "deal.tpgn"
    path.write_text(one_record("ludoteka-pairs", 7), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--explain", str(path)], terminal_width=160)
    assert result.exit_code == 0, result.output
    out = " ".join(re.sub(r"[│┃|]", " ", result.stdout).split())  # the tables' text, one space apart
    for word in ("trick", "leader", "cards", "winner", "points", "Count", "card points", "last ten", "cantes",
                 "total", "claimed", "match points"):
        assert word in out, word
    assert re.search(r"\b10 [NWSE] (\d+[OCEB] ){4}[NWSE] \d+\b", out)  # trick 10: leader, cards, winner, points
    assert re.search(r"(NS|WE) wins the deal .*: (NS|WE)\+\d\. The Result tag agrees\.", out)


def test_explain_says_why_a_count_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "deal.tpgn"
    path.write_text(wrong_score(one_record("ludoteka-pairs", 7)), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--explain", str(path)], terminal_width=160)
    assert result.exit_code == 1
    assert "The Result tag says" in result.stdout
    assert "claims" in result.stdout and "but counts" in result.stdout  # the explanation


def _validator():  # type: ignore[no-untyped-def]
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema, schema


def test_json_output_follows_the_schema(archive: Path, tmp_path: Path) -> None:
    jsonschema, schema = _validator()
    bad = tmp_path / "bad.tpgn"
    bad.write_text(wrong_score(one_record()) + "\n" + one_record(seed=6).replace("\n1. ", "\n1. ?? "),
                   encoding="utf-8")
    result = runner.invoke(app, ["validate", "--json", str(archive), str(bad)])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    jsonschema.validate(document, schema)
    assert document["summary"]["records"] == len(document["reports"]) == 17
    wrong = document["reports"][-2]
    assert wrong["score_ok"] is False and wrong["explanation"] and wrong["sheet"]["tricks"]
    assert [f["code"] for f in wrong["findings"]] == ["score_mismatch", "result_mismatch"]
    assert document["reports"][-1]["parse_errors"]


def test_json_schema_names_every_finding_code() -> None:
    from tutepgn.duties import RULE_CODES
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    engine_codes = RULE_CODES - {"deal_over"}
    assert engine_codes <= set(schema["$defs"]["code"]["enum"])


def test_nl_output(archive: Path) -> None:
    jsonschema, schema = _validator()
    result = runner.invoke(app, ["validate", "--nl", str(archive)])
    assert result.exit_code == 0
    lines = result.stdout.strip().split("\n")
    assert len(lines) == 16
    defs = {"$defs": schema["$defs"]}
    for line in lines[:-1]:
        jsonschema.validate(json.loads(line), {**defs, "$ref": "#/$defs/report"})
    last = json.loads(lines[-1])
    jsonschema.validate(last, {**defs, "$ref": "#/$defs/summaryLine"})
    assert last["summary"]["valid"] == 15


def test_jobs_2_gives_the_same_reports(tmp_path: Path) -> None:
    # More records than one batch (500), and a match that must stay in one batch.
    (tmp_path / "a.tpgn").write_text(simulated("torofun-4p", 700, 8), encoding="utf-8")
    (tmp_path / "b.tpgn").write_text("\n".join(r.tpgn() for r in match_records(preset("playcard-2p"), 40, seed=9))
                                     + "\n" + wrong_score(one_record("playcard-2p", 10)), encoding="utf-8")
    one = tute("validate", "--nl", "--jobs", "1", str(tmp_path))
    two = tute("validate", "--nl", "--jobs", "2", str(tmp_path))
    assert one.returncode == two.returncode == 1
    reports_1, reports_2 = one.stdout.splitlines()[:-1], two.stdout.splitlines()[:-1]
    assert len(reports_1) > 800 and reports_1 == reports_2
    summary_1, summary_2 = (json.loads(x.stdout.splitlines()[-1])["summary"] for x in (one, two))
    summary_1.pop("seconds"), summary_2.pop("seconds")
    assert summary_1 == summary_2 and summary_1["invalid"] == 1


# ---------------------------------------------------------------------------
# --fix-results.


def test_fix_results_writes_a_fixed_copy(tmp_path: Path) -> None:
    good = ("; a hand-kept file\n" + one_record("ludoteka-pairs", 11).replace("\n1. ", "\n{well played} 1. ", 1))
    bad = wrong_score(one_record("torofun-3p", 12))
    path = tmp_path / "club.tpgn"
    original = good + "\n" + bad
    path.write_text(original, encoding="utf-8")
    result = runner.invoke(app, ["validate", "--fix-results", str(path)])
    assert result.exit_code == 1  # the input was wrong; the fix is a new file
    assert path.read_text(encoding="utf-8") == original
    fixed = tmp_path / "club.fixed.tpgn"
    assert "corrected Score/Result in 1 record," in result.stderr and str(fixed) in result.stderr
    text = fixed.read_text(encoding="utf-8")
    assert text.startswith(good + "\n")  # a correct record keeps its exact text, comments and all
    assert text[len(good) + 1:] == one_record("torofun-3p", 12)  # the wrong one: Score and Result recomputed
    again = runner.invoke(app, ["validate", str(fixed)])
    assert again.exit_code == 0, again.output


def test_fix_results_in_place_keeps_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "deals.tpgn"
    original = wrong_score(one_record("playcard-2p", 13)) + "\n" + one_record("playcard-2p", 14)
    path.write_text(original, encoding="utf-8")
    result = runner.invoke(app, ["validate", "--fix-results", "--in-place", str(path)])
    assert result.exit_code == 1
    assert (tmp_path / "deals.tpgn.bak").read_text(encoding="utf-8") == original
    assert not (tmp_path / "deals.fixed.tpgn").exists()
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0
    assert path.read_text(encoding="utf-8").endswith(one_record("playcard-2p", 14))


def test_fix_results_with_nothing_to_fix(tmp_path: Path) -> None:
    path = tmp_path / "ok.tpgn"
    path.write_text(one_record(), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--fix-results", str(path)])
    assert result.exit_code == 0 and f"{path}: nothing to fix" in result.stderr
    assert not (tmp_path / "ok.fixed.tpgn").exists()


def test_fix_results_needs_files() -> None:
    result = runner.invoke(app, ["validate", "--fix-results", "-"], input=one_record())
    assert result.exit_code == 2


# ---------------------------------------------------------------------------
# docs/validate.md agrees with the command.

DOC = ROOT / "docs" / "validate.md"


def _blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)


def test_doc_lists_every_finding_code() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    doc = DOC.read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", doc, re.MULTILINE))
    assert set(schema["$defs"]["code"]["enum"]) <= rows
    assert "schema/validate-report.schema.json" in doc


def test_doc_example_is_what_the_command_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = DOC.read_text(encoding="utf-8")
    blocks = _blocks(doc)
    record = next(b for b in blocks if b.startswith('[Event "Club night"]'))
    shown = next(b for b in blocks if b.startswith("$ tute validate club.tpgn\n"))
    example = json.loads(next(b for b in blocks if b.startswith('{\n  "source": "club.tpgn"')))
    monkeypatch.chdir(tmp_path)
    Path("club.tpgn").write_text(record, encoding="utf-8")
    result = runner.invoke(app, ["validate", "club.tpgn"])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == shown.splitlines()[1:-1]  # the findings, then the explanation
    assert summary(result.stderr) == summary(shown.splitlines()[-1])
    nl = runner.invoke(app, ["validate", "--nl", "club.tpgn"])
    assert json.loads(nl.stdout.splitlines()[0]) == example
    jsonschema, schema = _validator()
    jsonschema.validate(example, {"$defs": schema["$defs"], "$ref": "#/$defs/report"})
    fixed = runner.invoke(app, ["validate", "--fix-results", "club.tpgn"])
    assert fixed.exit_code == 1 and Path("club.fixed.tpgn").is_file()
    text = Path("club.fixed.tpgn").read_text(encoding="utf-8")
    assert '[Score "NS:91 WE:99"]' in text and '[Result "WE+1"]' in text and text.endswith("\nWE+1\n")
    assert runner.invoke(app, ["validate", "club.fixed.tpgn"]).exit_code == 1  # the cante is still illegal
