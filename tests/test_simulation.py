"""Self-play over every preset: thousands of deals replay legally and conserve cards and points."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from tutepgn.cards import CARD_POINTS, cards_in, pack
from tutepgn.engine import Deal
from tutepgn.events import Play
from tutepgn.rules import PRESETS, Ruleset, preset
from tutepgn.recording.simulate import play_out, random_bot, simulate_deals, simulate_matches

PRESET_NAMES = list(PRESETS)


def replay(deal: Deal) -> Deal:
    """Replay a finished deal's log through a fresh deal: raises if any action is illegal."""
    fresh = Deal(deal.rules, list(deal.initial_hands), list(deal.initial_stock), deal.initial_turned,
                 deal.dealer, first_of_match=deal.first_of_match)
    for action in deal.log:
        fresh.apply(action)
    return fresh


def check_invariants(deal: Deal) -> None:
    """Every card accounted for once; a complete deal's card points are 120 plus the last ten."""
    r = deal.rules
    played = [a.card for a in deal.log if type(a) is Play]
    assert len(played) == len(set(played)), "a card was played twice"
    left = [c for h in deal.hands for c in cards_in(h)] + deal.stock[deal.stock_pos:]
    assert sorted(played + left) == cards_in(pack(r.removed_ranks)), "a card was lost or duplicated"
    sheet = deal.score()
    assert sum(sheet.card_points) == sum(CARD_POINTS[c] for c in played)
    if sheet.complete:
        assert not left
        assert sum(sheet.card_points) == 120
        assert sum(sheet.card_points) + sheet.last_trick_bonus == 130
        assert sheet.winner is not None and sum(sheet.match_points) >= 1
        assert sum(sheet.totals) == 130 + sum(c.points for c in sheet.cantes)
    else:
        assert sheet.tute is not None, "a deal only ends early by a tute"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_ten_thousand_deals_replay_without_violation(name: str) -> None:
    rules = preset(name)
    deals = 0
    for bot in ("greedy", "random"):
        for deal in simulate_deals(rules, 5000, seed=PRESET_NAMES.index(name), bot=bot):
            check_invariants(deal)
            again = replay(deal)
            assert again.score() == deal.score()
            deals += 1
    assert deals == 10_000


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_complete_matches_end_at_the_target(name: str) -> None:
    rules = preset(name)
    for match, deals in simulate_matches(rules, 100, seed=7):
        assert match.over
        assert [d.dealer for d in deals] == [i % rules.players for i in range(len(deals))]
        assert [d.first_of_match for d in deals] == [True] + [False] * (len(deals) - 1)
        last = match.sheets[-1]
        assert last.wins_match or max(match.standing) >= match.target
        # No side had reached the target before the last deal.
        before = [sum(s.match_points[k] for s in match.sheets[:-1]) for k in range(rules.sides)]
        assert max(before) < match.target
        with pytest.raises(ValueError, match="match is over"):
            match.next_deal()


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**63), dealer=st.integers(0, 3))
def test_any_seed_plays_a_legal_deal(name: str, seed: int, dealer: int) -> None:
    rules = preset(name)
    deal = Deal.shuffled(rules, seed, dealer % rules.players)
    assert deal.mano == (dealer + 1) % rules.players
    assert [len(deal.hand(s)) for s in range(rules.players)] == [rules.hand_size] * rules.players
    play_out(deal, random_bot, random.Random(seed))
    check_invariants(deal)
    replay(deal)


@given(seed=st.integers(0, 2**63))
def test_same_seed_same_deal(seed: int) -> None:
    a = Deal.shuffled(preset("torofun-2p"), seed)
    b = Deal.shuffled(preset("torofun-2p"), seed)
    assert a.initial_hands == b.initial_hands and a.initial_stock == b.initial_stock


def test_each_preset_plays_its_own_deals_from_one_seed() -> None:
    import os
    import subprocess
    import sys

    from tutepgn.recording.simulate import deal_records, stream_seed

    def dealt(spec: str, seed: int = 3) -> list[str]:
        return [r.tags["Deal"] for r in deal_records(Ruleset.from_spec(spec), 20, seed=seed)]

    assert dealt("ludoteka-pairs") != dealt("torofun-4p")  # both deal 10 cards to 4 seats: once the same hands
    assert not set(dealt("ludoteka-pairs")) & set(dealt("torofun-4p"))
    assert dealt("playcard-2p") != dealt("torofun-2p")
    assert dealt("ludoteka-pairs match_target=6") == dealt("ludoteka-pairs")  # options of one preset: its hands
    assert dealt("ludoteka-pairs") == dealt("ludoteka-pairs") != dealt("ludoteka-pairs", seed=4)
    assert stream_seed(preset("torofun-4p"), stream_seed(preset("torofun-4p"), 3)) == 3
    runs = {subprocess.run([sys.executable, "-m", "tutepgn.cli", "simulate", "--rules", "torofun-3p", "--seed", "3"],
                           capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": salt}
                           ).stdout for salt in ("1", "2")}
    assert len(runs) == 1  # the mix is the same in every process (a CRC, not Python's salted hash())


def test_the_simulated_samples_are_what_their_readme_says_makes_them() -> None:
    import re
    from pathlib import Path

    from tutepgn.notation import tpgn
    from tutepgn.recording.simulate import deal_records, match_records

    samples = Path(__file__).resolve().parent.parent / "samples"
    readme = (samples / "README.md").read_text(encoding="utf-8")
    seeds = dict(re.findall(r"`([a-z0-9-]+)` (\d{10,})", readme))
    assert sorted(seeds) == sorted(PRESETS)
    for name, seed in seeds.items():
        made = "".join(tpgn.iter_dump(deal_records(preset(name), 50, int(seed))))
        assert made == (samples / "simulated" / f"{name}-50-deals.tpgn").read_text(encoding="utf-8"), name
    for name in ("ludoteka-pairs", "playcard-2p"):  # the same deals; the Match tags name the seed given
        made = "".join(tpgn.iter_dump(match_records(preset(name), 3, int(seeds[name]))))
        made = made.replace(f'"sim-{seeds[name]}-', '"sim-2025-')
        assert made == (samples / "simulated" / f"{name}-3-matches.tpgn").read_text(encoding="utf-8"), name
