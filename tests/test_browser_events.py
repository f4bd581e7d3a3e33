"""The organiser and a table's phone (issue 34): on a real ``tute serve`` with no setting, Debian's Chromium at a
phone's size (390x844), in Spanish: an event made from /events, four pairs entered, the first round paired with
its button, then on a table's page the result typed into its big inputs and saved, shown at once in #saved and
still there when the page is opened again; the standings put the winners first.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_browser import CHROMIUM
from test_local_write_browser import phone  # noqa: F401  (the phone on a real `tute serve`, its page errors checked)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")

PAIRS = ["Ana Pérez/Bea Gil", "Carla Ruiz/Dani Sanz", "Eva Mora/Fran Vidal", "Gema León/Hugo Paz"]


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_a_table_phone_enters_its_result(phone: tuple[str, Page]) -> None:
    url, page = phone
    page.goto(url)
    page.get_by_role("link", name="Torneos", exact=True).tap()
    page.wait_for_url(re.compile(r"/events$"))
    form = page.locator("#new-event")
    form.locator('input[name="name"]').fill("Torneo del jueves")
    form.locator('input[name="rounds"]').fill("3")
    form.get_by_role("button").tap()
    page.wait_for_url(re.compile(r"/events/Torneo%20del%20jueves$"))
    page.locator('#entrants textarea[name="entrants"]').fill("\n".join(PAIRS))
    page.locator("#entrants").get_by_role("button", name="Inscribir").tap()
    expect(page.locator("#entrants-list li")).to_have_count(4)
    page.locator("#pair-round").tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    expect(page.locator("#tables .pending")).to_have_count(2)
    page.get_by_role("link", name="Mesa 1").tap()
    page.wait_for_url(re.compile(r"/rounds/1/tables/1$"))
    assert fits(page), "the table page scrolls sideways on a phone"
    result = page.locator("#result")
    for name in ("home_matches", "away_matches", "home_deals", "away_deals", "home_points", "away_points"):
        box = result.locator(f'input[name="{name}"]').bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 80, (name, box)  # a thumb's target
    for name, value in (("home_matches", "2"), ("away_matches", "1"), ("home_deals", "5"), ("away_deals", "3"),
                        ("home_points", "310"), ("away_points", "240")):
        result.locator(f'input[name="{name}"]').fill(value)
    page.get_by_role("button", name="Guardar resultado").tap()
    saved = "Resultado: partidas 2-1, juegos 5-3, puntos 310-240"
    expect(page.locator("#saved")).to_have_text(saved)
    expect(page.locator("#event-error")).to_be_hidden()
    expect(page.locator("#record-link")).to_have_attribute(
        "href", "/record?event=Torneo+del+jueves&round=1&table=1")
    page.reload()
    expect(page.locator("#saved")).to_have_text(saved)
    # A negative figure is stopped by the phone itself (min=0), and the stored result stays.
    result.locator('input[name="home_matches"]').fill("-1")
    page.get_by_role("button", name="Guardar resultado").tap()
    assert result.locator('input[name="home_matches"]').evaluate("input => !input.validity.valid")
    page.reload()
    expect(page.locator("#saved")).to_have_text(saved)
    winner = page.locator("#pairs .home b").inner_text()
    page.goto(f"{url}/events/Torneo%20del%20jueves/standings")
    expect(page.locator("#standings tbody tr").first).to_contain_text(winner)
    assert fits(page)
