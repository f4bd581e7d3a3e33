"""The service as a club's browser and a program meet it, on a real archive of the samples: downloads that
save as files, HEAD answered, an error page for a browser and a JSON problem for a program, errors in
words, and the search page newest first with "51–100 of N" and the pages before and after."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive

ROOT = Path(__file__).resolve().parent.parent
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("product") / "samples.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((ROOT / "samples").rglob("*.tpgn")))
    with TestClient(create_app(Settings(db=db))) as client:
        yield client


@pytest.mark.parametrize(("path", "name"), [("/api/v1/deals.tpgn", "tute-deals.tpgn"),
                                            ("/api/v1/deals.csv", "tute-deals.csv"),
                                            ("/api/v1/deals.ndjson", "tute-deals.ndjson")])
def test_downloads_save_as_files(client: TestClient, path: str, name: str) -> None:
    r = client.get(path, params={"limit": 3})
    assert r.status_code == 200 and r.content
    assert r.headers["content-disposition"] == f'attachment; filename="{name}"'


def test_one_deal_downloads_as_its_file(client: TestClient) -> None:
    deal = client.get("/api/v1/deals", params={"limit": 1}).json()["items"][0]["id"]
    r = client.get(f"/api/v1/deals/{deal}.tpgn")
    assert r.headers["content-disposition"] == f'attachment; filename="{deal}.tpgn"' and r.text.startswith("[")


@pytest.mark.parametrize("path", ["/", "/validate", "/docs", "/api/v1/deals?limit=2", "/api/v1/rules",
                                  "/api/v1/deals.csv", "/openapi.json", "/static/style.css"])
def test_head_answers_as_get_without_the_body(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers.get("content-disposition") == get.headers.get("content-disposition")
    assert head.headers["content-security-policy"] == get.headers["content-security-policy"]


def test_head_of_a_missing_deal_is_its_404(client: TestClient) -> None:
    r = client.head("/api/v1/deals/1")
    assert r.status_code == 404 and r.content == b""


def test_a_browser_gets_an_error_page_and_a_program_a_problem(client: TestClient) -> None:
    page = client.get("/deals/1", headers=BROWSER)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "404 · Not found" in page.text and "no deal 1 in the archive" in page.text
    assert 'href="/"' in page.text  # a way on, as on every page
    problem = client.get("/deals/1")  # no Accept: a program
    assert problem.status_code == 404 and problem.headers["content-type"] == "application/problem+json"
    api = client.get("/api/v1/deals/1", headers=BROWSER)  # the API answers JSON even to a browser
    assert api.status_code == 404 and api.headers["content-type"] == "application/problem+json"
    missing = client.get("/no-such-page", headers=BROWSER)
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")


def test_field_errors_are_in_words(client: TestClient) -> None:
    body = client.get("/api/v1/deals", params={"seat": "N"}).json()
    assert body["errors"][0]["message"] == "seat needs player" and body["errors"][0]["text"] == "query"
    assert "Value error" not in str(body)
    body = client.get("/api/v1/deals", params={"rules": "chinchon"}).json()
    assert body["errors"][0]["text"] == "query.rules"
    assert body["errors"][0]["message"].startswith("unknown ruleset 'chinchon'")
    page = client.get("/", params={"seat": "N"}, headers=BROWSER).text
    assert "seat needs player" in page and "Value error" not in page


def _page(client: TestClient, url: str) -> tuple[str, list[str], str | None, str | None]:
    text = client.get(url, headers=BROWSER).text
    shown = re.sub(r"<[^>]+>", "", re.search(r'id="total">(.*?)</p>', text, re.S).group(1)).strip()  # type: ignore[union-attr]
    ids = re.findall(r'<tr data-id="(\d+)">', text)
    links = [re.search(rf'id="{name}-page" href="([^"]+)"', text) for name in ("next", "previous")]
    return shown, ids, *(html.unescape(m.group(1)) if m else None for m in links)  # type: ignore[return-value]


def test_the_search_page_shows_the_newest_first_with_its_place_and_both_neighbours(client: TestClient) -> None:
    newest = client.get("/api/v1/deals", params={"sort": "-date", "limit": 500}).json()["items"]
    total = len(newest)
    assert total > 100
    shown, first, following, previous = _page(client, "/")
    assert shown == f"1–50 of {total:,} deals" and previous is None
    assert first == [str(d["id"]) for d in newest[:50]]
    shown, second, following, previous = _page(client, following)  # type: ignore[arg-type]
    assert shown == f"51–100 of {total:,} deals" and second == [str(d["id"]) for d in newest[50:100]]
    shown, third, _, back = _page(client, following)  # type: ignore[arg-type]
    assert shown == f"101–{min(150, total)} of {total:,} deals"
    shown, again, _, _ = _page(client, back)  # type: ignore[arg-type]
    assert (shown, again) == (f"51–100 of {total:,} deals", second)
    shown, start, _, previous = _page(client, previous)  # type: ignore[arg-type]
    assert (shown, start, previous) == (f"1–50 of {total:,} deals", first, None)


def test_the_api_walks_back_with_before(client: TestClient) -> None:
    one = client.get("/api/v1/deals", params={"limit": 20}).json()
    two = client.get("/api/v1/deals", params={"limit": 20, "cursor": one["next"]}).json()
    assert one["previous"] is None and two["previous"]
    back = client.get("/api/v1/deals", params={"limit": 20, "before": two["previous"]}).json()
    assert back["items"] == one["items"] and back["next"] == one["next"] and back["previous"] is None
