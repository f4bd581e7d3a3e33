"""The pages on paper (issue 34): print media in Debian's Chromium hides the menu, the buttons, the forms and the
download links of the deal, match, player and statistics pages, and keeps their tables and the deal's cards;
Chromium's own PDF of a page, read back with pypdf, holds the table and not the menu.

The app runs with uvicorn in a background thread over an archive of two sample files, as in test_browser.py.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, Page
from pypdf import PdfReader

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from test_browser import CHROMIUM, browser  # noqa: F401  (the suite's one Chromium and its fixture)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
ARTIFACTS = ROOT / "test-artifacts"
MATCH = "SanJose2025-R3-M2"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's Chromium is missing at /usr/bin/chromium "
                                       "(apt-get install chromium; `make test` installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("print") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "ludoteka-match.tpgn", SAMPLES / "tutes.tpgn"])
    app = create_app(Settings(db=db))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=_free_port(), log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{server.config.port}"
    server.should_exit = True
    thread.join(timeout=15)
    app.state.archive.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 1200})
    try:
        yield context.new_page()
    finally:
        context.close()


def _first_deal(base_url: str) -> int:
    """The first deal of the match."""
    return int(httpx.get(f"{base_url}/api/v1/matches/{MATCH}").json()[0]["deals"][0]["summary"]["id"])


@pytest.mark.parametrize("path", [f"/matches/{MATCH}", "/stats", "/players/Elena%20Prieto", "/deals/{deal}"])
def test_print_media_hides_the_menu_buttons_forms_and_downloads(base_url: str, page: Page, path: str) -> None:
    page.goto(base_url + path.replace("{deal}", str(_first_deal(base_url))))
    assert page.locator("header").is_visible()  # on screen, the menu is there
    page.emulate_media(media="print")
    for selector in ("header", "header nav", "form", "button", "select", "#downloads"):
        for found in page.locator(selector).all():
            assert not found.is_visible(), f"{selector} shows on paper"
    assert page.locator("main h1").is_visible()
    colours = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
                                      getComputedStyle(document.body).color]""")
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]


def test_tables_keep_their_rows_whole_and_repeat_their_heading_on_paper(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/matches/{MATCH}")
    page.emulate_media(media="print")
    rows = page.locator("table.match-deals tbody tr")
    assert rows.count() == 5 and rows.first.is_visible()
    styles = page.evaluate("""() => [getComputedStyle(document.querySelector('table.match-deals tbody tr')).breakInside,
                                     getComputedStyle(document.querySelector('table.match-deals thead')).display]""")
    assert styles == ["avoid", "table-header-group"]


def test_the_deal_on_paper_shows_the_board_on_white_with_its_cards(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/deals/{_first_deal(base_url)}?frame=0")
    page.wait_for_selector("#board .hand svg.card")
    page.emulate_media(media="print")
    board = page.locator("#board")
    assert board.is_visible()
    assert page.evaluate("getComputedStyle(document.getElementById('board')).backgroundImage") == "none"
    cards = page.locator("#board .hand svg.card")
    assert cards.count() == 40  # four hands of ten, face up
    assert all((cards.nth(i).bounding_box() or {"width": 0})["width"] >= 30 for i in range(cards.count()))
    ARTIFACTS.mkdir(exist_ok=True)
    board.screenshot(path=str(ARTIFACTS / "print-deal-board.png"))


def test_chromium_prints_the_match_without_its_menu(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/matches/{MATCH}?lang=es")
    page.emulate_media(media="print")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(page.pdf(format="A4"))).pages)
    words = " ".join(text.split())  # a narrow first column may wrap "Juego 4" in the table
    assert f"Partida {MATCH}" in text and "Juego 4 15/03/2025 Este bastos Norte-Sur 66 · Oeste-Este 64 NS+1" in words
    for menu in ("Buscar", "Estadísticas", "Validar", "Descargar:", "La partida en JSON"):
        assert menu not in text
