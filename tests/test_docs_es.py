"""The Spanish docs keep up with the English ones: README.es.md and each docs/es/X.md against README.md and docs/X.md.

A twin has the same number of headings at each level and the same code blocks in the same order (a shell
block's commands word for word, its comments free to be Spanish; any other block as it is), so a section
or a command added to an English doc fails here until its Spanish twin has it too.  Every relative link of
the Spanish docs reaches a file, and a link's ``#anchor`` a heading of it.  The commands and Python blocks
themselves run in the English twins (tests/test_docs_commands.py and test_docs_examples.py read README.md and
docs/*.md, docs/club.md's Spanish sections included), which is why a twin's blocks must be the same.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ES = ROOT / "docs" / "es"
TWINS = [(ROOT / "README.md", ROOT / "README.es.md"),
         *((ROOT / "docs" / path.name, path) for path in sorted(ES.glob("*.md"))
           if (ROOT / "docs" / path.name).exists())]
"""Each English doc and its Spanish twin (docs/es/glosario.md has no English twin)."""

REQUIRED = ["record.md", "validate.md", "analysis.md", "service.md", "club.md", "cli.md"]
"""The user's docs that must have a Spanish twin."""

SPANISH_PARTS = {"club.md": ("Una tarde de club", "Español")}
"""Sections of a bilingual English doc written in Spanish, by title (with their subsections)."""

ENGLISH_PARTS = {"club.md": ("A club evening", "English")}
"""The same doc's sections in English.  Its Spanish twin has the English part's headings (a section added
in English needs its Spanish twin) and the Spanish part's code blocks (the Spanish sections' own examples)."""

PENDING = {ES / "glosario.md"}
"""Link targets written by another branch of issue 35 (esterms): a link to them is not checked until they exist."""

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$", re.M)
LINK = re.compile(r"\]\(([^()\s]+)\)")


def without_code(text: str) -> str:
    """The text with every fenced block blanked (a ``# comment`` in a shell block is no heading)."""
    return FENCE.sub("", text)


def headings(text: str) -> list[tuple[int, str]]:
    """(level, title) of each heading, in order."""
    return [(len(m.group(1)), m.group(2)) for m in HEADING.finditer(without_code(text))]


def without_sections(text: str, titles: tuple[str, ...]) -> str:
    """The doc less the sections with these titles, each with its subsections."""
    out, dropping, in_code = [], 0, False
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else HEADING.match(line)
        if m:
            level = len(m.group(1))
            if dropping and level <= dropping:
                dropping = 0
            if not dropping and m.group(2) in titles:
                dropping = level
        if not dropping:
            out.append(line)
    return "".join(out)


def english_part(path: Path) -> str:
    """What a Spanish twin's headings follow: the doc less its sections already in Spanish."""
    return without_sections(path.read_text(encoding="utf-8"), SPANISH_PARTS.get(path.name, ()))


def examples_part(path: Path) -> str:
    """What a Spanish twin's code blocks follow: a bilingual doc's Spanish part, else the whole doc."""
    return without_sections(path.read_text(encoding="utf-8"), ENGLISH_PARTS.get(path.name, ()))


def command(line: str) -> str:
    """A shell line without its comment."""
    return line.split("  #")[0].rstrip()


def blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block; a shell block's body is its commands, comments left out."""
    found = []
    for m in FENCE.finditer(text):
        lang, body = m.group(1).strip(), m.group(2)
        if lang in ("sh", "bash"):
            lines = [command(line) for line in body.splitlines() if not line.lstrip().startswith("#")]
            body = "\n".join(line for line in lines if line)
        found.append((lang, body))
    return found


def levels(found: list[tuple[int, str]]) -> dict[int, int]:
    """How many headings at each level."""
    count: dict[int, int] = {}
    for level, _title in found:
        count[level] = count.get(level, 0) + 1
    return count


def test_the_user_docs_have_spanish_twins() -> None:
    assert (ROOT / "README.es.md").exists()
    for name in REQUIRED:
        assert (ES / name).exists(), f"docs/es/{name} is missing"
    assert len(TWINS) >= 1 + len(REQUIRED)


@pytest.mark.parametrize("english, spanish", TWINS, ids=[s.relative_to(ROOT).as_posix() for _e, s in TWINS])
def test_a_spanish_twin_has_the_english_sections(english: Path, spanish: Path) -> None:
    en = english_part(english)
    es = spanish.read_text(encoding="utf-8")
    assert levels(headings(es)) == levels(headings(en)), (
        f"{spanish.name}: headings by level differ from {english.name}'s "
        f"({[t for _l, t in headings(en)]} against {[t for _l, t in headings(es)]})")


@pytest.mark.parametrize("english, spanish", TWINS, ids=[s.relative_to(ROOT).as_posix() for _e, s in TWINS])
def test_a_spanish_twin_has_the_english_code_blocks(english: Path, spanish: Path) -> None:
    en = blocks(examples_part(english))
    es = blocks(spanish.read_text(encoding="utf-8"))
    for i, (a, b) in enumerate(zip(en, es, strict=False)):
        assert a == b, f"{spanish.name}: code block {i + 1} is not {english.name}'s:\n{b[1]}\n---\n{a[1]}"
    assert len(es) == len(en), f"{spanish.name} has {len(es)} code blocks, {english.name} {len(en)}"


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped (accents kept), spaces as hyphens."""
    title = re.sub(r"[`*]", "", title).lower()
    kept = "".join(ch for ch in title if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file (repeated titles get -1, -2 ...)."""
    seen: dict[str, int] = {}
    out = set()
    for _level, title in headings(path.read_text(encoding="utf-8")):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_a_section_added_in_english_is_missed_in_spanish() -> None:
    """The rule itself: an English doc with one more section (or command) than its twin fails the comparison."""
    english = "# T\n\n## A\n\n```sh\ntute rules  # the presets\n```\n"
    spanish = "# T\n\n## A\n\n```sh\n# los presets\ntute rules  # los presets\n```\n"
    assert levels(headings(english)) == levels(headings(spanish)) and blocks(english) == blocks(spanish)
    grown = english + "\n## B\n\n```sh\ntute validate samples/\n```\n"
    assert levels(headings(grown)) != levels(headings(spanish)) and blocks(grown) != blocks(spanish)
    bilingual = "# T\n\n## Una\n\n```sh\nx\n```\n\n### Sub\n\n## One\n\n```sh\ny\n```\n\n## Both\n"
    assert without_sections(bilingual, ("Una",)) == "# T\n\n## One\n\n```sh\ny\n```\n\n## Both\n"


def test_the_slug_is_githubs() -> None:
    assert slug("Par: the deal if nobody erred") == "par-the-deal-if-nobody-erred"
    assert slug("`--fix-results`") == "--fix-results"
    assert slug("tute record") == "tute-record" and slug("must_beat") == "must_beat"
    assert slug("El juego siguiente: Siguiente juego") == "el-juego-siguiente-siguiente-juego"
    assert slug("Calibración / Calibration") == "calibración--calibration"


SPANISH_DOCS = [ROOT / "README.es.md", *sorted(ES.glob("*.md"))]


@pytest.mark.parametrize("doc", SPANISH_DOCS, ids=[d.relative_to(ROOT).as_posix() for d in SPANISH_DOCS])
def test_every_relative_link_of_the_spanish_docs_resolves(doc: Path) -> None:
    text = without_code(doc.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if file in PENDING and not file.exists():
            continue
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)}: links that reach nothing: {broken}"


def test_the_readme_links_its_spanish_twin_under_its_title() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ")
    assert "(README.es.md)" in "\n".join(lines[1:4]), "the link to README.es.md is at the very top"
    first = next(i for i, line in enumerate(lines) if line.startswith("## "))
    assert lines[first] == "## Quickstart"


def test_the_spanish_docs_link_the_glossary() -> None:
    for name in REQUIRED:
        assert "glosario.md" in (ES / name).read_text(encoding="utf-8"), f"docs/es/{name} does not link the glossary"
