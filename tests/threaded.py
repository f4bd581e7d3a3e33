"""The real app over HTTP, in a thread of the test process: a uvicorn server on a free local port.

Tests that need the service's own sockets (event streams, pages in a browser, many clients at once) use
:func:`serving`; tests that need a process of its own (a kill, a signal) start ``tute serve`` instead.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` until the block ends, then stop the server and close the app's archive; gives its URL."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        app.state.archive.close()


def states(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The data of each ``state`` event of a Server-Sent Events stream, given its lines."""
    event = ""
    for line in lines:
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "state":
            yield json.loads(line[6:])
