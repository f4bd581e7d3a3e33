"""The play layer's bots: each sees only its seat, the levels, and ``tute simulate --bot`` with any of them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from tutepgn import Deal, preset
from tutepgn.cards import BIT, cards_in
from tutepgn.cli.main import app
from tutepgn.errors import IllegalAction, UnknownBot
from tutepgn.events import Play
from tutepgn.notation import iter_records, read_record
from tutepgn.play.bots import LEVELS, Bot, HeuristicBot, PimcBot, SimpleBot, bot, level_bot, next_action
from tutepgn.play.view import SeatView
from tutepgn.policy import choose
from tutepgn.check.validate import validate

runner = CliRunner()


def swapped(deal: Deal, a: int, b: int) -> Deal | None:
    """``deal`` dealt again with cards ``a`` and ``b`` trading places (hands or stock), its log replayed; None if
    the log is not legal so."""
    def trade(c: int) -> int:
        return b if c == a else a if c == b else c
    hands = [sum(BIT[trade(c)] for c in cards_in(h)) for h in deal.initial_hands]
    start = Deal(deal.rules, hands, [trade(c) for c in deal.initial_stock], deal.initial_turned, deal.dealer,
                 first_of_match=deal.first_of_match)
    try:
        for action in deal.log:
            start.apply(action)
    except (IllegalAction, ValueError):
        return None
    return start


def twins(name: str, count: int) -> Iterator[tuple[Deal, Deal]]:
    """Pairs of deals in play that the seat to move cannot tell apart: two cards it has not seen trade places
    (between two other hands, or a hand and the stock), and the same log is legal in both."""
    found = 0
    for seed in range(200):
        deal = Deal.shuffled(preset(name), seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 14)):
            deal.apply(choose(deal))
        if deal.over or len(deal.legal_plays()) < 2:
            continue
        view = SeatView.of(deal)
        unseen = cards_in(view.known.unseen)
        rng.shuffle(unseen)
        for a in unseen:
            b = next((c for c in unseen if c != a and not any(h >> a & 1 and h >> c & 1 for h in deal.hands)), None)
            other = swapped(deal, a, b) if b is not None else None
            if other is not None and SeatView.of(other) == view:
                yield deal, other
                found += 1
                break
        if found == count:
            return
    pytest.fail(f"only {found} pairs of deals found for {name}")


BOTS: list[Bot] = [SimpleBot("random", 1), SimpleBot("greedy", 2), HeuristicBot(),
                   PimcBot(4, 1e9), PimcBot(4, 1e9, weighted=True)]
"""One bot of each kind; the PIMC bots with a budget of worlds only (no time limit: the same worlds every run)."""


@pytest.mark.parametrize("name", ["ludoteka-pairs", "torofun-3p", "playcard-2p"])
def test_a_bot_plays_the_same_when_a_card_it_cannot_see_is_elsewhere(name: str) -> None:
    for deal, other in twins(name, 3):
        assert deal.hands != other.hands or deal.stock != other.stock  # the truth differs
        for player in BOTS:
            first = player.choose(SeatView.of(deal), random.Random(7))
            second = player.choose(SeatView.of(other), random.Random(7))
            assert first == second, (player.name, deal.log)


def test_the_view_holds_no_other_hand() -> None:
    deal = Deal.shuffled(preset("torofun-4p"), seed=2)
    for _ in range(6):
        deal.apply(choose(deal))
    view = SeatView.of(deal, 1)
    assert view.hand == deal.hands[1] and view.stand_in.hands[1] == deal.hands[1]
    others = [s for s in range(4) if s != 1]
    assert view.known.unseen == sum(deal.hands[s] for s in others) - sum(view.known.known[s] for s in others)
    assert [view.stand_in.hands[s].bit_count() for s in others] == [deal.hands[s].bit_count() for s in others]
    assert view.stand_in.log == deal.log


@pytest.mark.parametrize("name", ["ludoteka-pairs", "playcard-2p"])
def test_every_level_plays_a_legal_deal_to_its_end(name: str) -> None:
    for level in (1, 2, 3):
        player = level_bot(level)
        deal = Deal.shuffled(preset(name), seed=level)
        rng = random.Random(level)
        while not deal.over:
            action = next_action(deal, [player] * deal.rules.players, rng)
            assert deal.can(action)
            deal.apply(action)
    deal = Deal.shuffled(preset("playcard-2p"), seed=1)
    for _ in range(30):  # the end of a 2-player deal: the PIMC bots' exact and searched decisions
        deal.apply(choose(deal))
    for player in (PimcBot(3, 1e9), PimcBot(3, 1e9, weighted=True)):
        play = deal.restart()
        for action in deal.log:
            play.apply(action)
        while not play.over:
            action = next_action(play, [player, player], random.Random(0))
            assert play.can(action)
            play.apply(action)


def test_a_partner_asked_out_of_turn_declares_or_passes_its_own_only() -> None:
    asked = 0
    for seed in range(40):
        deal = Deal.shuffled(preset("ludoteka-pairs"), seed=seed)
        while not deal.over:
            for seat in {a.seat for a in deal.legal_actions()} - {deal.turn}:
                asked += 1
                for player in BOTS[:3]:
                    action = player.choose(SeatView.of(deal, seat), random.Random(seed))
                    assert action is None or (action.seat == seat and type(action) is not Play)
            deal.apply(choose(deal))
    assert asked


def test_levels_and_names() -> None:
    assert [level_bot(n).name for n in range(1, 6)] == list(LEVELS.values()) == ["random", "greedy", "heuristic",
                                                                                  "pimc-5", "pimc-40w"]
    assert [level_bot(n).level for n in range(1, 6)] == list(range(1, 6))
    assert bot("pimc-12w") == PimcBot(12, bot("pimc-12w").seconds, weighted=True)
    assert bot("pimc-12w", "worlds") == PimcBot(12, None, weighted=True) == bot("pimc-12w", budget="worlds")
    assert level_bot(5, "worlds") == PimcBot(40, None, weighted=True, level=5) and bot("pimc-20").level is None
    assert bot("nivel-3").name == bot("3").name == "heuristic"
    for wrong in ("pimc-0", "6", "minimax", "level-0"):
        with pytest.raises(UnknownBot):
            bot(wrong)


def test_simulate_takes_a_level_and_a_pimc_bot() -> None:
    level = runner.invoke(app, ["simulate", "--rules", "ludoteka-pairs", "--deals", "2", "--level", "3"])
    assert level.exit_code == 0, level.output
    records = list(iter_records(level.stdout))
    assert len(records) == 2 and not any(validate(r).errors for r in records)
    pimc = runner.invoke(app, ["simulate", "--rules", "playcard-2p", "--bot", "pimc-2", "--seed", "1"])
    assert pimc.exit_code == 0, pimc.output
    assert not validate(read_record(pimc.stdout)).errors
    again = runner.invoke(app, ["simulate", "--rules", "playcard-2p", "--bot", "pimc-2", "--seed", "1",
                                "--budget", "worlds"])
    assert again.stdout == pimc.stdout  # worlds only by default: the same deal from the seed
    timed = runner.invoke(app, ["simulate", "--rules", "playcard-2p", "--bot", "pimc-2", "--budget", "time"])
    assert timed.exit_code == 0 and not validate(read_record(timed.stdout)).errors
    wrong = runner.invoke(app, ["simulate", "--bot", "minimax"])
    assert wrong.exit_code == 2 and "minimax" in wrong.output


def test_a_history_whose_first_rebuild_breaks_a_rule_still_gives_a_view_and_worlds() -> None:
    """Board 999 of seed 38 (greedy against random, playcard-2p): South sang a 20 and later played the rey and
    caballo of trump, drawn after the cante; placed in its hand dealt (the first order of starting_deal), they
    would have obliged the 40 first.  The other orders of placing the draws find a history that replays."""
    from tutepgn.play.arena import play_board
    from tutepgn.recording.simulate import stream_seed

    rules = preset("playcard-2p")
    deal = Deal.shuffled(rules, random.Random(stream_seed(rules, 38) + 999), dealer=999 % 2)
    players, rng = [bot("random"), bot("greedy")], random.Random("38:999:b")
    while len(deal.log) < 16:
        deal.apply(next_action(deal, players, rng))
    view = SeatView.of(deal, 0)  # no stand-in was found here before
    assert view.stand_in.log == deal.log and deal.can(PimcBot(2, None).choose(view, random.Random(1)))
    assert play_board("playcard-2p", "heuristic", "greedy", 38, True, "worlds", 237).index == 237
