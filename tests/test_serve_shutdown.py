"""``tute serve`` stopped by SIGTERM or SIGINT leaves the archive to the commands: no service file, no log.

A real service runs over a temporary archive, an import through it leaves
DuckDB's write-ahead log (``.wal``) beside the file, and the signal must end
the process with the file checkpointed (no ``.wal``, or an empty one) and
``<archive>.service.json`` gone; ``tute search --db`` then opens the file
itself.  uvicorn raises SIGTERM again once its shutdown is done, which under
the default handler ended the process before ``announced()`` removed its file.
(``--workers N --read-only``: uvicorn's supervisor stops its workers and
returns, raising no signal again, and read-only workers write no log.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from test_live_api import WRITE
from test_live_crash import TUTE, Served
from tutepgn.archive import running_service, service_file

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def wal(db: Path) -> Path:
    return db.with_name(db.name + ".wal")


def search(db: Path) -> list[dict[str, object]]:
    """``tute search --db`` as a command of its own: over the file, since no service holds it."""
    env = {k: v for k, v in os.environ.items() if k not in ("TUTEPGN_API_KEY", "TUTEPGN_DB")}
    done = subprocess.run([str(TUTE), "search", "--db", str(db), "--json", "--limit", "100"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def stopped(process: subprocess.Popen[bytes], sig: signal.Signals) -> int:
    """Send ``sig`` and wait for the process to end; its status."""
    process.send_signal(sig)
    return process.wait(timeout=30)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_service_with_the_file_checkpointed_and_its_service_file_gone(
        tmp_path: Path, sig: signal.Signals) -> None:
    db = tmp_path / "archive.duckdb"
    server = Served(db)
    server.start()
    try:
        posted = httpx.post(f"{server.url}/api/v1/import", content=(SAMPLES / "tutes.tpgn").read_text(encoding="utf-8"),
                            headers={**WRITE, "Content-Type": "text/plain"}, timeout=30)
        assert posted.status_code == 200 and posted.json()["added"] > 0, posted.text
        assert service_file(db).exists() and wal(db).stat().st_size > 0  # what the signal must leave tidy
        assert server.process is not None
        # SIGTERM ends the process by SIGTERM, as uvicorn means it to; SIGINT as before, with status 0.
        assert stopped(server.process, sig) == (-signal.SIGTERM if sig == signal.SIGTERM else 0)
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()
    assert not service_file(db).exists()
    assert not wal(db).exists() or wal(db).stat().st_size == 0
    assert running_service(db) is None
    assert len(search(db)) == posted.json()["added"]

