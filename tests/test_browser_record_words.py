"""The phone recorder and the live view in Spanish, at a phone's size (390x844), say what the table says
(issue 35, "esplay"): the trump suit of a match's first deal (oros) beside the muestra (2 de bastos), the
seats in words, the declaration buttons as a player says them ("Norte: cantar veinte en copas"), a refusal in one sentence (no
list of legal cards, no doubled "Rechazada: rechazada:"), and the commands in Spanish (ayuda, deshacer)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright
from test_browser import CHROMIUM, CHROMIUM_ARGS, KEY, PHONE
from test_browser_record import start_form

from threaded import serving
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.notation import iter_records

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Page]]:
    """The real app over an empty archive, and a phone that speaks Spanish to it."""
    db = tmp_path_factory.mktemp("words") / "archive.duckdb"
    Archive(db).close()
    with serving(create_app(Settings(db=db, api_keys=frozenset({KEY})))) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{url}/record?lang=es")  # remembered in a cookie
        yield url, page
        assert errors == [], errors
        browser.close()


def test_the_phone_recorder_speaks_the_words_of_the_table(phone: tuple[str, Page]) -> None:
    url, page = phone
    sample = next(iter_records(ROOT / "samples" / "ludoteka-match.tpgn"))  # DealNo 1: oros is trump, muestra 2B
    start_form(page, url, sample)
    expect(page.locator("#trump")).to_have_text("oros")  # not the muestra's card, nor its suit (bastos)
    expect(page.locator('#turned svg, #turned [data-card], #turned')).not_to_have_count(0)
    expect(page.locator('.seat-chip[data-seat="W"] b')).to_have_text("Oeste")
    expect(page.locator("#deal-info")).to_contain_text("Reparte Norte")

    page.locator("#other-entry").fill("ayuda")
    page.locator("#other button[type=submit]").tap()
    expect(page.locator("#message")).not_to_have_class(re.compile("refused"))

    page.locator('.seat-chip[data-seat="S"]').tap()  # a match's first deal: the scorer names the leader
    for card in ("6B", "7B", "12B", "4B"):
        page.locator(f'#pad .pc[data-card="{card}"]').tap()
    expect(page.locator("#recorder")).to_have_attribute("data-entries", "4")
    expect(page.locator('#pad .pc[data-card="6B"]')).to_have_attribute("aria-label", "el 6 de bastos jugada")
    button = page.locator('#declare button.decl[data-entry="N 20C"]')
    expect(button).to_have_text("Norte: cantar veinte en copas")
    expect(page.locator('#declare button.decl[data-entry="S 40"]')).to_have_text("Sur: cantar las cuarenta")
    texts = page.locator("#declare button.decl").all_text_contents()
    assert texts and all(re.fullmatch(r"(Norte|Sur): cantar .+|(Norte|Sur): cambiar el \d por la muestra", t)
                         for t in texts), texts

    page.locator("#other-entry").fill("7B")  # already played: refused, in one sentence
    page.locator("#other button[type=submit]").tap()
    message = page.locator("#message.refused")
    expect(message).to_be_visible()
    said = message.inner_text()
    assert said.lower().count("rechazada") <= 1 and "Legal" not in said and "\n" not in said.strip(), said
    assert "el 7 de bastos" in said, said

    page.locator("#other-entry").fill("deshacer")  # typed in Spanish, by the key that started the recording
    page.locator("#other button[type=submit]").tap()
    expect(page.locator("#recorder")).to_have_attribute("data-entries", "5")
    expect(page.locator('#pad .pc[data-card="4B"]')).not_to_have_class(re.compile("played"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "it scrolls sideways"

    live = page.url.replace("/record/", "/live/")  # the live view draws the same table for spectators
    page.goto(live)
    expect(page.locator("#trump")).to_have_text("oros")
    expect(page.locator('.seat-chip[data-seat="N"] b')).to_have_text("Norte")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "it scrolls sideways"
