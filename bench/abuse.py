"""Anonymous abuse of the analysis routes: do reads and a key holder's imports stay unhurt?  (issue 31, item 4)

1. Builds a fresh archive of ``--deals`` simulated deals (the presets in
   equal shares, ``serve_load.build``) in a temporary folder.
2. Starts ``tute serve --db DB --port P`` (a real uvicorn process, writable,
   with one API key, every other setting its default) and waits until it
   answers.
3. Idle, for ``--seconds``: one reader searching in a closed loop (one of
   ``serve_load``'s filters and sorts, a page of 50) and one key holder
   importing 5 new simulated records every second.
4. Abuse, for ``--seconds``: the same two, while ``--clients`` anonymous
   clients (in a process of their own, so that their cost on the bench side
   does not delay the measured clients) hammer the analysis routes in a
   closed loop with no think time, ignoring ``Retry-After``: half post a
   whole 4-player deal to ``POST /api/v1/analyse`` (seconds of solver work
   each), half ask ``GET /api/v1/deals/{id}/analysis`` of the 4-player deals,
   which starts jobs and polls the queued ones.
5. Prints the search p50/p95 and the import's median and slowest time idle
   and under abuse, their ratios (the goal: search p95 within 2 times its
   idle value, and every import answered 200), and what the anonymous
   clients got (by status).  The server is stopped at the end; every loop
   stops by itself.

    python bench/abuse.py [--deals 2000] [--clients 50] [--seconds 20] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from serve_load import build, free_port, load_average, percentile, search_params, stop_server, wait_ready
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records

KEY = "tk_bench_abuse"
IMPORT_RECORDS = 5
IMPORT_EVERY = 1.0
"""A key holder imports this many new records at this interval (seconds)."""
P95_RATIO_TARGET = 2.0


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    tute = Path(sys.executable).with_name("tute")
    command = [str(tute)] if tute.exists() else [sys.executable, "-m", "tutepgn.cli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUTEPGN_")} | {"TUTEPGN_API_KEYS": KEY}
    return subprocess.Popen([*command, "serve", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)


# ---------------------------------------------------------------------------
# The measured clients: a reader and a key holder.

async def reader(http: httpx.AsyncClient, until: float, seed: int) -> tuple[list[float], int]:
    """Searches in a closed loop until ``until``: their latencies (ms) and how many failed."""
    rng, latencies, failed = random.Random(seed), [], 0
    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            ok = (await http.get("/api/v1/deals", params=search_params(rng))).status_code == 200
        except httpx.HTTPError:
            ok = False
        latencies.append((time.perf_counter() - start) * 1000)
        failed += not ok
    return latencies, failed


async def key_holder(http: httpx.AsyncClient, until: float, batches: list[str]) -> tuple[list[float], Counter[int]]:
    """Imports of new records every :data:`IMPORT_EVERY` s until ``until``: their latencies (ms), and statuses."""
    latencies, statuses = [], Counter[int]()
    while time.monotonic() < until and batches:
        start = time.perf_counter()
        try:
            status = (await http.post("/api/v1/import", content=batches.pop(), headers={"X-API-Key": KEY},
                                      timeout=60)).status_code
        except httpx.HTTPError:
            status = 0
        took = time.perf_counter() - start
        latencies.append(took * 1000)
        statuses[status] += 1
        await asyncio.sleep(max(0.0, IMPORT_EVERY - took))
    return latencies, statuses


async def measure(base: str, seconds: float, batches: list[str], seed: int) -> dict[str, Any]:
    until = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=60) as searches, \
            httpx.AsyncClient(base_url=base, timeout=60) as imports:
        (found, failed), (imported, statuses) = await asyncio.gather(
            reader(searches, until, seed), key_holder(imports, until, batches))
    return {"searches": len(found), "search_failed": failed, "search_p50_ms": round(percentile(found, 0.50), 1),
            "search_p95_ms": round(percentile(found, 0.95), 1), "imports": len(imported),
            "import_statuses": dict(statuses), "import_median_ms": round(statistics.median(imported), 1),
            "import_max_ms": round(max(imported), 1)}


# ---------------------------------------------------------------------------
# The abusers, in a process of their own.

async def abuser(number: int, base: str, stop: Any, text: str, ids: list[int], seen: Counter[str]) -> None:
    rng = random.Random(number)
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        while not stop.is_set():
            try:
                if number % 2:
                    answer = await http.post("/api/v1/analyse", content=text)
                else:
                    answer = await http.get(f"/api/v1/deals/{rng.choice(ids)}/analysis")
                seen[f"{'analyse' if number % 2 else 'deal analysis'} {answer.status_code}"] += 1
            except httpx.HTTPError as exc:
                seen[type(exc).__name__] += 1


def abuse(base: str, clients: int, text: str, ids: list[int], started: Any, stop: Any, out: Any) -> None:
    """``clients`` anonymous clients until ``stop`` is set (the target of a process): what they got, by status.
    ``started`` is set once they are all under way."""
    seen: Counter[str] = Counter()

    async def run() -> None:
        clients_ = [asyncio.ensure_future(abuser(n, base, stop, text, ids, seen)) for n in range(clients)]
        await asyncio.sleep(0.5)
        started.set()
        await asyncio.gather(*clients_)

    asyncio.run(run())
    out.put(dict(seen))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="simulated deals in the archive")
    parser.add_argument("--clients", type=int, default=50, help="anonymous abusive clients")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase, idle and abuse")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()

    four = [r.tpgn() for r in deal_records(preset("torofun-4p"), 3, seed=5)]
    text = max(four, key=len)  # a whole 4-player deal: seconds of solver work
    per_phase = int(args.seconds / IMPORT_EVERY) + 2
    batches = ["\n".join(r.tpgn() for r in deal_records(preset("torofun-2p"), IMPORT_RECORDS, seed=900_000 + n))
               for n in range(2 * per_phase)]
    with tempfile.TemporaryDirectory(prefix="tute-abuse-") as tmp:
        db = Path(tmp) / "archive.duckdb"
        build(db, args.deals)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(db, port)
        try:
            wait_ready(base, server)
            ids = [d["id"] for d in httpx.get(f"{base}/api/v1/deals", params={"rules": "torofun-4p", "limit": 500},
                                              timeout=30).json()["items"]]
            print(f"tute serve on {db.name}: {args.deals:,} deals ({len(ids)} 4-player ones for the abusers); "
                  f"load average {load_average()}", flush=True)
            idle = asyncio.run(measure(base, args.seconds, batches[:per_phase], 1))
            print(f"idle ({args.seconds:.0f} s): {idle}", flush=True)
            spawn = multiprocessing.get_context("spawn")
            queue: Any = spawn.Queue()
            started, stop = spawn.Event(), spawn.Event()
            abusers = spawn.Process(target=abuse, args=(base, args.clients, text, ids, started, stop, queue))
            abusers.start()
            try:
                if not started.wait(timeout=120):
                    sys.exit("the abusive clients did not start within 120 s")
                time.sleep(2)  # the budget is full and the queue of anonymous requests built up
                abused = asyncio.run(measure(base, args.seconds, batches[per_phase:], 2))
            finally:
                stop.set()  # each abuser ends after its request under way (at most 10 s)
            seen = queue.get(timeout=120)
            abusers.join(timeout=60)
            print(f"under {args.clients} anonymous clients ({args.seconds:.0f} s): {abused}", flush=True)
            print(f"anonymous clients got: {dict(sorted(seen.items()))}", flush=True)
        finally:
            stop_server(server)
    ratios = {"search_p50": round(abused["search_p50_ms"] / idle["search_p50_ms"], 2),
              "search_p95": round(abused["search_p95_ms"] / idle["search_p95_ms"], 2),
              "import_median": round(abused["import_median_ms"] / idle["import_median_ms"], 2),
              "import_max": round(abused["import_max_ms"] / idle["import_max_ms"], 2)}
    print(f"search p50 {idle['search_p50_ms']} -> {abused['search_p50_ms']} ms (x{ratios['search_p50']}), "
          f"p95 {idle['search_p95_ms']} -> {abused['search_p95_ms']} ms (x{ratios['search_p95']}); "
          f"import of {IMPORT_RECORDS} records: median {idle['import_median_ms']} -> {abused['import_median_ms']} ms "
          f"(x{ratios['import_median']}), slowest {idle['import_max_ms']} -> {abused['import_max_ms']} ms "
          f"(x{ratios['import_max']})")
    met = {"search_p95": ratios["search_p95"] <= P95_RATIO_TARGET,
           "imports_answered": set(abused["import_statuses"]) == {200}}
    print(f"targets: search p95 within {P95_RATIO_TARGET:g} times idle: {'yes' if met['search_p95'] else 'NO'}; "
          f"every import answered 200: {'yes' if met['imports_answered'] else 'NO'}; load average {load_average()}")
    if args.json:
        Path(args.json).write_text(json.dumps({"deals": args.deals, "clients": args.clients, "seconds": args.seconds,
                                               "cpus": os.cpu_count(), "idle": idle, "abuse": abused,
                                               "anonymous": seen, "ratios": ratios, "targets_met": met},
                                              indent=2) + "\n")


if __name__ == "__main__":
    main()
