"""The phone recorder started from a duplicate board's link (issue 34), in Debian's Chromium at a phone's size.

The organiser's link ``/record?event=...&round=...&table=...&board=...`` opens the start page filled in: the
board's cards to deal shown seat by seat, the players and the rules set; the scorer enters the write key and
taps "Start recording".  The recording on the service then holds the board's hands and the event's tags.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect, sync_playwright
from test_browser import CHROMIUM, CHROMIUM_ARGS, KEY, PHONE

from threaded import serving
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.events import add_entrants, create_event, load_event, pair_round
from tutepgn.tournament import Event, board_start, seats

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """The real app over an archive holding a paired duplicate event, served on a free local port."""
    folder = tmp_path_factory.mktemp("event-record")
    db = folder / "club.duckdb"
    with Archive(db) as archive:
        create_event(archive, Event.new("Noche de dúplex", format="duplicate", seed=9))
        add_entrants(archive, "Noche de dúplex", ["Ana Pérez/Bea Gil", "Carlos Ruiz/Dani Sol", "Eva Mora/Fede Cano",
                                                  "Gema Ríos/Hugo Paz"])
        pair_round(archive, "Noche de dúplex")
    app = create_app(Settings(db=db, api_keys=frozenset({KEY}), recordings=folder / "journals"))
    with serving(app) as url:
        yield url, app


def test_a_board_link_fills_the_start_page_and_the_recording_deals_the_board(service: tuple[str, Any]) -> None:
    url, app = service
    event = load_event(app.state.archive, "Noche de dúplex")
    board = board_start(event, 1, 2)
    seated = seats(event, 1, 2)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        query = urlencode({"event": "Noche de dúplex", "round": 1, "table": 2, "board": 2, "lang": "es"})
        page.goto(f"{url}/record?{query}")
        expect(page.locator("#board-cards h2")).to_have_text("Cartas que repartir")
        for seat, cards in board.hands.items():
            expect(page.locator(f'#board-cards dd[data-seat="{seat}"]')).to_have_text(" ".join(cards))
            expect(page.locator(f'#board-cards dt[data-seat="{seat}"]')).to_contain_text(seated[seat])
            expect(page.locator(f'input[name="player-{seat}"]')).to_have_value(seated[seat])
        expect(page.locator('select[name="rules"]')).to_have_value("ludoteka-pairs")
        expect(page.locator('select[name="dealer"]')).to_have_value(board.dealer)
        page.fill('input[name="key"]', KEY)
        page.click("#start")
        page.wait_for_url(f"{url}/record/*")
        recording_id = page.url.rsplit("/", 1)[1]
        browser.close()
    assert errors == []
    record = app.state.service.recordings.get(recording_id).recorder.record()
    assert record.tags["Deal"] == board.deal and record.tags["Trump"] == board.turned
    assert {k: record.tags[k] for k in ("Event", "Round", "Table", "Board")} == {
        "Event": "Noche de dúplex", "Round": "1", "Table": "2", "Board": "2"}
    assert [record.tags[t] for t in ("North", "West", "South", "East")] == [seated[s] for s in "NWSE"]
