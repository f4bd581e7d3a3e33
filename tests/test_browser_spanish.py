"""Every page in Spanish, in a real browser, on a desktop (1280x800) and a phone (390x844) (issue 35): no English
word of the program's messages or its frameworks', no ``[%`` command, no seat letter (N, S, E, W, NS, WE), no
suit letter (O, C, E, B, nor a card code such as 12C) and no date as the notation writes it (2025.03.15) in the
text a person reads.

The text checked is the page's rendered text (``document.body.innerText``) and the words of its visible fields
(placeholders, titles, labels), with notation shown on purpose left out: ``<code>``, ``<pre>``, ``<kbd>``,
``<samp>``, pictures (``<svg>``: the cards' faces), anything marked ``class="notation"`` in the templates (the
moves' list) and text marked as in another language (``lang="fr"``: a source quoted).
The word list and the checks are tests/spanish_words.py's.

The app is the real one (tests/threaded.py's ``serving``, Debian's Chromium) over an archive of the samples, with
the analysed deal's analysis run, a recording in progress, and a small event made through the API.  The desktop
asks with ``?lang=es``, the phone with its browser's language (``Accept-Language: es``).  A failure lists every
page with each offending word and its context.

``TUTE_SCREENSHOTS=1`` also saves docs/es/img/reglas.png (a preset's rules, phone), anotar.png (the phone
recorder mid-deal) and analisis.png (a deal's analysis, desktop): the Spanish docs' pictures.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from spanish_words import Finding, findings

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.check.replay import frames
from tutepgn.notation import iter_records
from tutepgn.rules import PRESETS

from threaded import serving
from test_browser import CHROMIUM, browser  # noqa: F401  (the suite's one Chromium and its fixture)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
ANALYSED = SAMPLES / "torofun-4p-analysed.tpgn"
RECORDED = SAMPLES / "torofun-4p-lost-cante.tpgn"
IMAGES = ROOT / "docs" / "es" / "img"
DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
              "has_touch": True, "extra_http_headers": {"Accept-Language": "es"}},
}
KEY = "tk_spanish_walk"
EVENT = "Torneo de San Antón"
PAIRS = ["Ana Pérez/Bea Gil", "Carla Ruiz/Dani Sanz", "Eva Mora/Fran Vidal", "Gema León/Hugo Paz"]
DATA = {"Simulated deals": "Juegos simulados", "tutepgn simulator": "simulador de tutepgn"}
"""The samples' English event and site names, imported in Spanish: the names are the club's data, not the
program's words, and a Spanish club writes them in Spanish."""
HIDDEN = "code, pre, kbd, samp, svg, .notation, script, style, template, [lang]:not([lang|=es])"
"""Notation and pictures, shown on purpose, and text marked as another language's (a source quoted in French):
left out of the text checked."""
TEXT = """(hidden) => {
  const put = [];
  for (const el of document.querySelectorAll(hidden)) {  // inline, as the pages' CSP allows no new <style>
    put.push([el, el.style.getPropertyValue("display"), el.style.getPropertyPriority("display")]);
    el.style.setProperty("display", "none", "important");
  }
  const text = [document.body.innerText];
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label], [alt], input[type=submit]")) {
    if (el.closest(hidden) || !el.checkVisibility()) continue;
    for (const a of ["placeholder", "title", "aria-label", "alt", "value"]) {
      if (el.hasAttribute(a) && (a !== "value" || el.type === "submit")) text.push(el.getAttribute(a));
    }
  }
  for (const [el, value, priority] of put) el.style.setProperty("display", value, priority);
  return text.join("\\n");
}"""
SCREENSHOTS = os.environ.get("TUTE_SCREENSHOTS") == "1"
MAX_IMAGE = 200_000

FILTER_HELP = {
    ("english", "event"): "the filter named by the tag whose text it matches («texto en Event»)",
    ("english", "rules"): "«una especificación Rules completa»: the Rules tag's text as records write it",
    ("suit", "O"): "the trump filter's help lists the letters it takes («O, C, E o B»)",
    ("suit", "C"): "the trump filter's help lists the letters it takes",
    ("seat", "E"): "the trump filter's help lists the letters it takes (E: espadas)",
    ("suit", "B"): "the trump filter's help lists the letters it takes",
    ("seat", "NS"): "the winner filter's help lists the side labels it takes («NS, WE, N…»)",
    ("seat", "WE"): "the winner filter's help lists the side labels it takes",
    ("seat", "N"): "the winner filter's help lists the seat labels it takes",
    ("seat", "S"): "the hands filter's help shows what to type («S:1O,3O»)",
    ("card", "1O"): "the hands filter's help shows what to type",
    ("card", "3O"): "the hands filter's help shows what to type",
}
"""The search form's help: what a filter field takes is notation (a letter, a label, a Deal tag's hands)."""
KNOWN: dict[tuple[str, str, str], str] = {
    **{(page, *key): why for page in ("search", "search-results") for key, why in FILTER_HELP.items()},
    ("stats", "english", "event"): FILTER_HELP["english", "event"],
    ("validate-findings", "english", "syntax"): "the finding's code, «[syntax]», an identifier as the API gives it",
    **{("validate-findings", kind, letter): "the reader's syntax error explains the notation's letters (palos O "
       "(oros), C (copas), E (espadas), B (bastos); A S C R)" for kind, letter in
       (("seat", "S"), ("seat", "E"), ("suit", "C"), ("suit", "O"), ("suit", "B"))},
}
"""What still fails, on purpose listed: (page, kind, text) and why it stays.  Each is asserted to be still there
(on the desktop, whose pages show every column), so the list only shrinks: remove an item when it is fixed."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@dataclass(frozen=True)
class Site:
    url: str
    deal: int
    match: str
    player: str
    recording: str
    entries: int
    table: str


def _samples(folder: Path) -> list[Path]:
    """The samples, their English data names put in Spanish (:data:`DATA`)."""
    copies = []
    for path in sorted(SAMPLES.glob("*.tpgn")):
        text = path.read_text(encoding="utf-8")
        for english, spanish in DATA.items():
            text = text.replace(english, spanish)
        (folder / path.name).write_text(text, encoding="utf-8")
        copies.append(folder / path.name)
    return copies


def _analysed(http: httpx.Client, deal: int) -> None:
    """The deal's analysis run to its end (its job polled), so the page shows it and the player's puzzles."""
    r = http.get(f"/api/v1/deals/{deal}/analysis")
    deadline = time.monotonic() + 900
    while r.status_code == 202 or r.json().get("status") == "running":
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(1)
        r = http.get(r.json()["links"]["self"])
    assert r.status_code == 200 and r.json().get("status") in (None, "done"), r.text


def _event(http: httpx.Client) -> None:
    """A small event: four pairs, round 1 paired, table 1's result in."""
    base = f"/api/v1/events/{quote(EVENT, safe='')}"
    assert http.post("/api/v1/events", json={"name": EVENT, "rounds": 3, "seed": 7}).status_code == 201
    assert http.post(f"{base}/entrants", json={"entrants": PAIRS}).status_code == 201
    assert http.post(f"{base}/rounds", json={}).status_code == 201
    r = http.put(f"{base}/rounds/1/tables/1/result", json={"matches": [2, 1], "deals": [5, 3], "points": [310, 240]})
    assert r.status_code == 200, r.text


def _recording(http: httpx.Client) -> tuple[str, int]:
    """A recording of the lost-cante sample, stopped after its second trick's cante (a declaration open)."""
    record = next(iter(iter_records(RECORDED)))
    tags = record.tags
    start = {"rules": tags["Rules"], "dealer": tags["Dealer"], "deal": tags["Deal"], "turned": tags["Trump"],
             "players": {"N": tags["North"], "W": tags["West"], "S": tags["South"], "E": tags["East"]},
             "tags": {"Event": tags["Event"], "Site": tags["Site"], "Round": tags["Round"]}}
    entries = [f.text for f in frames(record)][1:]
    r = http.post("/api/v1/recordings", json=start)
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    done = 10
    for entry in entries[:done]:
        assert http.post(f"/api/v1/recordings/{rid}/entries", json={"entry": entry}).status_code == 200
    return rid, done


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    work = tmp_path_factory.mktemp("spanish")
    db = work / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(_samples(work))
    with serving(create_app(Settings(db=db, api_keys=frozenset({KEY})))) as url, \
            httpx.Client(base_url=url, headers={"X-API-Key": KEY}, timeout=60) as http:
        deals = http.get("/api/v1/deals", params={"event": DATA["Simulated deals"], "rules": "torofun-4p"}).json()
        deal = int(deals["items"][0]["id"])
        _analysed(http, deal)
        match = next(d["match"] for d in http.get("/api/v1/deals", params={"rules": "ludoteka-pairs"}).json()["items"]
                     if d.get("match"))
        _event(http)
        rid, entries = _recording(http)
        table = http.post("/api/v1/tables?lang=es", json={"rules": "ludoteka-pairs", "seat": "S", "level": 1,
                                                          "seed": 1, "match": True})
        assert table.status_code == 201, table.text
        yield Site(url=url, deal=deal, match=str(match), player="Lucía", recording=rid, entries=entries,
                   table=table.json()["id"])


def pages() -> list[str]:
    """The walk: every page of the menu and the pages their links lead to."""
    return ["search", "search-results", "deal", "share-link", "match", "player", "puzzles", "stats", "ratings",
            "rules", *(f"rules-{name}" for name in PRESETS), "validate", "validate-findings", "record",
            "recording", "live", "events", "event", "round", "table", "standings", "play", "play-table", "not-found",
            "no-deal"]


MISSING = ("not-found", "no-deal")
"""The pages that are not there on purpose: the error page, in Spanish."""


def _path(site: Site, name: str) -> str:
    """The path of the page ``name`` (the share link's is read from the deal's page)."""
    event = f"/events/{quote(EVENT, safe='')}"
    if name.startswith("rules-"):
        return f"/rules/{name[6:]}"
    return {"search": "/", "search-results": f"/?player={quote(site.player)}", "deal": f"/deals/{site.deal}",
            "match": f"/matches/{quote(site.match, safe='')}", "player": f"/players/{quote(site.player)}",
            "puzzles": f"/players/{quote(site.player)}/puzzles", "stats": "/stats", "ratings": "/ratings",
            "rules": "/rules", "validate": "/validate", "validate-findings": "/validate", "record": "/record",
            "recording": f"/record/{site.recording}", "live": f"/live/{site.recording}", "events": "/events",
            "event": event, "round": f"{event}/rounds/1", "table": f"{event}/rounds/1/tables/1",
            "standings": f"{event}/standings", "play": "/play", "play-table": f"/play/{site.table}",
            "not-found": "/nada-por-aqui", "no-deal": "/deals/999999"}[name]


def _open(page: Page, site: Site, name: str) -> int:
    """Go to the page ``name`` and wait until its scripts have drawn it; its HTTP status."""
    if name == "share-link":
        page.goto(_lang(page, f"{site.url}/deals/{site.deal}"))
        href = page.locator("#share").get_attribute("href") or ""
        path = href[href.index("/view"):]
    else:
        path = _path(site, name)
    response = page.goto(_lang(page, site.url + path))
    if name == "deal":
        expect(page.locator("#replay")).to_have_attribute("data-analysis", "ready", timeout=60_000)
        for _ in range(6):  # a few cards on: the judgement of a card played, the record's notes
            page.keyboard.press("ArrowRight")
    elif name == "validate-findings":
        page.fill("#text", BROKEN)
        page.click("#go")
        expect(page.locator("#report a[href^='#line-']").first).to_be_visible()
    elif name == "recording":
        expect(page.locator("#recorder")).to_have_attribute("data-entries", str(site.entries))
    elif name == "live":
        expect(page.locator("#live")).to_have_attribute("data-entries", str(site.entries))
    else:
        page.wait_for_load_state("networkidle")
    return response.status if response else 0


BROKEN = """[Event "Partida rota"]
[Rules "torofun-4p"]
[Dealer "E"]

1. N 1O 3X
"""
"""A record with two errors: a card of no Spanish pack (3X), and a deal that ends before its end."""


def _lang(page: Page, url: str) -> str:
    """The desktop asks for Spanish with ``?lang=es``; the phone with its browser's language only."""
    if page.viewport_size and page.viewport_size["width"] > 800:
        return url + ("&" if "?" in url else "?") + "lang=es"
    return url


def _report(name: str, found: list[Finding]) -> str:
    """Each offending word once, how many times the page says it, and where it first does."""
    first: dict[tuple[str, str], Finding] = {}
    count: dict[tuple[str, str], int] = {}
    for f in found:
        first.setdefault(f.key, f)
        count[f.key] = count.get(f.key, 0) + 1
    lines = [f"{name}: {len(first)} to fix"]
    lines += [f"  {k[0]} {k[1]!r} x{count[k]}: {f.context}" for k, f in first.items()]
    return "\n".join(lines)


@pytest.mark.parametrize("name", pages())
@pytest.mark.parametrize("device", list(DEVICES))
def test_a_spanish_page_holds_no_english_and_no_letters(browser: Browser, site: Site, device: str, name: str
                                                         ) -> None:
    context = browser.new_context(**DEVICES[device], locale="es-ES")
    context.add_init_script(f"localStorage.setItem('tutepgn-write-key', '{KEY}')")  # the scorer's phone
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        status = _open(page, site, name)
        assert status == (404 if name in MISSING else 200), f"{name}: HTTP {status}"
        expect(page.locator("html")).to_have_attribute("lang", "es")
        found = findings(page.evaluate(TEXT, HIDDEN))
        _screenshots(page, device, name)
    finally:
        context.close()
    seen = {(name, *f.key) for f in found}
    known = {k for k in KNOWN if k[0] == name}
    unknown = [f for f in found if (name, *f.key) not in KNOWN]
    fixed = sorted(known - seen) if device == "desktop" else []
    if unknown or fixed or errors:
        pytest.fail("\n".join(([_report(f"{name} ({device})", unknown)] if unknown else [])
                              + [f"fixed, remove from KNOWN: {k}" for k in fixed]
                              + ([f"script errors: {errors}"] if errors else [])), pytrace=False)


def _screenshots(page: Page, device: str, name: str) -> None:
    """The Spanish docs' pictures, when asked (``TUTE_SCREENSHOTS=1``)."""
    shots = {("phone", "rules-ludoteka-pairs"): "reglas", ("phone", "recording"): "anotar",
             ("desktop", "deal"): "analisis"}
    if not SCREENSHOTS or (device, name) not in shots:
        return
    from PIL import Image

    target = IMAGES / f"{shots[device, name]}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    if name == "deal":
        shot = page.locator("#analysis").screenshot()  # the analysis's box: its marks, chances and graph
    else:
        shot = page.screenshot(scale="css")
    image = Image.open(io.BytesIO(shot)).convert("RGB").quantize(colors=128)
    image.save(target, optimize=True)
    assert target.stat().st_size < MAX_IMAGE, (target, target.stat().st_size)


NOT_WALKED = {"/docs": "the API's reference, for programmers: technical and in English (docs/service.md)"}
"""The menu's links the walk leaves out, each with its reason."""


def test_the_walk_covers_every_link_of_the_menu(browser: Browser, site: Site) -> None:
    """A page added to the menu is walked too (or said here why not)."""
    walked = {_path(site, name) for name in pages() if name != "share-link"}
    page = browser.new_page()
    page.goto(f"{site.url}/?lang=es")
    menu = {a.get_attribute("href") or "" for a in page.locator("header nav:not(.languages) a").all()}
    page.close()
    assert len(menu) >= 7 and menu - walked - set(NOT_WALKED) == set(), menu - walked
