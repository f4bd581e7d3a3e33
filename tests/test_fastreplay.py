"""The replay fast path (C) against the engine (Python, the reference): the same verdicts, first illegal events
and score sheets.

Simulated deals of every preset, and of rulesets with other options (so that
each option the C core reads is exercised), are replayed through both: once
as played, then tampered with at random (an event dropped, two swapped, a card
or seat changed, a declaration inserted, the record cut short), which gives
illegal events at every place and legal declarations the bots never made.
By default a small share runs; ``-m slow`` runs 100,000 simulated deals per
preset and 20,000 tampered ones.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Iterator

import pytest

from tutepgn.check import fastreplay
from tutepgn.cards import card
from tutepgn.engine import Deal
from tutepgn.events import Action, Cante, Exchange, Play, Tute
from tutepgn.notation import Record
from tutepgn.check.replay import replay
from tutepgn.errors import UnknownRuleset
from tutepgn.rules import OPTIONS, PRESETS, Ruleset, preset
from tutepgn.recording.simulate import simulate_deals
from tutepgn.check.validate import validate

pytestmark = pytest.mark.skipif(not fastreplay.C_AVAILABLE, reason="the C core was not built")

OTHER_OPTIONS: list[tuple[str, dict[str, object]]] = [
    ("ludoteka-pairs", {"must_undertrump": True, "beat_waived_when_trumped": False, "forfeit_unsung_cantes": True}),
    ("ludoteka-pairs", {"partner_winning_exempts": True, "forty_first": False, "double_basis": "cards_and_last",
                        "tute_at_first_lead": True, "match_target": 6}),
    ("torofun-4p", {"must_beat": False, "must_overtrump": False, "cantes_per_trick": 2, "double_threshold": None,
                    "cante_only_if_sung_at_first_win": True, "tute_blocked_by_earlier_cante": False}),
    ("torofun-3p", {"must_trump": False, "forfeit_unsung_cantes": False, "tute_effect": "win_deal",
                    "last_trick_bonus": 0, "cante_points": 25}),
    ("playcard-2p", {"free_play_while_stock": False, "exchange_two": True, "exchange_two_for": (1, 3, 12),
                     "declare_only_after_draw": True, "no_declare_with_last_drawn": True}),
    ("torofun-2p", {"exchange_at_first_lead": True, "exchange_seven_for": (), "must_follow": False,
                    "tute_at_first_lead": True, "tute_blocked_by_earlier_cante": False, "cuarenta_points": 50}),
]
"""Rulesets whose options differ from the presets', so that every option the fast path reads takes both values."""


def rulesets() -> list[Ruleset]:
    return list(PRESETS.values()) + [preset(name).with_options(**o) for name, o in OTHER_OPTIONS]


def reference(start: Deal, events: list[Action], target: int | None) -> tuple[object, ...]:
    """The engine's verdict: the first illegal event, else the score sheet, whether over, the cards never played."""
    deal = start.restart()
    for step in replay(deal, events):
        if step.error is not None:
            return (step.index,)
    return None, deal.score(target), deal.over, sum(h.bit_count() for h in deal.hands)


def fast(start: Deal, events: list[Action], target: int | None) -> tuple[object, ...]:
    verdict = fastreplay.check(start.restart(), events, target)
    assert verdict is not None
    return (verdict.illegal,) if verdict.illegal is not None else (None, verdict.sheet, verdict.over,
                                                                   verdict.cards_left)


def tamper(deal: Deal, rng: random.Random) -> list[Action]:
    """The deal's events changed one way at random."""
    events = list(deal.log)
    n = deal.rules.players
    k = rng.randrange(len(events))
    way = rng.randrange(7)
    if way == 0:
        del events[k]
    elif way == 1:
        j = rng.randrange(len(events))
        events[k], events[j] = events[j], events[k]
    elif way == 2 and type(events[k]) is Play:
        events[k] = Play(events[k].seat, rng.randrange(40))
    elif way == 3 and type(events[k]) is Play:
        events[k] = Play(rng.randrange(n), events[k].card)
    elif way == 4:
        return events[:k]
    else:
        seat = rng.randrange(n)
        suit = rng.randrange(4) if rng.random() < 0.5 else deal.trump
        events.insert(k, rng.choice([Cante(seat, suit), Cante(seat, suit), Tute(seat, rng.choice((11, 12))),
                                     Exchange(seat, card(rng.choice((7, 2)), suit))]))
    return events


def deals(rules: Ruleset, count: int, seed: int) -> Iterator[Deal]:
    """Simulated deals, half by the greedy bot (every declaration it may), half by the random one."""
    yield from simulate_deals(rules, count - count // 2, seed=seed)
    yield from simulate_deals(rules, count // 2, seed=seed + 1, bot="random")


def compare(rules: Ruleset, count: int, tampered: int, seed: int) -> None:
    """``count`` simulated deals as played, and the first ``tampered`` of them tampered with (one at a time:
    100,000 deals are never held at once)."""
    rng = random.Random(seed)
    targets = [None] + list(rules.match_target_choices)
    illegal = 0
    for i, deal in enumerate(deals(rules, count, seed)):
        target = rng.choice(targets)
        assert fast(deal, deal.log, target) == reference(deal, deal.log, target), (rules.spec, deal.log)
        if i < tampered:
            events = tamper(deal, rng)
            want = reference(deal, events, target)
            illegal += want[0] is not None
            assert fast(deal, events, target) == want, (rules.spec, events)
    assert not tampered or 0 < illegal < min(tampered, count)  # tampering finds both illegal and legal records


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_the_fast_path_agrees_with_the_engine(rules: Ruleset) -> None:
    compare(rules, 300, 300, seed=11)


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=lambda r: r.spec)
def test_the_fast_path_agrees_on_100000_deals_and_20000_tampered(rules: Ruleset) -> None:
    compare(rules, 100_000, 20_000, seed=2026)


def test_events_it_cannot_encode_are_left_to_the_engine() -> None:
    deal = next(simulate_deals(preset("torofun-4p"), 1, seed=5))
    start = deal.restart()
    assert fastreplay.check(start, [*deal.log[:3], Play(7, 3)]) is None  # no seat 7 at 4 players
    assert fastreplay.check(start, [Cante(0, 9)]) is None
    assert fastreplay.check(start, ["1O"]) is None  # type: ignore[list-item]
    assert fastreplay.check(start, [Tute(0, 10**30)]) is None  # no C long holds it
    assert fastreplay.check(start, [Tute(0, 13)]) == fastreplay.Verdict(0)  # refused, as the engine refuses it


def test_the_setting_switches_the_fast_path_off(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = next(simulate_deals(preset("torofun-4p"), 1, seed=5))
    monkeypatch.setenv("TUTEPGN_REPLAY", "python")
    assert fastreplay.default_backend() == "python"
    monkeypatch.setattr(fastreplay, "BACKEND", "python")
    assert fastreplay.check(deal.restart(), deal.log) is None
    monkeypatch.setenv("TUTEPGN_REPLAY", "cobol")
    with pytest.raises(ValueError, match="TUTEPGN_REPLAY"):
        fastreplay.default_backend()


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_the_validator_reports_the_same_with_the_fast_path_and_without(rules: Ruleset,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole reports (findings, sheets, explanations) of played and tampered records, JSON for JSON."""
    rng = random.Random(7)
    records = []
    for deal in deals(rules, 60, seed=3):
        records.append(Record.from_deal(deal))
        records.append(Record.from_deal(deal))
        records[-1].events[:] = tamper(deal, rng)
    reports = {}
    for backend in ("c", "python"):
        monkeypatch.setattr(fastreplay, "BACKEND", backend)
        reports[backend] = [validate(record).to_dict() for record in records]
    assert reports["c"] == reports["python"]
    assert any(r["valid"] for r in reports["c"]) and not all(r["valid"] for r in reports["c"])


def test_every_option_is_read_by_the_fast_path_or_shapes_only_the_start() -> None:
    """A new ruleset option fails here until the fast path reads it (its options change with it) or it is
    listed as one the replay does not depend on."""
    def alternatives(value: object, annotation: object) -> list[object]:
        if isinstance(value, bool):
            return [not value]
        if isinstance(value, int):
            return [value + 1, value - 1, None]
        if isinstance(value, tuple):
            return [(), (*value, 5), (1, 3, 12)]
        if isinstance(value, str):
            return list(typing.get_args(annotation))
        return [1, 6, 200]

    def read(rules: Ruleset, name: str) -> bool:
        for value in alternatives(getattr(rules, name), OPTIONS[name].annotation):
            try:
                other = rules.with_options(**{name: value})
            except UnknownRuleset:
                continue
            if fastreplay.options(other) != fastreplay.options(rules):
                return True
        return False

    for name in set(OPTIONS) - fastreplay.NOT_REPLAYED:
        assert any(read(rules, name) for rules in PRESETS.values()), name
