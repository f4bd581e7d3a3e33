"""docs/rules.md and ``tute rules`` agree with the rulesets and their citations in tutepgn.sources."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tutepgn.cli import main as cli_main, output as cli_output
from tutepgn.rules import PRESETS, SEAT_NAMES, Ruleset, option_text
from tutepgn.sources import SHARED, SOURCES, source_of

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SEEDS = ROOT.parent / "shared" / "seeds"
OPTIONS = [k for k in Ruleset.model_fields if k != "preset"]
SEED_OF = {"ludoteka-pairs": "000", "playcard-2p": "001", "torofun-2p": "002", "torofun-3p": "002", "torofun-4p": "002"}
CONTESTED = [k for k in OPTIONS if len({option_text(getattr(r, k)) for r in PRESETS.values()}) > 1]
"""Options whose value differs between presets: each preset must say where its value comes from."""


def section(heading: str) -> str:
    """The text under a markdown heading line, up to the next heading of level 1 to 3."""
    lines = DOC.splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"#{1,3} ", lines[i])), len(lines))
    return "\n".join(lines[start:end])


def table_rows(text: str) -> dict[str, list[str]]:
    """Markdown table rows keyed by their first cell (backticks removed)."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows[cells[0].strip("`")] = [c.strip("`") for c in cells[1:]]
    return rows


def test_presets_are_the_documented_ones() -> None:
    assert set(SOURCES) == set(PRESETS) == set(SEED_OF)


@pytest.mark.parametrize("name", PRESETS)
def test_every_option_of_a_preset_is_cited_in_sources_and_docs(name: str) -> None:
    text = section(f"### `{name}`")
    assert set(SOURCES[name]) == set(OPTIONS), f"{name}: SOURCES must list every option"
    for option in OPTIONS:
        assert f"`{option}`" in text, f"docs/rules.md, section {name}: {option} missing"
        if option in CONTESTED:
            assert source_of(name, option) != SHARED, f"{name}.{option} differs between presets but cites no source"


@pytest.mark.parametrize("name", PRESETS)
def test_docs_tables_show_the_preset_values_and_citations(name: str) -> None:
    rows = table_rows(section(f"### `{name}`"))
    r = PRESETS[name]
    for option in OPTIONS:
        expected = [option_text(getattr(r, option)), source_of(name, option)]
        assert rows.get(option) == expected, (
            f"docs/rules.md, {name}: regenerate the row for {option}:\n"
            f"| `{option}` | {'`%s`' % expected[0] if expected[0] else ''} | {expected[1]} |")


def test_docs_options_table_gives_every_option_its_meaning() -> None:
    rows = table_rows(section("## 4. Ruleset options"))
    assert list(rows) == OPTIONS
    for option in OPTIONS:
        assert rows[option][-1] == Ruleset.model_fields[option].description


def test_citations_have_a_known_form() -> None:
    form = re.compile(r"(seed 00[012] \((fr|sv|tl)\): «.+» — \".+\"|rules\.md §[1-5]\b)")
    for name, options in SOURCES.items():
        for option, citation in options.items():
            assert form.match(citation), f"{name}.{option}: {citation!r}"
            assert citation.count("«") == citation.count("»")
            assert "|" not in citation and "\n" not in citation


@pytest.mark.skipif(not SEEDS.is_dir(), reason="source texts not beside the project")
def test_quotations_are_exact() -> None:
    texts = {seed: next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8") for seed in set(SEED_OF.values())}
    for name, options in SOURCES.items():
        text = texts[SEED_OF[name]]
        for option, citation in options.items():
            for quote in re.findall(r"«(.*?)»", citation):
                for piece in quote.split("…"):
                    assert piece.strip() in text, f"{name}.{option}: not in seed {SEED_OF[name]}: {piece.strip()!r}"


def test_docs_seat_table_matches_the_code() -> None:
    rows = section("## 3. Seats")
    for n, names in SEAT_NAMES.items():
        assert f"| {n} | {', '.join(names)} |" in rows


def test_docs_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", section("## 6. Custom rulesets"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/rules.md", "exec"), {})


# -- tute rules ----------------------------------------------------------------

runner = CliRunner()


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Print tables wide enough that no cell is folded, so each name and citation is one string."""
    monkeypatch.setattr(cli_output, "out", Console(width=1000, no_color=True))


def test_tute_rules_lists_the_presets() -> None:
    result = runner.invoke(cli_main.app, ["rules"])
    assert result.exit_code == 0, result.output
    for name in PRESETS:
        assert name in result.output


@pytest.mark.parametrize("name", PRESETS)
def test_tute_rules_preset_prints_every_option_and_its_citation(name: str) -> None:
    result = runner.invoke(cli_main.app, ["rules", name])
    assert result.exit_code == 0, result.output
    for option in OPTIONS:
        assert option in result.output
        assert source_of(name, option) in result.output


def test_tute_rules_ludoteka_prints_a_decision() -> None:
    result = runner.invoke(cli_main.app, ["rules", "ludoteka-pairs"])
    assert result.exit_code == 0, result.output
    decisions = [c for c in SOURCES["ludoteka-pairs"].values() if "(decision" in c]
    assert decisions and all(c in result.output for c in decisions)


def test_tute_rules_json_gives_the_citations() -> None:
    result = runner.invoke(cli_main.app, ["rules", "torofun-2p", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {o["option"]: o["source"] for o in data["options"]} == {k: source_of("torofun-2p", k) for k in OPTIONS}


def test_tute_rules_custom_marks_overrides() -> None:
    result = runner.invoke(cli_main.app, ["rules", "playcard-2p hand_size=6"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if re.match(r"\W*hand_size\b", line))
    assert "6" in line and "override" in line


def test_tute_rules_unknown_preset_exits_2() -> None:
    result = runner.invoke(cli_main.app, ["rules", "nonsense"])
    assert result.exit_code == 2
