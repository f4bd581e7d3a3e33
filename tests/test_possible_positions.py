"""A position string tells a moment a deal under its ruleset can reach, or is refused with the field at fault.

The issue's probes (3 players with 99 unknown cards each, a stock of 99 in a
3-player deal, a cante of 999) and one probe per constraint of
``tutepgn.check.possible`` are refused by ``Moment.parse`` in both languages, by
``/view?p=`` (422) and by ``tute replay --from`` (exit 2); every position of
simulated deals of every preset, whole and from each seat, still reads, and a
real position with one count changed does not.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings, strategies as st

from tutepgn import NotationError, Ruleset, preset
from tutepgn.api.app import Settings, create_app
from tutepgn.i18n import speaking
from tutepgn.check.moment import FIELDS, Moment, positions
from tutepgn.rules import PRESETS
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
PROBES = [
    # The three.
    ("torofun-3p N 4B *99/*99/*99 - 0.0/0.0/0.0 - - W", "hands", "N holds 99 cards"),
    ("torofun-3p N 4B *12/*12/*12 - 0.0/0.0/0.0 - 99 W", "stock", "there is no stock"),
    ("torofun-3p N 4B *11/*11/*11 - 1.15/0.0/0.0 N999B - N", "declarations", "scores 40 under torofun-3p, not 999"),
    # The pack and the muestra.
    ("torofun-3p N 4B 2O*11/*12/*12 - 0.0/0.0/0.0 - - W", "hands", "2O is not in the pack"),
    ("torofun-3p N O:4B *12/*12/*12 - 0.0/0.0/0.0 - - W", "muestra", "the trump is the muestra's suit"),
    ("playcard-2p S 4B 4B*7/*8 - 0.0/0.0 - 24 N", "hands", "under the stock while it has cards"),
    ("torofun-3p N 4B *12/4B*11/*12 - 0.0/0.0/0.0 - - W", "hands", "the dealer's last card"),
    # The counts: tricks, stock, hands.
    ("torofun-3p N 4B -/-/- - 14.0/0.0/0.0 - - -", "won", "14 tricks won"),
    ("playcard-2p S 4B *8/*8 - 0.0/0.0 - - N", "stock", "has a stock"),
    ("playcard-2p S 4B *8/*8 - 0.0/0.0 - 23 N", "stock", "leave 24"),
    ("torofun-4p E 3C 1O5O*6/*7/*8/*8 W:4E 2.27/1.14 S20E - S", "hands", "N holds 8 cards"),
    # The seat to play and the end.
    ("torofun-4p E 3C 1O5O*5/*6/*7/*7 W:4E 2.27/1.14 S20E - E", "turn", "S plays next"),
    ("torofun-4p E 3C 1O5O*5/*6/*7/*7 W:4E 2.27/1.14 S20E - -", "turn", "a trick on the table"),
    ("torofun-3p N 4B *12/*12/*12 - 0.0/0.0/0.0 - - E", "turn", "cannot lead the first trick"),
    ("torofun-3p N 4B *11/*11/*11 - 1.15/0.0/0.0 - - W", "turn", "yet it has won none"),
    ("torofun-3p N 4B *12/*12/*12 - 0.0/0.0/0.0 - - -", "turn", "no trick is played"),
    ("torofun-3p N 4B 12O11O*9/12C11C*9/*11 - 1.15/0.0/0.0 - - -", "turn", "only a tute does"),
    ("torofun-3p N 4B -/-/- - 12.120/0.0/0.0 - - N", "turn", "every card is played"),
    # The points.
    ("torofun-3p N 4B *11/*11/*11 - 1.44/0.0/0.0 - - N", "won", "allow 0 to 33"),
    ("torofun-3p N 4B -/-/- - 12.110/0.0/0.0 - - -", "won", "allow 120 to 120"),
    # Cantes and exchanges.
    ("torofun-3p N 4B *11/*11/*11 - 1.15/0.0/0.0 N20B - N", "declarations", "scores 40"),
    ("torofun-3p N 4B *10/*10/*10 - 2.15/0.0/0.0 N20O,N20O - N", "declarations", "sung twice"),
    ("torofun-3p N 4B *11/*11/*11 - 1.15/0.0/0.0 W20O - N", "declarations", "W has won no trick"),
    ("torofun-3p N 4B *11/*11/*11 - 1.15/0.0/0.0 N20O,N20C - N", "declarations", "more than 1"),
    ("torofun-3p N 4B *11/12O*10/*11 - 1.15/0.0/0.0 N20O - N", "declarations", "only N can hold or play it"),
    ("torofun-3p N 4B *11/*11/*11 - 1.15/0.0/0.0 Nx7B - N", "declarations", "cannot be exchanged"),
    ("torofun-2p S 7O *8/*8 - 0.0/2.21 Nx7O 20 S", "declarations", "N exchanges, yet N has won no trick"),
    ("torofun-2p S 4O *8/*8 - 2.21/0.0 Nx7O 20 N", "muestra", "the muestra is 7O, not 4O"),
]
"""Each a string whose fields all read, refused for one reason: (string, the field at fault, words of it)."""


def field_of(exc: NotationError) -> str:
    found = re.search(r"(?:field|campo) \d+ \((\w+)\)", str(exc))
    assert found, exc
    return found[1]


@pytest.mark.parametrize("text, field, words", PROBES, ids=[f"{f}-{i}" for i, (_t, f, _w) in enumerate(PROBES)])
def test_an_impossible_position_is_refused_with_its_field(text: str, field: str, words: str) -> None:
    with pytest.raises(NotationError) as english:
        Moment.parse(text)
    assert field_of(english.value) == field and words in str(english.value)
    assert english.value.line == 1 and english.value.column == len(" ".join(text.split(" ")[:FIELDS.index(field)])) + (
        field != "rules") + 1
    with speaking("es"), pytest.raises(NotationError) as spanish:
        Moment.parse(text)
    assert f"campo {FIELDS.index(field) + 1} ({field})" in str(spanish.value)
    assert str(spanish.value).split(": ", 1)[1] != str(english.value).split(": ", 1)[1]  # the reason, in Spanish


def test_every_position_of_simulated_deals_reads_whole_and_from_each_seat() -> None:
    """A seeded loop: deals of every preset and of rulesets the presets do not play (fewer ranks, more
    players with a stock, no partners), every moment, whole and from each seat."""
    rulesets = [preset(name) for name in sorted(PRESETS)] + [
        Ruleset.from_spec(spec) for spec in ("torofun-2p removed_ranks=2", "playcard-2p players=4 hand_size=6",
                                             "torofun-4p partnerships=false")]
    count = 0
    for rules in rulesets:
        for record in deal_records(rules, 3, seed=31):
            for seat in (None, *range(rules.players)):
                for text in positions(record, seat):
                    assert Moment.parse(text).text() == text
                    count += 1
    assert count > 3000


def _tampered(text: str, rng: random.Random) -> tuple[str, str]:
    """The string with one count changed so that no deal reaches it, and the field that must be named."""
    fields = text.split(" ")
    hands = fields[3].split("/")
    choices = ["hands"] + (["stock"] if fields[7].split(":")[0] not in ("-", "0") else [])
    choices += ["turn"] if fields[4] != "-" else []
    choices += ["declarations"] if re.search(r"[A-Z]\d+[OCEB]", fields[6]) else []
    choice = rng.choice(choices)
    if choice == "hands":
        seat = rng.randrange(len(hands))
        hand = hands[seat]
        unknown = re.search(r"\*(\d+)$", hand)
        hands[seat] = (hand[:unknown.start()] + f"*{int(unknown[1]) + 1}" if unknown else
                       ("" if hand == "-" else hand) + "*1")
        fields[3] = "/".join(hands)
    elif choice == "stock":
        fields[7] = str(int(fields[7].split(":")[0]) + rng.choice([-1, 1]))  # with the muestra still under it
    elif choice == "turn":
        leader, cards = fields[4].split(":")
        names = {2: "NS", 3: "NWE", 4: "NWSE"}[len(hands)]
        after = names[(names.index(leader) + len(re.findall(r"[OCEB]", cards))) % len(names)]
        fields[8] = rng.choice([s for s in names if s != after] + ["-"])
    else:
        fields[6] = re.sub(r"([A-Z])(\d+)([OCEB])", lambda m: f"{m[1]}{int(m[2]) + 1}{m[3]}", fields[6], count=1)
    return " ".join(fields), choice


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6),
       seat=st.integers(-1, 3))
def test_a_real_position_with_one_count_changed_is_refused(name: str, seed: int, pick: int, seat: int) -> None:
    rules = preset(name)
    record = next(deal_records(rules, 1, seed=seed))
    texts = positions(record, None if seat < 0 else seat % rules.players)
    text, field = _tampered(texts[pick % len(texts)], random.Random(pick))
    with pytest.raises(NotationError) as caught:
        Moment.parse(text)
    assert field_of(caught.value) == field, (text, str(caught.value))


def test_the_view_page_answers_422_with_the_reason(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(db=tmp_path / "empty.duckdb")))
    for text, field, words in PROBES[:3]:
        r = client.get("/view", params={"p": text}, headers={"Accept": "application/json"})
        assert r.status_code == 422 and f"({field})" in r.json()["detail"] and words in r.json()["detail"], r.text
    page = client.get("/view", params={"p": PROBES[0][0], "lang": "es"}, headers={"Accept": "text/html"})
    assert page.status_code == 422 and "campo 4 (hands)" in page.text


def test_tute_replay_from_an_impossible_position_exits_2_with_the_reason() -> None:
    for text, field, words in PROBES[:3]:
        done = subprocess.run([sys.executable, "-m", "tutepgn.cli", "replay", "--from", text], capture_output=True,
                              text=True, check=False, cwd=ROOT)
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and f"({field})" in said and words in said, done.stderr
