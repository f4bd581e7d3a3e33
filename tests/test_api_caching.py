"""HTTP caching (api/caching.py): a deal by id answers with a strong ETag that never changes and ``immutable``;
searches and statistics revalidate by the archive's generation, which every write changes; a current ETag gets
304 and no body.  On the app (TestClient) and on ``tute serve --workers 2 --read-only``, whose two processes must
give the same ETags (the generation is read from the file, not counted in a process)."""

from __future__ import annotations

import os
import signal
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from served import wait_until_healthy

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_live_crash import TUTE, free_port
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.analyses import AnalysisKey
from tutepgn.notation.share import deal_link
from tutepgn.recording.simulate import deal_records
from tutepgn.rules import preset

ROOT = Path(__file__).resolve().parents[1]
API = "/api/v1"
KEY = "tk_caching_test"
FIRST = sorted((ROOT / "samples").glob("*.tpgn"))[:6]
LATER = "\n".join(r.tpgn() for r in deal_records(preset("playcard-2p"), 3, seed=37))
"""Records imported after the first answers: new deals, so that the archive's generation moves."""
CONNECTIONS = 12
"""Requests on connections of their own, at least: the kernel hands each to either worker process."""


def archive_of(path: Path) -> Path:
    with Archive(path) as archive:
        archive.import_sources(FIRST)
    return path


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=archive_of(tmp_path / "archive.duckdb"), api_keys=frozenset({KEY})))
    yield TestClient(app, raise_server_exceptions=False)
    app.state.service.close()


def a_deal(http: httpx.Client | TestClient) -> str:
    return str(http.get(f"{API}/deals", params={"limit": 1, "sort": "id"}).json()["items"][0]["id"])


def test_a_deal_has_a_strong_etag_that_gets_304_with_no_body(client: TestClient) -> None:
    deal = a_deal(client)
    for path, accept, seconds in ((f"{API}/deals/{deal}", "application/json", 86400),
                                  (f"{API}/deals/{deal}", "application/x-tute-pgn", 31536000),
                                  (f"{API}/deals/{deal}.tpgn", "*/*", 31536000),
                                  (f"{API}/deals/{deal}/sheet", "*/*", 86400)):
        first = client.get(path, headers={"Accept": accept})
        tag = first.headers["etag"]
        assert first.status_code == 200 and tag.startswith('"') and not tag.startswith("W/"), (path, tag)
        assert first.headers["cache-control"] == f"public, max-age={seconds}, immutable", path
        again = client.get(path, headers={"Accept": accept, "If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", path
        assert again.headers["etag"] == tag and again.headers["cache-control"] == first.headers["cache-control"]
        assert "Accept-Language" in again.headers["vary"]
        assert client.get(path, headers={"Accept": accept}).headers["etag"] == tag  # stable
        stale = client.get(path, headers={"Accept": accept, "If-None-Match": '"0123", W/"4567"'})
        assert stale.status_code == 200 and stale.content == first.content
    json_tag = client.get(f"{API}/deals/{deal}").headers["etag"]
    text_tag = client.get(f"{API}/deals/{deal}", headers={"Accept": "text/plain"}).headers["etag"]
    spanish = client.get(f"{API}/deals/{deal}", headers={"Accept-Language": "es"}).headers["etag"]
    assert len({json_tag, text_tag, spanish}) == 3  # each form, each language, its own bytes
    head = client.head(f"{API}/deals/{deal}.tpgn")
    assert head.status_code == 200 and head.headers["etag"] == client.get(f"{API}/deals/{deal}.tpgn").headers["etag"]


def test_a_kept_answer_is_sent_again_as_it_was_with_a_request_id_of_its_own(client: TestClient) -> None:
    answers = [client.get(f"{API}/deals", params={"sort": "id"}) for _ in range(3)]
    ids = [a.headers.get_list("x-request-id") for a in answers]
    assert all(len(i) == 1 for i in ids) and len({i[0] for i in ids}) == 3, ids
    same = [{k: v for k, v in a.headers.items() if k not in ("x-request-id", "date")} for a in answers]
    assert same[0] == same[1] == same[2] and answers[0].content == answers[2].content


def test_a_gzipped_answer_names_its_encoding_and_either_tag_revalidates(client: TestClient) -> None:
    plain = client.get(f"{API}/stats", headers={"Accept-Encoding": "identity"})
    with client.stream("GET", f"{API}/stats", headers={"Accept-Encoding": "gzip"}) as packed:
        assert packed.headers["content-encoding"] == "gzip"
        assert packed.headers["etag"] == plain.headers["etag"][:-1] + '-gzip"'
    for tag in (plain.headers["etag"], packed.headers["etag"]):
        assert client.get(f"{API}/stats", headers={"If-None-Match": tag}).status_code == 304


def test_what_can_change_is_revalidated_and_what_is_not_cached_gets_no_etag(client: TestClient) -> None:
    deal = a_deal(client)
    share = deal_link(client.get(f"{API}/deals/{deal}.tpgn").text)
    for path in (f"{API}/deals", f"{API}/stats", f"{API}/players", "/", f"/deals/{deal}", "/stats", share):
        answer = client.get(path)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache", path
        assert client.get(path, headers={"If-None-Match": answer.headers["etag"]}).status_code == 304, path
    for path in (f"{API}/health", f"{API}/rules", f"{API}/deals/1", f"{API}/deals?limit=0", "/validate"):
        answer = client.get(path)
        assert "etag" not in answer.headers and "immutable" not in answer.headers.get("cache-control", ""), path


def test_a_write_changes_the_search_etags_and_never_a_deals(client: TestClient) -> None:
    deal = a_deal(client)
    stored = int(client.get(f"{API}/health").json()["deals"])
    before = {path: client.get(path).headers["etag"] for path in
              (f"{API}/deals?sort=id", f"{API}/stats", f"/deals/{deal}", f"{API}/deals/{deal}")}
    imported = client.post(f"{API}/import", content=LATER, headers={"X-API-Key": KEY})
    assert imported.status_code == 200 and imported.json()["added"] == 3, imported.text
    after = {path: client.get(path).headers["etag"] for path in before}
    assert after[f"{API}/deals/{deal}"] == before[f"{API}/deals/{deal}"]
    assert all(after[p] != before[p] for p in before if p != f"{API}/deals/{deal}"), (before, after)
    old = client.get(f"{API}/deals?sort=id", headers={"If-None-Match": before[f"{API}/deals?sort=id"]})
    assert old.status_code == 200 and len(old.json()["items"]) == stored + 3
    two = client.get(f"{API}/deals", params={"rules": "playcard-2p", "limit": 1}).json()["items"][0]["id"]
    analysed = client.get(f"{API}/deals/{two}/analysis", params={"pimc": 0}, headers={"X-API-Key": KEY})
    assert analysed.status_code == 200 and analysed.headers["cache-control"].endswith("immutable")  # on the spot
    assert client.get(f"{API}/stats").headers["etag"] != after[f"{API}/stats"]  # and stored: a write like any other
    again = client.get(f"{API}/deals/{two}/analysis", params={"pimc": 0}, headers={"X-API-Key": KEY})
    assert again.content == analysed.content and again.headers["etag"] == analysed.headers["etag"]  # now stored


def test_the_generation_is_kept_in_the_file_and_moves_with_each_write(tmp_path: Path) -> None:
    db = archive_of(tmp_path / "archive.duckdb")
    with Archive(db, read_only=True) as archive:
        first = archive.generation()
    with Archive(db, read_only=True) as archive:
        assert archive.generation() == first  # read from the file: the same for every process
    with Archive(db) as archive:
        archive.import_sources(FIRST)  # nothing new, but a committed transaction all the same
        second = archive.generation()
        archive.analyse(AnalysisKey(worlds=0), batch_size=100)
        third = archive.generation()
    assert len({first, second, third}) == 3 and first.split(".")[0] == third.split(".")[0]
    other = archive_of(tmp_path / "other.duckdb")
    with Archive(other, read_only=True) as archive:
        assert archive.generation() != first  # another file: another id, though the same count


@contextmanager
def two_workers(db: Path) -> Iterator[str]:
    """``tute serve --workers 2 --read-only`` over ``db`` while the block runs; its URL."""
    port = free_port()
    process = subprocess.Popen([str(TUTE), "serve", "--db", str(db), "--read-only", "--workers", "2", "--port",
                                str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process, 90, lambda: process.stderr.read().decode()[-2000:] if process.stderr else "")
        yield url
    finally:
        process.send_signal(signal.SIGTERM)  # the supervisor stops its workers
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def tags(url: str, path: str) -> set[str]:
    """The ETags of ``path`` over :data:`CONNECTIONS` fresh connections (so from both workers), each answer's
    revalidation checked on a fresh connection too."""
    found = set()
    for _ in range(CONNECTIONS):
        answer = httpx.get(url + path, timeout=30)
        assert answer.status_code == 200, answer.text
        found.add(answer.headers["etag"])
        again = httpx.get(url + path, headers={"If-None-Match": answer.headers["etag"]}, timeout=30)
        assert again.status_code == 304 and again.content == b""
    return found


def test_two_worker_processes_give_the_same_etags_until_the_archive_changes(tmp_path: Path) -> None:
    db = archive_of(tmp_path / "archive.duckdb")
    with two_workers(db) as url:
        deal = a_deal(httpx.Client(base_url=url, timeout=30))
        paths = (f"{API}/deals?sort=id", f"{API}/stats", f"/deals/{deal}", f"{API}/deals/{deal}")
        served = {path: tags(url, path) for path in paths}
    assert all(len(found) == 1 for found in served.values()), served
    later = tmp_path / "later.tpgn"
    later.write_text(LATER, encoding="utf-8")
    with Archive(db) as archive:  # the service stopped: written by another process, as tute import does
        archive.import_sources([later])
    with two_workers(db) as url:
        moved = {path: tags(url, path) for path in paths}
    assert moved[f"{API}/deals/{deal}"] == served[f"{API}/deals/{deal}"]
    assert all(moved[p] != served[p] and len(moved[p]) == 1 for p in paths[:3]), (served, moved)
