"""Fixtures shared by test modules."""

from __future__ import annotations

import pytest

from tutepgn import fastreplay


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
