"""Every finished sample deal recorded through the phone page, hands unknown, as a scorer taps it (issue 15).

One phone (Debian's Chromium, a phone viewport) records the deals in turn on
the real service: the start form (rules and options, players, event, match
and deal number, dealer, turned card, nothing of the hands), then a tap on
the card played for each play and on the offered button for each
declaration; the seat that leads the first deal of a match is tapped before
its card.  The stored record is fetched back from the archive and checked:

* it validates (no error), and its events, Score and Result are the sample's;
* 3 and 4 players: its ``Deal`` tag is the sample's (every card is played,
  so the hands are certain), except when a tute ended the deal before every
  card was seen: then it has no ``Deal`` tag and is judged on the cards seen;
* 2 players: it has neither ``Deal`` nor ``Stock`` (the stock order is never
  seen) and validates as reconstructed (warning ``stock_reconstructed``, and
  ``undecidable`` only for a declaration that may use the card drawn last).
  What the play determines is asserted: the hands after the last draw (each
  seat's cards of the last tricks) are the sample's, in the reconstruction.

The default run records a share (:data:`SHARE`: a deal of each preset, and a
tute); ``-m slow`` records every other finished sample deal too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from test_browser import CHROMIUM, CHROMIUM_ARGS, KEY, PHONE
from test_record_table import determined_hands

from threaded import serving
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.cards import CODES
from tutepgn.events import Action, Context, Play, Tute
from tutepgn.notation import Record, iter_records, read_record
from tutepgn.check.validate import validate

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")

SAMPLES = [(path.name, i, record) for path in sorted((ROOT / "samples").glob("*.tpgn"))
           for i, record in enumerate(iter_records(path)) if record.termination != "*"]
"""Every finished sample deal of every preset, each recorded on its own (a match's deals with their Match and
DealNo tags, so that its first deal follows the first-deal rule)."""
SHARE = [("ludoteka-match.tpgn", 0), ("playcard-exchange-and-late-cante.tpgn", 0),
         ("torofun-2p-exchange-7-and-2.tpgn", 0), ("torofun-3p.tpgn", 0), ("torofun-4p-lost-cante.tpgn", 0),
         ("tutes.tpgn", 1)]
"""The default run's share: a deal of each preset (ludoteka-pairs' first deal of a match; an exchange and a
late cante; both exchanges of torofun-2p; 3 players; a forfeited cante, one trick typed whole) and a tute that
ends a 4-player deal after one trick."""
SEATS = {"N": "North", "W": "West", "S": "South", "E": "East"}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app over an empty archive, with a write key, served on a free local port."""
    db = tmp_path_factory.mktemp("record") / "archive.duckdb"
    Archive(db).close()
    app = create_app(Settings(db=db, api_keys=frozenset({KEY})))
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def phone(service: str) -> Iterator[Page]:
    """One phone page for every deal, as a scorer records a club night."""
    with sync_playwright() as p:
        browser: Browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        assert errors == [], errors
        browser.close()


def start_form(page: Page, service: str, record: Record) -> None:
    """Fill the start form as the scorer does: what the table knows before the first card."""
    header = record.header()
    rules = header.rules
    page.goto(f"{service}/record")
    form = page.locator("#start-form")
    form.locator('select[name="rules"]').select_option(rules.preset)
    form.locator('input[name="options"]').fill(record.tags["Rules"].partition(" ")[2])
    for seat in rules.seat_names:
        form.locator(f'input[name="player-{seat}"]').fill(record.tags.get(SEATS[seat], ""))
    form.locator('input[name="Event"]').fill(record.tags["Event"])
    for tag in ("Match", "DealNo"):
        form.locator(f'input[name="{tag}"]').fill(record.tags.get(tag, ""))
    form.locator('select[name="dealer"]').select_option(record.tags["Dealer"])
    assert header.turned is not None
    form.locator('input[name="turned"]').fill(CODES[header.turned])
    form.locator('input[name="key"]').fill(KEY)
    page.locator("#start").tap()
    page.wait_for_url(re.compile(r"/record/[\w-]+$"))


def tap_deal(page: Page, record: Record, *, typed_trick: int | None = None) -> None:
    """Tap every event of the deal in turn: a card on the pad, a declaration on its button.  With
    ``typed_trick``, that trick is typed whole in Other entry instead (one entry of several cards)."""
    header = record.header()
    names = header.rules.seat_names
    ctx = Context(names, header.trump)
    recorder = page.locator("#recorder")
    entries = 0
    plays = 0
    events = list(record.events)
    i = 0
    while i < len(events):
        event: Action = events[i]
        if type(event) is Play and typed_trick is not None and plays == (typed_trick - 1) * len(names):
            trick = [e for e in events[i:i + len(names)] if type(e) is Play]
            assert len(trick) == len(names), "a typed trick holds every seat's card, no declaration between"
            page.locator("#other-entry").fill(f"{typed_trick}. {names[trick[0].seat]} "
                                              + " ".join(CODES[p.card].lower() for p in trick))
            page.locator("#other button[type=submit]").tap()
            entries += 1
            expect(recorder).to_have_attribute("data-entries", str(entries))
            for p in trick:  # every card of the one entry is dimmed on the pad
                expect(page.locator(f'#pad .pc.played[data-card="{CODES[p.card]}"]')).to_have_count(1)
            i += len(names)
            plays += len(names)
            continue
        if type(event) is Play:
            seat = names[event.seat]
            if page.locator('.seat-chip[role="button"]').count():  # a match's first deal: name the leader
                page.locator(f'.seat-chip[data-seat="{seat}"]').tap()
                expect(page.locator(f'.seat-chip.to-move[data-seat="{seat}"]')).to_be_visible()
            else:
                expect(page.locator(f'.seat-chip.to-move[data-seat="{seat}"]')).to_be_visible()
            page.locator(f'#pad .pc[data-card="{CODES[event.card]}"]').tap()
            plays += 1
        else:  # offered as a button when the cards seen allow it
            page.locator(f'#declare button.decl[data-entry="{event.text(ctx)}"]').tap()
        entries += 1
        expect(recorder).to_have_attribute("data-entries", str(entries))
        i += 1
    expect(page.locator("#message.refused")).to_have_count(0)


def check_stored(service: str, page: Page, sample: Record) -> None:
    """The deal as stored in the archive, against the sample."""
    link = page.locator("#done #archive-link")
    expect(link).to_be_visible()
    expect(page.locator("#done")).to_contain_text(f"Result {sample.tags['Result']}")
    href = link.get_attribute("href")
    assert href and re.fullmatch(r"/deals/\d+", href)
    stored = read_record(httpx.get(f"{service}/api/v1{href}.tpgn", timeout=30).text)
    header, want = stored.header(), sample.header()
    assert header.rules == want.rules and stored.events == sample.events
    assert (header.claimed_score, stored.tags["Result"]) == (want.claimed_score, sample.tags["Result"])
    assert stored.tags.get("North") == sample.tags.get("North")
    report = validate(stored)
    assert not report.errors, [f.message for f in report.errors]
    if header.rules.players > 2:
        if any(type(e) is Tute for e in stored.events):
            assert "Deal" not in stored.tags and {f.code for f in report.warnings} == {"deal_reconstructed"}
        else:
            assert stored.tags["Deal"] == sample.tags["Deal"] and not report.warnings
        return
    assert "Deal" not in stored.tags and "Stock" not in stored.tags
    warnings = {f.code for f in report.warnings}
    assert "stock_reconstructed" in warnings and warnings <= {"stock_reconstructed", "undecidable"}
    assert determined_hands(stored) == determined_hands(sample)


@pytest.mark.parametrize("name, index, sample", [
    pytest.param(*s, marks=() if (s[0], s[1]) in SHARE else pytest.mark.slow) for s in SAMPLES],
    ids=[f"{s[0]}-{s[1]}" for s in SAMPLES])
def test_a_phone_records_each_sample_deal_hands_unknown(service: str, phone: Page, name: str, index: int,
                                                        sample: Record) -> None:
    start_form(phone, service, sample)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "it scrolls sideways"
    typed = 3 if (name, index) == ("torofun-4p-lost-cante.tpgn", 0) else None
    tap_deal(phone, sample, typed_trick=typed)
    check_stored(service, phone, sample)


def test_the_phone_reopened_mid_deal_reads_the_declarations_with_its_key(service: str, phone: Page) -> None:
    """The page embeds the public state, which holds no legal declaration (with the hands known it would show
    spectators a hidden hand); the recorder reads the scorer's state with its key, so a declaration open when
    the page is (re)opened has its button (issue 31, item 5)."""
    from test_live_api import sample_start
    start, entries = sample_start()
    declaration = next(i for i, e in enumerate(entries) if not re.fullmatch(r"[NWSE] (?:1[0-2]|[1-7])[OCEB]", e))
    with httpx.Client(base_url=service, headers={"X-API-Key": KEY}, timeout=30) as http:
        rid = http.post("/api/v1/recordings", json=start).json()["id"]
        for entry in entries[:declaration]:
            assert http.post(f"/api/v1/recordings/{rid}/entries", json={"entry": entry}).status_code == 200
        assert entries[declaration] in http.get(f"/api/v1/recordings/{rid}").json()["declarations"]
    phone.goto(f"{service}/record")
    phone.evaluate("localStorage.removeItem('tutepgn-write-key')")
    phone.goto(f"{service}/record/{rid}")
    expect(phone.locator("#recorder")).to_have_attribute("data-entries", str(declaration))
    expect(phone.locator("#declare button.decl")).to_have_count(0)  # without the key: what spectators see
    phone.evaluate(f"localStorage.setItem('tutepgn-write-key', '{KEY}')")
    phone.reload()
    button = phone.locator(f'#declare button.decl[data-entry="{entries[declaration]}"]')
    expect(button).to_be_visible()
    button.tap()
    expect(phone.locator("#recorder")).to_have_attribute("data-entries", str(declaration + 1))
