"""HTTP caching (api/caching.py): a deal by id answers with a strong ETag that never changes and ``immutable``;
searches and statistics revalidate by the archive's generation, which every write changes; a current ETag gets
304 and no body.  On the app (TestClient) and on ``tute serve --workers 2 --read-only``, whose two processes must
give the same ETags (the generation is read from the file, not counted in a process)."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
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
def two_workers(db: Path, temp: Path | None = None) -> Iterator[str]:
    """``tute serve --workers 2 --read-only`` over ``db`` while the block runs (with ``temp`` its temporary
    folder); its URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "TUTEPGN_SHARED_ANSWERS"} | (
        {"TMPDIR": str(temp)} if temp else {})
    process = subprocess.Popen([str(TUTE), "serve", "--db", str(db), "--read-only", "--workers", "2", "--port",
                                str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                               env=env)
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
    temp = tmp_path / "temp"
    temp.mkdir()
    with two_workers(db, temp) as url:
        deal = a_deal(httpx.Client(base_url=url, timeout=30))
        paths = (f"{API}/deals?sort=id", f"{API}/stats", f"/deals/{deal}", f"{API}/deals/{deal}")
        served = {path: tags(url, path) for path in paths}
        (shared,) = temp.glob("tutepgn-serve-*/answers.sqlite")  # the workers' shared answers
        with sqlite3.connect(shared) as con:
            assert con.execute("SELECT count(*) FROM answers").fetchone()[0] >= len(paths)
    assert all(len(found) == 1 for found in served.values()), served
    assert list(temp.iterdir()) == []  # the folder went with the service
    later = tmp_path / "later.tpgn"
    later.write_text(LATER, encoding="utf-8")
    with Archive(db) as archive:  # the service stopped: written by another process, as tute import does
        archive.import_sources([later])
    with two_workers(db) as url:
        moved = {path: tags(url, path) for path in paths}
    assert moved[f"{API}/deals/{deal}"] == served[f"{API}/deals/{deal}"]
    assert all(moved[p] != served[p] and len(moved[p]) == 1 for p in paths[:3]), (served, moved)


def test_the_workers_share_what_they_kept_through_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two apps over one archive and one shared file, as two workers of ``tute serve --workers 2``: what one made,
    the other sends, the same bytes and ETag, without running the route."""
    db = archive_of(tmp_path / "archive.duckdb")
    copy = tmp_path / "copy.duckdb"  # a byte copy (its id and generation too): one process opens a file once
    shutil.copyfile(db, copy)
    apps = [create_app(Settings(db=path, read_only=True, shared_answers=tmp_path / "answers.sqlite"))
            for path in (db, copy)]
    try:
        first, second = (TestClient(app) for app in apps)
        deal = a_deal(first)
        made = [first.get(path) for path in (f"{API}/deals/{deal}.tpgn", f"{API}/deals/{deal}", f"{API}/stats")]
        reads: list[int] = []
        real_text, real_row = Archive.text, Archive.row
        monkeypatch.setattr(Archive, "text", lambda self, d: reads.append(d) or real_text(self, d))
        monkeypatch.setattr(Archive, "row", lambda self, d, *a: reads.append(d) or real_row(self, d, *a))
        sent = [second.get(path) for path in (f"{API}/deals/{deal}.tpgn", f"{API}/deals/{deal}", f"{API}/stats")]
        assert reads == []  # no route ran: every answer came from the file
        for a, b in zip(made, sent):
            assert b.status_code == 200 and b.content == a.content and b.headers["etag"] == a.headers["etag"]
            assert b.headers["x-request-id"] != a.headers["x-request-id"]  # the request id is each request's own
        other = second.get(f"{API}/deals/{deal}/sheet")  # never asked of the first: made here
        assert other.status_code == 200 and len(reads) == 1
    finally:
        for app in apps:
            app.state.service.close()


def test_a_shared_file_that_fails_is_a_miss_never_a_failed_answer(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    from tutepgn.api.caching import Shared, open_shared

    assert open_shared(tmp_path / "answers.sqlite", 0) is None and not (tmp_path / "answers.sqlite").exists()  # off
    assert open_shared(tmp_path / "no" / "such" / "folder.sqlite", 1 << 20) is None  # logged, served without
    assert "answered without" in caplog.text
    db = archive_of(tmp_path / "archive.duckdb")
    app = create_app(Settings(db=db, read_only=True, shared_answers=tmp_path / "answers.sqlite"))
    try:
        client = TestClient(app)
        deal = a_deal(client)
        assert client.get(f"{API}/deals/{deal}.tpgn").status_code == 200
        broken = Shared(tmp_path / "answers.sqlite", 1 << 20)
        broken.con.execute("DROP TABLE answers")  # under the workers' feet
        caplog.clear()
        for path in (f"{API}/deals/{deal}", f"{API}/deals/{deal}/sheet", f"{API}/deals/{deal}.tpgn"):
            assert client.get(path).status_code == 200, path
        assert caplog.text.count("answered without") == 1  # said once, not for every request
    finally:
        app.state.service.close()


def test_the_shared_file_keeps_the_newest_answers_within_its_size(tmp_path: Path) -> None:
    from tutepgn.api.caching import Shared

    shared = Shared(tmp_path / "answers.sqlite", 1 << 20)
    headers = ((b"content-type", b"text/plain; charset=utf-8"), (b"etag", b'"abc"'))
    body = b"x" * 10_000
    for n in range(Shared.TRIM_EVERY * 2):
        shared.put((f'"{n}"', "", ""), (headers, body))
    size = shared.con.execute("SELECT sum(size) FROM answers").fetchone()[0]
    assert size <= 1 << 20
    assert shared.get(('"0"', "", "")) is None  # the oldest went first
    newest = (f'"{Shared.TRIM_EVERY * 2 - 1}"', "", "")
    assert shared.get(newest) == (headers, body)  # headers and body as they were put
    assert Shared(tmp_path / "answers.sqlite", 1 << 20).get(newest) == (headers, body)  # and for another worker
