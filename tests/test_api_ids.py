"""Deal ids a program can keep: strings in every JSON answer (63 bits outlive no JavaScript number), what an import
did with each record it was posted, and a filter on any tag (`tag=Event:Liga*`), over the file, the service, the
command line and a Parquet dataset alike."""

from __future__ import annotations

import io
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive, DealSummary, SearchFilters, deal_id
from tutepgn.archive.dataset import dataset_archive, import_dataset
from tutepgn.archive.ids import ID_SCHEMA
from tutepgn.cli.main import app as cli
from tutepgn.notation import iter_raw_records, parse_record
from tutepgn.recording.simulate import deal_records
from tutepgn.rules import preset

KEY = "tk_ids_0123456789abcdef"
DIGITS = re.compile(r"^[0-9]+$")
EVENTS = ["Liga de Otoño 2026", "Liga de Primavera", "Copa del Rey", "liga local", "Torneo Liga*"]
"""The Event tags of the deals, one each: `Liga*` matches the first two (and, in any case, the fourth)."""


def _records() -> list[str]:
    """Five 2-player deals, each of its own Event (and the first two of Site "Bar Paco")."""
    texts = []
    for i, (event, record) in enumerate(zip(EVENTS, deal_records(preset("playcard-2p"), len(EVENTS), seed=36))):
        text = record.tpgn().replace('[Event "Simulated deals"]', f'[Event "{event}"]')
        texts.append(text.replace('[Site "tutepgn simulator"]', '[Site "Bar Paco"]') if i < 2 else text)
    return texts


def _invalid(text: str) -> str:
    """The record with a Score tag its play does not make: read, stored, flagged invalid."""
    score = re.search(r'\[Score "N:(\d+) S:(\d+)"\]', text)
    assert score is not None
    north, south = int(score.group(1)), int(score.group(2))
    return text.replace(score.group(0), f'[Score "N:{north + 1} S:{south - 1}"]')


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=tmp_path / "ids.duckdb", api_keys=frozenset({KEY})))
    yield TestClient(app, raise_server_exceptions=False)
    app.state.service.close()


def _post(client: TestClient, texts: list[str]) -> dict[str, Any]:
    r = client.post("/api/v1/import", content="\n\n".join(texts).encode(), headers={"X-API-Key": KEY})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_an_import_answers_each_record_its_id_and_state_in_order(client: TestClient) -> None:
    texts = _records()
    bad = _invalid(texts[2])
    first = _post(client, [texts[0], texts[1], texts[0], bad])
    expected = [str(deal_id(parse_record(t).tpgn())[0]) for t in (texts[0], texts[1], texts[0])]
    assert [i["index"] for i in first["items"]] == [0, 1, 2, 3]
    assert [i["state"] for i in first["items"]] == ["added", "added", "already", "invalid"]
    assert [i["id"] for i in first["items"][:3]] == expected  # the repeat names the deal stored once
    assert all(isinstance(i["id"], str) and DIGITS.match(i["id"]) for i in first["items"])
    assert (first["records"], first["added"], first["invalid"]) == (4, 3, 1)
    for item in first["items"]:  # every id answered is a deal to fetch, flagged as the import said
        deal = client.get(f"/api/v1/deals/{item['id']}")
        assert deal.status_code == 200 and deal.json()["summary"]["id"] == item["id"]
        assert deal.json()["summary"]["valid"] is (item["state"] != "invalid")
    again = _post(client, [texts[1], bad, texts[3]])
    assert [(i["index"], i["state"]) for i in again["items"]] == [(0, "already"), (1, "already"), (2, "added")]
    assert again["items"][1]["id"] == first["items"][3]["id"]


def test_the_library_lists_items_only_when_asked_and_skipped_records_have_no_id(tmp_path: Path) -> None:
    texts = _records()
    raw = list(iter_raw_records([io.StringIO("\n\n".join([texts[0], _invalid(texts[1]), texts[0]]))]))
    with Archive(tmp_path / "lib.duckdb") as archive:
        assert archive.import_raw(raw[:1]).items is None  # the command line's imports keep no list
        summary = archive.import_raw(raw, skip_invalid=True, items=True)
        assert summary.items is not None
        assert [(i.index, i.state) for i in summary.items] == [(0, "already"), (1, "skipped"), (2, "already")]
        assert summary.items[1].id is None and summary.items[0].id == summary.items[2].id == archive.ids().to_pylist()[0]
        assert summary.to_dict()["items"] == [{"index": 0, "id": str(summary.items[0].id), "state": "already"},
                                             {"index": 1, "id": None, "state": "skipped"},
                                             {"index": 2, "id": str(summary.items[0].id), "state": "already"}]


def test_ids_are_strings_in_json_and_numbers_in_python(client: TestClient) -> None:
    _post(client, _records())
    with client.app.state.archive.reader() as view:  # type: ignore[attr-defined]
        library = [row["id"] for row in view.search(sort="id", limit=None, columns=("id",))]
    big = max(library)
    assert big > 2**53  # past what a JavaScript number holds exactly: the case this is for
    page = client.get("/api/v1/deals", params={"sort": "id", "limit": 50}).json()
    assert [d["id"] for d in page["items"]] == [str(i) for i in library]
    lines = client.get("/api/v1/deals.ndjson", params={"sort": "id"}).text.splitlines()
    assert [json.loads(line)["id"] for line in lines] == [str(i) for i in library]
    assert DealSummary.model_validate_json(lines[-1]).id == big  # read back (ServiceArchive) as the int it is
    assert DealSummary.model_validate_json(lines[-1]).to_row()["id"] == big
    for path in (f"/api/v1/deals/{big}", f"/api/v1/deals/{big}.tpgn", f"/deals/{big}"):
        assert client.get(path).status_code == 200, path
    assert client.get(f"/api/v1/deals/{big}").json()["summary"]["id"] == str(big)
    schema = client.get("/openapi.json").json()
    props = schema["components"]["schemas"]
    assert {k: props["DealSummary"]["properties"]["id"][k] for k in ("type", "pattern")} == {
        "type": "string", "pattern": ID_SCHEMA["pattern"]}
    assert ID_SCHEMA in props["AnalysisJob"]["properties"]["deal"]["anyOf"]
    assert ID_SCHEMA in props["ImportItem"]["properties"]["id"]["anyOf"]
    path = schema["paths"]["/api/v1/deals/{deal_id}"]["get"]["parameters"][0]
    assert (path["name"], path["schema"]["type"], path["schema"]["format"]) == ("deal_id", "integer", "int64")


def _events(rows: list[dict[str, Any]], view: Any) -> set[str]:
    return {parse_record(view.text(row["id"])).tags["Event"] for row in rows}


@pytest.mark.parametrize("tags, events", [
    (["Event:Liga*"], {EVENTS[0], EVENTS[1], EVENTS[3]}),  # any case, as the other text filters
    (["Event:Liga de ?to*"], {EVENTS[0]}),
    (["Event:Liga*", "Site:Bar Paco"], {EVENTS[0], EVENTS[1]}),  # repeated: all must match
    (["Event:*Liga\\*"], set()),  # a backslash is itself: no escape
    (["Event:Torneo Liga*"], {EVENTS[4]}),
    (["Event:%"], set()),  # LIKE's wildcards are themselves
    (["Round:3", "Event:Copa*"], {EVENTS[2]}),
    (["Round:1", "Event:Copa*"], set()),
    (["Board:*"], set()),  # a tag the records lack matches nothing
])
def test_the_tag_filter_over_the_file_the_dataset_the_service_and_the_command_line(
        tmp_path: Path, tags: list[str], events: set[str]) -> None:
    text = "\n\n".join(_records())
    db, pq = tmp_path / "tags.duckdb", tmp_path / "pq"
    with Archive(db) as archive:
        archive.import_sources([io.StringIO(text)])
        f = SearchFilters(tag=tags)
        assert _events(archive.search(f, limit=None), archive) == events
    import_dataset(pq, iter_raw_records([io.StringIO(text)]), ["<test>"])
    with dataset_archive(pq) as dataset:
        assert _events(dataset.search(f, limit=None), dataset) == events
    found = CliRunner().invoke(cli, ["search", "--db", str(db), "--format", "json", "--limit", "50",
                                     *[a for t in tags for a in ("--tag", t)]])
    assert found.exit_code == 0, found.output
    app = create_app(Settings(db=db, read_only=True))
    try:
        answer = TestClient(app).get("/api/v1/deals", params=[("tag", t) for t in tags])
        assert answer.status_code == 200, answer.text
        ids = {d["id"] for d in answer.json()["items"]}
        assert ids == {str(r["id"]) for r in json.loads(found.stdout)}
        assert _events([{"id": int(i)} for i in ids], app.state.archive) == events
    finally:
        app.state.service.close()


@pytest.mark.parametrize("bad", ["Liga*", ":Liga", "1Event:x", "Ev ent:x"])
def test_a_tag_filter_without_a_name_is_refused_where_it_is_given(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValueError, match="NAME:PATTERN"):
        SearchFilters(tag=[bad])
    db = tmp_path / "empty.duckdb"
    Archive(db).close()
    app = create_app(Settings(db=db, read_only=True))
    try:
        r = TestClient(app).get("/api/v1/deals", params={"tag": bad})
        assert r.status_code == 422 and r.json()["errors"][0]["text"].startswith("query.tag")
    finally:
        app.state.service.close()
    refused = CliRunner().invoke(cli, ["search", "--db", str(db), "--tag", bad])
    assert refused.exit_code == 2 and "--tag" in refused.output
