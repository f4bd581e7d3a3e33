"""The HTTP service under load: ``tute serve`` on a real archive, many concurrent clients over loopback.

1. Picks the archive: ``--db PATH``; else, with ``--deals N``,
   ``bench/out/serve-load-N.duckdb`` (built when missing: N simulated deals,
   the presets in equal shares, ``tutepgn.recording.simulate.deal_records`` and
   ``Archive.import_sources``); else the newest ``bench/out/archive-*.duckdb``
   that ``bench/archive.py`` left, or a 20,000-deal one built as above.
2. Starts ``tute serve --db DB --port P --read-only`` (a real uvicorn process)
   and waits until it answers.
3. Runs ``--clients`` concurrent clients for ``--seconds``, each on a
   keep-alive connection in a closed loop with no think time, over a mix of
   requests: searches (half of them; one of several filters and sorts, a page
   of 50, sometimes the next page or two) and one deal's JSON or Tute PGN (a
   quarter each).  The clients are ``wrk`` (``--client wrk``, the default when
   it is installed: ``apt-get install wrk``), which costs the shared cores
   little, driven by a Lua script over a list of 20,000 requests drawn before
   the run (ids sampled from the archive, next-page cursors fetched first);
   or Python (``--client httpx``: asyncio, one connection each, following
   ``next`` links live, and timing each kind of request apart; with
   ``--revalidate`` each client keeps what it got with its ETag and asks
   again with ``If-None-Match``, as a browser's cache does: a 304 is timed
   as its kind + `` 304``).
4. Prints requests/s, p50/p95/p99 latency, the error count (any status other
   than 200, or a failed request), and the CPU time per request of the server
   processes and of the clients (with two cores shared by server and clients,
   a closed loop of 50 clients is bound by it).  Target: no errors,
   p95 <= 200 ms.  The server is stopped at the end.
5. With ``--runs N``, does all of it N times, each on a fresh server (a cold
   page cache), and sums up with the median of each figure.

    python bench/serve_load.py [--db DB | --deals N] [--clients 50] [--seconds 60] [--runs 3]
                               [--client wrk|httpx] [--revalidate] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

from tutepgn.archive import Archive
from tutepgn.errors import ArchiveError
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import PLAYERS, deal_records

OUT = Path(__file__).resolve().parent / "out"
P95_TARGET_MS = 200.0
SORTS = ("date", "-date", "points", "-points", "margin", "-margin", "id")


# ---------------------------------------------------------------------------
# The archive.

def _simulate(name: str, count: int, seed: int) -> str:
    return "\n".join(r.tpgn() for r in deal_records(preset(name), count, seed=seed))


def build(db: Path, deals: int, jobs: int = 2) -> None:
    """A fresh archive of ``deals`` simulated deals, the presets in equal shares."""
    names = list(PRESETS)
    shares = [deals // len(names) + (1 if i < deals % len(names) else 0) for i in range(len(names))]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        texts = list(pool.map(_simulate, names, shares, [70_000 + i for i in range(len(names))]))
    generated = time.perf_counter() - start
    partial = db.with_name(db.name + ".part")
    for stale in (partial, partial.with_name(partial.name + ".wal")):
        stale.unlink(missing_ok=True)
    db.parent.mkdir(parents=True, exist_ok=True)
    with Archive(partial) as archive:
        summary = archive.import_sources([io.StringIO(t) for t in texts], jobs=jobs)
    partial.replace(db)
    print(f"built {db}: {deals:,} deals simulated in {generated:.1f} s; {summary}", flush=True)


def pick_archive(args: argparse.Namespace) -> Path:
    if args.db:
        db = Path(args.db)
        if not db.exists():
            sys.exit(f"no archive at {db}")
        return db
    if args.deals is None:
        made = sorted(OUT.glob("archive-*.duckdb"), key=lambda p: p.stat().st_mtime)
        if made:
            return made[-1]
    deals = args.deals or 20_000
    db = OUT / f"serve-load-{deals}.duckdb"
    if db.exists():
        try:
            Archive(db, read_only=True).close()
        except ArchiveError as exc:  # left by an older schema: it is generated data, so build it again
            print(f"{exc}; building it again", flush=True)
            db.unlink()
    if not db.exists():
        build(db, deals)
    return db


# ---------------------------------------------------------------------------
# The server.

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_TUNING = ("TUTEPGN_SEARCH_CACHE", "TUTEPGN_THREADS", "TUTEPGN_CONCURRENCY", "TUTEPGN_SHARED_ANSWER_BYTES")
"""The service's environment variables that pass to the server under test."""


def start_server(db: Path, port: int, workers: int = 1) -> subprocess.Popen[bytes]:
    tute = Path(sys.executable).with_name("tute")
    command = [str(tute)] if tute.exists() else [sys.executable, "-m", "tutepgn.cli"]
    # No keys, no other archive; the service's tuning passes.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TUTEPGN_") or k in _TUNING}
    return subprocess.Popen([*command, "serve", "--db", str(db), "--port", str(port), "--read-only",
                             "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True)


def wait_ready(base: str, server: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"tute serve exited with {server.returncode} before answering")
        try:
            if httpx.get(f"{base}/api/v1/rules", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    sys.exit(f"tute serve did not answer within {timeout:.0f} s")


def cpu_seconds(root: int) -> float | None:
    """CPU time (user + system) a process and its descendants (uvicorn's worker processes) have used so far,
    from /proc (None elsewhere)."""
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return None
    parents: dict[int, list[int]] = {}
    ticks: dict[int, int] = {}
    for entry in entries:
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
        ticks[int(entry)] = int(fields[11]) + int(fields[12])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += ticks.get(pid, 0)
        todo.extend(parents.get(pid, ()))
    return total / os.sysconf("SC_CLK_TCK")


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)  # uvicorn shuts down cleanly on SIGINT
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# ---------------------------------------------------------------------------
# The clients.

def search_params(rng: random.Random) -> dict[str, Any]:
    """One search: a filter or two of the documented ones, a sort, a page of 50."""
    choices: list[dict[str, Any]] = [
        {},
        {"player": rng.choice(PLAYERS)},
        {"player": rng.choice(PLAYERS), "seat": rng.choice("NS")},
        {"trump": rng.choice("OCEB")},
        {"rules": rng.choice(list(PRESETS))},
        {"min_points": rng.choice((80, 100, 120))},
        {"min_margin": rng.choice((20, 50, 80))},
        {"since": f"2025-{rng.randint(1, 12):02d}-01", "until": "2025-12-31"},
        {"winner": rng.choice(PLAYERS)},
        {"cante": rng.choice(("any", "20", "40"))},
        {"cante_suit": rng.choice("OCEB"), "cante_by": rng.choice(PLAYERS)},
        {"tute": "true"},
        {"doubled": "true", "rules": "ludoteka-pairs"},
        {"exchange": "true"},
        {"held": f"{rng.choice('NS')}:1{rng.choice('OCEB')},3{rng.choice('OCEB')}"},
        {"unsung": "40"},
        dict(zip(("player", "opponent"), rng.sample(PLAYERS, 2))),
    ]
    params = dict(rng.choice(choices))
    params["sort"] = rng.choice(SORTS)
    params["limit"] = 50
    return params


class Results:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.samples: list[str] = []

    def add(self, kind: str, seconds: float, ok: bool, what: str = "") -> None:
        self.latencies.setdefault(kind, []).append(seconds * 1000)
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1
            if len(self.samples) < 5:
                self.samples.append(f"{kind}: {what}")


class Kept:
    """What a client with an HTTP cache holds of an answer: its ETag and its body (a 304 sends no body)."""

    def __init__(self, etag: str, body: bytes) -> None:
        self.etag = etag
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


async def client(number: int, http: httpx.AsyncClient, deadline: float, ids: list[int], results: Results,
                 seed: int, revalidate: bool = False) -> None:
    rng = random.Random(seed * 1000 + number)
    kept: dict[str, Kept] = {}  # with revalidate: this client's cache, by URL

    async def get(kind: str, url: str, params: dict[str, Any] | None = None) -> httpx.Response | Kept | None:
        key = str(httpx.URL(url, params=params))
        held = kept.get(key) if revalidate else None
        start = time.perf_counter()
        try:
            response = await http.get(url, params=params,
                                      headers={"If-None-Match": held.etag} if held is not None else None)
        except httpx.HTTPError as exc:
            results.add(kind, time.perf_counter() - start, False, f"{url}: {type(exc).__name__}: {exc}")
            return None
        if held is not None and response.status_code == 304:
            results.add(kind + " 304", time.perf_counter() - start, True)
            return held
        ok = response.status_code == 200
        results.add(kind, time.perf_counter() - start, ok, f"{url} {params or ''}: {response.status_code} "
                                                           f"{response.text[:200]}")
        if ok and revalidate and "etag" in response.headers:
            kept[key] = Kept(response.headers["etag"], response.content)
        return response if ok else None

    while time.monotonic() < deadline:
        roll = rng.random()
        if roll < 0.5 or not ids:
            params = search_params(rng)
            response = await get("search", "/api/v1/deals", params)
            pages = rng.choice((0, 0, 0, 1, 2))
            while response is not None and pages and time.monotonic() < deadline:
                page = response.json()
                if len(ids) < 5000:
                    ids.extend(item["id"] for item in page["items"][:5])
                if not page["next"]:
                    break
                response = await get("search", "/api/v1/deals", {**params, "cursor": page["next"]})
                pages -= 1
            if response is not None and len(ids) < 5000:
                ids.extend(item["id"] for item in response.json()["items"][:5])
        elif roll < 0.75:
            await get("deal.json", f"/api/v1/deals/{rng.choice(ids)}")
        else:
            await get("deal.tpgn", f"/api/v1/deals/{rng.choice(ids)}.tpgn")


# ---------------------------------------------------------------------------
# The clients, as wrk.

WRK_SCRIPT = r"""
-- Each request: a path drawn at random from the file the bench wrote; timings in microseconds.
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  math.randomseed(tonumber(args[2]) * 1000 + id)
end
function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK-JSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p95_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"status_errors": %d, "connect_errors": %d, "read_errors": %d, "write_errors": %d, "timeouts": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    latency.max, e.status, e.connect, e.read, e.write, e.timeout))
end
"""


def request_paths(base: str, db: Path, count: int, seed: int) -> list[str]:
    """The mix, drawn before the run: half searches (a fifth of them next pages), a quarter deal JSON,
    a quarter deal Tute PGN."""
    rng = random.Random(seed)
    with Archive(db, read_only=True) as archive:
        ids = [row[0] for row in archive.con.execute(
            "SELECT id FROM deals USING SAMPLE reservoir(5000 ROWS) REPEATABLE (7)").fetchall()]
    first_pages = [search_params(rng) for _ in range(count // 2)]
    follow = []
    with httpx.Client(base_url=base, timeout=60) as http:
        for params in rng.sample(first_pages, min(200, len(first_pages))):
            cursor = http.get("/api/v1/deals", params=params).raise_for_status().json()["next"]
            if cursor:
                follow.append({**params, "cursor": cursor})
    paths = []
    for i in range(count):
        roll = rng.random()
        if roll < 0.5:
            params = rng.choice(follow) if follow and rng.random() < 0.2 else first_pages[i // 2]
            paths.append("/api/v1/deals?" + urlencode(params))
        elif roll < 0.75:
            paths.append(f"/api/v1/deals/{rng.choice(ids)}")
        else:
            paths.append(f"/api/v1/deals/{rng.choice(ids)}.tpgn")
    return paths


def _children_cpu() -> float:
    """CPU seconds of this script's finished child processes (wrk, once it has run)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_wrk(base: str, paths: list[str], clients: int, seconds: float, seed: int) -> dict[str, Any]:
    """wrk over the request mix; its figures in this script's shape."""
    with tempfile.TemporaryDirectory() as tmp:
        listing, script = Path(tmp) / "paths.txt", Path(tmp) / "mix.lua"
        listing.write_text("\n".join(paths) + "\n")
        script.write_text(WRK_SCRIPT)
        threads = min(2, clients)
        done = subprocess.run(["wrk", "-t", str(threads), "-c", str(clients), "-d", f"{seconds:g}s", "--timeout", "30s",
                               "-s", str(script), base, "--", str(listing), str(seed)],
                              capture_output=True, text=True, check=True)
    line = next((x for x in done.stdout.splitlines() if x.startswith("WRK-JSON ")), None)
    if line is None:
        sys.exit(f"wrk printed no figures:\n{done.stdout}\n{done.stderr}")
    w = json.loads(line[len("WRK-JSON "):])
    elapsed = w["duration_us"] / 1e6
    errors = w["status_errors"] + w["connect_errors"] + w["read_errors"] + w["write_errors"] + w["timeouts"]
    return {"seconds": round(elapsed, 1), "requests": w["requests"],
            "requests_per_s": round(w["requests"] / elapsed, 1), "errors": errors,
            "p50_ms": round(w["p50_us"] / 1000, 1), "p95_ms": round(w["p95_us"] / 1000, 1),
            "p99_ms": round(w["p99_us"] / 1000, 1), "max_ms": round(w["max_us"] / 1000, 1),
            "by_kind": {}, "error_samples": [f"{k}: {w[k]}" for k in ("status_errors", "connect_errors", "read_errors",
                                                                     "write_errors", "timeouts") if w[k]],
            "client": "wrk"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def load(base: str, clients: int, seconds: float, seed: int, revalidate: bool = False
               ) -> tuple[Results, float]:
    """Run the clients; each has a connection of its own (one pool for all costs the client more CPU)."""
    results = Results()
    ids: list[int] = []
    async with httpx.AsyncClient(base_url=base, timeout=30.0) as http:
        first = await http.get("/api/v1/deals", params={"limit": 200, "sort": "id"})  # ids to fetch, to begin with
        first.raise_for_status()
        ids.extend(item["id"] for item in first.json()["items"])
    one = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    sessions = [httpx.AsyncClient(base_url=base, limits=one, timeout=30.0) for _ in range(clients)]
    try:
        start = time.monotonic()
        deadline = start + seconds
        await asyncio.gather(*(client(i, http, deadline, ids, results, seed, revalidate)
                               for i, http in enumerate(sessions)))
        elapsed = time.monotonic() - start
    finally:
        for http in sessions:
            await http.aclose()
    return results, elapsed


def summarize(results: Results, elapsed: float) -> dict[str, Any]:
    every = [v for values in results.latencies.values() for v in values]
    errors = sum(results.errors.values())

    def figures(values: list[float]) -> dict[str, float]:
        return {"requests": len(values), "p50_ms": round(percentile(values, 0.50), 1),
                "p95_ms": round(percentile(values, 0.95), 1), "p99_ms": round(percentile(values, 0.99), 1),
                "max_ms": round(max(values), 1) if values else float("nan")}

    return {"seconds": round(elapsed, 1), "requests": len(every), "requests_per_s": round(len(every) / elapsed, 1),
            "errors": errors, **{k: v for k, v in figures(every).items() if k != "requests"},
            "by_kind": {kind: {**figures(values), "errors": results.errors.get(kind, 0)}
                        for kind, values in sorted(results.latencies.items())},
            "error_samples": results.samples}


def one_run(args: argparse.Namespace, db: Path, deals: int, client_kind: str) -> dict[str, Any]:
    """A fresh server (a cold page cache), one load, the server stopped; the figures of that run."""
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port, args.workers)
    try:
        wait_ready(base, server)
        print(f"tute serve on {base} over {db} ({deals:,} deals), {args.workers} worker process(es); "
              f"{args.clients} clients ({client_kind}) for {args.seconds:g} s", flush=True)
        if client_kind == "wrk":
            paths = request_paths(base, db, 20_000, args.seed)
            before = (cpu_seconds(server.pid), _children_cpu(), load_average())
            figures = run_wrk(base, paths, args.clients, args.seconds, args.seed)
            after = (cpu_seconds(server.pid), _children_cpu(), load_average())
        else:
            before = (cpu_seconds(server.pid), time.process_time(), load_average())
            results, elapsed = asyncio.run(load(base, args.clients, args.seconds, args.seed, args.revalidate))
            after = (cpu_seconds(server.pid), time.process_time(), load_average())
            figures = {**summarize(results, elapsed), "client": "httpx"}
    finally:
        stop_server(server)

    requests = max(figures["requests"], 1)
    figures["server_cpu_ms_per_request"] = (round((after[0] - before[0]) / requests * 1000, 2)
                                            if after[0] is not None and before[0] is not None else None)
    figures["client_cpu_ms_per_request"] = round((after[1] - before[1]) / requests * 1000, 2)
    figures["load_average"] = {"before": before[2], "after": after[2]}
    print(f"{figures['requests']:,} requests in {figures['seconds']:g} s = {figures['requests_per_s']:,.1f} requests/s;"
          f" errors: {figures['errors']}")
    print(f"latency: p50 {figures['p50_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
          f"max {figures['max_ms']:.1f} ms")
    if figures["by_kind"]:
        print(f"  {'kind':10} {'requests':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for kind, f in figures["by_kind"].items():
        print(f"  {kind:10} {f['requests']:9,} {f['p50_ms']:8.1f} {f['p95_ms']:8.1f} {f['p99_ms']:8.1f} {f['errors']:7}")
    print(f"cpu per request: server {figures['server_cpu_ms_per_request']} ms, clients "
          f"{figures['client_cpu_ms_per_request']} ms; {os.cpu_count()} cpus, load average "
          f"{figures['load_average']['before']} before, {figures['load_average']['after']} after")
    for sample in figures["error_samples"]:
        print(f"  error: {sample}")
    return figures


MEDIAN_KEYS = ("requests_per_s", "p50_ms", "p95_ms", "p99_ms", "max_ms", "server_cpu_ms_per_request",
               "client_cpu_ms_per_request")
"""The figures the summary of several runs gives as medians (errors and requests are summed)."""


def combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several runs in one: the median of each timing, the sum of requests and errors, every run kept."""
    if len(runs) == 1:
        return {**runs[0], "runs": 1}
    medians = {k: statistics.median(values) if (values := [r[k] for r in runs if r[k] is not None]) else None
               for k in MEDIAN_KEYS}
    return {"client": runs[0]["client"], **medians, "requests": sum(r["requests"] for r in runs),
            "errors": sum(r["errors"] for r in runs), "seconds": statistics.median(r["seconds"] for r in runs),
            "runs": len(runs), "by_kind": {},  # per kind: in each run's own figures below
            "error_samples": [sample for r in runs for sample in r["error_samples"]][:5],
            "load_average": {"before": runs[0]["load_average"]["before"], "after": runs[-1]["load_average"]["after"]},
            "each_run": [{k: r[k] for k in ("requests_per_s", "p50_ms", "p95_ms", "p99_ms", "errors",
                                            "server_cpu_ms_per_request", "by_kind")} for r in runs]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="the archive to serve (default: see above)")
    parser.add_argument("--deals", type=int, help="serve bench/out/serve-load-N.duckdb, built if missing")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2, help="server processes (tute serve --workers)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--runs", type=int, default=1,
                        help="loads to run, each on a fresh server; the summary gives the medians")
    parser.add_argument("--port", type=int, help="default: a free port")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--client", choices=("wrk", "httpx"),
                        help="the load generator (default: wrk when installed, else httpx)")
    parser.add_argument("--revalidate", action="store_true",
                        help="with --client httpx: each client keeps the answers it got with their ETags and sends "
                             "If-None-Match when it asks again, as a browser does (a 304 counts as an answer, "
                             "timed as its kind + ' 304'); wrk never revalidates")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    client_kind = args.client or ("httpx" if args.revalidate else "wrk" if shutil.which("wrk") else "httpx")
    if args.revalidate and client_kind != "httpx":
        sys.exit("--revalidate needs --client httpx")
    if client_kind == "wrk" and not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk (or --client httpx)")

    db = pick_archive(args)
    with Archive(db, read_only=True) as archive:
        deals = archive.count()
    runs = []
    for number in range(args.runs):
        if args.runs > 1:
            print(f"-- run {number + 1} of {args.runs}", flush=True)
        runs.append(one_run(args, db, deals, client_kind))
    figures = combine(runs)
    if args.runs > 1:
        each = ", ".join(f"{r['p95_ms']:.1f}" for r in runs)
        print(f"-- median of {args.runs} runs: {figures['requests_per_s']:,.1f} requests/s, p50 {figures['p50_ms']:.1f} ms, "
              f"p95 {figures['p95_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms; errors in all: {figures['errors']}; "
              f"p95 of each run: {each} ms")
    met = {"no_errors": figures["errors"] == 0, "p95": figures["p95_ms"] <= P95_TARGET_MS}
    print(f"targets: no errors: {'yes' if met['no_errors'] else 'NO'}; p95 <= {P95_TARGET_MS:.0f} ms: "
          f"{'yes' if met['p95'] else 'NO'} ({figures['p95_ms']:.1f} ms)")
    if args.json:
        Path(args.json).write_text(json.dumps({"db": str(db), "deals": deals, "clients": args.clients,
                                               "workers": args.workers, "cpus": os.cpu_count(), **figures,
                                               "targets_met": met}, indent=2) + "\n")


if __name__ == "__main__":
    main()
