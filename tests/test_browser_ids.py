"""A page's JavaScript keeps a deal's id: it searches, then fetches the deal by the id the search gave it.

Ids are 63 bits: as JSON numbers, JavaScript rounded them (2283705266920107263 read as ...300) and the
fetch answered 404.  The service writes them as strings; Chromium here does what a platform's page would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from threaded import serving
from test_browser import CHROMIUM, browser  # noqa: F401  (the suite's one Chromium and its fixture)
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")

SEARCH_THEN_FETCH = """async () => {
  const page = await (await fetch("/api/v1/deals?limit=50&sort=id")).json();
  const last = page.items[page.items.length - 1];           // the largest id: sorted by id
  const answer = await fetch("/api/v1/deals/" + last.id);   // the id as the search gave it
  const deal = await answer.json();
  return {searched: last.id, kind: typeof last.id, status: answer.status, fetched: deal.summary.id,
          asNumber: String(Number(last.id))};               // what a JSON number would have become
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The real app over an archive of the samples; its URL and the largest deal id in it."""
    db = tmp_path_factory.mktemp("ids") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted(SAMPLES.glob("*.tpgn")))
        largest = max(archive.ids().to_pylist())
    with serving(create_app(Settings(db=db))) as url:
        yield url, largest


def test_a_page_fetches_the_deal_a_search_gave_it_by_its_id(browser: Browser, site: tuple[str, int]) -> None:  # noqa: F811
    url, largest = site
    assert largest > 2**53  # past the integers a JavaScript number holds
    page = browser.new_page()
    try:
        page.goto(url + "/rules")  # any page of the service: the fetches are its own origin's
        found: dict[str, Any] = page.evaluate(SEARCH_THEN_FETCH)
    finally:
        page.close()
    assert found["kind"] == "string" and found["status"] == 200
    assert found["searched"] == found["fetched"] == str(largest)  # the archive's id, every digit
    assert found["asNumber"] != str(largest)  # as a number it would not have survived
