"""Faults and recovery (issue 13): what the archive, the service and the CLI do when things go wrong.

Each test drives the real thing: a DuckDB file, the FastAPI app through its
TestClient, the ``tute`` command in a subprocess.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.errors import ErrorItem

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
API = "/api/v1"
UNFINISHED = (SAMPLES / "unfinished-deal.tpgn").read_text(encoding="utf-8")
SYNTAX_ERROR = UNFINISHED.replace("1. N 7B", "1. N 13X 7B", 1)
"""A record whose first trick has a card that is not one (line 15, column 6): stored flagged, never readable."""


# -- A stored record with a syntax error ------------------------------------------------------------

@pytest.fixture()
def flagged(tmp_path: Path) -> tuple[TestClient, int]:
    """A service over an archive holding one record with a syntax error (imported by the library)."""
    db = tmp_path / "flagged.duckdb"
    with Archive(db) as archive:
        summary = archive.import_sources([SAMPLES / "tutes.tpgn", __import__("io").StringIO(SYNTAX_ERROR)])
        assert summary.added == 4 and summary.invalid == 1
        (deal_id,) = archive.con.execute("SELECT id FROM deals WHERE NOT valid").fetchone()
    app = create_app(Settings(db=db))
    with TestClient(app) as client:
        yield client, deal_id
    app.state.archive.close()


def test_a_stored_record_with_a_syntax_error_is_served_as_its_text_and_located_errors(flagged) -> None:
    client, deal_id = flagged
    r = client.get(f"{API}/deals/{deal_id}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["state"] == "unreadable" and body["record"] is None
    assert body["text"] == SYNTAX_ERROR == client.get(f"{API}/deals/{deal_id}.tpgn").text
    (error,) = [ErrorItem.model_validate(e) for e in body["errors"]]
    assert (error.line, error.column, error.expected) == (15, 6, "a card")
    assert body["summary"]["valid"] is False


def test_the_sheet_of_a_record_with_a_syntax_error_is_its_report(flagged) -> None:
    client, deal_id = flagged
    r = client.get(f"{API}/deals/{deal_id}/sheet")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["valid"] is False
    assert [(e["line"], e["column"]) for e in report["parse_errors"]] == [(15, 6)]
    assert any(f["code"] == "syntax" and f["line"] == 15 for f in report["findings"])


def test_the_page_of_a_record_with_a_syntax_error_marks_the_error_in_its_text(flagged) -> None:
    client, deal_id = flagged
    r = client.get(f"/deals/{deal_id}")
    assert r.status_code == 200, r.text
    page = r.text
    assert 'id="unreadable"' in page and 'id="replay"' not in page
    line = page.split('id="line-15"', 1)[1].split("</div>", 1)[0]
    assert "1. N 13X 7B 11B 1B 4B" in line and "col 6:" in line and "unexpected character" in line
    assert page.count('class="ln bad"') == 1
