"""A server killed (SIGKILL) in the middle of a live recording loses no acknowledged entry.

``tute serve`` runs as a real process over a temporary archive; entries are
posted over HTTP, the process is killed with ``kill -9`` (no shutdown code
runs), started again over the same files, and the recording must hold every
entry that was answered 200, then go on to the end of the deal and its import.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from served import wait_until_healthy

from test_live_api import KEY, WRITE, sample_start

TUTE = Path(sys.executable).with_name("tute")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``tute serve`` over one archive, started and killed at will."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, **env_vars: str) -> None:
        env = {**os.environ, "TUTEPGN_API_KEYS": KEY, **env_vars}
        self.process = subprocess.Popen([str(TUTE), "serve", "--db", str(self.db), "--port", str(self.port)],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        process = self.process
        wait_until_healthy(self.url, process, 60,
                           lambda: process.stderr.read().decode()[-2000:] if process.stderr else "")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        assert self.process.returncode == -signal.SIGKILL


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "archive.duckdb")
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


def test_kill_9_mid_recording_then_restart_resumes_with_every_acknowledged_entry(served: Served) -> None:
    start, entries = sample_start()
    served.start()
    rid = httpx.post(f"{served.url}/api/v1/recordings", json=start, headers=WRITE, timeout=10).json()["id"]
    base = f"{served.url}/api/v1/recordings/{rid}"
    for text in entries[:6]:  # trick 1 and into trick 2, with an undo
        assert httpx.post(f"{base}/entries", json={"entry": text}, headers=WRITE, timeout=10).status_code == 200
    assert httpx.post(f"{base}/undo", headers=WRITE, timeout=10).status_code == 200
    assert httpx.post(f"{base}/entries", json={"entry": entries[5]}, headers=WRITE, timeout=10).status_code == 200

    # Entries keep coming while the server is killed: the kill lands between or inside requests.
    acknowledged = 6
    stop = threading.Event()

    def scorer() -> None:
        nonlocal acknowledged
        with httpx.Client(timeout=10) as http:
            for text in entries[6:]:
                try:
                    r = http.post(f"{base}/entries", json={"entry": text}, headers=WRITE)
                except httpx.TransportError:
                    return
                assert r.status_code == 200, r.text
                acknowledged += 1
                if acknowledged == 20:
                    stop.set()

    thread = threading.Thread(target=scorer)
    thread.start()
    assert stop.wait(60), "the entries did not go through"
    served.kill()
    thread.join(timeout=30)
    assert 20 <= acknowledged < len(entries)

    served.start()
    after = httpx.get(base, timeout=10).json()
    kept = len(after["events"])
    assert acknowledged <= kept <= acknowledged + 1  # the entry being made when the server died may be in
    assert after["events"] == entries[:kept] and after["entries"] == kept + 2  # the undo and its entry again
    assert after["cantes"] == ["S 20E"]
    for text in entries[kept:]:  # the recording goes on to the end of the deal
        r = httpx.post(f"{base}/entries", json={"entry": text}, headers=WRITE, timeout=10)
        assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["over"] and state["valid"] and state["totals"] == [59, 91]
    assert httpx.get(f"{served.url}{state['deal_url']}", timeout=10).status_code == 200


def test_a_shutdown_does_not_wait_for_a_live_stream(served: Served) -> None:
    """SIGTERM with a spectator following: the server stops within the request time limit, not when the
    stream would end (10 minutes)."""
    start, _ = sample_start()
    served.start(TUTEPGN_REQUEST_TIMEOUT="1")
    rid = httpx.post(f"{served.url}/api/v1/recordings", json=start, headers=WRITE, timeout=10).json()["id"]
    opened = threading.Event()

    def spectator() -> None:
        try:
            with httpx.stream("GET", f"{served.url}/api/v1/recordings/{rid}/events", timeout=60) as stream:
                for line in stream.iter_lines():
                    if line.startswith("event: state"):
                        opened.set()
        except httpx.HTTPError:
            pass  # cut by the shutdown

    thread = threading.Thread(target=spectator, daemon=True)
    thread.start()
    assert opened.wait(10)
    assert served.process is not None
    stopping = time.monotonic()
    served.process.send_signal(signal.SIGTERM)
    served.process.wait(timeout=20)
    assert time.monotonic() - stopping < 10
