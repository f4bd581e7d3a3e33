"""What every test starts from: the library speaking English (the messages tests read are the source ones),
whatever the machine's locale; a test of Spanish asks for it (``tutepgn.i18n.speaking``, ``--lang es``).
And the fixture that runs a test with the validator's replay fast path and without it, and the one that ends, with
each test file, the processes it left running."""

import multiprocessing
import os
from collections.abc import Iterator

import pytest

os.environ["TUTEPGN_LANG"] = "en"  # subprocesses (the CLI's tests) inherit it

from tutepgn.check import fastreplay  # noqa: E402  # after the language is set


@pytest.fixture(params=["c", "python"])
def replay_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test twice: with the validator's replay fast path in C, and with the engine alone (the extension
    unavailable, as ``TUTEPGN_REPLAY=python`` makes it, in this process and in the ones it starts)."""
    backend = request.param
    if backend == "c" and not fastreplay.C_AVAILABLE:
        pytest.skip("the C core was not built")
    monkeypatch.setenv("TUTEPGN_REPLAY", backend)
    monkeypatch.setattr(fastreplay, "BACKEND", backend)
    return backend


@pytest.fixture(scope="module", autouse=True)
def no_process_outlives_its_file() -> Iterator[None]:
    """Processes a test file started and left running (an analysis job no test waited for, in a service whose
    fixture closed only the archive) end with the file: they do not take the cores from the files after it."""
    yield
    for child in multiprocessing.active_children():
        child.terminate()


@pytest.fixture(autouse=True)
def consoles_measured_per_test() -> Iterator[None]:
    """The CLI's consoles are made once per process and take their width from ``COLUMNS`` then (a command runs once
    per process); a test that invokes the CLI in this process with its own ``COLUMNS`` gets consoles made for it,
    whichever test ran before."""
    from tutepgn.cli.output import console

    console.cache_clear()
    yield
