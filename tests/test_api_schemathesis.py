"""Property-based test of the HTTP service against its own OpenAPI document (schemathesis), with every check.

Every operation of ``/openapi.json`` gets generated requests (valid and not),
search filters and posted bodies included, with a valid API key so the writes
get past their key check, and every answer is held to every check schemathesis
has (the CLI's ``-c all``): no 5xx, every status, media type, header and body as
documented, schema-valid requests accepted, invalid ones refused, the key
enforced, undocumented methods answered 405.  Bounded: a few examples per
operation and mode, derandomized, so it runs the same way every time.

The exclusions, each for a reason the schema cannot express:

* ``positive_data_acceptance`` takes 422 as an answer to a valid request on the
  operations whose inputs have rules no JSON Schema says: posted records (the
  notation's grammar and the rules of Tute), a recording's entries and start
  (a legal card, a deal's cards), an event's tables and boards, a puzzle's
  answer, and the search filters that name a player (a name must have letters)
  or whose pairs constrain each other (``seat`` needs ``player``), and 404 on
  anything looked up by id or name (a generated id names nothing stored) and
  409 on a closed recording;
* ``negative_data_rejection`` takes 413 too: a generated body over the service's
  limit is refused for its size before it is read;
* ``negative_data_rejection`` is off on the operations that take the search
  filters: each filter is documented as its type or an empty value (no filter),
  an ``anyOf``, and schemathesis' negative generation can send a value that fits
  the other branch while it reports the branch it broke (seen: ``max_cost=190.0``
  "violates enum" and answered 200, rightly); the filters' refusals of bad values
  are tested in tests/test_api.py (test_search_refuses_bad_filters_with_located_errors);
* ``use_after_free``, ``ensure_resource_availability`` and
  ``object_level_authorization`` are stateful checks: they need links between
  operations and a stateful run, which this test does not make (the API tests
  cover creating and reading back each resource).
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
from schemathesis.config import PositiveDataAcceptanceConfig
from schemathesis.config._checks import NegativeDataRejectionConfig  # not re-exported by schemathesis.config
from schemathesis.config._auth import AuthConfig  # not re-exported by schemathesis.config
from schemathesis.specs.openapi.checks import negative_data_rejection
from tutepgn.api.app import Settings, create_app

from tutepgn.archive import Archive

ROOT = Path(__file__).resolve().parent.parent
KEY = "schemathesis-test-key"
EXAMPLES = int(os.environ.get("TUTEPGN_SCHEMATHESIS_EXAMPLES", "12"))
"""Examples per operation and mode; raise it for a deeper run (48 operations, two modes: about a minute)."""
STATEFUL = ["use_after_free", "ensure_resource_availability", "object_level_authorization"]
"""Checks of a stateful run, left out (see the module's docstring)."""
RULED_INPUTS = {"analyse_record", "validate_records", "convert_records", "import_records", "replay_records",
                "start_recording", "enter_entry", "start_next_deal", "undo_entry", "create_event", "add_entrants",
                "pair_round", "set_result", "set_board", "answer_puzzle", "analyse_deal", "start_table",
                "enter_on_table", "next_on_table"}
"""Operations whose valid-looking inputs may break a rule no schema says: a 422 is a right answer."""


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("schemathesis") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((ROOT / "samples").rglob("*.tpgn")))
    app = create_app(Settings(db=db, api_keys=frozenset({KEY}), max_body_bytes=64 * 1024, max_page=100,
                              query_timeout=5.0))
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    schema.config.checks.update(included_check_names=["all"], excluded_check_names=STATEFUL)
    schema.config.checks.negative_data_rejection = NegativeDataRejectionConfig(expected_statuses=REJECTED)
    schema.config.auth = AuthConfig(openapi={"APIKey": {"api_key": KEY}})  # the key by the security scheme
    yield schema
    app.state.archive.close()


REJECTED = [*NegativeDataRejectionConfig().expected_statuses, "413"]
"""How an invalid request may be refused: schemathesis' list, and 413 (a generated body over the service's limit
is refused for its size before anything reads it)."""


def filtered(operation: Any) -> bool:
    """Whether ``operation`` takes the search filters (``player`` is one of them)."""
    return any(p["name"] == "player" for p in operation.definition.raw.get("parameters", []))


def expected(operation: Any) -> list[str]:
    """What a schema-valid request to ``operation`` may be answered with (see the module's docstring)."""
    name = operation.definition.raw["operationId"]
    statuses = ["2XX", "401", "403"]  # 401 and 403: the request sent without the key (ignored_auth's probe)
    if "{" in operation.path:
        statuses.append("404")  # a generated id or name finds nothing stored
    if name in RULED_INPUTS:
        statuses += ["404", "409", "422"]
    if filtered(operation):
        statuses.append("422")  # the search filters: a name must have letters; `seat` needs `player`...
    return statuses


def _check(case: Any, excluded: list[Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        response = case.call_and_validate(excluded_checks=excluded)
    if response.status_code >= 400:
        assert response.headers["content-type"][0].startswith("application/problem+json"), response.text
        body = response.json()
        assert set(body) == {"type", "title", "status", "detail", "instance", "errors", "request_id"}, body
        assert body["status"] == response.status_code
        assert "Traceback" not in response.text


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
def test_every_check(api_schema: Any, mode: Any) -> None:
    """Every operation, requests that fit the schema (positive) and requests that do not (negative), every check.

    schemathesis' own pytest integration (``from_fixture``) does not run under pytest 9, so the
    operations are driven here, one Hypothesis run each; every failing operation is reported.
    """
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 40
    for operation in operations:
        config = api_schema.config.checks
        config.positive_data_acceptance = PositiveDataAcceptanceConfig(expected_statuses=expected(operation))
        excluded = [negative_data_rejection] if filtered(operation) else []

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case: Any) -> None:
            _check(case, excluded)

        try:
            run()
        except Unsatisfiable:  # nothing to make invalid (no parameters, or only free strings)
            assert mode is GenerationMode.NEGATIVE, operation.label
        except Exception as exc:  # noqa: BLE001 - collect every operation's failure, then fail once
            failures.append(f"{operation.label}: {type(exc).__name__}: {exc}")
    assert not failures, "\n\n".join(failures)
