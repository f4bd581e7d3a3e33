"""Memory of the streamed downloads under many clients: ``tute serve`` on a 100,000-deal archive, 48 clients.

1. Builds ``bench/out/serve-load-N.duckdb`` when missing (N simulated deals,
   ``--deals``, 100,000 by default; ``serve_load.build``), or takes ``--db``.
2. Starts ``tute serve --db DB --read-only`` (a real uvicorn process), asks it
   one search and one short download, and reads its RSS: the idle figure.
3. Slow clients: ``--clients`` (48) connections, each asking one of
   ``/api/v1/deals.ndjson``, ``.csv`` and ``.tpgn`` (in turn) for every deal,
   with a 64 KiB receive buffer, reading 16 KiB every 0.25 s (64 KiB/s) for
   ``--seconds`` (30), then hanging up mid-answer.  The server's RSS is read
   every 0.2 s.
4. Fast clients: ``--fast-clients`` (12) connections reading their whole
   answers as fast as they can; each ndjson answer must have one line a deal
   (``X-Total-Count``).
5. Prints, for each phase, the answers by status, the bytes read, and the
   server's peak RSS above idle (target: under 200 MB), then checks that a
   download still starts after the clients have gone (every slot given back).

    python bench/stream_memory.py [--db DB | --deals N] [--clients 48] [--seconds 30] [--fast-clients 12]
                                  [--json OUT]

The server's environment passes through (``TUTEPGN_MAX_STREAMS``,
``TUTEPGN_CONCURRENCY`` ...), but for ``TUTEPGN_DB`` and the API keys.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from serve_load import OUT, build, free_port, stop_server, wait_ready

KINDS = ("ndjson", "csv", "tpgn")
TARGET_MB = 200


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def client(port: int, kind: str, *, slow: bool, seconds: float) -> dict[str, Any]:
    """One download: its status, bytes read, the deal count it announced, and the lines (ndjson) it got."""
    sock = socket.socket()
    if slow:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
    writer.write(f"GET /api/v1/deals.{kind} HTTP/1.0\r\nHost: bench\r\n\r\n".encode())
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split()[1])
    headers = dict(line.split(": ", 1) for line in head.decode().split("\r\n")[1:] if ": " in line)
    got = lines = 0
    end = time.monotonic() + seconds
    if status != 200:
        got = len(await reader.read())
    elif slow:  # read raw bytes, slowly, and hang up
        while time.monotonic() < end and (piece := await reader.read(16 * 1024)):
            got += len(piece)
            await asyncio.sleep(0.25)
    else:  # uvicorn streams in chunked encoding (HTTP/1.0 too): read it chunk by chunk to count the lines
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            piece = await reader.readexactly(size + 2)
            got += size
            lines += piece.count(b"\n") - 1
    writer.close()
    return {"kind": kind, "status": status, "bytes": got, "lines": lines,
            "total": int(headers.get("x-total-count", "0"))}


async def phase(port: int, pid: int, idle: float, clients: int, *, slow: bool, seconds: float) -> dict[str, Any]:
    """Run the clients while sampling the server's RSS; sum up."""
    peak = idle
    start = time.monotonic()
    tasks = [asyncio.create_task(client(port, KINDS[i % 3], slow=slow, seconds=seconds)) for i in range(clients)]
    while not all(t.done() for t in tasks):
        peak = max(peak, rss_mb(pid))
        await asyncio.sleep(0.2)
    results = [t.result() for t in tasks]
    statuses: dict[int, int] = {}
    for r in results:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    whole = [r for r in results if r["status"] == 200 and r["kind"] == "ndjson"]
    return {"clients": clients, "seconds": round(time.monotonic() - start, 1), "statuses": statuses,
            "mb_read": round(sum(r["bytes"] for r in results) / 2**20, 1), "peak_rss_mb": round(peak, 1),
            "above_idle_mb": round(peak - idle, 1),
            "ndjson_complete": None if slow else all(r["lines"] == r["total"] for r in whole)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=48)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--fast-clients", type=int, default=12)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    db = Path(args.db) if args.db else OUT / f"serve-load-{args.deals}.duckdb"
    if not db.exists():
        build(db, args.deals)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TUTEPGN_DB", "TUTEPGN_API_KEYS", "TUTEPGN_API_KEYS_FILE")}
    tute = Path(sys.executable).with_name("tute")
    server = subprocess.Popen([str(tute), "serve", "--db", str(db), "--port", str(port), "--read-only"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, server)
        httpx.get(f"{base}/api/v1/deals", timeout=30)
        httpx.get(f"{base}/api/v1/deals.ndjson", params={"limit": 10}, timeout=30)
        time.sleep(1)
        idle = rss_mb(server.pid)
        print(f"{db.name}: server idle at {idle:.0f} MB", flush=True)
        figures: dict[str, Any] = {"db": db.name, "idle_rss_mb": round(idle, 1)}
        for name, slow, clients in (("slow", True, args.clients), ("fast", False, args.fast_clients)):
            result = asyncio.run(phase(port, server.pid, idle, clients, slow=slow, seconds=args.seconds))
            figures[name] = result
            verdict = "ok" if result["above_idle_mb"] < TARGET_MB else f"OVER the {TARGET_MB} MB target"
            print(f"{name}: {result['clients']} clients, {result['seconds']} s, answers {result['statuses']}, "
                  f"{result['mb_read']} MB read; server peak {result['peak_rss_mb']:.0f} MB, "
                  f"{result['above_idle_mb']:.0f} MB above idle ({verdict})"
                  + ("" if slow else f"; every ndjson answer whole: {result['ndjson_complete']}"), flush=True)
        after = httpx.get(f"{base}/api/v1/deals.csv", params={"limit": 1}, timeout=30)
        figures["after_rss_mb"] = round(rss_mb(server.pid), 1)
        figures["download_after"] = after.status_code
        print(f"after the clients: RSS {figures['after_rss_mb']:.0f} MB; a new download answers {after.status_code}")
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    finally:
        stop_server(server)


if __name__ == "__main__":
    main()
