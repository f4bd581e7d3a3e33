"""A service that writes out of the box (issue 34): ``tute serve`` with no setting lets its own machine record
and import with no key, and nobody else.

A real ``tute serve`` over a fresh archive, with no ``TUTEPGN_*`` setting, takes an import from 127.0.0.1 with
no key (the deals are in the file once it has answered: the service is killed, the file read), keeps its local
admin key beside the archive with mode 0600, and says so.  Requests that come from elsewhere are made with the
same app in process, their client address set (TestClient): another machine, a proxy on this one, a page of
another site in this machine's browser, and a name that resolves to 127.0.0.1 (DNS rebinding) all need a key;
with keys configured, or ``--no-local-trust``, this machine needs one too.  "Next deal" starts the match's next
deal once, with the next dealer and the standing carried, and the two deals validate as one match.  ``tute serve
--lan`` prints the URL phones join by and its QR code, and ``--table-keys`` a key per table, kept across starts.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import stat
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import segno
from fastapi.testclient import TestClient

from test_live_crash import TUTE, free_port
from tutepgn.api.app import Settings, create_app
from tutepgn.api.local import keys_file, local_keys, with_local_keys
from tutepgn.archive import Archive
from tutepgn.check.validate import validate_records
from tutepgn.engine import Deal
from tutepgn.events import Context, Play
from tutepgn.notation import iter_records, read_record
from tutepgn.rules import ruleset

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
TUTES = SAMPLES / "tutes.tpgn"
LOCAL = "http://127.0.0.1:8000"
"""The base URL of the in-process requests: a browser on this machine asks for 127.0.0.1."""
KEY = "tk_configured"


def plain_env() -> dict[str, str]:
    """The environment with no tutepgn setting (the language of the messages apart), as on a fresh machine."""
    return {k: v for k, v in os.environ.items() if not k.startswith("TUTEPGN_") or k == "TUTEPGN_LANG"}


class Serve:
    """``tute serve`` in a process of its own, its stderr read as it comes."""

    def __init__(self, *args: str, **env_vars: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([str(TUTE), "serve", *args, "--port", str(self.port)],
                                        env={**plain_env(), **env_vars}, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        with httpx.Client(trust_env=False, timeout=2) as http:
            while True:
                try:
                    if http.get(f"{self.url}/api/v1/health").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                assert self.process.poll() is None and time.monotonic() < deadline, self.output[-2000:]
                time.sleep(0.1)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, sig)
            self.process.wait(timeout=60)
        self.reader.join(timeout=10)


@pytest.fixture()
def serve() -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for server in started:
        server.stop(signal.SIGKILL)


def test_a_fresh_service_takes_this_machines_import_with_no_key(tmp_path: Path, serve: list[Serve]) -> None:
    db = tmp_path / "club" / "archive.duckdb"
    db.parent.mkdir()
    server = Serve("--db", str(db))
    serve.append(server)
    server.wait_ready()
    with httpx.Client(trust_env=False, timeout=60) as http:
        answer = http.post(f"{server.url}/api/v1/import", content=TUTES.read_bytes())
        assert answer.status_code == 200, answer.text
        added = answer.json()["added"]
        assert added == len(list(iter_records(TUTES)))
        wrong = http.post(f"{server.url}/api/v1/import", content=TUTES.read_bytes(), headers={"X-API-Key": "nope"})
        assert wrong.status_code == 403  # a key given is checked, from this machine too
    server.stop(signal.SIGKILL)  # no shutdown: the import was on disk when it was answered
    with Archive(db, read_only=True) as archive:
        assert archive.count() == added
    keys = keys_file(db)
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600
    admin = json.loads(keys.read_text())["admin"]
    assert len(admin) >= 32 and admin not in server.output  # the key stays in its file, out of the logs
    assert f"at http://127.0.0.1:{server.port}/" in server.output
    assert "This machine records and imports with no key" in server.output and str(keys) in server.output

    again = Serve("--db", str(db))  # the same key at the next start: a phone given it keeps it
    serve.append(again)
    again.wait_ready()
    assert json.loads(keys.read_text())["admin"] == admin
    with httpx.Client(trust_env=False, timeout=60) as http:
        state = http.post(f"{again.url}/api/v1/recordings", json={"rules": "torofun-4p", "turned": "4O"})
        assert state.status_code == 201, state.text


def local_app(tmp_path: Path, *, trust: bool = True, **settings: object) -> tuple[object, str | None]:
    """The app ``tute serve`` makes over a fresh archive with these settings, and its local admin key."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "archive.duckdb"
    Archive(db).close()
    configured, keys = with_local_keys(Settings(db=db, **settings), trust=trust)  # type: ignore[arg-type]
    return create_app(configured), keys.admin if keys is not None else None


def client(app: object, host: str = "127.0.0.1", **kwargs: object) -> TestClient:
    return TestClient(app, client=(host, 50000), base_url=kwargs.pop("base_url", LOCAL), **kwargs)  # type: ignore[arg-type]


def test_only_this_machine_writes_without_a_key(tmp_path: Path) -> None:
    app, admin = local_app(tmp_path)
    text = TUTES.read_text()
    with client(app, "192.168.1.20") as other:
        refused = other.post("/api/v1/import", content=text)
        assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "X-API-Key"
        assert other.post("/api/v1/recordings", json={"rules": "torofun-4p", "turned": "4O"}).status_code == 401
        assert other.post("/api/v1/import", content=text, headers={"X-API-Key": admin}).status_code == 200
    for host in ("127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"):
        with client(app, host) as here:
            assert here.post("/api/v1/import", content=text).status_code == 200, host
    with client(app, "::1", base_url="http://[::1]:8000") as here:
        assert here.post("/api/v1/import", content=text).status_code == 200
    with client(app, base_url="http://localhost:8000") as here:  # a browser's own pages post with their Origin
        ok = here.post("/api/v1/import", content=text, headers={"Origin": "http://localhost:8000",
                                                                "Sec-Fetch-Site": "same-origin"})
        assert ok.status_code == 200


@pytest.mark.parametrize("why, base_url, headers", [
    ("a proxy on this machine", LOCAL, {"X-Forwarded-For": "203.0.113.9"}),
    ("a proxy saying Forwarded", LOCAL, {"Forwarded": "for=203.0.113.9"}),
    ("nginx's X-Real-IP", LOCAL, {"X-Real-IP": "203.0.113.9"}),
    ("a page of another site in this machine's browser", LOCAL, {"Origin": "http://evil.example"}),
    ("a cross-site request without an Origin", LOCAL, {"Sec-Fetch-Site": "cross-site"}),
    ("a name that resolves to 127.0.0.1 (DNS rebinding)", "http://evil.example:8000", {}),
])
def test_requests_that_only_look_local_need_a_key(tmp_path: Path, why: str, base_url: str,
                                                  headers: dict[str, str]) -> None:
    app, _ = local_app(tmp_path)
    with client(app, base_url=base_url) as here:
        assert here.post("/api/v1/import", content=TUTES.read_text(), headers=headers).status_code == 401, why
        assert here.post("/api/v1/recordings", json={"rules": "torofun-4p", "turned": "4O"},
                         headers=headers).status_code == 401, why


def test_with_keys_configured_or_local_trust_off_this_machine_needs_a_key(tmp_path: Path) -> None:
    app, admin = local_app(tmp_path / "configured", api_keys=frozenset({KEY}))
    assert admin is None and not keys_file(tmp_path / "configured" / "archive.duckdb").exists()
    with client(app) as here:
        assert here.post("/api/v1/import", content=TUTES.read_text()).status_code == 401
        assert here.post("/api/v1/import", content=TUTES.read_text(), headers={"X-API-Key": KEY}).status_code == 200
    app, admin = local_app(tmp_path / "off", trust=False)
    with client(app) as here:
        assert here.post("/api/v1/import", content=TUTES.read_text()).status_code == 401
        assert here.post("/api/v1/import", content=TUTES.read_text(), headers={"X-API-Key": admin}).status_code == 200
    with pytest.raises(ValueError, match="--table-keys"):
        with_local_keys(Settings(db=tmp_path / "a.duckdb", admin_keys=frozenset({KEY})), tables=2)


def test_a_service_with_keys_configured_gives_this_machine_no_trust(tmp_path: Path, serve: list[Serve]) -> None:
    db = tmp_path / "archive.duckdb"
    server = Serve("--db", str(db), TUTEPGN_API_KEYS=KEY)
    serve.append(server)
    server.wait_ready()
    with httpx.Client(trust_env=False, timeout=60) as http:
        assert http.post(f"{server.url}/api/v1/import", content=TUTES.read_bytes()).status_code == 401
        assert http.post(f"{server.url}/api/v1/import", content=TUTES.read_bytes(),
                         headers={"X-API-Key": KEY}).status_code == 200
    assert not keys_file(db).exists() and "Every write needs a key" in server.output


def play_out(http: TestClient, rid: str, deal: Deal) -> None:
    """Enter the first legal card at every turn until the deal is over (the hands are known: a seed)."""
    while not deal.over:
        play = Play(deal.turn, min(deal.legal_plays()))
        text = play.text(Context.of(deal))
        answer = http.post(f"/api/v1/recordings/{rid}/entries", json={"entry": text})
        assert answer.status_code == 200, answer.text
        deal.apply(play)


def test_next_deal_follows_in_the_match(tmp_path: Path) -> None:
    """Two deals of a match recorded from this machine, the second started by "next deal": the next dealer,
    DealNo 2, the standing after the first, the same players; the archive holds them as one match that
    validates, dealer rotation and MatchScore included."""
    app, _ = local_app(tmp_path)
    rules = ruleset("ludoteka-pairs")
    players = {"N": "Ana", "W": "Hugo", "S": "Manuel", "E": "Lucía"}
    with client(app) as here:
        first = here.post("/api/v1/recordings", json={"rules": "ludoteka-pairs", "seed": 11, "dealer": "E",
                                                      "players": players,
                                                      "tags": {"Match": "M1", "DealNo": "1", "Event": "Club"}})
        assert first.status_code == 201, first.text
        rid = first.json()["id"]
        early = here.post(f"/api/v1/recordings/{rid}/next", json={"turned": "4O"})
        assert early.status_code == 422 and "not over" in early.json()["detail"]
        play_out(here, rid, Deal.shuffled(rules, 11, rules.seat_names.index("E"), first_of_match=True))
        done = here.get(f"/api/v1/recordings/{rid}").json()
        assert done["deal_id"] is not None and done["next"]["dealer"] == "N" and done["next"]["id"] is None
        assert done["next"]["deal_no"] == "2" and done["next"]["winner"] is None
        with client(app, "192.168.1.20") as other:  # starting the next deal writes: a key is needed
            assert other.post(f"/api/v1/recordings/{rid}/next", json={"seed": 12}).status_code == 401
        nxt = here.post(f"/api/v1/recordings/{rid}/next", json={"seed": 12})
        assert nxt.status_code == 201, nxt.text
        state = nxt.json()
        assert state["dealer"] == "N" and state["tags"]["DealNo"] == "2" and state["tags"]["Match"] == "M1"
        assert state["tags"]["MatchScore"] == done["next"]["standing"] != "NS:0 WE:0"
        assert {state["tags"][t] for t in ("North", "West", "South", "East")} == set(players.values())
        again = here.post(f"/api/v1/recordings/{rid}/next", json={"seed": 99})  # a second tap, another phone
        assert again.status_code == 201 and again.json()["id"] == state["id"]
        assert here.get(f"/api/v1/recordings/{rid}").json()["next"]["id"] == state["id"]
        play_out(here, state["id"], Deal.shuffled(rules, 12, rules.seat_names.index("N")))
        second = here.get(f"/api/v1/recordings/{state['id']}").json()
        texts = [here.get(f"/api/v1/deals/{d}.tpgn").text for d in (done["deal_id"], second["deal_id"])]
    records = [read_record(text) for text in texts]
    reports = list(validate_records(records))
    assert [f.message for r in reports for f in r.errors] == []
    assert [r.tags["DealNo"] for r in records] == ["1", "2"]


def test_the_next_deal_is_refused_once_the_match_is_over(tmp_path: Path) -> None:
    """A tute in a match to 2 wins the match (ludoteka-pairs): there is no next deal, and the state says who won."""
    app, _ = local_app(tmp_path)
    sample = list(iter_records(TUTES))[1]  # one trick, then E sings the tute
    ctx = Context(ruleset("ludoteka-pairs").seat_names, sample.header().trump)
    with client(app) as here:
        rid = here.post("/api/v1/recordings", json={"rules": "ludoteka-pairs match_target=2", "turned": "10C",
                                                    "dealer": "N"}).json()["id"]
        for event in sample.events:
            assert here.post(f"/api/v1/recordings/{rid}/entries", json={"entry": event.text(ctx)}).status_code == 200
        state = here.get(f"/api/v1/recordings/{rid}").json()
        assert state["next"]["winner"] == "WE"
        refused = here.post(f"/api/v1/recordings/{rid}/next", json={"turned": "4O"})
        assert refused.status_code == 422 and "the match is over: WE won it" in refused.json()["detail"]


def qr(url: str) -> str:
    text = io.StringIO()
    segno.make(url, error="m").terminal(out=text, compact=True)
    return text.getvalue().rstrip("\n")


def test_lan_prints_the_join_url_its_qr_code_and_a_key_per_table(tmp_path: Path, serve: list[Serve]) -> None:
    db = tmp_path / "archive.duckdb"
    server = Serve("--db", str(db), "--lan", "--table-keys", "3")
    serve.append(server)
    server.wait_ready()
    output = server.output
    join = re.search(r"join at (http://[\d.]+:(\d+)/record) ", output)
    assert join is not None and join.group(2) == str(server.port), output
    assert qr(join.group(1)) in output  # the code segno draws for that URL, as it is
    tables = json.loads(keys_file(db).read_text())["tables"]
    assert len(tables) == 3 and len(set(tables)) == 3
    for number, key in enumerate(tables, 1):
        url = f"{join.group(1)}#key={key}"
        assert f"Table {number}: {url}" in output and qr(url) in output
    with httpx.Client(trust_env=False, timeout=60) as http:  # a table's key writes; the local admin's too
        assert http.post(f"{server.url}/api/v1/recordings", json={"rules": "torofun-4p", "turned": "4O"},
                         headers={"X-API-Key": tables[0]}).status_code == 201
    server.stop()
    again = Serve("--db", str(db), "--table-keys", "4")  # one table more: the first three keep their keys
    serve.append(again)
    again.wait_ready()
    kept = json.loads(keys_file(db).read_text())["tables"]
    assert kept[:3] == tables and len(kept) == 4
    assert "Table 4: http://" in again.output and "█" not in again.output  # without --lan, no QR code


def test_the_keys_file_is_kept_private_and_a_foreign_one_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "archive.duckdb"
    made = local_keys(db, tables=2)
    assert stat.S_IMODE(made.path.stat().st_mode) == 0o600 and len(made.tables) == 2
    made.path.chmod(0o644)  # copied with loose rights: made private again, the keys kept
    again = local_keys(db)
    assert again == made and stat.S_IMODE(made.path.stat().st_mode) == 0o600
    made.path.write_text('["not", "keys"]')
    with pytest.raises(ValueError, match="is not a keys file"):
        local_keys(db)
    refused = subprocess.run([str(TUTE), "serve", "--db", str(db), "--port", str(free_port())], env=plain_env(),
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "is not a keys file" in refused.stderr
