"""Shared deals and position strings (issue 16, item 11): the position string of every frame reads back to the
same text and to the frame a viewer shows; a deal's link carries its record whole; ``tute replay`` prints and
reads both; the service's /view page shows them without an archive."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zlib
from base64 import urlsafe_b64encode
from itertools import islice
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from tutepgn import Deal, LinkError, NotationError, preset
from tutepgn.api.app import Settings, create_app
from tutepgn.check.moment import Moment, positions
from tutepgn.notation import iter_records, read_record
from tutepgn.check.replay import Frame, frames, replay
from tutepgn.rules import PRESETS
from tutepgn.notation.share import deal_link, decode_deal, encode_deal, position_link
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHOWN = ("seats", "sides", "hands", "to_move", "trump", "turned", "stock", "card_points", "cante_points", "cantes",
         "exchanges", "over")
"""What a position's frame must show as the record's frame does (the table too, but in the frame of a trick's
last card: the record's frame shows the trick won, the position the table cleared)."""


def _records() -> list:
    """Every readable record of the hand-written samples and the first ten of each simulated file."""
    out = []
    for path in sorted(SAMPLES.glob("*.tpgn")):
        out += [r for r in iter_records(path) if not r.errors]
    for path in sorted(SAMPLES.glob("simulated/*.tpgn")):
        out += [r for r in islice(iter_records(path), 10) if not r.errors]
    return out


def _same_moment(moment: Moment, frame: Frame) -> None:
    shown = moment.frame()
    for name in SHOWN:
        assert getattr(shown, name) == getattr(frame, name), name
    if frame.winner is None:
        assert shown.table == frame.table and shown.trick_no == frame.trick_no
    else:
        assert shown.table == () and shown.trick_no == frame.trick_no


def test_every_frame_of_the_samples_reads_back_from_its_position_string() -> None:
    records = _records()
    assert len({r.tags["Rules"].split()[0] for r in records}) >= 6  # every preset, 2, 3 and 4 players
    count = 0
    for record in records:
        texts, steps = positions(record), frames(record)
        assert len(texts) == len(steps)
        for text, frame in zip(texts, steps):
            moment = Moment.parse(text)
            assert moment.text() == text and "\n" not in text and "  " not in text
            _same_moment(moment, frame)
            count += 1
    assert count > 2000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), seat=st.integers(0, 3))
def test_simulated_deals_round_trip_at_every_moment_and_from_every_seat(rules: str, seed: int, seat: int) -> None:
    record = next(deal_records(preset(rules), 1, seed=seed))
    deal = record.header().deal()
    seat %= deal.rules.players
    for step in [None, *replay(deal, record.events)]:
        whole, seen = Moment.of(deal), Moment.of(deal, seat)
        assert Moment.parse(whole.text()) == whole
        assert Moment.parse(seen.text()) == seen
        hidden = seen.frame().hands
        assert all(set(h) == {"?"} for s, h in enumerate(hidden) if s != seat and h)  # only the seat's own cards
        assert hidden[seat] == whole.frame().hands[seat]
        assert step is None or step.error is None


def test_a_position_string_reads_as_documented() -> None:
    deal = Deal.shuffled(preset("playcard-2p"), seed=0, dealer="S")
    deal.play("N", "2O")
    assert Moment.of(deal).text() == ("playcard-2p S 5E 4O12O2C5C7C1E3B/10O6C10C2E4E12E7B12B N:2O 0.0/0.0 - "
                                      "24:1B6E12C3O10B6O6B1O7O11B11O3E3C4C2B1C10E4B5B11C5O11E7E5E S")
    assert Moment.of(deal, 1).text() == "playcard-2p S 5E *7/10O6C10C2E4E12E7B12B N:2O 0.0/0.0 - 24 S"
    moment = Moment.parse("ludoteka-pairs+match_target=6 E O:5B 1O*4/*4/*4/*5 W:2C3C 3.42/2.30 N40O - E")
    assert moment.rules.spec == "ludoteka-pairs match_target=6" and moment.trump == "O" and moment.turned == "5B"
    frame = moment.frame()
    assert frame.hands[0] == ("1O", "?", "?", "?", "?") and len(frame.hands[1]) == 4
    assert frame.table == (("W", "2C"), ("S", "3C")) and frame.cantes == ("N 40",) and frame.cante_points == (40, 0)
    assert frame.trick_no == 6 and frame.to_move == "E" and frame.stock is None
    frame = Moment.parse("torofun-2p S 7O *8/*8 - 2.21/0.0 Nx7O 20 N").frame()
    assert frame.exchanges == ("N x7O",) and frame.stock == 20 and frame.turned == "7O" and frame.trick_no == 2


@pytest.mark.parametrize("text, field", [
    ("torofun-4p N", 2),
    ("nope N 4B -/-/-/- - 0.0/0.0 - - N", 1),
    ("torofun-4p X 4B -/-/-/- - 0.0/0.0 - - N", 2),
    ("torofun-4p N 13B -/-/-/- - 0.0/0.0 - - N", 3),
    ("torofun-4p N 4B 1O1Z/-/-/- - 0.0/0.0 - - N", 4),
    ("torofun-4p N 4B -/-/- - 0.0/0.0 - - N", 4),
    ("torofun-4p N 4B 1O/1O/-/- - 0.0/0.0 - - N", 4),
    ("torofun-4p N 4B -/-/-/- N:1O2O3O4O 0.0/0.0 - - N", 5),
    ("torofun-4p N 4B -/-/-/- - 0.0 - - N", 6),
    ("torofun-4p N 4B -/-/-/- - 0.0/0.0 N40 - N", 7),
    ("torofun-2p N 4B -/- - 0.0/0.0 - 3:1O2O N", 8),
    ("torofun-4p N 4B -/-/-/- - 0.0/0.0 - - Q", 9),
])
def test_a_wrong_field_is_named_and_located(text: str, field: int) -> None:
    with pytest.raises(NotationError, match=rf"field {field} ") as caught:
        Moment.parse(text)
    assert caught.value.line == 1 and caught.value.column == len(" ".join(text.split(" ")[:field - 1])) + (field > 1) + 1


def test_a_deals_link_carries_its_record_whole_and_stays_short() -> None:
    for record in _records():
        text = record.tpgn()
        link = deal_link(text, "https://tute.example", frame=3)
        token = re.fullmatch(r"https://tute\.example/view\?d=([\w-]+)&frame=3", link)
        assert token and decode_deal(token[1]) == text
        assert len(link) < 2000  # what every browser and server takes
    assert position_link("a b:c/d,e*f") == "/view?p=a+b:c/d,e*f"


@given(st.text(max_size=300))
def test_any_text_round_trips_through_a_token(text: str) -> None:
    assert decode_deal(encode_deal(text)) == text


def _pack(data: bytes) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return urlsafe_b64encode(packer.compress(data) + packer.flush()).decode().rstrip("=")


@pytest.mark.parametrize("token, message", [
    ("not*base64", "damaged: it holds characters"),
    ("abcde", "damaged: it holds characters"),
    ("AAAA", "damaged: part of it was changed or lost|cut short"),
    (_pack(b"[Event \"x\"]\n")[:-3], "cut short|damaged: part of it was changed or lost"),
    (_pack(b"a" * (2 << 20)), "more than a link may carry"),  # a few kilobytes that unpack to 2 MiB: refused
    (_pack(b"\xff\xfe"), "damaged: what it carries is not a record's text"),
])
def test_a_broken_token_says_why(token: str, message: str) -> None:
    with pytest.raises(LinkError, match=message):
        decode_deal(token)


def _tute(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tutepgn.cli", "replay", *args], capture_output=True, text=True,
                          check=False, cwd=ROOT)


def test_tute_replay_prints_the_link_and_the_positions_and_starts_from_one() -> None:
    sample = SAMPLES / "torofun-2p-exchange-7-and-2.tpgn"
    record = read_record(sample)
    link = _tute(str(sample), "--link", "--base", "https://tute.example/")
    assert link.returncode == 0, link.stderr
    assert decode_deal(link.stdout.strip().split("?d=")[1]) == record.tpgn()
    listed = _tute(str(sample), "--positions")
    assert listed.stdout.splitlines() == positions(record)
    at = positions(record)[12]
    alone = _tute("--from", at, "--json")
    assert alone.returncode == 0, alone.stderr
    [frame] = json.loads(alone.stdout)
    assert frame["hands"] == [list(h) for h in Moment.parse(at).frame().hands]
    started = _tute(str(sample), "--from", at, "--json")
    assert json.loads(started.stdout)[0]["index"] == 12
    missing = _tute(str(SAMPLES / "torofun-3p.tpgn"), "--from", at)
    assert missing.returncode == 2 and "field 1 (rules)" not in missing.stderr
    assert "no frame of record 1" in missing.stderr or "is not a seat" in missing.stderr
    bad = _tute("--from", "torofun-4p N")
    assert bad.returncode == 2 and "field 2 (dealer)" in bad.stderr


def test_the_view_page_shows_a_link_or_a_position_with_an_empty_archive(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(db=tmp_path / "empty.duckdb")))
    record = read_record(SAMPLES / "hand-written.tpgn")
    page = client.get(deal_link(record.tpgn()), headers={"Accept": "text/html"})
    assert page.status_code == 200, page.text
    data = re.search(r"data-frames='([^']*)'", page.text)
    assert data
    shown = json.loads(data[1].replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&")
                       .replace("&lt;", "<").replace("&gt;", ">"))
    assert len(shown) == len(frames(record)) and shown[5]["position"] == positions(record)[5]
    assert 'id="share"' in page.text and "/api/v1/deals/" not in page.text  # no archive: no download, no analysis
    moment = client.get(position_link(positions(record)[9]), headers={"Accept": "text/html"})
    assert moment.status_code == 200 and 'data-frames=' in moment.text
    bad = client.get("/view", params={"p": "torofun-4p N"}, headers={"Accept": "application/json"})
    assert bad.status_code == 422 and "field 2 (dealer)" in bad.json()["detail"]
    spanish = client.get(deal_link(record.tpgn()), headers={"Accept": "text/html", "Accept-Language": "es"})
    assert "Compartir este juego" in spanish.text and "Momento" in spanish.text
