"""A typed client generated from the service's own /openapi.json (openapi-python-client) works against it.

The test does what a platform would: it starts a real ``tute serve`` over an
empty archive, generates a client from the document that service serves, imports
it, and with it imports records (as JSON, with the key), searches page by page
(the ``next`` cursor), reads one deal by the id the search gave, runs an analysis
job to its end (202, then polling the job), and reads a 422 as the ``Problem``
model.  Any drift between what the document says and what the service answers
fails here: the generated code parses every answer by the document.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from served import tute_serve

from tutepgn.notation.convert import convert

ROOT = Path(__file__).resolve().parent.parent
KEY = "client-test-key"
GENERATOR = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent)) or shutil.which(
    "openapi-python-client")
POLL_SECONDS = 600
"""The most an analysis job is polled for (a 4-player deal with PIMC's worlds takes seconds; the machine may be
busy)."""


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``tute serve`` over an empty archive, with a key, on a free port: its base URL."""
    folder = tmp_path_factory.mktemp("client-service")
    env = {**os.environ, "TUTEPGN_DB": str(folder / "archive.duckdb"), "TUTEPGN_API_KEYS": KEY}
    with tute_serve([], folder, env) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def generated(service: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client openapi-python-client makes from the running service's /openapi.json, imported."""
    if GENERATOR is None:
        pytest.skip("openapi-python-client is not installed (the test extra: pip install -e '.[test]')")
    folder = tmp_path_factory.mktemp("client")
    document = folder / "openapi.json"
    document.write_text(httpx.get(f"{service}/openapi.json").text, encoding="utf-8")
    run = subprocess.run([GENERATOR, "generate", "--path", str(document), "--meta", "none", "--output-path",
                          str(folder / "tutepgn_client")], cwd=folder, capture_output=True, text=True, check=False,
                         env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    # (this venv's ruff on the PATH: the generator formats what it writes with it)
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("tutepgn_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "tutepgn_client" or m.startswith("tutepgn_client.")]:
            del sys.modules[name]


def api(name: str) -> Any:
    """A module of the generated client (``deals.search_deals``)."""
    return importlib.import_module(f"tutepgn_client.api.{name}")


def models() -> Any:
    return importlib.import_module("tutepgn_client.models")


@pytest.fixture(scope="module")
def client(generated: Any, service: str) -> Any:
    """The generated client, sending the key in X-API-Key (the document's security scheme)."""
    return generated.AuthenticatedClient(base_url=service, token=KEY, prefix="", auth_header_name="X-API-Key",
                                         timeout=httpx.Timeout(120.0))


@pytest.fixture(scope="module")
def imported(client: Any) -> Any:
    """Every sample deal imported through the client, as JSON records (``tute convert --to json``)."""
    texts = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "samples").rglob("*.tpgn")))
    records = json.loads("".join(convert(texts, to="json")))
    body = [models().TutePGNRecord.from_dict(r) for r in records]
    summary = api("records.import_records").sync(client=client, body=body)
    assert isinstance(summary, models().ImportSummary), summary
    return summary, len(records)


def test_import_with_the_key(imported: Any) -> None:
    summary, posted = imported
    assert summary.records == posted and summary.added == posted > 10


def test_import_without_the_key_is_a_401_problem(generated: Any, service: str, imported: Any) -> None:
    anonymous = generated.Client(base_url=service)
    answer = api("records.import_records").sync_detailed(client=anonymous, body=[])
    assert answer.status_code == 401 and isinstance(answer.parsed, models().Problem)
    assert answer.parsed.status == 401


def test_search_page_by_page_then_one_deal(client: Any, imported: Any) -> None:
    search = api("deals.search_deals")
    first = search.sync(client=client, limit=5, sort=models().Sort.DATE_DESC)
    assert isinstance(first, models().DealPage) and len(first.items) == 5 and first.next_
    second = search.sync(client=client, limit=5, sort=models().Sort.DATE_DESC, cursor=first.next_)
    assert isinstance(second, models().DealPage) and len(second.items) == 5
    assert not {d.id for d in first.items} & {d.id for d in second.items}
    chosen = second.items[0]
    deal = api("deals.get_deal").sync(client=client, deal_id=chosen.id)  # the id as the search gave it
    assert isinstance(deal, models().DealDetail) and deal.summary.id == chosen.id
    assert deal.state in (models().DealDetailState.VALID, models().DealDetailState.RESULT_ONLY,
                          models().DealDetailState.INVALID)


def test_an_analysis_job_runs_to_its_end(client: Any, imported: Any) -> None:
    four = api("deals.search_deals").sync(client=client, limit=1, rules="torofun-4p", valid=True).items[0]
    started = api("analysis.analyse_deal").sync_detailed(client=client, deal_id=four.id, pimc=20)
    assert started.status_code == 202, started.content  # PIMC's worlds on 4 hands: seconds, a job
    job = started.parsed
    assert isinstance(job, models().AnalysisJob) and job.status == models().AnalysisJobStatus.RUNNING
    deadline = time.monotonic() + POLL_SECONDS
    while job.status == models().AnalysisJobStatus.RUNNING and time.monotonic() < deadline:
        time.sleep(0.5)
        job = api("analysis.get_job").sync(client=client, job_id=job.id)
        assert isinstance(job, models().AnalysisJob)
    assert job.status == models().AnalysisJobStatus.DONE, job.error
    assert isinstance(job.analysis, models().AnalysisModel) and job.analysis.worlds == 20


def test_a_422_is_a_problem(client: Any, imported: Any) -> None:
    answer = api("deals.search_deals").sync_detailed(client=client, limit=0)
    assert answer.status_code == 422
    problem = answer.parsed
    assert isinstance(problem, models().Problem) and problem.status == 422
    assert [e.text for e in problem.errors] == ["query.limit"]
