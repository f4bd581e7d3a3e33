"""Every Python code block of the README and of docs/*.md runs as written.

A block runs in a scratch folder that holds what the docs tell the reader to make first: the
repository's ``samples/``, the ``club.tpgn`` record of docs/validate.md, and the archive that
docs/archive.md imports into ``/tmp/demo.duckdb`` (the path is pointed at the scratch folder).
A block that needs a package the project does not depend on says so on its first line
(``# not run by the tests: ...``) and is skipped by name, never silently.  The research recipes of
docs/archive.md run in tests/test_research_recipes.py, on the archive and exports their section makes.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NOT_RUN = "# not run by the tests:"
RECIPES = "## Research recipes"


def _blocks() -> list[tuple[str, str]]:
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        recipes = text.find(RECIPES)
        recipes_end = text.find("\n## ", recipes + 1) if recipes >= 0 else -1
        for m in BLOCK.finditer(text):
            if recipes < m.start() < recipes_end:
                continue  # tests/test_research_recipes.py runs them
            line = text.count("\n", 0, m.start()) + 1
            out.append((f"{path.relative_to(ROOT)}:{line}", m.group(1)))
    return out


BLOCKS = _blocks()


def test_the_docs_have_python_examples() -> None:
    assert len(BLOCKS) >= 5


def club_record() -> str:
    """The record docs/validate.md asks the reader to save as club.tpgn (the first block after it says so)."""
    text = (ROOT / "docs" / "validate.md").read_text(encoding="utf-8")
    after = text[text.index("save it as `club.tpgn`"):]
    m = re.search(r"^```\n(.*?)^```", after, re.S | re.M)
    assert m is not None
    return m.group(1)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with samples/, club.tpgn, a.tpgn, b.tpgn, archive.tpgn and the demo archive."""
    from tutepgn.archive import Archive

    folder = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "samples", folder / "samples")
    (folder / "club.tpgn").write_text(club_record(), encoding="utf-8")
    for name, sample in (("a.tpgn", "tutes.tpgn"), ("b.tpgn", "doubles.tpgn"), ("archive.tpgn", "ludoteka-match.tpgn")):
        shutil.copy(ROOT / "samples" / sample, folder / name)
    with Archive(folder / "demo.duckdb") as archive:
        archive.import_sources(sorted((folder / "samples").rglob("*.tpgn")))
    return folder


@pytest.mark.parametrize("where,code", BLOCKS, ids=[w for w, _ in BLOCKS])
def test_doc_example_runs(where: str, code: str, scratch: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    if code.startswith(NOT_RUN):
        pytest.skip(code.splitlines()[0])
    monkeypatch.chdir(scratch)
    code = code.replace("/tmp/demo.duckdb", os.fspath(scratch / "demo.duckdb"))
    exec(compile(code, where, "exec"), {"__name__": "__doc_example__"})
