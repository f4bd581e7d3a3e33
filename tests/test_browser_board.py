"""The deal page's board in a real browser (issue 16, items 11 and 13): a deal's share link opened in a fresh
page by a service with an empty archive, a frame chosen by the URL (#t5, ?frame=) and the URL following the
navigation, a seat's view, autoplay, the dealer and mano, the last ten, a position's link; on a desktop and a
phone, in English and Spanish.

Two services run with uvicorn in background threads: one over an archive of two samples, one over an empty
archive (the fresh page of a shared link).  Playwright drives Debian's Chromium; screenshots land in
test-artifacts/board/ (git-ignored).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.check.moment import Moment
from tutepgn.notation import read_record
from tutepgn.check.replay import frames

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
ARTIFACTS = ROOT / "test-artifacts" / "board"
CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
FOUR = SAMPLES / "torofun-4p-lost-cante.tpgn"
"""A 4-player deal played out: ten tricks, a cante, the last ten."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


def serve(db: Path) -> tuple[uvicorn.Server, threading.Thread, str]:
    """The real app over ``db`` on a free local port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(Settings(db=db))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(the service with the samples, the service with an empty archive)."""
    work = tmp_path_factory.mktemp("board")
    with Archive(work / "samples.duckdb") as archive:
        archive.import_sources([FOUR, SAMPLES / "torofun-2p-exchange-7-and-2.tpgn"])
    running = [serve(work / "samples.duckdb"), serve(work / "empty.duckdb")]
    yield running[0][2], running[1][2]
    for server, thread, _url in running:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def deal_id(base: str, rules: str) -> int:
    items = httpx.get(f"{base}/api/v1/deals", params={"rules": rules}, timeout=30).json()["items"]
    return int(items[0]["id"])


def failures(page: Page) -> list[str]:
    """Script errors the page meets (the test fails on any)."""
    seen: list[str] = []
    page.on("pageerror", lambda exc: seen.append(str(exc)))
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" and "analysis" not in m.text else None)
    return seen


@pytest.mark.parametrize("device, lang", [("desktop", "en"), ("phone", "es")])
def test_a_share_link_opens_in_a_fresh_page_without_the_archive(services: tuple[str, str], browser: Browser,
                                                                device: str, lang: str) -> None:
    archived, empty = services
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    record = read_record(FOUR)
    count = len(frames(record)) - 1
    options = {**(PHONE if device == "phone" else DESKTOP), "locale": lang,
               "extra_http_headers": {"Accept-Language": lang}}
    context = browser.new_context(**options)
    page = context.new_page()
    errors = failures(page)
    page.goto(f"{archived}/deals/{deal_id(archived, 'torofun-4p')}")
    share = page.locator("#share")
    expect(share).to_have_text("Compartir este juego" if lang == "es" else "Share this deal")
    href = share.get_attribute("href")
    assert href and href.startswith("/view?d=") and len(href) < 2000
    context.close()

    fresh = browser.new_context(**options)  # no cookie, no cache: another person's browser
    page = fresh.new_page()
    errors += failures(page)
    page.goto(empty + href + "#t3")
    assert httpx.get(f"{empty}/api/v1/deals", timeout=30).json()["items"] == []
    expect(page.locator("#frame-count")).to_have_text(str(count))
    expect(page.locator("#trick-no")).to_have_text("3")
    for seat in "NWSE":
        expect(page.locator(f'.seat[data-seat="{seat}"]')).to_be_visible()
    page.keyboard.press("End")
    expect(page.locator("#frame-index")).to_have_text(str(count))
    expect(page.locator("#note")).to_contain_text("Fin del juego" if lang == "es" else "Deal over")
    if device == "phone":
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "sideways scroll"
        width = page.locator('.hand[data-seat="S"] svg.card, #trick svg.card').first.bounding_box()
        assert width and width["width"] >= 50  # large enough to read on a phone
    page.screenshot(path=str(ARTIFACTS / f"shared-{device}-{lang}.png"), full_page=True)
    assert errors == []
    fresh.close()


def test_the_url_chooses_the_frame_and_follows_the_navigation(services: tuple[str, str], browser: Browser) -> None:
    archived, _ = services
    record = read_record(FOUR)
    steps = frames(record)
    lead5 = next(f.index for f in steps if f.trick_no == 5 and len(f.table) == 1 and f.event is not None)
    page = browser.new_page(**DESKTOP)
    errors = failures(page)
    url = f"{archived}/deals/{deal_id(archived, 'torofun-4p')}"
    page.goto(url + "#t5")
    expect(page.locator("#frame-index")).to_have_text(str(lead5))
    expect(page.locator("#trick-no")).to_have_text("5")
    page.wait_for_url(re.compile(rf"\?frame={lead5}$"))
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"\?frame={lead5 + 1}$"))
    page.goto(url + "?frame=20")
    expect(page.locator("#frame-index")).to_have_text("20")
    expect(page.locator("#position")).to_have_text(Moment.parse(page.locator("#position").inner_text()).text())
    position = page.locator("#position").inner_text()
    page.locator("#position-link").click()
    page.wait_for_url(re.compile(r"/view\?p="))
    expect(page.locator("#frame-count")).to_have_text("0")
    shown = Moment.parse(position).frame()
    for seat, hand in zip(shown.seats, shown.hands):
        expect(page.locator(f'.hand[data-seat="{seat}"] svg.card')).to_have_count(len(hand))
    assert errors == []
    page.close()


def test_a_seats_view_hides_the_other_hands(services: tuple[str, str], browser: Browser) -> None:
    archived, _ = services
    page = browser.new_page(**DESKTOP)
    errors = failures(page)
    page.goto(f"{archived}/deals/{deal_id(archived, 'torofun-4p')}?frame=6")
    for seat in "NWSE":
        expect(page.locator(f'.hand[data-seat="{seat}"] svg.card:not(.back)')).not_to_have_count(0)
    page.locator("#view-seat").select_option("S")
    page.wait_for_url(re.compile(r"[?&]seat=S"))
    expect(page.locator('.hand[data-seat="S"] svg.card.back')).to_have_count(0)
    expect(page.locator('.hand[data-seat="S"] svg.card')).not_to_have_count(0)
    for seat in "NWE":
        expect(page.locator(f'.hand[data-seat="{seat}"] svg.card:not(.back)')).to_have_count(0)
        expect(page.locator(f'.hand[data-seat="{seat}"] svg.card.back')).not_to_have_count(0)
    expect(page.locator("#trick svg.card:not(.back)")).not_to_have_count(0)  # the table is seen by all
    page.reload()  # the view is in the URL
    expect(page.locator("#view-seat")).to_have_value("S")
    expect(page.locator('.hand[data-seat="N"] svg.card:not(.back)')).to_have_count(0)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "seat-view.png"), full_page=True)
    assert errors == []
    page.close()


def test_autoplay_advances_and_pauses_and_the_board_marks_the_table(services: tuple[str, str],
                                                                     browser: Browser) -> None:
    archived, _ = services
    record = read_record(FOUR)
    dealer = record.tags["Dealer"]
    page = browser.new_page(**DESKTOP)
    errors = failures(page)
    page.goto(f"{archived}/deals/{deal_id(archived, 'torofun-4p')}")
    expect(page.locator(f'.seat[data-seat="{dealer}"] .chip.dealer')).to_have_count(1)
    expect(page.locator(".chip.mano")).to_have_count(1)
    page.locator("#speed").select_option("400")
    page.locator("#play").click()
    expect(page.locator("#replay")).to_have_attribute("data-playing", "true")
    page.wait_for_function("() => Number(document.getElementById('frame-index').textContent) >= 3", timeout=10_000)
    page.keyboard.press("Space")  # pause
    expect(page.locator("#replay")).to_have_attribute("data-playing", "false")
    stopped = page.locator("#frame-index").inner_text()
    page.wait_for_timeout(1000)
    expect(page.locator("#frame-index")).to_have_text(stopped)

    page.keyboard.press("End")  # the last trick: its winner, the last card and the last ten marked
    expect(page.locator("#trick .slot.win")).to_have_count(1)
    expect(page.locator("#trick .slot.last")).to_have_count(1)
    expect(page.locator("#last-ten")).to_be_visible()
    expect(page.locator("#last-ten")).to_contain_text("+10")
    for figure in ("10", "11", "12"):  # figures are drawn, not lettered
        svg = page.locator(f'svg.card[data-card^="{figure}"]').first
        if svg.count():
            assert "<text" in svg.inner_html() and "<path" in svg.inner_html()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "last-trick.png"), full_page=True)
    assert errors == []
    page.close()
