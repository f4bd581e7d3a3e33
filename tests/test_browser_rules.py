"""The rules page for players in a real browser: each preset's page fits a phone, in Spanish and English.

Issue 35: /rules was every preset's option table at once, 57,465 px tall on a phone.  Each preset now has its
own page, told in sentences, the option table folded; the page's height is measured with the fold closed, as
a player first sees it.  The heights are printed (``-s``) for the record.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.rules import OPTIONS, PRESETS

from threaded import serving
from test_browser import CHROMIUM, PHONE, browser  # noqa: F401  (the suite's one Chromium fixture)

TALLEST = 6000
"""The most a preset's page may be on a 390x844 phone, in CSS pixels (the issue's bound)."""

IDS = {name for name in OPTIONS if "_" in name or name == "partnerships"}
"""The option ids a player could not mistake for words ("players" and "preset" are words too)."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("rules") / "archive.duckdb"
    Archive(db).close()
    with serving(create_app(Settings(db=db))) as url:
        yield url


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_preset_page_fits_a_phone_with_no_option_id_outside_the_fold(base_url: str, browser: Browser,
                                                                          lang: str) -> None:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    heights = {}
    for key in PRESETS:
        page.goto(f"{base_url}/rules/{key}?lang={lang}")
        heights[key] = page.evaluate("document.body.scrollHeight")
        told = page.evaluate("""() => { const main = document.querySelector('main').cloneNode(true);
                                       main.querySelector('details.technical').remove();
                                       return main.innerText; }""")
        assert not [name for name in OPTIONS if name in IDS and re.search(rf"\b{name}\b", told)], told
        assert not re.findall(r"\b[a-z]+_[a-z_]+\b", told), told  # nor a raw value: dealer_last, win_match...
        assert page.locator("details.technical").evaluate("d => d.open") is False
        assert page.locator("details.technical [data-option='trump_card']").count() == 1  # ids in the fold
    context.close()
    print(f"\n/rules/PRESET?lang={lang} at 390x844:", heights)
    assert max(heights.values()) < TALLEST, heights
