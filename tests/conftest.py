"""What every test starts from: the library speaking English (the messages tests read are the source ones),
whatever the machine's locale; a test of Spanish asks for it (``tutepgn.i18n.speaking``, ``--lang es``).
And the fixture that runs a test with the validator's replay fast path and without it."""

import os

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
