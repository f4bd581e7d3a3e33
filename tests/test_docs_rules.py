"""docs/rules.md, ``tute rules`` and the API agree with the rulesets, their citations and the engine's decisions.

A citation must be one a user can follow: a section of docs/rules.md, and a
quote of a source text named as a reader knows it, never a file or a page the
repository does not hold.  Quotes are checked against the excerpts stored in
tests/data/source_excerpts.txt, and those against the source texts themselves
when a copy is at hand (``TUTEPGN_SOURCE_TEXTS``, or ``shared/seeds`` beside
the project).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from rich.console import Console
from typer.testing import CliRunner

from tutepgn.api.app import Settings, create_app
from tutepgn.citations import TEXTS, Citation, Quote
from tutepgn.cli import main as cli_main, output as cli_output
from tutepgn.rules import OPTIONS as RULESET_OPTIONS, PRESETS, SEAT_NAMES, option_text
from tutepgn.sources import DECISIONS, SHARED, SOURCES, decisions_for, source_of

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
EXCERPTS = ROOT / "tests" / "data" / "source_excerpts.txt"
TEXTS_AT_HAND = Path(os.environ.get("TUTEPGN_SOURCE_TEXTS") or ROOT.parent / "shared" / "seeds")
OPTIONS = [k for k in RULESET_OPTIONS if k != "preset"]
CONTESTED = [k for k in OPTIONS if len({option_text(getattr(r, k)) for r in PRESETS.values()}) > 1]
"""Options whose value differs between presets: each preset must say where its value comes from."""
CITATIONS = [(f"{name}.{option}", c) for name, options in SOURCES.items() for option, c in options.items()]
QUOTES = sorted({q for _, c in CITATIONS for q in c.quotes} | {q for d in DECISIONS for q in d.quotes},
                key=lambda q: (q.text, q.original))
OUTSIDE = re.compile(r"rules\.md §|§\s*\d|\bseeds?\b|\b\d{3}_[0-9a-f]{16}\b|shared/reference|\.txt\b")
"""What a citation that points outside the repository looks like: the reference's sections, seed files."""


def section(heading: str) -> str:
    """The text under a markdown heading line, up to the next heading of level 1 to 3."""
    lines = DOC.splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"#{1,3} ", lines[i])), len(lines))
    return "\n".join(lines[start:end])


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


ANCHORS = {slug(line.lstrip("#").strip()) for line in DOC.splitlines() if re.match(r"#{1,6} ", line)}


def table_rows(text: str) -> dict[str, list[str]]:
    """Markdown table rows keyed by their first cell (backticks removed)."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows[cells[0].strip("`")] = [c.strip("`") for c in cells[1:]]
    return rows


def excerpts() -> dict[str, list[str]]:
    """The stored excerpts, per source text."""
    out: dict[str, list[str]] = {}
    key = None
    for line in EXCERPTS.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\[(\w+)\] ", line):
            key = m.group(1)
            out[key] = []
        elif line and not line.startswith("#"):
            assert key is not None, f"{EXCERPTS}: an excerpt before any [language] line: {line!r}"
            out[key].append(line)
    return out


def pieces(quote: Quote) -> list[str]:
    """The passages of a quote: ``…`` marks a cut between two."""
    return [p.strip() for p in quote.original.split("…")]


# -- Every option of every preset is cited, in the code and in the docs ------------------

def test_presets_are_the_documented_ones() -> None:
    assert set(SOURCES) == set(PRESETS)


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
        c = source_of(name, option)
        expected = [option_text(getattr(r, option)), c.text, f"[{c.section}](#{c.section})"]
        assert rows.get(option) == expected, (
            f"docs/rules.md, {name}: regenerate the row for {option}:\n"
            f"| `{option}` | {'`%s`' % expected[0] if expected[0] else ''} | {expected[1]} | {expected[2]} |")


def test_docs_options_table_gives_every_option_its_meaning() -> None:
    rows = table_rows(section("## 4. Ruleset options"))
    assert list(rows) == OPTIONS
    for option in OPTIONS:
        assert rows[option][-1] == RULESET_OPTIONS[option].description


# -- Citations point inside the repository, and quote what the texts say -----------------

@pytest.mark.parametrize(("where", "citation"), CITATIONS + [("SHARED", SHARED)], ids=lambda x: x if isinstance(x, str) else "")
def test_a_citation_points_at_a_section_of_the_docs_and_names_its_text(where: str, citation: Citation) -> None:
    text = str(citation)
    assert not OUTSIDE.search(text), f"{where} points outside the repository: {text}"
    assert citation.section in ANCHORS, f"{where}: docs/rules.md has no section #{citation.section}"
    assert text.endswith(f" (see docs/rules.md#{citation.section})")
    assert citation.quotes or citation.note, f"{where}: cites neither a sentence nor our words"
    for q in citation.quotes:
        assert f"{TEXTS[q.text].label}: «{q.original}» — \"{q.english}\"" in text
    assert "|" not in text and "\n" not in text


def test_a_decision_citation_says_so() -> None:
    decided = [c for _, c in CITATIONS if c.decision]
    assert decided and all(str(c).startswith("decision: ") for c in decided)
    assert all(not str(c).startswith("decision") for _, c in CITATIONS if not c.decision)


@pytest.mark.parametrize("quote", QUOTES, ids=lambda q: f"{q.text}:{q.original[:30]}")
def test_a_quote_is_in_the_stored_excerpts_of_its_text(quote: Quote) -> None:
    assert quote.english and quote.english != quote.original, "a quote in another language needs its translation"
    stored = excerpts()[quote.text]
    for piece in pieces(quote):
        assert piece and any(piece in line for line in stored), (
            f"not in tests/data/source_excerpts.txt under [{quote.text}]: {piece!r}; copy the passage there, "
            "exactly as the source text has it")


def test_the_excerpts_hold_only_what_is_quoted() -> None:
    quoted = {p for q in QUOTES for p in pieces(q)}
    for text, lines in excerpts().items():
        assert text in TEXTS
        for line in lines:
            assert any(p in line for p in quoted), f"[{text}] {line!r} is quoted nowhere: remove it"


@pytest.mark.skipif(not TEXTS_AT_HAND.is_dir(), reason="the source texts are not at hand (TUTEPGN_SOURCE_TEXTS)")
def test_the_excerpts_are_exact_copies_of_the_source_texts() -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(TEXTS_AT_HAND.iterdir()) if p.is_file()]
    for key, lines in excerpts().items():
        holders = [t for t in texts if all(line in t for line in lines)]
        missing = [line for line in lines if not any(line in t for t in texts)]
        assert not missing, f"[{key}] not found in any source text: {missing}"
        assert len(holders) == 1, f"[{key}] the excerpts must all come from one source text"


def test_the_docs_cite_nothing_outside_the_repository() -> None:
    assert not OUTSIDE.search(DOC.replace("seed=1", "")), OUTSIDE.search(DOC)
    for t in TEXTS.values():
        assert f"| {t.label} | {t.title} | {t.language} | {t.about} |" in section("## The source texts"), (
            f"docs/rules.md does not describe {t.label} as tutepgn.citations.TEXTS does")


# -- Decisions the engine makes where the texts are silent --------------------------------

DECISION_SECTION = section("## 6. Decisions") + "\n" + DOC.split("## 6. Decisions", 1)[1].split("\n## 7.", 1)[0]


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d.key)
def test_every_engine_decision_is_stated_in_the_docs(decision) -> None:
    assert f"\n### {decision.title}\n" in DECISION_SECTION, f"docs/rules.md section 6 has no '### {decision.title}'"
    stated = section(f"### {decision.title}")
    assert decision.statement in stated
    for q in decision.quotes:
        assert str(q) in stated
    assert decision.link == f"docs/rules.md#{slug(decision.title)}" and slug(decision.title) in ANCHORS
    assert not OUTSIDE.search(decision.statement)


def test_the_docs_state_no_decision_the_code_does_not_list() -> None:
    headings = re.findall(r"^### (.+)$", DECISION_SECTION, re.M)
    assert headings == ["Values the product chose"] + [d.title for d in DECISIONS]


def test_every_decided_value_is_in_the_decisions_table() -> None:
    rows = {(cells[0].strip("`"), cells[1].strip("`"))
            for cells in ([c.strip() for c in line.strip().strip("|").split(" | ")]
                          for line in section("### Values the product chose").splitlines() if line.startswith("| `"))}
    decided = {(name, option) for name, options in SOURCES.items() for option, c in options.items() if c.decision}
    assert rows == decided


def test_the_torofun_forfeit_after_an_exchange_is_a_listed_decision() -> None:
    keys = [d.key for d in decisions_for(PRESETS["torofun-2p"])]
    assert {"silence_judged_at_the_lead", "exchange_is_not_a_cante"} <= set(keys)
    assert "exchange_is_not_a_cante" not in [d.key for d in decisions_for(PRESETS["torofun-4p"])]


def test_one_wording_for_declaration_and_silence() -> None:
    """A declaration is a cante, a tute or an exchange; silence (what the forfeit counts) is no cante."""
    words = table_rows(section("## 2. Words we use").replace("| **", "| `").replace("** |", "` |"))
    assert "a cante, a tute or an exchange" in words["declaration"][0]
    assert "sings no cante" in words["silence"][0] and "exchange does not break it" in words["silence"][0]
    for option in ("forfeit_unsung_cantes", "cante_only_if_sung_at_first_win"):
        description = RULESET_OPTIONS[option].description
        assert "no cante" in description and "declaration" not in description


# -- tute rules and the API ---------------------------------------------------------------

runner = CliRunner()


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Print tables wide enough that no cell is folded, so each name and citation is one string."""
    wide = {name: Console(width=3000, no_color=True, stderr=name == "err") for name in ("out", "err")}
    monkeypatch.setattr(cli_output, "console", wide.__getitem__)


def test_tute_rules_lists_the_presets() -> None:
    result = runner.invoke(cli_main.app, ["rules"])
    assert result.exit_code == 0, result.output
    for name in PRESETS:
        assert name in result.output


@pytest.mark.parametrize("name", PRESETS)
def test_tute_rules_preset_prints_every_option_its_citation_and_decisions(name: str) -> None:
    result = runner.invoke(cli_main.app, ["rules", name])
    assert result.exit_code == 0, result.output
    assert not OUTSIDE.search(result.output), OUTSIDE.search(result.output)
    for option in OPTIONS:
        assert option in result.output
        assert str(source_of(name, option)) in result.output
    listed = decisions_for(PRESETS[name])
    assert listed
    for d in DECISIONS:
        assert (d.statement in result.output) == (d in listed), d.key
        assert (d.link in result.output) == (d in listed), d.key


def test_tute_rules_json_gives_the_citations_and_decisions() -> None:
    result = runner.invoke(cli_main.app, ["rules", "torofun-2p", "--json"])
    assert result.exit_code == 0, result.output
    assert not OUTSIDE.search(result.output)
    data = json.loads(result.output)
    assert {o["option"]: o["source"] for o in data["options"]} == {k: str(source_of("torofun-2p", k)) for k in OPTIONS}
    trump = next(o["citation"] for o in data["options"] if o["option"] == "trump_card")
    assert trump["decision"] is True and trump["section"] == "docs/rules.md#torofun-2p"
    assert trump["quotes"][0] == {"source": "Mga Patakaran ng Tute (Tagalog)", "language": "Tagalog",
                                  "original": "Ang huling barahang ibinigay ay ang magmamarka ng trump",
                                  "english": "the last card dealt marks trump",
                                  "spanish": "la última carta repartida marca el triunfo",
                                  "rendering": "the last card dealt marks trump"}  # in the language asked
    assert [d["decision"] for d in data["decisions"]] == [d.key for d in decisions_for(PRESETS["torofun-2p"])]
    silence = data["decisions"][0]
    assert silence["section"] == "docs/rules.md#silence-is-judged-when-the-window-closes"
    assert "after any exchange" in silence["statement"]


def test_tute_rules_custom_marks_overrides() -> None:
    result = runner.invoke(cli_main.app, ["rules", "playcard-2p hand_size=6", "--json"])
    assert result.exit_code == 0, result.output
    row = next(o for o in json.loads(result.output)["options"] if o["option"] == "hand_size")
    assert row["value"] == 6 and row["source"] == "override" and row["citation"] is None


def test_tute_rules_decisions_follow_the_options() -> None:
    """An override that turns the exchange on brings its decisions into the list."""
    result = runner.invoke(cli_main.app, ["rules", "torofun-4p", "--json"])
    keys = [d["decision"] for d in json.loads(result.output)["decisions"]]
    assert "exchange_is_not_a_cante" not in keys and "silence_judged_at_the_lead" in keys
    result = runner.invoke(cli_main.app, ["rules", "torofun-2p exchange_seven=false exchange_two=false", "--json"])
    assert "exchange_is_not_a_cante" not in [d["decision"] for d in json.loads(result.output)["decisions"]]


def test_tute_rules_unknown_preset_exits_2() -> None:
    result = runner.invoke(cli_main.app, ["rules", "nonsense"])
    assert result.exit_code == 2


def test_the_api_gives_the_citations_and_decisions(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=tmp_path / "archive.duckdb"))) as client:
        one = client.get("/api/v1/rules/torofun-2p").json()
    assert one["sources"] == {k: str(source_of("torofun-2p", k)) for k in OPTIONS}
    assert one["citations"]["trump_card"]["decision"] is True
    assert [d["decision"] for d in one["decisions"]] == [d.key for d in decisions_for(PRESETS["torofun-2p"])]
    assert not OUTSIDE.search(json.dumps(one, ensure_ascii=False))


# -- The rest of docs/rules.md --------------------------------------------------------------

def test_docs_seat_table_matches_the_code() -> None:
    rows = section("## 3. Seats")
    for n, names in SEAT_NAMES.items():
        assert f"| {n} | {', '.join(names)} |" in rows


def test_docs_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", section("## 7. Custom rulesets"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/rules.md", "exec"), {})
