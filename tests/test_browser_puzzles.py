"""The puzzles page in a real browser (issue 33, item 6): the answer is nowhere in the page, its data or the
network before a card is chosen; then right or wrong, the best card, the best line and the next puzzle; in
Spanish and English, on a desktop and a phone (390x844).

The archive is the sample of tests/test_puzzles.py, imported and analysed by the library; the first puzzle's
stored play is given a best line, as an analysis of version 2 stores one (the page shows what is stored).
Playwright drives Debian's Chromium; screenshots land in test-artifacts/puzzles/ (git-ignored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Response, expect, sync_playwright

from threaded import serving
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.analyses import AnalysisKey
from tutepgn.archive.puzzles import Puzzle, puzzles

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "simulated" / "playcard-2p-50-deals.tpgn"
PLAYER = "Inés"
ARTIFACTS = ROOT / "test-artifacts" / "puzzles"
CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
WORDS = {"en": {"right": "Right!", "wrong": "Not the best card.", "line": "see the best line", "next": "next",
                "count": "Puzzle {n} of"},
         "es": {"right": "¡Bien!", "wrong": "No es la mejor carta.", "line": "ver la mejor línea", "next": "siguiente",
                "count": "Problema {n} de"}}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Puzzle]]]:
    """The service's URL, and the first two puzzles with their answers (read before the service opens the file)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path_factory.mktemp("puzzles") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLE])
        archive.analyse(AnalysisKey(worlds=2))  # 2 PIMC worlds a decision: quick
        first, second = puzzles(archive, PLAYER, limit=2)
        other = next(s for s in first.frame["seats"] if s != first.seat)
        for found, line in ((first, [f"{first.seat} {first.answer.best[0]}", f"{other} 3O", f"{first.seat} 20O"]),
                            (second, None)):  # as version 2 writes a line; null before the monte is empty
            text = archive.con.execute("SELECT analysis FROM analyses WHERE deal_id = ?", [found.deal_id]).fetchone()[0]  # type: ignore[index]
            analysis = json.loads(text)
            next(p for p in analysis["plays"] if p["index"] == found.index)["best_line"] = line
            archive.con.execute("UPDATE analyses SET analysis = ? WHERE deal_id = ?", [json.dumps(analysis), found.deal_id])
        known = puzzles(archive, PLAYER, limit=2)
    with serving(create_app(Settings(db=db, read_only=True))) as url:
        yield url, known


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield launched
        finally:
            launched.close()


def code_in(text: str, code: str) -> bool:
    """Whether the card code stands alone in ``text`` (1C, not inside 11C)."""
    return re.search(rf"(?<![0-9]){re.escape(code)}(?![0-9A-Za-z])", text) is not None


def outside_the_question(page: Page) -> str:
    """The page's HTML without what asks the question (the board, the legal cards, the puzzles' data): where an
    answer would show."""
    return page.evaluate("""() => {
        const copy = document.documentElement.cloneNode(true);
        copy.querySelectorAll('#puzzle-slot, #choices, template, script').forEach(el => el.remove());
        const box = copy.querySelector('#puzzles');
        if (box) box.removeAttribute('data-puzzles');
        return copy.outerHTML;
    }""")


@pytest.mark.parametrize(("device", "lang"), [("desktop", "en"), ("phone", "es")])
def test_the_answer_comes_only_after_the_choice(served: tuple[str, list[Puzzle]], browser: Browser, device: str,
                                                lang: str) -> None:
    url, known = served
    first, second = known
    words = WORDS[lang]
    context = browser.new_context(**(PHONE if device == "phone" else DESKTOP), locale=lang)
    page = context.new_page()
    bodies: list[tuple[str, str]] = []

    def kept(response: Response) -> None:
        if response.request.resource_type in ("document", "fetch", "xhr"):
            bodies.append((response.url, response.text()))

    page.on("response", kept)
    page.goto(f"{url}/players/{PLAYER}/puzzles?lang={lang}")
    expect(page.locator("#puzzle-count")).to_contain_text(words["count"].format(n=1))
    expect(page.locator("#choices button")).to_have_count(len(first.legal))
    expect(page.locator(f'.hand[data-seat="{first.seat}"] svg.card')).to_have_count(len(first.hand))
    other = next(s for s in first.frame["seats"] if s != first.seat)
    expect(page.locator(f'.hand[data-seat="{other}"] svg.card:not(.back)')).to_have_count(0)  # face down

    # Before the choice: nothing of the answer in the page, its data or what came over the network.
    assert page.locator("#verdict").is_hidden() and page.locator(".choice.best, .choice.played").count() == 0
    shown = outside_the_question(page)
    for code in {*first.answer.best, first.answer.played}:
        assert not code_in(shown, code), code
    assert bodies and not any("/answer" in u for u, _ in bodies)
    for _url, body in bodies:
        assert not re.search(r'"(best|played|best_line|card_loss|explanation)"|&#34;(best|played)&#34;', body)
        assert f"{first.seat} {first.answer.best[0]}" not in body  # the line's first step: a card still held
    before = page.content()
    assert f"{first.seat} {first.answer.best[0]}" not in before and words["right"] not in page.locator("#verdict").inner_text()
    if device == "phone":  # the cards fit the phone's width: no sideways scrolling
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        box = page.locator("#choices button").last.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
    page.screenshot(path=str(ARTIFACTS / f"question-{device}-{lang}.png"), full_page=True)

    # The best card: right, the best marked, the line on asking.
    with page.expect_response(lambda r: "/answer" in r.url) as answered:
        page.locator(f'#choices button[data-card="{first.answer.best[0]}"]').click()
    assert answered.value.ok
    expect(page.locator("#verdict-word")).to_have_text(words["right"])
    expect(page.locator("#choices .choice.best")).to_have_count(len(first.answer.best))
    expect(page.locator("#verdict-best")).to_contain_text(first.answer.best[0])
    expect(page.locator("#verdict-best")).to_contain_text(first.answer.played)
    line = page.get_by_role("button", name=words["line"])
    expect(page.locator("#best-line")).to_be_hidden()
    line.click()
    expect(page.locator("#best-line li")).to_have_count(3)  # one step a line: the seat, then its card or cante
    expect(page.locator("#best-line li").first).to_contain_text(f"{first.seat} {first.answer.best[0]}")
    expect(page.locator("#best-line li").last).to_contain_text(f"{first.seat} 20O")
    page.screenshot(path=str(ARTIFACTS / f"answer-{device}-{lang}.png"), full_page=True)

    # Next: the second puzzle, asked afresh; the card played is wrong.
    page.get_by_role("button", name=words["next"], exact=True).click()
    expect(page.locator("#puzzle-count")).to_contain_text(words["count"].format(n=2))
    expect(page.locator("#verdict")).to_be_hidden()
    expect(page.locator("#choices button")).to_have_count(len(second.legal))
    page.locator(f'#choices button[data-card="{second.answer.played}"]').click()
    expect(page.locator("#verdict-word")).to_have_text(words["wrong"])
    expect(page.locator("#choices .choice.best")).to_have_count(len(second.answer.best))
    expect(page.locator("#no-line")).to_be_visible()  # no best line stored (the monte was not empty): it says so
    context.close()


def test_the_player_page_links_the_puzzles(served: tuple[str, list[Puzzle]], browser: Browser) -> None:
    url, _known = served
    page = browser.new_page(**DESKTOP)
    page.goto(f"{url}/players/{PLAYER}?lang=es")
    page.locator("#puzzles-link").click()
    expect(page).to_have_url(re.compile(r"/players/In%C3%A9s/puzzles"))
    expect(page.locator("h1")).to_contain_text("Aprende de tus errores")
    page.close()
