"""A real ``tute serve`` in a process of its own, on a free port, for the tests that talk to it over HTTP."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest


@contextmanager
def tute_serve(args: list[str], cwd: Path, env: dict[str, str]) -> Iterator[int]:
    """``tute serve ARGS --port P`` started in ``cwd`` and waited for (its health answers 200), then stopped:
    yields the port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", "serve", *args, "--port", str(port)], cwd=cwd,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail(f"the service did not start: {process.stderr.read().decode() if process.stderr else ''}")
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
