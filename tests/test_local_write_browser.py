"""The scorer's flow on a service started with no setting (issue 34): a phone on the service's own machine records
a deal with no key, then taps "Siguiente juego" and goes on with the match's next deal, dealt by the next seat.

A real ``tute serve`` over a fresh archive, no ``TUTEPGN_*`` setting, and Debian's Chromium at a phone's size
(390x844), in Spanish: the Record link of the menu, the start form with no write key, a deal of one trick and a
tute (tutes.tpgn's second: dealt by N, so the next is dealt by W, the standing WE 2), then the next deal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright
from test_browser import CHROMIUM, CHROMIUM_ARGS, PHONE
from test_browser_record import tap_deal
from test_local_write import TUTES, Serve

from tutepgn.notation import iter_records

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture()
def phone(tmp_path: Path) -> Iterator[tuple[str, Page]]:
    server = Serve("--db", str(tmp_path / "archive.duckdb"))
    try:
        server.wait_ready()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            context = browser.new_context(**PHONE, locale="es-ES")
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            yield server.url, page
            assert errors == [], errors
            browser.close()
    finally:
        server.stop()


def test_a_phone_on_this_machine_records_a_deal_then_the_next_with_no_key(phone: tuple[str, Page]) -> None:
    url, page = phone
    sample = list(iter_records(TUTES))[1]
    page.goto(url)
    page.get_by_role("link", name="Anotar", exact=True).tap()  # the recorder, from the menu
    page.wait_for_url(re.compile(r"/record$"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the menu runs off the side"
    form = page.locator("#start-form")
    form.locator('select[name="rules"]').select_option("ludoteka-pairs")
    form.locator('input[name="options"]').fill("match_target=6")
    for seat, tag in (("N", "North"), ("W", "West"), ("S", "South"), ("E", "East")):
        form.locator(f'input[name="player-{seat}"]').fill(sample.tags[tag])
    form.locator('select[name="dealer"]').select_option("N")
    form.locator('input[name="turned"]').fill(sample.tags["Trump"])
    assert form.locator('input[name="key"]').input_value() == ""  # no key anywhere
    page.locator("#start").tap()
    page.wait_for_url(re.compile(r"/record/[\w-]+$"))
    first = page.url
    tap_deal(page, sample)
    expect(page.locator("#done #archive-link")).to_be_visible()
    says = page.locator("#next-says")
    expect(says).to_have_text("Partida Norte-Sur 0, Oeste-Este 2. El juego 2 lo da Oeste.")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "it scrolls sideways"
    page.locator("#next-turned").fill("4O")
    page.get_by_role("button", name="Siguiente juego").tap()
    page.wait_for_url(lambda u: u != first and re.search(r"/record/[\w-]+$", u) is not None)
    expect(page.locator('.seat-chip.to-deal[data-seat="W"]')).to_have_count(1)
    expect(page.locator("#deal-info")).to_have_text("Reparte Oeste · juego 2 de la partida · partida Norte-Sur 0, Oeste-Este 2")
    expect(page.locator('.seat-chip.to-move[data-seat="S"]')).to_be_visible()  # on the dealer's right, S leads
    expect(page.locator("#recorder")).to_contain_text(sample.tags["West"])
    page.goto(first)  # the first deal's page now leads to the next one
    expect(page.locator("#next-link")).to_have_attribute("href", re.compile(r"^/record/[\w-]+$"))
