"""Spectators of a live recording never learn a card they could not have seen at the table (issue 31, item 5).

A recording started with a seed or a known deal knows every hand; what it
shows the public (``GET /api/v1/recordings/{id}`` without a key, each event
of the stream, the pages' embedded state) may name only the cards seen: those
played, shown in a cante or a tute, given or taken in an exchange, and the
turned card.  Once the deal is over its record, hands and all, is public in
the archive, so the check stops there.  200 seeded deals are played to the end
through the library, with random legal entries (declarations whenever the
rules allow one, half the time); a few more over a real server, its HTTP
routes and its event stream.
"""

from __future__ import annotations

import html
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from threaded import serving, states
from tutepgn.archive import Archive
from tutepgn.cards import CODES, SUIT_LETTERS
from tutepgn.engine import Deal
from tutepgn.events import Cante, Exchange, Play, Tute
from tutepgn.recording.live import Recording, Recordings
from tutepgn.notation.split import text_size
from tutepgn.notation.record import PLAY_BYTES
from tutepgn.recording.recorder import Recorder
from tutepgn.rules import ruleset
from tutepgn.api.app import Settings, create_app

KEY = "tk_spectator_test"
PRESETS = ("torofun-4p", "torofun-3p", "torofun-2p", "playcard-2p", "ludoteka-pairs")
CARD = re.compile(r"(?<![\w.])(?:1[0-2]|[1-7])[OCEB](?!\w)")
"""A card code as a state writes one (``12E``), not part of a longer word or number."""
DECLARED = re.compile(r"\b([NWSE]) (?:(40)|20([OCEB])|tute (1[12])|x((?:1[0-2]|[1-7])[OCEB]))(?!\w)")
"""A declaration as a state writes one (``N 40``, ``E 20C``, ``S tute 12``, ``N x7B``)."""


def seen_cards(deal: Deal) -> set[str]:
    """The cards the table has seen so far: the turned card, every card played, shown or exchanged."""
    turned = CODES[deal.initial_turned]
    seen = {turned}
    for event in deal.log:
        if type(event) is Play:
            seen.add(CODES[event.card])
        elif type(event) is Cante:
            seen |= {f"12{SUIT_LETTERS[event.suit]}", f"11{SUIT_LETTERS[event.suit]}"}
        elif type(event) is Tute:
            seen |= {f"{event.rank}{suit}" for suit in SUIT_LETTERS}
        elif type(event) is Exchange:  # the 7 (or 2) given becomes the turned card; the old one is taken
            seen |= {CODES[event.card], turned}
            turned = CODES[event.card]
    return seen


def named_cards(state: dict[str, Any], trump: str) -> set[str]:
    """Every card a state names outright or by a declaration (``E 20E`` names 12E and 11E).  The pack (every
    card of the rules, no one's hand) and the Rules tag (whose options may name a card) are left out."""
    public = {k: v for k, v in state.items() if k not in ("pack", "rules")}
    public["tags"] = {k: v for k, v in state["tags"].items() if k != "Rules"}
    text = json.dumps(public, ensure_ascii=False)
    named = set(CARD.findall(text))
    for m in DECLARED.finditer(text):
        forty, suit, rank, given = m.group(2, 3, 4, 5)
        if forty or suit:
            named |= {f"12{suit or trump}", f"11{suit or trump}"}
        elif rank:
            named |= {f"{rank}{s}" for s in SUIT_LETTERS}
        else:
            named.add(given)
    return named


def assert_no_hidden_card(state: dict[str, Any], deal: Deal, where: str) -> None:
    if state["over"]:
        return  # the finished deal is public: its record is in the archive
    hidden = named_cards(state, SUIT_LETTERS[deal.trump]) - seen_cards(deal)
    assert not hidden, f"{where}: the public state names {sorted(hidden)}, still hidden in a hand"


def choose(recorder: Recorder, rng: random.Random, declare: float = 0.5) -> str:
    """A legal entry: a declaration (if one is legal) with the odds ``declare``, else a card the seat to move may
    play."""
    declarations = recorder.declarations()
    if declarations and rng.random() < declare:
        return rng.choice(declarations)
    return rng.choice(recorder.deal.legal_plays().codes())


def test_200_seeded_recordings_never_show_spectators_a_hidden_card(tmp_path: Path) -> None:
    folder = Path("/dev/shm") if Path("/dev/shm").is_dir() else tmp_path  # journals fsync'd: in memory if we can
    book = Recordings(Path(folder) / f"spectators-{tmp_path.name}")
    rng = random.Random(31)
    declared = growth = 0
    started = time.monotonic()
    try:
        for n in range(200):
            preset = PRESETS[n % len(PRESETS)]
            tags = {"DealNo": "1"} if n % 10 == 4 else {}  # ludoteka-pairs' first deal: the holder of 2O leads
            rec: Recording = book.create(preset, seed=n, dealer=rng.choice(ruleset(preset).seat_names), tags=tags)
            start_size = text_size(rec.recorder.record().tpgn())
            assert_no_hidden_card(rec.state(), rec.recorder.deal, f"deal {n} ({preset}) at the start")
            while not rec.recorder.over:
                entry = choose(rec.recorder, rng)
                declared += not re.fullmatch(CARD, entry)
                reply = rec.enter(entry)
                assert not reply.refused, (n, entry, reply.message)
                assert rec.state(writer=True)["declarations"] == rec.recorder.declarations()
                assert_no_hidden_card(rec.state(), rec.recorder.deal, f"deal {n} ({preset}) after {entry!r}")
            growth = max(growth, text_size(rec.recorder.record().tpgn()) - start_size)
    finally:
        for journal in book.folder.glob("*.jsonl"):
            journal.unlink()
        book.folder.rmdir()
    assert declared > 100, "the deals declared too little to test what declarations show"
    assert growth < PLAY_BYTES / 1.5, f"a deal's play added {growth} bytes: PLAY_BYTES leaves too little room"
    print(f"\n200 seeded recordings, {declared} declarations, in {time.monotonic() - started:.1f} s; "
          f"the most a deal's play added to its record: {growth} bytes")


# -- Over a real server: the HTTP route without a key, the event stream, the pages ---------------------------
@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    db = tmp_path / "archive.duckdb"
    Archive(db).close()
    app = create_app(Settings(db=db, api_keys=frozenset({KEY})))
    with serving(app) as url:
        yield url


def embedded(page: str) -> dict[str, Any]:
    """The state a page embeds for its script."""
    m = re.search(r"data-state='([^']*)'", page)
    assert m, "the page embeds no state"
    return dict(json.loads(html.unescape(m[1])))


@pytest.mark.parametrize("preset, seed", [("torofun-4p", 2), ("torofun-2p", 3), ("torofun-3p", 5)])
def test_the_public_route_the_event_stream_and_the_pages_show_no_hidden_card(server: str, preset: str,
                                                                            seed: int) -> None:
    mirror = Recorder.start(preset, seed=seed)  # the same deal, to choose legal entries and know what was seen
    rng = random.Random(seed)
    with httpx.Client(base_url=server, timeout=10) as http:
        r = http.post("/api/v1/recordings", json={"rules": preset, "seed": seed}, headers={"X-API-Key": KEY})
        assert r.status_code == 201 and "declarations" in r.json()  # the scorer's answer
        rid = r.json()["id"]
        with http.stream("GET", f"/api/v1/recordings/{rid}/events") as stream:
            followed = states(stream.iter_lines())
            assert_no_hidden_card(next(followed), mirror.deal, "the first event")
            declared = 0
            while not mirror.over:
                entry = choose(mirror, rng, declare=1.0)
                declared += not re.fullmatch(CARD, entry)
                assert not mirror.enter(entry).refused
                answer = http.post(f"/api/v1/recordings/{rid}/entries", json={"entry": entry},
                                   headers={"X-API-Key": KEY})
                assert answer.status_code == 200, answer.text
                assert answer.json()["state"]["declarations"] == mirror.declarations()
                public = http.get(f"/api/v1/recordings/{rid}").json()
                assert "declarations" not in public and public["entries"] == answer.json()["state"]["entries"]
                assert_no_hidden_card(public, mirror.deal, f"GET after {entry!r}")
                assert_no_hidden_card(next(followed), mirror.deal, f"the event after {entry!r}")
                for page in ("live", "record"):
                    assert_no_hidden_card(embedded(http.get(f"/{page}/{rid}").text), mirror.deal,
                                          f"/{page} after {entry!r}")
        assert declared, "the deal declared nothing"
        scorer = http.get(f"/api/v1/recordings/{rid}", headers={"X-API-Key": KEY})
        assert scorer.status_code == 200 and "declarations" in scorer.json()
        assert http.get(f"/api/v1/recordings/{rid}", headers={"X-API-Key": "wrong"}).status_code == 403
