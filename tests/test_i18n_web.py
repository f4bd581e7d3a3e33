"""The service in Spanish and English: the pages' scripts say no untranslated word, the problems speak the
reader's language while staying machine-readable, and a real browser sees the search and record pages (their
scripts' texts too) in Spanish from ``Accept-Language`` and in English after the header's switch."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect
from test_browser import CHROMIUM, KEY, RECORDED, base_url, browser  # noqa: F401 (the fixtures)

from tutepgn.api.app import Settings, create_app
from i18ncheck import script_literals
from tutepgn.notation import read_record

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "api" / "static").glob("*.js"))
SPANISH = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_page_script_holds_no_literal_text(script: Path) -> None:
    assert script_literals(script) == []


def test_the_script_check_finds_text_and_leaves_code_alone(tmp_path: Path) -> None:
    script = tmp_path / "page.js"
    script.write_text("\n".join([
        '(function () {',
        '  "use strict";',
        '  var TEXT = { busy: "Saving…", kinds: { bad: "Refused" } };',  # a table of texts: 2 found
        '  var box = document.querySelector("#pad .pc, button.decl");',  # a selector: code
        '  box.textContent = "Undone";',  # a word shown
        '  box.title = t("Undo the last entry");',  # a message: no literal
        '  box.setAttribute("aria-label", "played");',  # a visible attribute
        '  box.setAttribute("data-state", "pending");',  # another attribute: code
        '  say("<b>Refused:</b> " + esc(why), "refused");',  # HTML with a word (the kind is code)
        '  var cls = kind === "running" ? "slot slot-" + seat : "";',  # a comparison, class names: code
        '  var note = "no card on the table yet";',  # a phrase, wherever it goes
        '  list.innerHTML = rows.map(function (r) {',
        '    var c = r.ok ? " win" : " lose";',  # a class name in a function written in the assignment: code
        '    return "<li>" + r.name + " sings</li>";',  # what that function returns is shown
        '  }).join("");',
        '  var re = /[&<>"\']/g, n = tn("{n} deal", "{n} deals", k, { n: k });',  # a regular expression, plurals
        '  var svg = el("svg", { "aria-label": "Points", role: "img" });',  # a visible attribute's value
        '  fetch("/api/v1/recordings/" + id, { method: "POST" });',
        '})();']), encoding="utf-8")
    assert script_literals(script) == [(3, "Saving…"), (3, "Refused"), (5, "Undone"), (7, "played"),
                                       (9, "<b>Refused:</b> "), (11, "no card on the table yet"),
                                       (14, " sings</li>"), (17, "Points")]


def test_problems_speak_the_readers_language_and_keep_their_shape(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(db=tmp_path / "a.duckdb")))
    english = client.get("/api/v1/deals/12345")
    spanish = client.get("/api/v1/deals/12345", headers=SPANISH)
    assert english.status_code == spanish.status_code == 404
    assert english.headers["content-type"] == spanish.headers["content-type"] == "application/problem+json"
    assert english.json()["title"] == "Not found" and english.json()["detail"] == "no deal 12345 in the archive"
    assert spanish.json() == {**english.json(), "title": "No encontrado", "request_id": spanish.json()["request_id"],
                              "detail": "no hay ningún juego 12345 en el archivo"}
    # Work done on the posted-records threads speaks the request's language too.
    two = '[Event "a"]\n[Rules "torofun-4p"]\n\n*\n\n[Event "b"]\n[Rules "torofun-4p"]\n\n*\n'
    refused = client.post("/api/v1/analyse", content=two, headers={**SPANISH, "Content-Type": "text/plain"})
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"] == "envía un registro para analizar, no 2"
    # A browser asking for a page gets the problem as a page in its language.
    page = client.get("/deals/12345", headers={**SPANISH, "Accept": "text/html"})
    assert page.status_code == 404 and "404 · No encontrado" in page.text and "Buscar juegos</a>" in page.text
    # The search page's count and its filters' descriptions.
    search = client.get("/?player=Nadie", headers={**SPANISH, "Accept": "text/html"})
    assert '<span data-total="0">0</span> juegos' in search.text and "Ningún juego cumple estos filtros" in search.text
    assert 'title="El nombre de un jugador, en cualquier puesto (o en `seat`)."' in search.text
    more = client.get("/?site=Casino", headers={**SPANISH, "Accept": "text/html"}).text  # a filter of "more"
    assert "<details open>" in more and "<summary>Más filtros</summary>" in more
    # A field's error in words: pydantic's, in Spanish; in English as pydantic says it.
    wrong = client.get("/api/v1/deals?min_points=abc", headers=SPANISH).json()
    assert wrong["status"] == 422 and wrong["errors"][0]["text"] == "query.min_points"
    assert wrong["errors"][0]["message"] == "Debe ser un número entero: lo escrito no es un número entero"
    assert client.get("/api/v1/deals?min_points=abc").json()["errors"][0]["message"] == (
        "Input should be a valid integer, unable to parse string as an integer")


# -- In a real browser: the app over HTTP and Chromium, test_browser.py's fixtures ----------------------------
browser_test = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium "
                                                                "(apt-get install chromium)")


def _switch(page: Page, lang: str) -> None:
    """Choose a language with the header's switch, as a person does."""
    page.locator(f'header nav.languages a[hreflang="{lang}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


@browser_test
def test_a_spanish_browser_reads_the_search_page_in_spanish_until_it_switches(base_url: str,
                                                                              browser: Browser) -> None:
    context = browser.new_context(locale="es-ES")  # Chromium sends Accept-Language: es-ES
    page = context.new_page()
    page.goto(base_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("h1")).to_have_text("Buscar juegos")
    expect(page.locator("#total")).to_contain_text("juegos")
    expect(page.locator("summary")).to_have_text("Más filtros")
    expect(page.locator('select[name="valid"] option[value="true"]')).to_have_text("sí")
    expect(page.locator('select[name="sort"] option[value="-date"]')).to_have_text("las más recientes primero")
    expect(page.locator("#results th").first).to_have_text("fecha")
    _switch(page, "en")
    expect(page.locator("h1")).to_have_text("Search deals")
    expect(page.locator("#total")).to_contain_text("deals")
    page.goto(base_url + "/?valid=true")  # the cookie remembers the switch over the browser's language
    expect(page.locator("h1")).to_have_text("Search deals")
    _switch(page, "es")
    expect(page.locator("h1")).to_have_text("Buscar juegos")
    expect(page.locator('select[name="valid"]')).to_have_value("true")  # the search is kept
    context.close()


@browser_test
def test_the_record_page_and_its_script_speak_spanish_then_english(base_url: str, browser: Browser) -> None:
    tags = read_record(RECORDED.read_text(encoding="utf-8")).tags
    started = httpx.post(base_url + "/api/v1/recordings", headers={"X-API-Key": KEY}, timeout=30, json={
        "rules": tags["Rules"], "dealer": tags["Dealer"], "deal": tags["Deal"], "turned": tags["Trump"]})
    assert started.status_code == 201, started.text
    context = browser.new_context(locale="es-ES")
    context.add_init_script(f"localStorage.setItem('tutepgn-write-key', '{KEY}')")
    page = context.new_page()
    page.goto(f"{base_url}/record/{started.json()['id']}")
    expect(page.locator("#undo")).to_have_text("Deshacer")
    expect(page.locator("#pad")).to_have_attribute("aria-label", "Las cartas: toca la que se juega")
    # Drawn by the scripts (table.js, record.js) with t():
    expect(page.locator("#table .muted")).to_have_text("todavía no hay cartas en la mesa")
    expect(page.locator(".seat-chip.to-move .sr")).to_have_text("juega")
    page.locator('#pad .pc[data-card="1O"]').click()  # not held by the seat to play: refused
    # the refusal says why once (no "Rechazada: rechazada:"), the seat and the card in words, the legal cards after
    expect(page.locator("#message.refused")).to_contain_text(re.compile(r"^rechazada: Sur no tiene el as de oros"))
    expect(page.locator("#message.refused .legal")).to_contain_text("Sur")
    _switch(page, "en")
    expect(page.locator("#undo")).to_have_text("Undo")
    expect(page.locator("#table .muted")).to_have_text("no card on the table yet")
    page.locator('#pad .pc[data-card="1O"]').click()
    expect(page.locator("#message.refused")).to_contain_text(re.compile(r"^refused: S does not hold 1O"))
    context.close()
