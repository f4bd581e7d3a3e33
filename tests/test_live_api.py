"""Deals recorded live through the service: start, entries, refusals, undo, the write key, spectators, the
journal (restored on a new app over the same folder), the import of the finished deal, and the event stream
(over a real uvicorn server: a stream outlives the request time limit and counts against ``max_streams``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from threaded import serving, states
from tutepgn.recording import live
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.notation import read_record
from tutepgn.check.replay import frames

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "torofun-4p-lost-cante.tpgn"
KEY = "tk_live_test"
WRITE = {"X-API-Key": KEY}


def sample_start() -> tuple[dict[str, Any], list[str]]:
    """How to record the sample deal (its rules, dealer, hands and turned card), and its events in order."""
    record = read_record(SAMPLE.read_text(encoding="utf-8"))
    tags = record.tags
    start = {"rules": tags["Rules"], "dealer": tags["Dealer"], "deal": tags["Deal"], "turned": tags["Trump"],
             "players": {"N": tags["North"], "W": tags["West"], "S": tags["South"], "E": tags["East"]},
             "tags": {"Event": tags["Event"], "Site": tags["Site"], "Round": tags["Round"]}}
    return start, [f.text for f in frames(record)][1:]


def make_app(db: Path, **settings: Any) -> Any:
    if not db.exists():
        Archive(db).close()
    return create_app(Settings(db=db, api_keys=frozenset({KEY}), **settings))


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "archive.duckdb"


@pytest.fixture()
def client(db: Path) -> Iterator[TestClient]:
    app = make_app(db)
    yield TestClient(app)
    app.state.archive.close()


def started(client: TestClient) -> str:
    start, _ = sample_start()
    r = client.post("/api/v1/recordings", json=start, headers=WRITE)
    assert r.status_code == 201, r.text
    assert r.headers["location"] == f"/api/v1/recordings/{r.json()['id']}"
    return str(r.json()["id"])


def test_a_deal_recorded_entry_by_entry_is_validated_and_imported(client: TestClient) -> None:
    rid = started(client)
    state = client.get(f"/api/v1/recordings/{rid}").json()
    assert (state["to_move"], state["entries"], state["tags"]["North"]) == ("S", 0, "Carmen Yebra")
    assert "Deal" not in state["tags"], "no hand is shown while the deal is played"
    assert len(state["pack"]) == 40 and state["plays"] == []
    _, entries = sample_start()
    for n, text in enumerate(entries, 1):
        r = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": text}, headers=WRITE)
        assert r.status_code == 200, r.text
        assert r.json()["state"]["entries"] == n
    state = r.json()["state"]
    assert state["over"] and state["valid"] is True and state["totals"] == [59, 91] and state["result"] == "WE+1"
    assert len(state["tricks"]) == 10 and len(state["plays"]) == 40 and state["cantes"]
    assert state["deal_url"] == f"/deals/{state['deal_id']}"
    stored = client.get(f"/api/v1/deals/{state['deal_id']}.tpgn").text
    sample = read_record(SAMPLE.read_text(encoding="utf-8"))
    record = read_record(stored)
    assert record.tags["Deal"] == sample.tags["Deal"] and record.tags["Score"] == sample.tags["Score"]
    assert client.get(f"/live/{rid}").status_code == 200
    # The recording is closed: its deal is in the archive.
    closed = client.post(f"/api/v1/recordings/{rid}/undo", headers=WRITE)
    assert closed.status_code == 409 and str(state["deal_id"]) in closed.json()["detail"]
    assert closed.headers["content-type"] == "application/problem+json"


def test_a_closed_recording_is_restored_when_it_is_asked_for(db: Path) -> None:
    app = make_app(db)
    client = TestClient(app)
    rid = started(client)
    for text in sample_start()[1]:
        client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": text}, headers=WRITE)
    finished = client.get(f"/api/v1/recordings/{rid}").json()
    assert finished["deal_id"] is not None
    app.state.archive.close()
    again = make_app(db)
    recordings = again.state.service.recordings
    assert rid in recordings.closed and rid not in recordings.live  # not replayed at the start
    assert TestClient(again).get(f"/api/v1/recordings/{rid}").json() == finished
    assert rid in recordings.live
    again.state.archive.close()


def test_a_refused_entry_names_its_rule_and_changes_nothing(client: TestClient) -> None:
    rid = started(client)
    r = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": "1O"}, headers=WRITE)  # W holds it, S leads
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert "does not hold 1O" in problem["detail"] and "not_held" in problem["detail"]
    assert problem["errors"][0]["text"] == "1O" and problem["errors"][0]["expected"].startswith("S may play")
    garbled = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": "hello"}, headers=WRITE)
    assert garbled.status_code == 422 and "not" in garbled.json()["detail"]
    assert client.get(f"/api/v1/recordings/{rid}").json()["entries"] == 0
    nothing = client.post(f"/api/v1/recordings/{rid}/undo", headers=WRITE)
    assert nothing.status_code == 422 and nothing.json()["detail"] == "nothing to undo"


def test_undo_takes_back_the_last_entry(client: TestClient) -> None:
    rid = started(client)
    for text in ("7E", "10E"):
        client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": text}, headers=WRITE)
    r = client.post(f"/api/v1/recordings/{rid}/undo", headers=WRITE)
    assert r.status_code == 200 and r.json()["message"] == "took back E 10E"
    state = r.json()["state"]
    assert [p["card"] for p in state["plays"]] == ["7E"] and state["to_move"] == "E" and state["entries"] == 3


def test_an_entry_of_several_cards_shows_every_card_and_is_taken_whole(db: Path) -> None:
    """A trick and a half typed in one entry: every card is in the state's events, plays and tricks (only the
    last was, and a trick the entry completed before its last card was missing).  A line refused part-way is
    taken back whole, so the journal (whole entries only) and the state agree, after a restart too."""
    app = make_app(db)
    client = TestClient(app)
    rid = started(client)
    _, entries = sample_start()
    cards = [e.split()[1] for e in entries[:6]]  # trick 1 and the first two cards of trick 2
    r = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": " ".join(cards)}, headers=WRITE)
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["entries"] == 1 and [p["card"] for p in state["plays"]] == cards
    assert [e.split()[1] for e in state["events"]] == cards
    assert [t["cards"] for t in state["tricks"]] == [cards[:4]] and [c for _, c in state["table"]] == cards[4:]
    refused = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": f"{entries[6].split()[1]} 1O"},
                          headers=WRITE)  # the first card is right; N does not hold the second
    assert refused.status_code == 422 and "nothing of this entry was recorded" in refused.json()["detail"]
    assert client.get(f"/api/v1/recordings/{rid}", headers=WRITE).json() == state
    app.state.archive.close()
    again = make_app(db)
    assert TestClient(again).get(f"/api/v1/recordings/{rid}", headers=WRITE).json() == state
    again.state.archive.close()


def test_writes_need_the_key_and_spectators_only_read(client: TestClient) -> None:
    start, _ = sample_start()
    assert client.post("/api/v1/recordings", json=start).status_code == 401
    assert client.post("/api/v1/recordings", json=start, headers={"X-API-Key": "wrong"}).status_code == 403
    rid = started(client)
    for headers, status in (({}, 401), ({"X-API-Key": "wrong"}, 403)):
        assert client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": "7E"},
                           headers=headers).status_code == status
        assert client.post(f"/api/v1/recordings/{rid}/undo", headers=headers).status_code == status
    spectator = client.get(f"/api/v1/recordings/{rid}")
    assert spectator.status_code == 200 and spectator.json()["entries"] == 0
    assert client.get(f"/live/{rid}").status_code == 200 and client.get(f"/record/{rid}").status_code == 200


def test_bad_starts_are_refused_in_words(client: TestClient) -> None:
    for body, words in (({"rules": "no-such-preset", "seed": 1}, "unknown ruleset"),
                        ({"rules": "torofun-4p", "seed": 1, "players": {"X": "Ana"}}, "'X' is not a seat"),
                        ({"rules": "torofun-2p", "seed": 1, "players": {"W": "Ana"}}, "seats are N S"),
                        ({"rules": "torofun-4p", "seed": 1, "tags": {"Deal": "x"}}, "not set by hand"),
                        ({"rules": "torofun-4p", "seed": 1, "deal": "N:1O"}, "not both")):
        r = client.post("/api/v1/recordings", json=body, headers=WRITE)
        assert r.status_code == 422 and words in r.json()["detail"], r.text


def test_a_read_only_service_records_nothing(db: Path) -> None:
    Archive(db).close()
    app = create_app(Settings(db=db, read_only=True, api_keys=frozenset({KEY})))
    client = TestClient(app)
    r = client.post("/api/v1/recordings", json={"rules": "torofun-4p", "seed": 1}, headers=WRITE)
    assert r.status_code == 405 and "read-only" in r.json()["detail"]
    assert not (db.parent / "archive.duckdb.recordings").exists()
    app.state.archive.close()


def test_a_new_app_over_the_same_folder_restores_every_recording(db: Path) -> None:
    app = make_app(db)
    client = TestClient(app)
    rid = started(client)
    _, entries = sample_start()
    for text in entries[:6]:
        client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": text}, headers=WRITE)
    client.post(f"/api/v1/recordings/{rid}/undo", headers=WRITE)
    before = client.get(f"/api/v1/recordings/{rid}").json()
    app.state.archive.close()
    journal = db.parent / "archive.duckdb.recordings" / f"{rid}.jsonl"
    with journal.open("ab") as handle:  # a line cut short by a crash: never acknowledged
        handle.write(b'{"entry":"6O')
    again = make_app(db)
    client = TestClient(again)
    after = client.get(f"/api/v1/recordings/{rid}").json()
    assert after == before and [p["card"] for p in after["plays"]] == [e.split()[1] for e in entries[:5]]
    assert journal.read_bytes().endswith(b"\n")  # the torn line is cut off, so the next entry has a line of its own
    r = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": entries[5]}, headers=WRITE)
    assert r.status_code == 200 and r.json()["state"]["entries"] == before["entries"] + 1
    again.state.archive.close()


def test_an_entry_that_cannot_be_saved_is_not_recorded(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    rid = started(client)

    def full_disk(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(live, "append_line", full_disk)
    r = client.post(f"/api/v1/recordings/{rid}/entries", json={"entry": "7E"}, headers=WRITE)
    assert r.status_code == 503 and "not recorded" in r.json()["detail"]
    state = client.get(f"/api/v1/recordings/{rid}").json()
    assert state["entries"] == 0 and state["plays"] == [] and state["to_move"] == "S"


# -- The event stream, over a real server --------------------------------------------------------------------
@pytest.fixture()
def server(db: Path) -> Iterator[str]:
    app = make_app(db, max_event_streams=1, request_timeout=0.5)
    with serving(app) as url:
        yield url


def test_the_event_stream_outlives_the_request_limit_and_holds_an_event_stream_slot(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        start, entries = sample_start()
        rid = http.post("/api/v1/recordings", json=start, headers=WRITE).json()["id"]
        with http.stream("GET", f"/api/v1/recordings/{rid}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            seen = states(stream.iter_lines())
            assert next(seen)["entries"] == 0
            busy = http.get(f"/api/v1/recordings/{rid}/events")  # max_event_streams=1: the slot is taken
            assert busy.status_code == 503 and busy.headers["content-type"] == "application/problem+json"
            time.sleep(1.0)  # twice the request time limit
            for n, text in enumerate(entries[:3], 1):
                assert http.post(f"/api/v1/recordings/{rid}/entries", json={"entry": text},
                                 headers=WRITE).status_code == 200
                state = next(seen)
                assert state["entries"] == n and state["plays"][-1]["text"] == text
        deadline = time.monotonic() + 5
        while True:  # the slot comes back once the client has gone
            with http.stream("GET", f"/api/v1/recordings/{rid}/events") as again:
                if again.status_code == 200:
                    assert next(states(again.iter_lines()))["entries"] == 3
                    break
            assert time.monotonic() < deadline, "the stream slot was not given back"
            time.sleep(0.1)
