"""A live recording's journal (issue 31, items 1 and 2): nothing acknowledged is lost on a full disk, and a
damaged or foreign journal never stops the service.

The full disk is real: a file size limit (``RLIMIT_FSIZE``) in a child process, or set on a running
``tute serve`` with ``prlimit``; past it a write is short or fails with EFBIG (Python ignores SIGXFSZ), as on a
disk that fills up mid-line.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_live_api import KEY, WRITE, sample_start
from test_live_crash import Served
from tutepgn.recording.journal import SET_ASIDE, read_lines
from tutepgn.limits import max_record_bytes
from tutepgn.recording.live import Recording, Recordings, check_line
from tutepgn.notation import SEAT_TAGS

ROOT = Path(__file__).resolve().parent.parent


def library_start() -> tuple[dict[str, Any], list[str]]:
    """The sample deal's start as :meth:`Recordings.create` takes it, and its entries."""
    start, entries = sample_start()
    tags = {**start["tags"], **{SEAT_TAGS[seat]: name for seat, name in start["players"].items()}}
    return {"rules": start["rules"], "deal": start["deal"], "turned": start["turned"], "dealer": start["dealer"],
            "tags": tags}, entries


def line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def journals(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.jsonl"))


# -- Item 1: a full disk at every byte of a line ------------------------------------------------------------

EVERY_OFFSET = """
import json, resource, sys
from pathlib import Path
from tutepgn.recording.live import Recordings

folder, start, entries = Path(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
book = Recordings(folder)
refused = []
for k in range(10_000):  # the first line, cut at every byte: no recording, and no file left
    resource.setrlimit(resource.RLIMIT_FSIZE, (k, hard))
    try:
        rec = book.create(**start)
    except OSError as exc:
        refused.append([k, exc.errno, sorted(p.name for p in folder.iterdir())])
        continue
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    break
report = {"create": {"refused": refused, "length": rec.journal.stat().st_size, "id": rec.id}, "entries": []}
for text in entries:  # each entry line, cut at every byte: refused, the journal and the state as before
    before, state = rec.journal.read_bytes(), rec.state()
    tries = []
    for k in range(10_000):
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + k, hard))
        try:
            rec.enter(text)
        except OSError as exc:
            tries.append([k, exc.errno, rec.journal.read_bytes() == before, rec.state() == state])
            continue
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        break
    report["entries"].append({"text": text, "tries": tries, "acknowledged_at": k,
                              "length": rec.journal.stat().st_size - len(before)})
report["state"] = rec.state()
print(json.dumps(report))
"""


def test_a_full_disk_at_every_byte_of_a_line_refuses_the_entry_and_loses_nothing_acknowledged(tmp_path: Path
                                                                                               ) -> None:
    start, entries = library_start()
    chosen = [*entries[:8], "undo", entries[7], entries[8]]  # a trick and a half, an undo, a cante (S 20E)
    folder = tmp_path / "recordings"
    proc = subprocess.run([sys.executable, "-c", EVERY_OFFSET, str(folder), json.dumps(start), json.dumps(chosen)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    created = report["create"]
    assert len(created["refused"]) == created["length"] > 100  # refused at every byte of the first line
    assert all(names == [] for _k, _errno, names in created["refused"])
    assert [k for k, *_ in created["refused"]] == list(range(created["length"]))
    for entry in report["entries"]:
        assert entry["length"] == len(line({"entry": entry["text"]}))
        assert entry["acknowledged_at"] == entry["length"]  # taken only once the whole line fits
        assert [k for k, *_ in entry["tries"]] == list(range(entry["length"]))
        assert all(errno == 27 and same_file and same_state for _k, errno, same_file, same_state in entry["tries"])

    # A restart (a fresh Recordings) restores every acknowledged entry, and only those.
    book = Recordings(folder)
    rid = created["id"]
    restored = book.get(rid)
    assert restored is not None and restored.state() == report["state"]
    assert restored.state()["entries"] == len(chosen)
    journal = folder / f"{rid}.jsonl"
    read = read_lines(journal, check_line)
    assert read.fault is None and read.torn == 0
    assert [ln for ln in read.lines[1:]] == [{"entry": text} for text in chosen]
    # With room again, the next entries are whole lines too.
    for text in entries[9:12]:
        assert not restored.enter(text).refused
    assert journal.read_bytes().endswith(b"".join(line({"entry": text}) for text in entries[9:12]))
    assert Recordings(folder).get(rid).state()["events"] == entries[:12]  # type: ignore[union-attr]
    assert book.set_aside() == 0


def test_a_line_left_cut_short_is_cut_off_before_the_next_entry(tmp_path: Path) -> None:
    """Bytes of a line never acknowledged left at the journal's end (a crash mid-write, or a cut back that
    failed too) are cut off before the next line, which is whole: no ``{"{"entry":"7O"}``."""
    folder = tmp_path / "recordings"
    rec, lines = good_journal(folder, 3)
    with rec.journal.open("ab") as handle:
        handle.write(b'{"')
    _, texts = library_start()
    assert not rec.enter(texts[3]).refused
    assert rec.journal.read_bytes() == b"".join(lines) + line({"entry": texts[3]})
    assert Recordings(folder).get(rec.id).state()["events"] == texts[:4]  # type: ignore[union-attr]


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "archive.duckdb")
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


def test_the_service_on_a_full_disk_answers_503_and_loses_nothing_acknowledged(served: Served) -> None:
    """A real ``tute serve`` whose files may not grow (``prlimit``, as a full disk): every entry cut at any
    byte of its line answers 503; a recording whose first line cannot be written leaves no file; after a
    ``kill -9`` and a restart every acknowledged entry is there, and none of the refused ones."""
    start, entries = sample_start()
    served.start()
    assert served.process is not None
    pid = served.process.pid
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    folder = served.db.with_name(served.db.name + ".recordings")
    http = httpx.Client(base_url=served.url, timeout=10)  # one connection: a request takes a few ms
    rid = http.post("/api/v1/recordings", json=start, headers=WRITE).json()["id"]
    base = f"/api/v1/recordings/{rid}"
    journal = folder / f"{rid}.jsonl"
    acknowledged = 0
    for text in entries[:6]:
        size = journal.stat().st_size
        for k in range(len(line({"entry": text}))):  # the disk fills at every byte of the line
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (size + k, hard))
            r = http.post(f"{base}/entries", json={"entry": text}, headers=WRITE)
            assert r.status_code == 503 and "not recorded" in r.json()["detail"], r.text
            assert journal.stat().st_size == size
            assert http.get(base).json()["entries"] == acknowledged
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))  # space is back
        r = http.post(f"{base}/entries", json={"entry": text}, headers=WRITE)
        assert r.status_code == 200, r.text
        acknowledged += 1
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (64, hard))
    r = http.post("/api/v1/recordings", json=start, headers=WRITE)
    assert r.status_code == 503
    assert journals(folder) == [f"{rid}.jsonl"]  # no 0-byte journal left behind
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))
    before = http.get(base).json()
    http.close()
    served.kill()
    served.start()
    after = httpx.get(f"{served.url}{base}", timeout=10).json()
    assert after == before and after["events"] == entries[:6] and after["entries"] == 6
    health = httpx.get(f"{served.url}/api/v1/health", timeout=10).json()
    assert health["status"] == "ok" and health["set_aside"] == 0


# -- Item 2: damaged and foreign journals -------------------------------------------------------------------

def good_journal(folder: Path, entries: int = 4) -> tuple[Recording, list[bytes]]:
    """A real journal, its first line and ``entries`` entries of the sample deal, and its lines as bytes."""
    start, texts = library_start()
    rec = Recordings(folder).create(**start)
    for text in texts[:entries]:
        assert not rec.enter(text).refused
    return rec, rec.journal.read_bytes().splitlines(keepends=True)


BAD_LINES = {
    "empty object": b"{}\n", "null": b"null\n", "list": b"[]\n", "number": b"5\n",
    "misspelt entry": b'{"entrx":"N 3O"}\n', "deep": b"[" * 100_000 + b"\n",
    "not UTF-8": b'{"entry":"N \xff\xfe"}\n', "not JSON": b'{"{"entry":"7O"}\n',
    "an entry refused": b'{"entry":"N 12X"}\n', "an entry and more": b'{"entry":"N 3O","x":1}\n',
    "an entry not a string": b'{"entry":7}\n', "imported not a number": b'{"imported":"7","valid":true}\n',
    "too long": b'{"entry":"' + b"x" * (max_record_bytes() + 1) + b'"}\n',
}


@pytest.mark.parametrize("bad", BAD_LINES, ids=list(BAD_LINES))
def test_a_bad_line_loses_that_line_and_what_follows_never_the_entries_before(tmp_path: Path, bad: str) -> None:
    folder = tmp_path / "recordings"
    rec, lines = good_journal(folder)
    other, _ = good_journal(folder, 2)
    damaged = b"".join(lines[:3]) + BAD_LINES[bad] + b"".join(lines[3:])
    rec.journal.write_bytes(damaged)
    book = Recordings(folder)  # no traceback: the service starts
    restored = book.get(rec.id)
    assert restored is not None and restored.state()["entries"] == 2  # the two entries before the bad line
    assert restored.state()["events"] == library_start()[1][:2]
    assert book.get(other.id).state()["entries"] == 2  # type: ignore[union-attr]
    assert rec.journal.read_bytes() == b"".join(lines[:3])  # cut back to the good lines
    assert (folder / SET_ASIDE / rec.journal.name).read_bytes() == damaged  # the original bytes, for the operator
    why = (folder / SET_ASIDE / f"{rec.journal.name}.why").read_text(encoding="utf-8")
    assert rec.journal.name in why and "line 4" in why
    assert book.set_aside() == 1
    _, texts = library_start()
    assert not restored.enter(texts[2]).refused  # the recording goes on, in whole lines
    assert Recordings(folder).get(rec.id).state()["entries"] == 3  # type: ignore[union-attr]


def first_line(folder: Path) -> tuple[Path, dict[str, Any], list[bytes]]:
    rec, lines = good_journal(folder, 2)
    return rec.journal, json.loads(lines[0]), lines


BAD_FIRST_LINES: dict[str, Any] = {
    "start null": lambda f: {**f, "start": None},
    "rules a number": lambda f: {**f, "start": {**f["start"], "rules": 5}},
    "no id": lambda f: {"start": f["start"]},
    "an id not the file's": lambda f: {**f, "id": "abcdefghijkl"},
    "an unknown start key": lambda f: {**f, "start": {**f["start"], "rulez": "x"}},
    "a seed not a number": lambda f: {**f, "start": {**f["start"], "seed": "7"}},
    "a tag not a string": lambda f: {**f, "start": {**f["start"], "tags": {"Event": 5}}},
    "rules unknown": lambda f: {**f, "start": {**f["start"], "rules": "no-such-game"}},
    "empty object": lambda f: {},
    "null": lambda f: None,
    "deep": lambda f: b"[" * 100_000,
    "not UTF-8": lambda f: b'{"id":"\xff"}',
}


@pytest.mark.parametrize("bad", BAD_FIRST_LINES, ids=list(BAD_FIRST_LINES))
def test_a_journal_without_a_usable_first_line_is_set_aside_whole(tmp_path: Path, bad: str) -> None:
    folder = tmp_path / "recordings"
    journal, first, lines = first_line(folder)
    other, _ = good_journal(folder, 3)
    made = BAD_FIRST_LINES[bad](first)
    text = (made if isinstance(made, bytes) else json.dumps(made).encode()) + b"\n" + b"".join(lines[1:])
    journal.write_bytes(text)
    book = Recordings(folder)
    assert book.get(journal.name.removesuffix(".jsonl")) is None
    assert not journal.exists() and (folder / SET_ASIDE / journal.name).read_bytes() == text
    assert "line 1" in (folder / SET_ASIDE / f"{journal.name}.why").read_text(encoding="utf-8")
    assert book.get(other.id).state()["entries"] == 3  # type: ignore[union-attr]
    assert book.set_aside() == 1
    assert Recordings(folder).set_aside() == 1  # kept, and counted, until the operator removes it


def test_foreign_files_named_like_journals_are_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "recordings"
    other, _ = good_journal(folder, 3)
    (folder / "x.jsonl").mkdir()  # a folder
    (folder / "empty.jsonl").write_bytes(b"")  # what a refused recording left on a full disk before
    (folder / "notes.jsonl").write_text('{"note": "mine"}\n', encoding="utf-8")
    (folder / "notes.txt").write_text("not a journal's name: left alone\n", encoding="utf-8")
    book = Recordings(folder)
    assert journals(folder) == [other.journal.name] and (folder / "notes.txt").exists()
    assert (folder / SET_ASIDE / "x.jsonl").is_dir()
    assert book.set_aside() == 3 and book.get(other.id).state()["entries"] == 3  # type: ignore[union-attr]
    (folder / "x.jsonl").mkdir()  # again: kept beside the first, both counted
    assert Recordings(folder).set_aside() == 4 and (folder / SET_ASIDE / "x.jsonl.1").is_dir()


def test_a_damaged_journal_that_cannot_be_set_aside_is_left_as_it_is_and_not_restored(tmp_path: Path) -> None:
    """No room or no rights to keep its bytes: restoring it would let new entries follow the bad line, to be lost
    at the next start, so it is left alone (counted), and restored once it can be set aside."""
    folder = tmp_path / "recordings"
    rec, lines = good_journal(folder)
    damaged = b"".join(lines[:3]) + b"{}\n" + b"".join(lines[3:])
    rec.journal.write_bytes(damaged)
    (folder / SET_ASIDE).write_text("in the way\n", encoding="utf-8")
    book = Recordings(folder)
    assert book.get(rec.id) is None and rec.journal.read_bytes() == damaged and book.set_aside() == 1
    (folder / SET_ASIDE).unlink()
    book = Recordings(folder)
    assert book.get(rec.id).state()["entries"] == 2 and book.set_aside() == 1  # type: ignore[union-attr]


def test_a_closed_recording_with_a_bad_line_is_restored_on_demand_up_to_it(tmp_path: Path) -> None:
    folder = tmp_path / "recordings"
    rec, lines = good_journal(folder)
    rec.journal.write_bytes(b"".join(lines[:3]) + b"{}\n" + b"".join(lines[3:]) + line({"imported": 7, "valid": None}))
    book = Recordings(folder)
    assert rec.id in book.closed and book.set_aside() == 0  # closed ones are read when asked for
    restored = book.get(rec.id)
    assert restored is not None and restored.state()["entries"] == 2 and restored.deal_id is None
    assert book.set_aside() == 1 and book.get(rec.id) is restored


def test_a_line_after_the_import_is_a_fault(tmp_path: Path) -> None:
    folder = tmp_path / "recordings"
    rec, lines = good_journal(folder)
    whole = b"".join(lines) + line({"imported": 7, "valid": None})
    rec.journal.write_bytes(whole + line({"entry": "N 3O"}))
    book = Recordings(folder)
    restored = book.get(rec.id)
    assert restored is not None and restored.deal_id == 7 and restored.state()["entries"] == 4
    assert rec.journal.read_bytes() == whole and book.set_aside() == 1


def test_tute_serve_starts_with_every_bad_journal_and_says_it_is_degraded(served: Served) -> None:
    folder = served.db.with_name(served.db.name + ".recordings")
    good, _ = good_journal(folder, 3)
    damaged = []
    for bad in BAD_LINES.values():
        rec, lines = good_journal(folder, 4)
        rec.journal.write_bytes(b"".join(lines[:3]) + bad + b"".join(lines[3:]))
        damaged.append(rec.id)
    whole = []
    for make in BAD_FIRST_LINES.values():
        journal, first, lines = first_line(folder)
        made = make(first)
        journal.write_bytes((made if isinstance(made, bytes) else json.dumps(made).encode()) + b"\n" + lines[1])
        whole.append(journal.name.removesuffix(".jsonl"))
    (folder / "x.jsonl").mkdir()
    (folder / "empty.jsonl").write_bytes(b"")
    closed, lines = good_journal(folder, 4)
    closed.journal.write_bytes(b"".join(lines[:3]) + b"{}\n" + b"".join(lines[3:]) + line({"imported": 7}))

    served.start()  # no traceback: it starts, and answers
    health = httpx.get(f"{served.url}/api/v1/health", timeout=10)
    expected = len(BAD_LINES) + len(BAD_FIRST_LINES) + 2
    assert health.status_code == 200 and health.json()["status"] == "degraded"
    assert health.json()["set_aside"] == expected
    api = f"{served.url}/api/v1/recordings"
    assert httpx.get(f"{api}/{good.id}", timeout=10).json()["entries"] == 3
    _, texts = sample_start()
    r = httpx.post(f"{api}/{good.id}/entries", json={"entry": texts[3]}, headers={"X-API-Key": KEY}, timeout=10)
    assert r.status_code == 200 and r.json()["state"]["entries"] == 4
    for rid in damaged:
        assert httpx.get(f"{api}/{rid}", timeout=10).json()["entries"] == 2
    for rid in whole:
        assert httpx.get(f"{api}/{rid}", timeout=10).status_code == 404
    for _ in range(2):  # the closed one, damaged: restored as far as it is whole, never a 500
        r = httpx.get(f"{api}/{closed.id}", timeout=10)
        assert r.status_code == 200 and r.json()["entries"] == 2 and r.json()["deal_id"] is None
    assert httpx.get(f"{served.url}/api/v1/health", timeout=10).json()["set_aside"] == expected + 1
    assert httpx.get(f"{served.url}/api/v1/deals", timeout=10).status_code == 200
    assert httpx.post(api, json=sample_start()[0], headers=WRITE, timeout=10).status_code == 201
