"""Live recordings within limits (issue 31, item 6): event streams apart from downloads, a cap on recordings
under way, tags and sizes as the archive reads them, undo for the key that started a recording only, and
entries that change nothing neither counted nor journaled."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from threaded import serving
from tutepgn.recording import live
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.limits import max_record_bytes
from tutepgn.notation import read_record

from test_live_api import sample_start

KEY, OTHER, ADMIN = "tk_scorer", "tk_other_scorer", "tk_admin"
KEYS = {"api_keys": frozenset({KEY, OTHER}), "admin_keys": frozenset({ADMIN})}


def app_over(db: Path, **settings: Any) -> Any:
    if not db.exists():
        Archive(db).close()
    return create_app(Settings(db=db, **{**KEYS, **settings}))


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "archive.duckdb"


@pytest.fixture()
def client(db: Path) -> Iterator[TestClient]:
    app = app_over(db)
    yield TestClient(app)
    app.state.archive.close()


def start(client: TestClient, key: str = KEY, **changes: Any) -> Any:
    body, _ = sample_start()
    for name, value in changes.items():
        body[name] = {**body[name], **value} if isinstance(value, dict) else value
    return client.post("/api/v1/recordings", json=body, headers={"X-API-Key": key})


def enter(client: TestClient, rid: str, entry: str, key: str = KEY) -> Any:
    return client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": entry}, headers={"X-API-Key": key})


# -- Event streams have a budget of their own ----------------------------------------------------------------
@pytest.fixture()
def server(db: Path) -> Iterator[str]:
    app = app_over(db, max_event_streams=70)  # max_streams stays 64, the downloads' budget
    with serving(app) as url:
        yield url


def test_70_anonymous_event_streams_leave_downloads_answering(server: str) -> None:
    """64 event streams made every download answer 503 (one budget for both); now they have their own, and
    one past it is refused with Retry-After."""
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=0)
    with httpx.Client(base_url=server, timeout=10, limits=limits) as http, contextlib.ExitStack() as streams:
        rid = http.post("/api/v1/recordings", json=sample_start()[0], headers={"X-API-Key": KEY}).json()["id"]
        followers = []  # each stream's lines, kept: a line iterator closed closes its connection
        for _ in range(70):
            stream = streams.enter_context(http.stream("GET", f"/api/v1/recordings/{rid}/events"))
            assert stream.status_code == 200
            followers.append(stream.iter_lines())
            assert any(line == "event: state" for line in followers[-1]), "no first state"
        one_more = http.get(f"/api/v1/recordings/{rid}/events")
        assert one_more.status_code == 503 and one_more.headers["retry-after"]
        assert "event streams are open" in one_more.json()["detail"]
        for url in ("/api/v1/deals.ndjson", "/api/v1/deals.csv", "/api/v1/deals.tpgn"):
            assert http.get(url).status_code == 200, url


# -- Recordings under way are capped -------------------------------------------------------------------------
def test_recordings_under_way_are_capped_and_a_finished_one_frees_its_place(db: Path) -> None:
    app = app_over(db, max_recordings=2)
    client = TestClient(app)
    first, second = (start(client).json()["id"] for _ in range(2))
    refused = start(client)
    assert refused.status_code == 503 and refused.headers["retry-after"]
    assert refused.headers["content-type"] == "application/problem+json"
    assert "2 recordings are under way" in refused.json()["detail"]
    assert "TUTEPGN_MAX_RECORDINGS" in refused.json()["detail"]
    assert len(list((db.parent / "archive.duckdb.recordings").glob("*.jsonl"))) == 2, "nothing written"
    for entry in sample_start()[1]:  # the first deal played to the end: in the archive, no longer under way
        assert enter(client, first, entry).status_code == 200
    assert client.get(f"/api/v1/recordings/{first}").json()["deal_id"] is not None
    third = start(client)
    assert third.status_code == 201
    app.state.archive.close()
    again = TestClient(app_over(db, max_recordings=2))  # restored on a restart, still counted
    assert start(again).status_code == 503
    assert {second, third.json()["id"]} <= set(again.app.state.service.recordings.live)  # type: ignore[attr-defined]
    again.app.state.archive.close()  # type: ignore[attr-defined]


# -- Tags and sizes as the archive reads them ----------------------------------------------------------------
@pytest.mark.parametrize("changes, words", [
    ({"players": {"N": "Ana\nBelén"}}, "the North tag holds a line break"),
    ({"tags": {"Event": "Club\rnight"}}, "the Event tag holds a line break"),
    ({"tags": {"My Tag": "x"}}, "'My Tag' is not a tag name"),
    ({"tags": {"_private": "x"}}, "is not a tag name"),
    ({"tags": {"DealNo": "two"}}, "[DealNo] 'two' is not a whole number"),
    ({"tags": {"MatchTarget": "99999999999"}}, "out of range"),
    ({"tags": {"Event": "x" * 8000}}, "TUTEPGN_MAX_RECORD_BYTES"),
])
def test_a_tag_the_archive_could_not_read_back_is_refused_at_the_start(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, changes: dict[str, Any], words: str) -> None:
    monkeypatch.setenv("TUTEPGN_MAX_RECORD_BYTES", "8192")
    max_record_bytes.cache_clear()
    try:
        r = start(client, **changes)
    finally:
        monkeypatch.delenv("TUTEPGN_MAX_RECORD_BYTES")
        max_record_bytes.cache_clear()
    assert r.status_code == 422 and words in r.json()["detail"], r.text


def test_what_is_accepted_live_is_stored_readable_and_valid(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTEPGN_MAX_RECORD_BYTES", "8192")
    max_record_bytes.cache_clear()
    odd = {"Event": 'The "Club" night \\ ] {x} ; 漢 😀\t' + "y" * 4000, "Site": "", "Round": "?"}
    try:
        r = start(client, tags=odd, players={"N": "María \"la\" Ruiz"})
        assert r.status_code == 201, r.text
        rid = r.json()["id"]
        for entry in sample_start()[1]:
            assert enter(client, rid, entry).status_code == 200
        state = client.get(f"/api/v1/recordings/{rid}").json()
        assert state["valid"] is True
        stored = client.get(f"/api/v1/deals/{state['deal_id']}").json()
        assert stored["state"] == "valid" and stored["summary"]["valid"] is True and stored["errors"] == []
        record = read_record(client.get(f"/api/v1/deals/{state['deal_id']}.tpgn").text)
        assert record.tags["Event"] == odd["Event"] and record.tags["North"] == "María \"la\" Ruiz"
    finally:
        monkeypatch.delenv("TUTEPGN_MAX_RECORD_BYTES")
        max_record_bytes.cache_clear()


# -- Undo: the key that started the recording, or an admin key -----------------------------------------------
def test_only_the_starting_key_or_an_admin_key_may_undo(db: Path) -> None:
    app = app_over(db)
    client = TestClient(app)
    rid = start(client).json()["id"]
    entries = sample_start()[1]
    for entry in entries[:3]:
        assert enter(client, rid, entry, key=OTHER).status_code == 200  # any scorer may enter
    for refused in (client.post(f"/api/v1/recordings/{rid}/undo", headers={"X-API-Key": OTHER}),
                    enter(client, rid, "undo", key=OTHER), enter(client, rid, " UNDO 2 ", key=OTHER)):
        assert refused.status_code == 403 and "only the key that started" in refused.json()["detail"]
    assert client.get(f"/api/v1/recordings/{rid}").json()["entries"] == 3
    journal = db.parent / "archive.duckdb.recordings" / f"{rid}.jsonl"
    first = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    assert first["owner"] == hashlib.sha256(KEY.encode()).hexdigest()
    assert KEY not in journal.read_text(encoding="utf-8"), "the key itself is never journaled"
    assert client.post(f"/api/v1/recordings/{rid}/undo", headers={"X-API-Key": KEY}).status_code == 200
    app.state.archive.close()
    again = TestClient(app_over(db))  # restored: the owner is read back from the journal
    assert again.post(f"/api/v1/recordings/{rid}/undo", headers={"X-API-Key": OTHER}).status_code == 403
    assert enter(again, rid, "undo", key=ADMIN).status_code == 200
    assert again.post(f"/api/v1/recordings/{rid}/undo", headers={"X-API-Key": KEY}).status_code == 200
    assert again.get(f"/api/v1/recordings/{rid}").json()["plays"] == []
    again.app.state.archive.close()  # type: ignore[attr-defined]


def test_undo_0_is_an_error_and_takes_nothing_back(client: TestClient) -> None:
    rid = start(client).json()["id"]
    assert enter(client, rid, sample_start()[1][0]).status_code == 200
    r = enter(client, rid, "undo 0")
    assert r.status_code == 422 and "undo 0 takes nothing back" in r.json()["detail"]
    state = client.get(f"/api/v1/recordings/{rid}").json()
    assert state["entries"] == 1 and len(state["plays"]) == 1


# -- Entries that change nothing -----------------------------------------------------------------------------
def test_entries_that_change_nothing_are_not_counted_nor_journaled(client: TestClient, db: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "MAX_ENTRIES", 2)
    rid = start(client).json()["id"]
    journal = db.parent / "archive.duckdb.recordings" / f"{rid}.jsonl"
    lines = journal.read_bytes()
    for text in ("{a comment}", "; a comment", "{x} ; y", "   "):
        r = enter(client, rid, text)
        assert r.status_code == 422 and "a comment alone" in r.json()["detail"], (text, r.text)
    for text in ("?", "help"):
        assert enter(client, rid, text).status_code == 200
    assert journal.read_bytes() == lines, "nothing journaled"
    assert client.get(f"/api/v1/recordings/{rid}").json()["entries"] == 0
    entries = sample_start()[1]
    for entry in entries[:2]:  # the two entries the cap allows are still there
        assert enter(client, rid, f"{entry} {{well played}}").status_code == 200
    assert enter(client, rid, "?").status_code == 200  # asking is answered at the cap
    over = enter(client, rid, entries[2])
    assert over.status_code == 422 and "the most one may hold" in over.json()["detail"]
    assert len(journal.read_bytes().splitlines()) == 3
