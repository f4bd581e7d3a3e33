"""The API's docs pages (/docs: Swagger UI, /redoc: ReDoc) render in Chromium with every request to another
host blocked: their scripts and styles come from the service itself, and its Content-Security-Policy lets
them run.  The app runs with uvicorn in a background thread; Playwright drives Debian's Chromium."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
import uvicorn
from playwright.sync_api import ConsoleMessage, Route, expect, sync_playwright

from tutepgn.api.app import Settings, create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium "
                                                               "(apt-get install chromium; `make test` installs it)")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app over an empty archive, served on a free local port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(Settings(db=tmp_path_factory.mktemp("docs") / "a.duckdb"))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=15)
    app.state.archive.close()


@pytest.mark.parametrize(("path", "rendered"), [
    ("/docs", ".swagger-ui .opblock-summary-path >> nth=0"),  # Swagger UI drew the operations of /openapi.json
    ("/redoc", "[role=menuitem] >> nth=0"),                   # ReDoc drew its side menu of the operations
])
def test_the_docs_render_with_the_network_blocked(base_url: str, path: str, rendered: str) -> None:
    blocked: list[str] = []
    errors: list[str] = []

    def offline(route: Route) -> None:
        if urlparse(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort("internetdisconnected")

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.route("**/*", offline)
            page.on("console", console)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(base_url + path)
            expect(page.locator(rendered)).to_be_visible(timeout=20_000)
            expect(page.get_by_text("tutepgn").first).to_be_visible()
            assert page.locator("text=/deals").count() > 0
        finally:
            browser.close()
    assert blocked == [], f"{path} asked another host for {blocked}"
    # ReDoc's bundle links its "powered by" logo on its CDN: the policy stops it before any request, and
    # the page needs it not.  Anything else refused or failed would be a page that depends on the network.
    refused = [e for e in errors if ("Content Security Policy" in e or "Failed to load" in e)
               and "cdn.redoc.ly/redoc/logo-mini.svg" not in e]
    assert not refused, refused
