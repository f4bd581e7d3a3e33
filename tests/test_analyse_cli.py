"""``tute analyse`` and the annotated copy: tables, JSON, exit codes, and annotations that validate and round-trip."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tutepgn.analysis.annotate import analyse_record, annotate, deal_of
from tutepgn.notation import NAG_GLYPHS, tpgn
from tutepgn.check.validate import validate
from tutepgn.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
TWO = ROOT / "samples" / "torofun-2p-italian-cards.tpgn"
FOUR = ROOT / "samples" / "torofun-4p-lost-cante.tpgn"
runner = CliRunner()


def test_annotated_record_validates_round_trips_and_keeps_comments() -> None:
    record = tpgn.loads(FOUR.read_text(encoding="utf-8"))[0]
    analysis = analyse_record(record, pimc=2)
    copy = annotate(record, analysis)
    text = tpgn.dumps([copy])
    again = tpgn.loads(text)[0]
    assert again.events == record.events and again.tags == record.tags
    assert not validate(again).errors
    assert all(c in again.comments for c in record.comments)  # the record's own comments stay
    for p in analysis.plays:
        note = again.note(p.index)
        assert note is not None and any(c.startswith("[%dd ") for c in note.comments)
        assert note.nags == ([NAG_GLYPHS[p.mark]] if p.mark else [])
        best = [c for c in note.comments if "[%best" in c]
        assert bool(best) == (p.best is not None and p.card not in p.best)
        assert any(f"[%win {p.win_after:.2f}]" in c for c in note.comments)
    reanalysed = analyse_record(again, pimc=2)
    assert tpgn.dumps([annotate(again, reanalysed)]) == text  # annotating again changes nothing
    assert reanalysed.to_dict() == analysis.to_dict()


def test_the_analysed_samples_are_the_commands_output() -> None:
    """The 2-player sample is annotated again to its own bytes (default options); the 4-player one's comments
    are its double-dummy values (its whole PIMC analysis takes about half a minute: docs/analysis.md)."""
    two = ROOT / "samples" / "torofun-2p-analysed.tpgn"
    record = tpgn.loads(two.read_text(encoding="utf-8"))[0]
    assert tpgn.dumps([annotate(record, analyse_record(record))]) == two.read_text(encoding="utf-8")
    four = tpgn.loads((ROOT / "samples" / "torofun-4p-analysed.tpgn").read_text(encoding="utf-8"))[0]
    for p in analyse_record(four, pimc=0).plays:
        assert p.values is not None
        note = four.note(p.index)
        assert note is not None and f"[%dd {p.value_before - (p.cost or 0) if p.card in (p.best or ()) else next(v.value for v in p.values if p.card in v.cards)}]" in note.comments[-1]


def test_the_documented_keys_are_the_models() -> None:
    """docs/analysis.md's two key tables list exactly the fields of AnalysisModel and PlayAnalysisModel."""
    import re

    from tutepgn.analysis.model import AnalysisModel, PlayAnalysisModel

    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    deal = text[text.index("### The deal"):text.index("### A play")]
    play = text[text.index("### A play"):text.index("### How the identity is kept")]
    keys = lambda part: re.findall(r"^\| `(\w+)` \|", part, re.M)  # noqa: E731
    assert keys(deal) == list(AnalysisModel.model_fields)
    assert keys(play) == list(PlayAnalysisModel.model_fields)


def test_table_json_and_annotate(tmp_path: Path) -> None:
    out = tmp_path / "annotated.tpgn"
    result = runner.invoke(app, ["analyse", str(TWO), "--pimc", "2", "--annotate", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "par N:" in result.stdout and "card" in result.stdout and "totals N:76 S:74" in result.stdout
    assert "{[%dd " in out.read_text(encoding="utf-8") and "[%win " in out.read_text(encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(FOUR), "--json", "--pimc", "0"])
    assert result.exit_code == 0, result.output
    [item] = json.loads(result.stdout)
    expected = analyse_record(tpgn.loads(FOUR.read_text(encoding="utf-8"))[0], pimc=0).to_dict()
    assert item == {"record": 1, "analysis": expected, "error": None}
    plain = runner.invoke(app, ["analyse", str(FOUR), "--json", "--pimc", "0", "--no-cantes"])
    [item] = json.loads(plain.stdout)
    assert item["analysis"]["cantes"] is False and item["analysis"]["worlds"] == 0


def test_exit_codes(tmp_path: Path) -> None:
    illegal = tmp_path / "illegal.tpgn"
    illegal.write_text(FOUR.read_text(encoding="utf-8").replace("1. S 7E 10E", "1. S 7E 1O"), encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(illegal), "--json"])
    assert result.exit_code == 1
    [item] = json.loads(result.stdout)
    assert item["analysis"] is None and item["error"]["record"] == 1 and item["error"]["message"]
    assert runner.invoke(app, ["analyse", str(FOUR), "--annotate"]).exit_code == 2  # no -o
    assert runner.invoke(app, ["analyse", str(FOUR), "-n", "2"]).exit_code == 2
    # The file is written after the analysis: without PIMC's worlds it is reached in a second, not half a minute.
    result = runner.invoke(app, ["analyse", str(FOUR), "--pimc", "0", "--annotate",
                                 "-o", str(tmp_path / "no" / "dir.tpgn")])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_jobs_give_the_same_answers_in_a_real_process(tmp_path: Path) -> None:
    both = tmp_path / "both.tpgn"
    both.write_text(TWO.read_text(encoding="utf-8") + "\n" + FOUR.read_text(encoding="utf-8"), encoding="utf-8")
    runs = [subprocess.run([sys.executable, "-m", "tutepgn.cli", "analyse", str(both), "--nl", "--pimc", "0",
                            "--jobs", jobs],
                           capture_output=True, text=True, check=True).stdout for jobs in ("1", "2")]
    assert runs[0] == runs[1] and len(runs[0].splitlines()) == 2
    assert deal_of(tpgn.loads(FOUR.read_text(encoding="utf-8"))[0]).over


def test_stock_plays_are_valued_searched_late_and_rolled_out_early() -> None:
    result = runner.invoke(app, ["analyse", str(TWO), "--pimc", "3", "--stock-horizon", "2", "--json"])
    assert result.exit_code == 0, result.output
    [item] = json.loads(result.stdout)
    stock_plays = [p for p in item["analysis"]["plays"] if not p["double_dummy"]]
    assert [p["trick"] for p in stock_plays if p["method"] == "pimc"] == [12, 12]  # the trick before the last draw
    assert {p["method"] for p in stock_plays} == {"pimc", "rollout"} and all(p["pimc"] for p in stock_plays)
    result = runner.invoke(app, ["analyse", str(TWO), "--pimc", "0"])
    assert result.exit_code == 0, result.output
    assert "24 cards played before the stock ran out are not valued (PIMC is off: --pimc 0)" in " ".join(
        result.stdout.split())
