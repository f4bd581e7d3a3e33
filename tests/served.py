"""A real ``tute serve`` in a process of its own, on a free port, for the tests that talk to it over HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_healthy(url: str, process: subprocess.Popen[bytes], seconds: float, why: Callable[[], str]) -> None:
    """Wait for the service at ``url`` to answer its health with 200; fail the test, saying ``why()``, if its
    ``process`` ends first or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the service did not start: {why()}")
        time.sleep(0.2)


@contextmanager
def tute_serve(args: list[str], cwd: Path, env: dict[str, str]) -> Iterator[int]:
    """``tute serve ARGS --port P`` started in ``cwd`` and waited for (its health answers 200), then stopped:
    yields the port."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", "serve", *args, "--port", str(port)], cwd=cwd,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_until_healthy(f"http://127.0.0.1:{port}", process, 60,
                       lambda: process.stderr.read().decode() if process.stderr else "")
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
