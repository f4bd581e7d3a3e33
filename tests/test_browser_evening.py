"""A whole club evening in the browser (issue 34): the organiser on a laptop, four phones at the tables.

A real ``tute serve --table-keys 4`` over a fresh archive, with ``--no-local-trust`` so that every write from a
page must carry a key, as a phone on the club's network must; Debian's Chromium.  Each phone (390x844) first
opens its table's address as the service printed it (the key in the fragment: scanning the QR code), so the
key stays in the phone; the organiser (a desktop context) types the local admin key once in the key box, creates
a Swiss event of three rounds on /events, registers eight pairs and pairs round 1 from the event page; the four
phones each open their table's page and save its result with the quick form; rounds 2 and 3 the same, each
paired from the event page.  The standings page then lists the pairs in the order the documented tie-breaks
give (docs/club.md), worked out here from the results entered, and so does the standings PDF (fetched with
httpx, read with pypdf).

The results (:data:`RESULTS`) were chosen so that each of the four tie-breaks decides at least one place and
no two pairs stay tied on all four: :func:`expected_order` says which keys decided, and the test asserts it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from pypdf import PdfReader
from test_browser import CHROMIUM, CHROMIUM_ARGS, PHONE
from test_local_write import Serve

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")

EVENT = "Tarde de San Martín"
SEED = 3
PAIRS = ["Elena Prieto/Hugo Benavides", "Manuel Ortega/Gloria Sastre", "Inés Robles/Elena Carro",
         "Gloria Villa/Fermín Llamas", "Fermín Soto/Carmen Ruiz", "Julián Ferrero/Diego Cuesta",
         "Bruno Alonso/Manuel Turrado", "Julián Rey/Álvaro Cuesta"]
"""Entrants 1 to 8, in the order they are registered (the samples' players, as docs/club.md)."""
Score = tuple[int, int]
RESULTS: list[dict[int, tuple[Score, Score, Score]]] = [
    {1: ((2, 0), (5, 4), (310, 290)), 2: ((2, 1), (5, 0), (330, 310)), 3: ((2, 1), (5, 1), (350, 250)),
     4: ((1, 2), (3, 4), (390, 500))},
    {1: ((1, 2), (2, 3), (450, 490)), 2: ((2, 0), (5, 0), (500, 330)), 3: ((1, 2), (2, 4), (290, 310)),
     4: ((2, 1), (4, 1), (310, 260))},
    {1: ((2, 1), (3, 0), (450, 410)), 2: ((1, 2), (0, 4), (250, 430)), 3: ((2, 1), (3, 1), (430, 220)),
     4: ((1, 2), (0, 3), (390, 440))},
]
"""Each round's results by table, home first: matches, deals and points won (what each phone types)."""
KEYS = ("matches won", "deals difference", "points difference", "head to head")


def expected_order(tables: list[list[tuple[int, int]]]) -> tuple[list[int], set[str]]:
    """The entrants best first by the documented tie-breaks, from each round's (home, away) by table and
    :data:`RESULTS`; and the keys that decided a place.  Written apart from tutepgn.tournament.standings, so
    that the page is checked against the rules, not against itself.  Fails if two pairs stay tied on all four."""
    totals = {n: [0, 0, 0] for n in range(1, len(PAIRS) + 1)}
    won: dict[tuple[int, int], int] = {}
    for pairing, results in zip(tables, RESULTS, strict=True):
        for number, (home, away) in enumerate(pairing, 1):
            matches, deals, points = results[number]
            for me, other, i in ((home, away, 0), (away, home, 1)):
                totals[me][0] += matches[i]
                totals[me][1] += deals[i] - deals[1 - i]
                totals[me][2] += points[i] - points[1 - i]
                won[me, other] = won.get((me, other), 0) + matches[i]
    groups: dict[tuple[int, ...], list[int]] = {}
    for n in sorted(totals, key=lambda n: [-x for x in totals[n]]):
        groups.setdefault(tuple(totals[n]), []).append(n)
    order: list[int] = []
    decided: set[str] = set()
    for tied in groups.values():
        head_to_head = {n: sum(won.get((n, other), 0) for other in tied) for n in tied}
        assert len(set(head_to_head.values())) == len(tied), f"{tied} stay tied on every key: choose other results"
        order += sorted(tied, key=lambda n: -head_to_head[n])
    for a, b in zip(order, order[1:]):
        decided |= {next((KEYS[i] for i in range(3) if totals[a][i] != totals[b][i]), KEYS[3])}
    return order, decided


@dataclass
class Evening:
    """The service of the evening, what it printed, and the browser."""

    url: str
    joins: list[str]
    """Each table's address with its write key in the fragment, as ``tute serve --table-keys`` prints them."""
    admin_key: str
    browser: Browser


@pytest.fixture()
def evening(tmp_path: Path) -> Iterator[Evening]:
    """A real ``tute serve --table-keys 4 --no-local-trust`` over a fresh archive, and Debian's Chromium."""
    db = tmp_path / "club.duckdb"
    server = Serve("--db", str(db), "--table-keys", "4", "--no-local-trust")
    try:
        server.wait_ready()
        joins = re.findall(r"(http://\S+/record#key=[\w-]+)", server.output)
        admin = json.loads(Path(f"{db}.keys").read_text(encoding="utf-8"))["admin"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield Evening(server.url, joins, admin, browser)
            browser.close()
    finally:
        server.stop()


def watched(context: BrowserContext, errors: list[str]) -> Page:
    """A new page of ``context`` whose script errors land in ``errors``."""
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    return page


def pair_next_round(organiser: Page, url: str, number: int) -> list[tuple[int, int]]:
    """The organiser pairs round ``number`` from the event page; its tables (home, away), as the API gives them."""
    organiser.goto(f"{url}/events/{quote(EVENT)}")
    organiser.locator("#pair-round").click()
    organiser.wait_for_url(re.compile(rf"/rounds/{number}$"))
    expect(organiser.locator("table#tables tr[data-table]")).to_have_count(4)
    event = httpx.get(f"{url}/api/v1/events/{quote(EVENT)}", timeout=10).json()
    rnd = event["rounds"][number - 1]
    tables = sorted(rnd["tables"], key=lambda t: t["number"])
    assert [t["number"] for t in tables] == [1, 2, 3, 4] and all(t["away"] is not None for t in tables)
    return [(t["home"], t["away"]) for t in tables]


def enter_result(phone: Page, url: str, round_no: int, table: int, home: int, away: int) -> None:
    """A phone opens its table's page, sees the two pairs, and saves the table's result with the quick form."""
    phone.goto(f"{url}/events/{quote(EVENT)}/rounds/{round_no}/tables/{table}")
    for number in (home, away):
        expect(phone.locator("body")).to_contain_text(PAIRS[number - 1])
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "it scrolls sideways"
    matches, deals, points = RESULTS[round_no - 1][table]
    form = phone.locator("form#result")
    for name, value in (("matches", matches), ("deals", deals), ("points", points)):
        form.locator(f'input[name="home_{name}"]').fill(str(value[0]))
        form.locator(f'input[name="away_{name}"]').fill(str(value[1]))
    link = phone.locator("#record-link")  # the recorder, for a table that records its deals
    expect(link).to_have_attribute("href", re.compile(rf"^/record\?event=.+&round={round_no}&table={table}$"))
    form.locator('button[type="submit"]').tap()
    said = re.compile(r"\D+".join(f"{mine}-{theirs}" for mine, theirs in (matches, deals, points)))
    expect(phone.locator("#saved")).to_have_text(said)


def test_an_evening_of_three_swiss_rounds_on_four_phones_ends_in_the_tie_breaks_order(
        evening: Evening) -> None:
    url = evening.url
    errors: list[str] = []
    organiser = watched(evening.browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES"), errors)
    phones = [watched(evening.browser.new_context(**PHONE, locale="es-ES"), errors) for _ in range(4)]
    assert len(evening.joins) == len(phones), evening.joins
    for phone, join in zip(phones, evening.joins, strict=True):
        phone.goto(join)  # each table's phone scans its code once: the key stays in the phone
        phone.wait_for_url(re.compile(r"/record$"))

    organiser.goto(f"{url}/events")
    form = organiser.locator("form#new-event")
    form.locator("details.key-box summary").click()  # on this service the organiser's writes need a key too
    form.locator("input.write-key").fill(evening.admin_key)
    form.locator("input.write-key").press("Tab")
    form.locator('[name="name"]').fill(EVENT)
    form.locator('[name="kind"]').select_option("torneo")
    form.locator('[name="rules"]').select_option("ludoteka-pairs")
    form.locator('[name="format"]').select_option("swiss")
    form.locator('[name="rounds"]').fill("3")
    form.locator('[name="seed"]').fill(str(SEED))
    form.locator('[type="submit"]').click()
    organiser.wait_for_url(re.compile(r"/events/[^/]+$"))
    organiser.locator('form#entrants textarea[name="entrants"]').fill("\n".join(PAIRS))
    organiser.locator('form#entrants [type="submit"]').click()
    expect(organiser.locator("#entrants-list li[data-entrant]")).to_have_count(len(PAIRS))

    tables: list[list[tuple[int, int]]] = []
    for round_no in (1, 2, 3):
        tables.append(pair_next_round(organiser, url, round_no))
        for table, (phone, (home, away)) in enumerate(zip(phones, tables[-1], strict=True), 1):
            enter_result(phone, url, round_no, table, home, away)
        organiser.reload()  # the round's page: every table has its result
        expect(organiser.locator("table#tables .pending")).to_have_count(0)

    order, decided = expected_order(tables)
    assert decided == set(KEYS), f"the results must make every tie-break decide a place, not only {decided}"
    organiser.goto(f"{url}/events/{quote(EVENT)}/standings")
    rows = organiser.locator("table#standings tr[data-entrant]")
    expect(rows).to_have_count(len(PAIRS))
    shown = [int(n) for n in rows.evaluate_all("rows => rows.map(r => r.dataset.entrant)")]
    assert shown == order, f"the standings page shows {shown}; the tie-breaks give {order}"
    for row, number in zip(rows.all(), order, strict=True):
        expect(row).to_contain_text(PAIRS[number - 1])
    link = organiser.locator('a[href$="standings.pdf"]')
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href == f"/events/{quote(EVENT)}/standings.pdf", href
    pdf = httpx.get(url + href, timeout=30)  # a browser's download is not used here: the link's file, fetched
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.text[:300]
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf.content)).pages)
    places = [text.find(PAIRS[n - 1]) for n in order]
    assert -1 not in places, f"a pair is missing from the PDF: {text[:1500]}"
    assert places == sorted(places), f"the PDF's order is not the page's: {text[:1500]}"
    assert errors == [], errors
