"""A whole deal against the machine on ``/play`` in a real browser (issue 38): a phone (390x844) in Spanish on the
service's own machine, with no key (trusted as this machine), plays the human seat by tapping legal cards and the
declarations offered; the deal is stored in the archive, validates, names the bots with their levels, and its
replay page shows the analysis.

A real ``tute serve`` over a fresh archive (:func:`served.tute_serve`) and Debian's Chromium (the launch of
``tests/test_browser.py``).  Level 2 (greedy) bots and a fixed seed: the bots are fast and the deal the same each
run; playcard-2p, whose analysis is the C search's milliseconds, so the replay page's analysis comes at once (the
test waits for it all the same, as the page polls a job).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from served import tute_serve
from test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, PHONE

from tutepgn.check.validate import validate
from tutepgn.notation import read_record

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Browser]]:
    """``tute serve`` with no setting (this machine writes with no key), and Chromium."""
    work = tmp_path_factory.mktemp("play")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUTEPGN_")}
    with tute_serve(["--db", str(work / "archive.duckdb")], cwd=work, env=env) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield f"http://127.0.0.1:{port}", browser
        browser.close()


@pytest.fixture()
def errors() -> Iterator[list[str]]:
    """The script errors the test's pages meet: none."""
    seen: list[str] = []
    yield seen
    assert seen == [], seen


def opened(browser: Browser, errors: list[str], **context: Any) -> Page:
    page = browser.new_context(**context).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def assert_tappable(page: Page) -> None:
    """Nothing scrolls sideways, and every button of the table is at least 44 px each way."""
    assert page.evaluate(NO_SIDEWAYS), "the table scrolls sideways"
    for button in page.locator("#table button:visible, #play-deal-link:visible").all():
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (button.text_content(), box)


def test_a_phone_plays_a_whole_deal_in_spanish_then_opens_its_analysis(site: tuple[str, Browser],
                                                                        errors: list[str]) -> None:
    url, browser = site
    page = opened(browser, errors, **PHONE, locale="es-ES")
    page.goto(url)
    page.get_by_role("link", name="Jugar", exact=True).tap()  # from the menu
    page.wait_for_url(re.compile(r"/play$"))
    expect(page.locator("h1")).to_have_text("Jugar contra la máquina")
    assert page.evaluate(NO_SIDEWAYS), "the start page scrolls sideways"
    form = page.locator("#play-form")
    form.locator('select[name="rules"]').select_option("playcard-2p")
    expect(form.locator('select[name="seat"] option')).to_have_count(2)
    form.locator('select[name="seat"]').select_option("S")
    form.locator('select[name="level"]').select_option("2")
    form.locator('input[name="name"]').fill("Ana")
    form.locator('input[name="seed"]').fill("2")  # South may exchange the 7 and sing twice
    page.locator("#sit").tap()
    page.wait_for_url(re.compile(r"/play/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    table = page.locator("#table")
    expect(page.locator("#play-turn")).to_have_text("Tu turno: toca una carta.")
    assert_tappable(page)
    taps = declared = 0
    with httpx.Client(base_url=url, timeout=30) as http:
        while table.get_attribute("data-over") != "true":
            expect(table).not_to_have_attribute("data-busy", "true")
            state = http.get(f"/api/v1/tables/{table_id}").json()
            version = table.get_attribute("data-version")
            assert version == str(state["version"])
            enabled = {b.get_attribute("data-card") for b in page.locator("#play-hand button.pc:enabled").all()}
            assert enabled == set(state["cards"]), "only the legal cards are enabled"
            assert page.locator("#play-hand button.pc").count() == len(state["hand"])
            offered = page.locator("#play-declare button.decl")
            if offered.count():  # a cante, tute or the exchange, offered as a button when legal
                assert offered.first.get_attribute("data-entry") in state["options"]
                expect(offered.first).to_have_text(re.compile(r"^(Cantar|Cambiar) "))  # in words, in Spanish
                offered.first.tap()
                declared += 1
            elif page.locator("#play-pass").is_visible():
                page.locator("#play-pass").tap()
            else:
                page.locator("#play-hand button.pc:enabled").last.tap()
                taps += 1
            expect(table).not_to_have_attribute("data-version", version)
            expect(page.locator("#play-message.refused")).to_have_count(0)
            if taps == 10:
                assert_tappable(page)
    assert taps == 20 and declared == 3, (taps, declared)  # every card dealt and drawn; x7E, 20O, 20C
    expect(page.locator("#play-result")).to_contain_text("resultado")
    assert_tappable(page)
    page.screenshot(path=str(ARTIFACTS / "play-phone-es.png"), full_page=True)
    link = page.locator("#play-deal-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href and re.fullmatch(r"/deals/\d+", href)
    record = read_record(httpx.get(f"{url}/api/v1{href}.tpgn", timeout=30).text)
    assert not validate(record).errors
    assert record.tags["North"] == "Bot nivel 2 (greedy)" and record.tags["South"] == "Ana"
    assert record.tags["Result"] != "*"
    link.tap()
    page.wait_for_url(re.compile(r"/deals/\d+$"))
    expect(page.locator("#replay")).to_have_attribute("data-analysis", "ready", timeout=120_000)
    expect(page.locator("#analysis-summary")).to_be_visible()
    expect(page.locator("#eval-figure")).to_be_visible()


def test_a_desktop_table_in_english_survives_a_reload(site: tuple[str, Browser], errors: list[str]) -> None:
    """On a desktop, in English, in pairs: the partner is named, two cards clicked, and the page reloaded finds the
    table as it was (it lives on the server, by its id)."""
    url, browser = site
    page = opened(browser, errors, viewport={"width": 1280, "height": 800}, locale="en-GB")
    page.goto(f"{url}/play?lang=en")
    form = page.locator("#play-form")
    form.locator('select[name="rules"]').select_option("ludoteka-pairs")
    form.locator('select[name="seat"]').select_option("W")
    expect(form.locator('select[name="seat"] option:checked')).to_have_text("W (partner E)")
    form.locator('select[name="level"]').select_option("1")
    form.locator('input[name="seed"]').fill("5")
    page.locator("#sit").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+$"))
    table = page.locator("#table")
    expect(page.locator('#play-seats .seat-chip[data-seat="E"]')).to_contain_text("your partner")
    expect(page.locator('#play-seats .seat-chip[data-seat="N"]')).to_contain_text("Bot level 1 (random)")
    for _ in range(2):
        version = table.get_attribute("data-version")
        if page.locator("#play-declare button.decl").count():
            page.locator("#play-declare button.decl").first.click()
        elif page.locator("#play-pass").is_visible():
            page.locator("#play-pass").click()
        else:
            page.locator("#play-hand button.pc:enabled").first.click()
        expect(table).not_to_have_attribute("data-version", version or "")
    expect(page.locator("#play-said li").first).to_be_visible()
    version, hand = table.get_attribute("data-version"), page.locator("#play-hand button.pc").count()
    page.reload()
    expect(table).to_have_attribute("data-version", version or "")
    assert page.locator("#play-hand button.pc").count() == hand < 10  # the cards played stay played
    assert page.evaluate(NO_SIDEWAYS)
    page.screenshot(path=str(ARTIFACTS / "play-desktop-en.png"), full_page=True)
