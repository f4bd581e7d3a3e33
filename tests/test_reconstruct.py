"""Two players without the stock order: the deal is reconstructed from the play, or the first impossible event named.

* Every 2-player sample and simulated deal validates with its ``Stock`` tag
  removed, and with both ``Deal`` and ``Stock`` removed, to the same count
  and result (300 deals per preset here; 2,000 under the ``slow`` marker).
* Tampered records (a card moved from one seat's plays to the other's, a cante
  of cards the seat cannot have held, a play of the turned card while it is
  still under the stock) are refused with ``impossible_event`` at the first
  event no order makes possible.
* Exactness: :func:`reconstruct` agrees, on random swaps of two plays that
  may or may not be possible, with an independent oracle written here: for a
  prefix of the record, an explicit bipartite graph between the cards and the
  places they could have come from (a dealt hand, a stock position drawn by a
  seat after a trick), each edge checked by following that one card through
  every event, and a maximum matching by augmenting paths.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from tutepgn.cards import CARD_SUIT, card, cards_in, pack
from tutepgn.declarations import CANTE_PAIRS, FOURS
from tutepgn.events import Action, Cante, Exchange, Play, Tute
from tutepgn.notation import Record, iter_records, read_record
from tutepgn.check.reconstruct import reconstruct
from tutepgn.rules import Ruleset, preset
from tutepgn.recording.simulate import deal_records, stream_seed
from tutepgn.check.validate import Report, validate

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ["playcard-2p", "torofun-2p"]
SEED = {"playcard-2p": 61, "torofun-2p": 62}


@cache
def corpus(name: str, count: int) -> tuple[Record, ...]:
    return tuple(deal_records(preset(name), count, seed=stream_seed(preset(name), SEED[name])))  # the stream this corpus's seeds were chosen on (stream_seed is its own inverse)


def without(record: Record, *tags: str) -> Record:
    """The record read back from its text with some tags left out (so that every event has its line and column)."""
    copy = Record(tags={k: v for k, v in record.tags.items() if k not in tags}, events=list(record.events),
                  termination=record.termination)
    return read_record(copy.tpgn(), strict=False)


def verdict(report: Report) -> tuple[object, ...]:
    sheet = report.sheet
    return report.valid, None if sheet is None else sheet.totals, report.computed_result


# ---------------------------------------------------------------------------
# The oracle.


def oracle_first_impossible(rules: Ruleset, events: list[Action], dealer: int, turned: int,
                            hands: tuple[int, ...] | None = None) -> int | None:
    """The index of the first event that no dealing and stock order makes possible, or None: by bisection over
    prefixes (a prefix that is possible stays possible when cut shorter)."""
    low, high = 0, len(events)  # the prefix of `low` events is possible; find the longest one
    if _possible(rules, events, dealer, turned, hands, high):
        return None
    while high - low > 1:
        mid = (low + high) // 2
        if _possible(rules, events, dealer, turned, hands, mid):
            low = mid
        else:
            high = mid
    return high - 1


def _possible(rules: Ruleset, events: list[Action], dealer: int, turned: int, hands: tuple[int, ...] | None,
              count: int) -> bool:
    events = events[:count]
    size = rules.hand_size
    length = rules.deck_size - 2 * size
    drawing = length // 2
    trump = CARD_SUIT[turned]
    times, winners, trick = [], [], []
    for e in events:
        times.append(len(winners))
        if type(e) is Play:
            trick.append((e.seat, e.card))
            if len(trick) == 2:
                (s0, c0), (s1, c1) = trick
                beats = CARD_SUIT[c1] == CARD_SUIT[c0] and c1 > c0 or CARD_SUIT[c1] == trump != CARD_SUIT[c0]
                winners.append(s1 if beats else s0)
                trick = []
    # Places: (seat, time): a dealt hand (time 0) or a stock position drawn after a trick; None: not drawn yet.
    places: list[tuple[int | None, int]] = [] if hands else [(s, 0) for s in (0, 1) for _ in range(size)]
    last_loser = None
    for p in range(length - 1):
        t = p // 2 + 1
        if t <= len(winners):
            places.append(((winners[t - 1] + p % 2) % 2, t))
        else:
            places.append((None, 1 << 30))
    if len(winners) >= drawing:
        last_loser = (winners[drawing - 1] + 1) % 2

    def follows(c: int, where: object, arrival: int, owner: int | None) -> bool:
        """Follow card c from where it starts through every event: True when each event involving it is possible."""
        for i, e in enumerate(events):
            now = times[i]
            if where == "stock" and arrival <= now:
                where = owner
            if where == "bottom" and last_loser is not None and now >= drawing:
                where = last_loser
            kind = type(e)
            if kind is Play and e.card == c:
                if where != e.seat:
                    return False
                where = "gone"
            elif kind is Cante and CANTE_PAIRS[e.suit] >> c & 1 or kind is Tute and FOURS.get(e.rank, 0) >> c & 1:
                if where != e.seat:
                    return False
            elif kind is Exchange:
                if e.card == c:
                    if where != e.seat:
                        return False
                    if now < drawing:
                        where = "bottom"
                elif where == "bottom" and now < drawing:
                    where = e.seat
        return True

    if not follows(turned, "bottom", 0, None):
        return False
    known = [0, 0] if hands is None else list(hands)
    for seat in (0, 1):
        for c in cards_in(known[seat]):
            if not follows(c, seat, 0, None):
                return False
    cards = [c for c in cards_in(pack(rules.removed_ranks)) if c != turned and not (known[0] | known[1]) >> c & 1]
    assert len(cards) == len(places)
    edges = [[j for j, (owner, t) in enumerate(places)
              if follows(c, owner if t == 0 else "stock", t, owner)] for c in cards]
    match = [-1] * len(places)

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                if match[j] < 0 or augment(match[j], seen):
                    match[j] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(cards)))


# ---------------------------------------------------------------------------
# Records that are possible.


def two_player_samples() -> list[tuple[str, Record]]:
    out = []
    for path in sorted(ROOT.glob("samples/**/*.tpgn")):
        for record in iter_records(path):
            if record.header().rules.preset in PRESETS:  # "playcard" (the hand-written sample) is playcard-2p
                out.append((f"{path.name}#{record.index}", record))
    return out


SAMPLES = two_player_samples()


@pytest.mark.parametrize("name,record", SAMPLES, ids=[name for name, _ in SAMPLES])
def test_samples_validate_without_stock(name: str, record: Record) -> None:
    original = validate(record)
    for missing in (("Stock",), ("Deal", "Stock"), ("Deal",)):
        report = validate(without(record, *missing))
        assert verdict(report) == verdict(original), (missing, [f.message for f in report.findings])
        assert report.sheet.cantes == original.sheet.cantes and report.score_ok == original.score_ok
        assert "stock_reconstructed" in [f.code for f in report.findings]


def check_simulated(name: str, count: int) -> None:
    for record in corpus(name, count):
        original = validate(record)
        assert original.valid
        for missing in (("Stock",), ("Deal", "Stock")):
            report = validate(without(record, *missing))
            assert verdict(report) == verdict(original), (missing, record.tpgn(), [f.message for f in report.findings])
            assert report.score_ok and report.result_ok
            assert {f.code for f in report.findings} <= {"stock_reconstructed", "undecidable"}


@pytest.mark.parametrize("name", PRESETS)
def test_simulated_deals_validate_without_stock(name: str) -> None:
    check_simulated(name, 300)


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESETS)
def test_two_thousand_simulated_deals_validate_without_stock(name: str) -> None:
    check_simulated(name, 2000)


# ---------------------------------------------------------------------------
# Records that are not.


def plays(events: list[Action]) -> list[int]:
    return [i for i, e in enumerate(events) if type(e) is Play]


def swap(events: list[Action], i: int, j: int) -> list[Action]:
    """The cards of two plays swapped, each seat as written."""
    out = list(events)
    a, b = out[i], out[j]
    assert type(a) is Play and type(b) is Play
    out[i], out[j] = Play(a.seat, b.card), Play(b.seat, a.card)
    return out


def moved_card(record: Record, rng: random.Random, dealt_known: bool) -> list[Action] | None:
    """A card one seat is proved to hold (dealt to it, shown in its cante, taken in its exchange) played by the
    other seat, at a trick after the proof: the cards of the two plays swapped."""
    events = record.events
    proofs: list[tuple[int, int, int]] = []  # (index of the proof, seat, card)
    if dealt_known:
        hands = record.header().hands
        proofs += [(0, seat, c) for seat in (0, 1) for c in cards_in(hands[seat])]
    turned = record.header().turned
    for i, e in enumerate(events):
        if type(e) is Cante:
            proofs += [(i, e.seat, c) for c in cards_in(CANTE_PAIRS[e.suit])]
        elif type(e) is Exchange:
            proofs.append((i, e.seat, turned))
            turned = e.card
    rng.shuffle(proofs)
    for at, seat, c in proofs:
        own = next((j for j in plays(events) if events[j].card == c and events[j].seat == seat and j > at), None)
        others = [j for j in plays(events) if events[j].seat != seat and j > at]
        if own is not None and others:
            return swap(events, own, rng.choice(others))
    return None


def impossible_cante(record: Record, rng: random.Random) -> list[Action] | None:
    """A cante, after a trick its seat won, of a pair one of whose cards was already played."""
    events = record.events
    spots = [i + 1 for i in plays(events)[1::2]][:-1]  # not after the last trick: that is after the end
    rng.shuffle(spots)
    for at in spots:
        seat = events[at - 1].seat if record.header().rules else 0
        played = {e.card for e in events[:at] if type(e) is Play}
        suits = [s for s in range(4) if any(c in played for c in cards_in(CANTE_PAIRS[s]))]
        if suits:
            return events[:at] + [Cante(seat, rng.choice(suits))] + events[at:]
    return None


def turned_played_early(record: Record, rng: random.Random) -> list[Action] | None:
    """The turned card played in a trick before the last draw (and before any exchange took it from the stock)."""
    events = record.events
    header = record.header()
    first_exchange = next((i for i, e in enumerate(events) if type(e) is Exchange), len(events))
    early = [j for j in plays(events)[:24] if j < first_exchange]
    late = next((j for j in plays(events) if events[j].card == header.turned), None)
    if late is None or not early:
        return None
    return swap(events, rng.choice(early), late)


def tampered(name: str, count: int) -> list[tuple[str, Record, list[Action], bool]]:
    """``count`` tampered copies of simulated deals, each kind in turn, with or without the Deal tag."""
    rng = random.Random(SEED[name] * 7)
    out = []
    records = corpus(name, max(count, 300))
    for k in range(count * 3):
        if len(out) == count:
            break
        record = records[k % len(records)]
        kind = k % 3
        dealt_known = rng.random() < 0.3
        events = (moved_card(record, rng, dealt_known) if kind == 0 else impossible_cante(record, rng) if kind == 1
                  else turned_played_early(record, rng))
        if events is not None:
            out.append((("moved", "cante", "stock")[kind], record, events, dealt_known))
    return out


def check_tampered(name: str, count: int) -> None:
    cases = tampered(name, count)
    assert len(cases) == count
    for kind, record, events, dealt_known in cases:
        header = record.header()
        hands = header.hands if dealt_known else None
        found = reconstruct(header.rules, events, dealer=header.dealer, turned=header.turned, hands=hands)
        expected = oracle_first_impossible(header.rules, events, header.dealer, header.turned, hands)
        assert expected is not None and found.impossible == expected, (kind, found.reason)
        copy = Record(tags=dict(record.tags), events=events, termination=record.termination)
        text = without(copy, "Stock", *(() if dealt_known else ("Deal",)))
        report = validate(text)
        first = report.errors[0]
        assert (first.code, first.line, first.column) == ("impossible_event", *text.position(expected)), kind
        assert found.reason in first.message


@pytest.mark.parametrize("name", PRESETS)
def test_tampered_records_are_refused_at_the_first_impossible_event(name: str) -> None:
    check_tampered(name, 150)


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESETS)
def test_two_thousand_tampered_records_are_refused(name: str) -> None:
    check_tampered(name, 2000)


@pytest.mark.parametrize("name", PRESETS)
def test_reconstruction_agrees_with_the_oracle_on_random_swaps(name: str) -> None:
    """Two plays of different seats swapped at random: possible or not, the verdict and the index are the oracle's."""
    rng = random.Random(SEED[name])
    verdicts = set()
    for record in corpus(name, 300)[:150]:
        header = record.header()
        events = record.events
        i, j = rng.sample([k for k in plays(events)], 2)
        if events[i].seat == events[j].seat:
            continue
        events = swap(events, i, j)
        hands = header.hands if rng.random() < 0.3 else None
        found = reconstruct(header.rules, events, dealer=header.dealer, turned=header.turned, hands=hands)
        assert found.impossible == oracle_first_impossible(header.rules, events, header.dealer, header.turned, hands)
        verdicts.add(found.possible)
    assert verdicts == {True, False}


@pytest.mark.parametrize("name", PRESETS)
def test_reconstruction_agrees_with_the_oracle_on_early_cantes(name: str) -> None:
    """A cante inserted after a trick, by its winner, of a pair that seat plays later: possible unless the seat
    shows more cards by then than it was dealt and drew (tight with the Deal tag known). Verdict and index are
    the oracle's."""
    rng = random.Random(SEED[name] + 1)
    verdicts = set()
    for record in corpus(name, 300)[:200]:
        header = record.header()
        events = record.events
        ends = [i for i in plays(events)[1::2] if i < 30]
        at = rng.choice(ends) + 1
        seat = events[at - 1].seat
        later = {e.card for e in events[at:] if type(e) is Play and e.seat == seat}
        suits = [s for s in range(4) if all(c in later for c in cards_in(CANTE_PAIRS[s]))]
        if not suits:
            continue
        events = events[:at] + [Cante(seat, rng.choice(suits))] + events[at:]
        hands = header.hands if rng.random() < 0.7 else None
        found = reconstruct(header.rules, events, dealer=header.dealer, turned=header.turned, hands=hands)
        assert found.impossible == oracle_first_impossible(header.rules, events, header.dealer, header.turned, hands)
        verdicts.add(found.possible)
    assert verdicts == {True, False}


def test_every_prefix_of_a_deal_is_possible_and_dealt() -> None:
    """What a recorder asks after each entry: the events so far are possible, and the order found is a deal."""
    for record in corpus("torofun-2p", 300)[:15]:
        header = record.header()
        for count in range(0, len(record.events) + 1, 3):
            found = reconstruct(header.rules, record.events[:count], dealer=header.dealer, turned=header.turned)
            deal = found.deal()
            assert sorted(cards_in(deal.initial_hands[0] | deal.initial_hands[1]) + list(deal.initial_stock)) == \
                cards_in(pack(())) and deal.initial_stock[-1] == header.turned


def test_first_deal_of_a_match_with_a_leader_card() -> None:
    """A custom 2-player ruleset whose first deal is led by the holder of the 2 of oros: the first leader held it
    (or, when mano leads, the other seat was not dealt it), and the matches validate without their stock."""
    from tutepgn.recording.simulate import match_records
    rules = Ruleset.from_spec("playcard-2p first_deal_leader_card=2O first_deal_trump=O")
    leaders = set()
    for record in match_records(rules, 12, seed=stream_seed(rules, 3)):  # the stream this test's seed was chosen on (stream_seed is its own inverse)
        report = validate(without(record, "Deal", "Stock"))
        original = validate(record)
        assert verdict(report) == verdict(original), [f.message for f in report.findings]
        if record.tags["DealNo"] == "1":
            header = record.header()
            leaders.add(record.events[0].seat == (header.dealer + 1) % 2)
            # The first leader written as the other seat: it must hold 2O, which mano holds here.
            mano = (header.dealer + 1) % 2
            if record.events[0].seat == mano and not header.hands[mano] >> card(2, 0) & 1:
                other = Play(1 - mano, record.events[0].card)
                found = reconstruct(rules, [other], dealer=header.dealer, turned=header.turned,
                                    first_of_match=True, hands=header.hands)
                assert found.impossible == 0 and "holds 2O" in found.reason
    assert leaders == {True, False}


def test_first_deal_with_a_leader_card_ended_by_a_tute_before_any_play() -> None:
    """The first seat to act leads, even when it acts by a tute at the first lead and no card is ever played: its
    leading tells where the leader card was (mano here: the other seat was not dealt 2O)."""
    from tutepgn.recording.simulate import match_records
    rules = Ruleset.from_spec("playcard-2p first_deal_leader_card=2O first_deal_trump=O")
    first = next(r for r in match_records(rules, 12, seed=3) if r.events and isinstance(r.events[0], Tute))
    assert first.tags["DealNo"] == "1" and first.termination != "*"
    assert not any(isinstance(e, Play) for e in first.events)
    report = validate(without(first, "Deal", "Stock"))
    assert verdict(report) == verdict(validate(first)), [f.message for f in report.findings]


@pytest.mark.parametrize("spec", ["torofun-3p trump_card=stock_bottom hand_size=10",
                                  "torofun-2p removed_ranks=2 hand_size=7", "playcard-2p hand_size=6"])
def test_custom_rulesets_with_a_stock(spec: str) -> None:
    """Three players drawing in turn from the winner (the last draw cut short), a smaller pack, smaller hands."""
    for record in deal_records(Ruleset.from_spec(spec), 60, seed=8):
        original = validate(record)
        report = validate(without(record, "Deal", "Stock"))
        assert verdict(report) == verdict(original), [f.message for f in report.findings]


def test_known_cards_that_are_not_a_deal_are_refused() -> None:
    rules = preset("playcard-2p")
    hands = (0b1111111 << 1 | 1 << 39, 0b11111111 << 10)  # N holds 1B, the turned card
    with pytest.raises(ValueError, match="1B is dealt twice: it is the turned card"):
        reconstruct(rules, [], dealer=1, turned=39, hands=hands)
    with pytest.raises(ValueError, match="N is dealt 7 cards, not 8"):
        reconstruct(rules, [], dealer=1, turned=39, hands=(0b1111111, 0b11111111 << 10))
    with pytest.raises(ValueError, match="deals without a stock"):
        reconstruct(preset("torofun-4p"), [], dealer=1, turned=39)


def test_a_card_after_the_end_is_reported_as_after_the_end() -> None:
    record = corpus("playcard-2p", 300)[0]
    events = record.events + [Play(0, record.events[0].card)]
    copy = Record(tags=dict(record.tags), events=events, termination=record.termination)
    report = validate(without(copy, "Deal", "Stock"))
    codes = [f.code for f in report.errors]  # the lone card of a 21st trick is also a syntax error
    assert "after_end" in codes and "impossible_event" not in codes
