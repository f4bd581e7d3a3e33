"""The research recipes of docs/archive.md run as written and agree.

The section's shell commands make a small archive and its Parquet and JSON-lines exports (``/tmp/`` pointed
at a scratch folder); each of its four Python blocks (DuckDB on the file, DuckDB and Polars on the Parquet
export, pandas on the JSON lines) leaves its two answers in ``forty`` and ``totals``, and the test compares
them with each other, with `tute sql`'s answer and with the archive's own statistics.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "archive.md"
SECTION = "## Research recipes"
TOOLS = ("DuckDB on the archive file", "DuckDB on the Parquet export", "Polars on the Parquet export",
         "pandas on the JSON-lines export")


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    return text[start:text.index("\n## ", start + 1)]


def blocks(kind: str) -> list[tuple[str, str]]:
    """The section's blocks of one kind, each with the ### heading it stands under."""
    out, heading = [], ""
    for m in re.finditer(r"^### ([^\n]*)$|^```" + kind + r"\n(.*?)^```", section(), re.S | re.M):
        if m.group(1) is not None:
            heading = m.group(1)
        else:
            out.append((heading, m.group(2)))
    return out


def rows(answer: Any) -> list[tuple[Any, ...]]:
    """An answer's rows as tuples, whichever tool made it (a DuckDB relation, a Polars or a pandas frame)."""
    if hasattr(answer, "fetchall"):
        return answer.fetchall()
    if hasattr(answer, "rows"):
        return answer.rows()
    return list(answer.itertuples(index=False, name=None))


def same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    """Row by row equal: text exactly, numbers to 1e-9 (an int from one tool, a float or numpy int from another)."""
    return len(a) == len(b) and all(
        len(x) == len(y) and all(p == q if isinstance(p, str) or isinstance(q, str) else math.isclose(p, q, abs_tol=1e-9)
                                 for p, q in zip(x, y)) for x, y in zip(a, b))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the section's commands made their archive and exports in."""
    folder = tmp_path_factory.mktemp("research")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for _, code in blocks("sh"):
        for line in code.splitlines():
            if line.startswith("tute ") and not line.startswith("tute sql"):
                subprocess.run(["bash", "-c", line.replace("/tmp/", f"{folder}/")], cwd=ROOT, env=env, check=True,
                               capture_output=True)
    return folder


@pytest.fixture(scope="module")
def answers(scratch: Path) -> dict[str, tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Each tool's two answers, by the heading of its recipe."""
    out = {}
    for heading, code in blocks("python"):
        space: dict[str, Any] = {"__name__": "__research_recipe__"}
        exec(compile(code.replace("/tmp/", f"{scratch}/"), f"{DOC.name}: {heading}", "exec"), space)
        out[heading] = rows(space["forty"]), rows(space["totals"])
    return out


def test_the_section_has_a_recipe_for_each_of_the_four_tools() -> None:
    headings = [h for h, _ in blocks("python")]
    assert len(headings) == 4
    assert [next(t for t in TOOLS if h.startswith(t)) for h in headings] == list(TOOLS)


def test_the_four_tools_give_the_same_answers(answers: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    (first, (forty, totals)), *others = answers.items()
    assert [r[0] for r in forty] == ["ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"]
    assert all(0 < deals and 0 <= won <= deals and math.isclose(rate, won / deals) for _, deals, won, rate in forty)
    sides = {"ludoteka-pairs": ["NS", "WE"], "playcard-2p": ["N", "S"], "torofun-2p": ["N", "S"],
             "torofun-3p": ["E", "N", "W"], "torofun-4p": ["NS", "WE"]}
    assert [(r[0], r[1]) for r in totals] == [(p, s) for p, labels in sides.items() for s in labels]
    assert all(deals == 50 and low <= median <= high and low <= mean <= high
               for _, _, deals, low, median, mean, high in totals)
    for tool, (their_forty, their_totals) in others:
        assert same(their_forty, forty), (tool, first, their_forty, forty)
        assert same(their_totals, totals), (tool, first, their_totals, totals)


def test_tute_sql_and_tute_stats_agree_with_the_recipes(scratch: Path, answers: dict[str, Any]) -> None:
    """The section's `tute sql` command gives the first answer, and `tute stats` counts the same deals for
    las cuarenta sung (the statistics' default)."""
    from tutepgn.archive import Archive, SearchFilters

    forty = next(iter(answers.values()))[0]
    (line,) = [line for _, code in blocks("sh") for line in code.splitlines() if line.startswith("tute sql")]
    run = subprocess.run([sys.executable, "-m", "tutepgn.cli", *shlex.split(line.replace("/tmp/", f"{scratch}/"))[1:],
                          "--format", "json"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert same([tuple(r.values()) for r in json.loads(run.stdout)], forty)
    with Archive(scratch / "research.duckdb", read_only=True) as archive:
        for preset, deals, won, _ in forty:
            sung = archive.stats(SearchFilters(rules=preset))["cuarenta_sung"]
            assert (sung["deals"], sung["won"]) == (deals, won), preset

