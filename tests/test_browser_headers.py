"""A platform's page on another origin reads the service's headers in Chromium: CORS exposes what the API
documents (the counts of a download, its file name, a created recording's Location, the request id), and hides the
rest; the deal's forms by Accept, a problem's request id and gzip work from there too.

The page is served by a second server (another port: another origin) and calls the real app (tests/threaded.py's
``serving``) with ``fetch``, as a club's site would.  Playwright drives Debian's Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from threaded import serving
from test_browser import CHROMIUM, browser  # noqa: F401  (the suite's one Chromium and its fixture)
from test_live_api import sample_start
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive

ROOT = Path(__file__).resolve().parents[1]
KEY = "tk_cors_browser"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


class _Platform(http.server.BaseHTTPRequestHandler):
    """The other origin: one empty page, from which the tests call the service."""

    def do_GET(self) -> None:
        body = b"<!doctype html><title>a club's site</title><p>platform</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def origins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The platform's page and the service, each on its own port; the service allows the page's origin."""
    platform = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Platform)
    thread = threading.Thread(target=platform.serve_forever, name="platform", daemon=True)
    thread.start()
    page_url = f"http://127.0.0.1:{platform.server_address[1]}"
    db = tmp_path_factory.mktemp("cors") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((ROOT / "samples").rglob("*.tpgn")))
    try:
        with serving(create_app(Settings(db=db, api_keys=frozenset({KEY}), cors_origins=[page_url]))) as api:
            yield page_url, api
    finally:
        platform.shutdown()
        thread.join(timeout=10)


@pytest.fixture()
def page(browser: Browser, origins: tuple[str, str]) -> Iterator[Page]:  # noqa: F811
    context = browser.new_context()
    page = context.new_page()
    page.goto(origins[0])
    yield page
    context.close()


READ = """async ([url, init, names]) => {
  const r = await fetch(url, init);
  const headers = Object.fromEntries(names.map(n => [n, r.headers.get(n)]));
  return {status: r.status, headers, body: await r.text()};
}"""
"""A fetch from the page: its status, the headers the page's script can read (null if hidden), its body."""


def fetched(page: Page, url: str, names: list[str], **init: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(READ, [url, init, names])
    return result


def test_a_download_s_counts_file_name_and_request_id_read_from_another_origin(page: Page,
                                                                              origins: tuple[str, str]) -> None:
    api = origins[1]
    names = ["X-Total-Count", "X-Row-Cap", "X-Truncated", "Content-Disposition", "X-Request-ID", "X-Frame-Options"]
    r = fetched(page, f"{api}/api/v1/deals.csv?limit=3", names)
    h = r["headers"]
    assert r["status"] == 200 and int(h["X-Total-Count"]) > 3 and h["X-Truncated"] == "true"
    assert int(h["X-Row-Cap"]) > 0 and h["Content-Disposition"] == 'attachment; filename="tute-deals.csv"'
    assert h["X-Request-ID"] and len(r["body"].splitlines()) == 4  # a heading and 3 deals
    assert h["X-Frame-Options"] is None  # a header the service does not expose stays hidden: CORS is at work


def test_a_created_recording_s_location_and_the_client_s_own_request_id(page: Page, origins: tuple[str, str]) -> None:
    start, _ = sample_start()
    r = fetched(page, f"{origins[1]}/api/v1/recordings", ["Location", "X-Request-ID"], method="POST",
                body=json.dumps(start),
                headers={"Content-Type": "application/json", "X-API-Key": KEY, "X-Request-ID": "club-site-7"})
    assert r["status"] == 201, r["body"]
    assert r["headers"]["Location"].startswith("/api/v1/recordings/") and r["headers"]["X-Request-ID"] == "club-site-7"


def test_a_deal_by_accept_and_a_problem_s_request_id_from_another_origin(page: Page, origins: tuple[str, str]) -> None:
    api = origins[1]
    listed = fetched(page, f"{api}/api/v1/deals?limit=1", [])
    deal = json.loads(listed["body"])["items"][0]["id"]
    r = fetched(page, f"{api}/api/v1/deals/{deal}", ["Content-Type", "Content-Disposition"],
                headers={"Accept": "application/x-tute-pgn"})
    assert r["status"] == 200 and r["headers"]["Content-Type"].startswith("application/x-tute-pgn")
    assert r["body"].startswith("[") and r["headers"]["Content-Disposition"] == f'attachment; filename="{deal}.tpgn"'
    missing = fetched(page, f"{api}/api/v1/deals/12345", ["X-Request-ID"])
    assert missing["status"] == 404
    assert json.loads(missing["body"])["request_id"] == missing["headers"]["X-Request-ID"]


def test_a_large_page_comes_gzipped_to_the_browser(page: Page, origins: tuple[str, str]) -> None:
    url = f"{origins[1]}/api/v1/deals?limit=200"
    with page.expect_response(url) as answer:
        r = fetched(page, url, [])
    assert answer.value.headers["content-encoding"] == "gzip"
    assert len(json.loads(r["body"])["items"]) > 50  # decoded by the browser
