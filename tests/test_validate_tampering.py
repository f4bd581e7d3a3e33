"""Tampered records are caught: 1,000 simulated deals per preset, each altered four ways.

The untouched records all pass.  Then every record is tampered with, one way
at a time, and each tampered copy must be reported invalid, with the first
error where the tampering is:

* a changed Score tag: ``score_mismatch`` at the Score tag;
* two cards of two seats swapped between two tricks: an error, never before
  the earlier of the two, and almost always ``not_held`` right there (the seat
  never held the other seat's card);
* a trick's leader letter changed: ``not_your_turn`` at that trick's first card;
* a cante inserted after a trick: by a seat of the side that lost the trick
  (``declare_by_trick_winner``) or by the trick's winner in a suit it does not
  hold (``cante_not_held``); a refused cante scores nothing, so it is the only error.

Records are validated one by one with :func:`tutepgn.check.validate.validate`, so
lines are counted from each record's first line.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from tutepgn.cards import card
from tutepgn.notation import read_record
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records
from tutepgn.check.validate import Report, validate, validate_sources

pytestmark = pytest.mark.usefixtures("replay_backend")  # with the C fast path and without: the same results

PRESETS = ["ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"]
COUNT = 1000
SEED = {"ludoteka-pairs": 101, "playcard-2p": 202, "torofun-2p": 303, "torofun-3p": 404, "torofun-4p": 505}

TRICK = re.compile(r"(\d+)\. ([NWSE]) (.*)")


@cache
def corpus(name: str) -> tuple[str, ...]:
    """The export text of each of COUNT simulated deals of a preset."""
    return tuple(r.tpgn() for r in deal_records(preset(name), COUNT, seed=SEED[name]))


class Lines:
    """A record's lines, with its trick lines found (0-based line indexes)."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.tricks = [i for i, line in enumerate(self.lines) if TRICK.fullmatch(line)]

    def cards(self, i: int) -> tuple[str, str, list[str]]:
        """Trick number, leader letter and cards of the trick line at index ``i``."""
        m = TRICK.fullmatch(self.lines[i])
        assert m is not None
        return m.group(1), m.group(2), m.group(3).split()

    def column(self, i: int, k: int) -> int:
        """1-based column of the k-th card of the trick line at index ``i``."""
        number, _, cards = self.cards(i)
        return len(number) + 5 + sum(len(c) + 1 for c in cards[:k])

    def text(self) -> str:
        return "\n".join(self.lines)


def check(text: str) -> Report:
    return validate(read_record(text, strict=False))


def first_error(report: Report) -> tuple[str, int | None, int | None, int | None, str | None]:
    f = report.errors[0]
    return f.code, f.line, f.column, f.trick, f.seat


@pytest.fixture(params=PRESETS)
def name(request: pytest.FixtureRequest) -> str:
    return request.param


def test_untouched_records_all_pass(name: str) -> None:
    reports = list(validate_sources(["\n".join(corpus(name))]))
    assert len(reports) == COUNT
    bad = [(r["line"], r["findings"]) for r in reports
           if not (r["valid"] and r["score_ok"] and r["result_ok"]) or r["findings"]]
    assert not bad, bad[:3]


def test_changed_score_tag(name: str) -> None:
    for text in corpus(name):
        lines = Lines(text)
        at = next(i for i, line in enumerate(lines.lines) if line.startswith("[Score "))
        labels_values = re.fullmatch(r'\[Score "(.*)"\]', lines.lines[at]).group(1).split()  # type: ignore[union-attr]
        label, value = labels_values[0].split(":")
        labels_values[0] = f"{label}:{int(value) + 10}"
        lines.lines[at] = f'[Score "{" ".join(labels_values)}"]'
        report = check(lines.text())
        assert not report.valid and report.score_ok is False
        assert [(f.code, f.line) for f in report.errors] == [("score_mismatch", at + 1)], text


def test_two_cards_swapped_between_tricks(name: str) -> None:
    rng = random.Random(SEED[name])
    n = preset(name).players
    seats = preset(name).seat_names
    tampered = exact = 0
    for text in corpus(name):
        lines = Lines(text)
        complete = [i for i in lines.tricks if len(lines.cards(i)[2]) == n]
        if len(complete) < 2:
            continue  # a tute before the second trick: nothing to swap
        i, j = sorted(rng.sample(complete, 2))
        _, lead_i, cards_i = lines.cards(i)
        _, lead_j, cards_j = lines.cards(j)
        p = rng.randrange(n)
        seat_p = (seats.index(lead_i) + p) % n
        q = rng.choice([q for q in range(n) if (seats.index(lead_j) + q) % n != seat_p])
        column = lines.column(i, p)
        cards_i[p], cards_j[q] = cards_j[q], cards_i[p]
        lines.lines[i] = f"{lines.cards(i)[0]}. {lead_i} {' '.join(cards_i)}"
        lines.lines[j] = f"{lines.cards(j)[0]}. {lead_j} {' '.join(cards_j)}"
        report = check(lines.text())
        assert not report.valid and report.errors, text
        assert report.errors[0].line >= i + 1, text  # nothing is wrong before the tampering
        exact += first_error(report)[:3] == ("not_held", i + 1, column)
        tampered += 1
    assert tampered >= COUNT * 0.95
    # Almost always the seat never held the other seat's card.  With a stock, it may have: a 7 of trump
    # it exchanged went under the stock and the other seat drew it; the swap then shows later.
    assert exact >= tampered * 0.99


def test_trick_led_by_the_wrong_seat(name: str) -> None:
    rng = random.Random(SEED[name] + 1)
    seats = preset(name).seat_names
    tampered = 0
    for text in corpus(name):
        lines = Lines(text)
        if not lines.tricks:
            continue
        i = rng.choice(lines.tricks)
        number, leader, cards = lines.cards(i)
        wrong = rng.choice([s for s in seats if s != leader])
        lines.lines[i] = f"{number}. {wrong} {' '.join(cards)}"
        report = check(lines.text())
        assert not report.valid
        assert first_error(report) == ("not_your_turn", i + 1, len(number) + 5, int(number), wrong), text
        assert report.errors[0].message.startswith(f"trick {number} is written as led by {wrong}, but ")
        tampered += 1
    assert tampered >= COUNT * 0.95


def test_illegal_cante_inserted(name: str) -> None:
    rules = preset(name)
    rng = random.Random(SEED[name] + 2)
    seats = rules.seat_names
    suits = "OCEB"
    tampered = {"declare_by_trick_winner": 0, "cante_not_held": 0}
    for index, text in enumerate(corpus(name)):
        record = read_record(text)
        lines = Lines(text)
        if len(lines.tricks) < 2:
            continue
        k = rng.randrange(len(lines.tricks) - 1)  # after trick k + 1, never the last: the deal goes on
        at = lines.tricks[k]
        deal = record.header().deal()
        for event, line, *_ in record.entries:
            if line - 1 > at:
                break
            deal.apply(event)
        assert not deal.trick and deal.tricks
        winner = deal.tricks[-1].winner
        if index % 2 == 0:
            code = "declare_by_trick_winner"
            seat = rng.choice([s for s in range(rules.players) if rules.side_of(s) != rules.side_of(winner)])
            suit = rng.randrange(4)
        else:
            code = "cante_not_held"
            seat = winner
            hand = deal.hands[seat]
            missing = [s for s in range(4) if not (hand >> card(11, s) & 1 and hand >> card(12, s) & 1)]
            suit = rng.choice(missing)
        cante = "40" if suit == deal.trump else f"20{suits[suit]}"
        lines.lines.insert(at + 1, f"{seats[seat]} {cante}")
        report = check(lines.text())
        assert not report.valid
        assert [(f.code, f.line, f.column, f.trick, f.seat) for f in report.errors] == [
            (code, at + 2, 1, k + 2, seats[seat])], text
        assert report.score_ok and report.result_ok  # a refused cante scores nothing
        tampered[code] += 1
    assert sum(tampered.values()) >= COUNT * 0.95 and min(tampered.values()) > COUNT * 0.4
