"""A club player's walk through the service, in Spanish and in English, on a desktop and on a phone (issue 16):
search → a match page → a deal → step through it with its comments shown → share its link → open the link in a
fresh page of a service with an empty archive → paste a broken record on the validate page → every error
located.

Each walk writes its screenshots to ``test-artifacts/walk/<language>-<device>/`` (git-ignored), numbered in
the order of the walk.  The services and the browser are those of tests/test_browser_board.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser_board import CHROMIUM, DESKTOP, PHONE, browser, serve  # noqa: F401 (the module's fixtures)

from tutepgn.archive import Archive

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "walk"
MATCH = ROOT / "samples" / "ludoteka-match.tpgn"
COMMENT = "Two cantes after one won trick"
"""The comment of deal 1 of the match, after South's 20 in espadas."""
BROKEN = """[Event "Broken"]
[Rules "torofun-4p"]
[Dealer "E"]

1. N 1O 3X
"""
"""A record with two errors: a card of no Spanish pack (3X), and a deal that ends before its end."""
WORDS = {"es": {"search": "Buscar", "match": "Partida", "share": "Compartir", "card": "no es una carta de la baraja"},
         "en": {"search": "Search", "match": "Match", "share": "Share", "card": "is not a card of the Spanish pack"}}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(a service over the samples' club match, a service over an empty archive)."""
    work = tmp_path_factory.mktemp("walk")
    with Archive(work / "club.duckdb") as archive:
        archive.import_sources([MATCH])
    running = [serve(work / "club.duckdb"), serve(work / "empty.duckdb")]
    yield running[0][2], running[1][2]
    for server, thread, _url in running:
        server.should_exit = True
        thread.join(timeout=15)


def shot(page: Page, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_club_player_walks_the_service(browser: Browser, services: tuple[str, str],  # noqa: F811
                                         lang: str, device: str) -> None:
    club, empty = services
    folder = ARTIFACTS / f"{lang}-{device}"
    words = WORDS[lang]
    options = {**(PHONE if device == "phone" else DESKTOP), "locale": "es-ES" if lang == "es" else "en-GB"}
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{club}/")  # the search, in the browser's language
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("header nav").first).to_contain_text(words["search"])
    shot(page, folder, "01-search")

    page.locator("a.match-link").first.click()  # a match page: its standing and every deal
    expect(page).to_have_url(re.compile(r"/matches/"))
    expect(page.locator("h1")).to_contain_text(words["match"])
    shot(page, folder, "02-match")

    page.locator("table a[href^='/deals/']").first.click()  # its first deal
    expect(page).to_have_url(re.compile(r"/deals/\d+"))
    for _ in range(40):  # step through it to the comment
        if COMMENT in (page.locator("#note").text_content() or ""):
            break
        page.keyboard.press("ArrowRight")
    expect(page.locator("#note q.comment")).to_contain_text(COMMENT)
    shot(page, folder, "03-deal-comment")

    share = page.locator("#share")
    expect(share).to_contain_text(words["share"])
    link = share.get_attribute("href") or ""
    assert link.startswith(("/view?d=", "http")), link

    fresh = browser.new_context(**options).new_page()  # the link, in a fresh page, on a service with no deals
    fresh.on("pageerror", lambda exc: errors.append(str(exc)))
    fresh.goto(empty + link[link.index("/view"):])
    expect(fresh.locator("#board .hand").first).to_be_visible()
    expect(fresh.locator("h1")).to_contain_text("Torneo")
    shot(fresh, folder, "04-shared-link")
    fresh.context.close()

    page.goto(f"{club}/validate")  # a broken record pasted: every error located
    page.fill("#text", BROKEN)
    page.click("#go")
    located = page.locator("#report a[href^='#line-']")
    expect(located.first).to_be_visible()
    texts = [located.nth(k).text_content() or "" for k in range(located.count())]
    assert any(":" in t for t in texts), texts  # a line and its column
    expect(page.locator("#report")).to_contain_text(f"'3X' {words['card']}")  # the finding in the page's language
    shot(page, folder, "05-validate-broken")
    context.close()
    assert errors == []
