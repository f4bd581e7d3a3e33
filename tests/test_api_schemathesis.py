"""Property-based test of the HTTP service against its own OpenAPI document (schemathesis).

Every operation of ``/openapi.json`` gets generated requests (valid and not),
search filters and posted text bodies included, with a valid API key so the
import endpoint gets past its key check.  No request may end in a 5xx, and
every error is a problem+json document.  Bounded: 30 examples per operation and mode,
derandomized, so it runs the same way every time and quickly.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from tutepgn.api.app import Settings, create_app

from tutepgn.archive import Archive

ROOT = Path(__file__).resolve().parent.parent
KEY = "schemathesis-test-key"
EXAMPLES = int(os.environ.get("TUTEPGN_SCHEMATHESIS_EXAMPLES", "30"))
"""Examples per operation and mode; raise it for a deeper run."""


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("schemathesis") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((ROOT / "samples").rglob("*.tpgn")))
    app = create_app(Settings(db=db, api_keys=frozenset({KEY}), max_body_bytes=64 * 1024, max_page=100,
                              query_timeout=5.0))
    yield schemathesis.openapi.from_asgi("/openapi.json", app)
    app.state.archive.close()


def _check(case: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        response = case.call(headers={"X-API-Key": KEY})
    case.validate_response(response, checks=[not_a_server_error])
    if response.status_code >= 400:
        assert response.headers["content-type"][0].startswith("application/problem+json"), response.text
        body = response.json()
        assert set(body) == {"type", "title", "status", "detail", "instance", "errors", "request_id"}, body
        assert body["status"] == response.status_code
        assert "Traceback" not in response.text


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
def test_no_server_errors(api_schema: Any, mode: Any) -> None:
    """Every operation, requests that fit the schema (positive) and requests that do not (negative).

    schemathesis' own pytest integration (``from_fixture``) does not run under pytest 9, so the
    operations are driven here, one Hypothesis run each; every failing operation is reported.
    """
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 14
    for operation in operations:
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case: Any) -> None:
            _check(case)

        try:
            run()
        except Unsatisfiable:  # nothing to make invalid (no parameters, or only free strings)
            assert mode is GenerationMode.NEGATIVE, operation.label
        except Exception as exc:  # noqa: BLE001 - collect every operation's failure, then fail once
            failures.append(f"{operation.label}: {type(exc).__name__}: {exc}")
    assert not failures, "\n\n".join(failures)
