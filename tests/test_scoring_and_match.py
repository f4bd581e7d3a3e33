"""The count of a deal, its match points, and the match around it.

Short hand-written deals are played to the end and their ScoreSheet checked
number by number, following docs/rules.md.

Seats: 4 players 0=N 1=W 2=S 3=E (N/S side 0, W/E side 1); 3 players
0=N 1=W 2=E; 2 players 0=N 1=S.
"""

from __future__ import annotations

import random

import pytest
from positions import ALL, PAIRS, build, plays

from tutepgn import Deal, Match, preset
from tutepgn.cards import BASTOS, CARD_SUIT, OROS, card_from_code, cards_in, pack
from tutepgn.events import Cante, Tute

TWO = ["playcard-2p", "torofun-2p"]


def play_out(deal: Deal) -> None:
    """Finish the deal, each seat playing its lowest legal card, declaring nothing."""
    while not deal.over:
        deal.play(min(c for c in deal.hand(deal.turn) if deal.can_play(c)))


def random_deal(name: str, seed: int, *, greedy_cantes: bool = False, first_of_match: bool = False) -> Deal:
    """A shuffled deal played to the end with random legal actions (cantes and exchanges, never a tute)."""
    rng = random.Random(seed)
    deal = Deal.shuffled(preset(name), seed, dealer=seed % preset(name).players, first_of_match=first_of_match)
    while not deal.over:
        actions = [a for a in deal.legal_actions() if not isinstance(a, Tute)]
        cantes = [a for a in actions if isinstance(a, Cante)]
        deal.apply(cantes[0] if greedy_cantes and cantes else rng.choice(actions))
    return deal


# ---------------------------------------------------------------------------
# Exact counts of short deals.

@pytest.mark.parametrize("name", PAIRS)
def test_pairs_total_is_cards_plus_last_ten_plus_cantes(name):
    deal = build(name, dict(N="1O 11C 12C", W="4O 1C 3E", S="5O 5C 1E", E="6O 6C 7B"), turned="7B")
    plays(deal, "1O 4O 5O 6O")       # N wins 11
    deal.cante(0, "C")               # 20 for N/S
    plays(deal, "11C 1C 5C 6C")      # W wins 3 + 11
    plays(deal, "3E 1E 7B 12C")      # E trumps: 10 + 11 + 4, and the last trick
    sheet = deal.score()
    assert sheet.complete
    assert [t.winner for t in sheet.tricks] == [0, 1, 3]
    assert [t.points for t in sheet.tricks] == [11, 14, 25]
    assert sheet.card_points == (11, 39)
    assert sheet.last_trick_side == 1 and sheet.last_trick_bonus == 10
    assert sheet.cante_points(0) == 20 and sheet.cante_points(1) == 0
    assert sheet.totals == (11 + 20, 39 + 10)
    assert sheet.winner == 1 and sheet.tie_break is False
    assert sheet.match_points == (0, 1) and sheet.doubled is False


@pytest.mark.parametrize("name", TWO)
def test_two_player_count(name):
    deal = build(name, dict(N="1O 3O", S="4C 5C"), stock="12O", turned="6O")
    plays(deal, "1O 4C")  # N 11; N draws 12O, S the turned 6O
    plays(deal, "3O 6O")  # stock empty: S must follow oros
    plays(deal, "12O 5C")
    sheet = deal.score()
    assert sheet.card_points == (25, 0)
    assert sheet.totals == (35, 0)
    assert sheet.winner == 0 and sheet.match_points == (1, 0) and not sheet.tie_break


@pytest.mark.parametrize("name", PAIRS)
def test_pairs_tie_goes_to_the_last_trick(name):
    deal = build(name, dict(N="1O 4C", W="10O 11C", S="4O 5C", E="5O 6C"), turned="5O")
    plays(deal, "1O 10O 4O 5O")      # N/S 13
    plays(deal, "4C 11C 5C 6C")      # W/E 3 + last 10
    sheet = deal.score()
    assert sheet.card_points == (13, 3)
    assert sheet.totals == (13, 13)
    assert sheet.last_trick_side == 1
    assert sheet.winner == 1 and sheet.tie_break is True
    assert sheet.match_points == (0, 1)


@pytest.mark.parametrize("name", TWO)
def test_two_player_tie_goes_to_the_last_trick(name):
    deal = build(name, dict(N="1O 4C", S="10O 11C"), stock="5C", turned="6B")
    plays(deal, "1O 10O")   # N 13; N draws 5C, S 6B
    plays(deal, "4C 11C")   # S 3
    plays(deal, "6B 5C")    # S: last ten
    sheet = deal.score()
    assert sheet.totals == (13, 13)
    assert sheet.winner == 1 and sheet.tie_break is True and sheet.match_points == (0, 1)


def test_three_player_tie_without_the_last_trick_winner():
    """N and W tie on 11; E won the last trick but has 10: the latest trick won by N or W decides."""
    deal = build("torofun-3p", dict(N="1O 4C 4E", W="4O 1C 5E", E="5O 5C 6E"), turned="6E")
    plays(deal, "1O 4O 5O")   # N 11
    plays(deal, "4C 1C 5C")   # W 11
    plays(deal, "5E 6E 4E")   # E 0 + last 10
    sheet = deal.score()
    assert [t.winner for t in sheet.tricks] == [0, 1, 2]
    assert sheet.totals == (11, 11, 10)
    assert sheet.last_trick_side == 2
    assert sheet.winner == 1 and sheet.tie_break is True
    assert sheet.match_points == (0, 1, 0)


def test_three_player_tie_including_the_last_trick_winner():
    """N and E tie on 13; E won the last trick, so E wins."""
    deal = build("torofun-3p", dict(N="1O 4C 4E", W="10O 5C 5E", E="5O 11C 6E"), turned="6E")
    plays(deal, "1O 10O 5O")  # N 13
    plays(deal, "4C 5C 11C")  # E 3
    plays(deal, "6E 4E 5E")   # E 0 + last 10
    sheet = deal.score()
    assert sheet.totals == (13, 0, 13)
    assert sheet.winner == 2 and sheet.tie_break is True
    assert sheet.match_points == (0, 0, 1)


# ---------------------------------------------------------------------------
# Doubles.  N/S sweep every trick: W and E hold only low cards of suits N/S command,
# and the dealer S holds the trumps (bastos); E is mano.

W_LOW, E_LOW = "2O 4O 5O 6O 7O", "2C 4C 5C 6C 7C"


def sweep(name, n_hand: str, s_hand: str, turned: str, *, w=W_LOW, e=E_LOW) -> Deal:
    return build(name, dict(N=n_hand, W=w, S=s_hand, E=e), turned=turned, dealer=2)


@pytest.mark.parametrize("name,points,doubled", [("ludoteka-pairs", 1, False), ("torofun-4p", 1, False)])
def test_total_of_exactly_100(name, points, doubled):
    deal = sweep(name, "1O 3O 1C 3C 12C", "1E 3E 1B 3B 10E", "3B")
    play_out(deal)
    sheet = deal.score()
    assert sheet.card_points == (90, 0) and sheet.totals == (100, 0)
    assert sheet.match_points == (points, 0) and sheet.doubled is doubled


@pytest.mark.parametrize("name,points,doubled", [("ludoteka-pairs", 2, True), ("torofun-4p", 1, False)])
def test_total_of_101(name, points, doubled):
    deal = sweep(name, "1O 3O 1C 3C 12C", "1E 3E 1B 3B 11E", "3B")
    play_out(deal)
    sheet = deal.score()
    assert sheet.card_points == (91, 0) and sheet.totals == (101, 0)
    assert sheet.match_points == (points, 0) and sheet.doubled is doubled


@pytest.mark.parametrize("sing", [True, False])
def test_ludoteka_cantes_count_towards_the_double(sing):
    deal = sweep("ludoteka-pairs", "1O 3O 12C 11C 1C", "1E 3E 1B 7B 6B", "6B")
    plays(deal, "2C 1C 2O 6B")  # S trumps: N/S win 11
    if sing:
        deal.cante(0, "C")
    play_out(deal)
    sheet = deal.score()
    assert sheet.card_points == (71, 0)
    if sing:
        assert sheet.totals == (101, 0) and sheet.match_points == (2, 0) and sheet.doubled
    else:
        assert sheet.totals == (81, 0) and sheet.match_points == (1, 0) and not sheet.doubled


# Eight cards each: N/S hold every 1, 3, 12 and 11; E's 10E is the only other point card.
BIG = dict(n_hand="1O 3O 12O 11O 1C 3C 12C 11C", s_hand="1E 3E 12E 11E 1B 3B 12B 11B",
           w="2O 4O 5O 6O 7O 2C 4C 5C", e="6C 7C 2E 4E 5E 6E 7E 10E")


@pytest.mark.parametrize("name", PAIRS)
def test_cards_and_last_over_120_doubles(name):
    deal = sweep(name, BIG["n_hand"], BIG["s_hand"], "1B", w=BIG["w"], e=BIG["e"])
    play_out(deal)
    sheet = deal.score()
    assert all(t.winner in (0, 2) for t in sheet.tricks) and len(sheet.tricks) == 8
    assert sheet.card_points == (114, 0) and sheet.totals == (124, 0)
    assert sheet.cantes == ()
    assert sheet.match_points == (2, 0) and sheet.doubled is True


@pytest.mark.parametrize("name,points", [("torofun-4p", 1), ("ludoteka-pairs", 2)])
def test_torofun_double_ignores_declarations(name, points):
    """95 of cards and last ten plus las cuarenta = 135: over 120 only thanks to the cante."""
    deal = sweep(name, "1O 3O 1C 3C 12C", "1E 3E 1B 12B 11B", "1B")
    plays(deal, "2C 3C 2O 1B")  # S trumps: N/S win 10
    deal.cante(2, "B")
    play_out(deal)
    sheet = deal.score()
    assert sheet.card_points == (85, 0)
    assert sheet.cante_points(0) == 40
    assert sheet.totals == (135, 0)
    assert sheet.match_points == (points, 0) and sheet.doubled is (points == 2)


def test_playcard_never_doubles():
    """Every playcard deal is worth 1, even when the winner's total is over 100 and over 120."""
    big = 0
    for seed in range(120):
        deal = random_deal("playcard-2p", seed, greedy_cantes=True)
        sheet = deal.score()
        assert sheet.match_points[sheet.winner] == 1 and sum(sheet.match_points) == 1
        assert sheet.doubled is False
        big += sheet.totals[sheet.winner] > 120
    assert big >= 3


@pytest.mark.parametrize("name", ALL)
def test_random_deals_count_like_the_rules(name):
    """An independent count of full deals: 120 card points, last ten, cantes, winner, doubles."""
    r = preset(name)
    for seed in range(40):
        deal = random_deal(name, seed)
        sheet = deal.score()
        assert sheet.complete
        assert len(sheet.tricks) == r.deck_size // r.players  # every card of the pack is played
        assert sum(sheet.card_points) == 120
        assert sum(t.points for t in sheet.tricks) == 120
        last = r.side_of(sheet.tricks[-1].winner)
        assert sheet.last_trick_side == last and sheet.last_trick_bonus == 10
        cantes = [0] * r.sides
        for c in sheet.cantes:
            assert c.points == (40 if c.suit == deal.trump else 20)
            cantes[r.side_of(c.seat)] += c.points
        totals = tuple(sheet.card_points[s] + (10 if s == last else 0) + cantes[s] for s in range(r.sides))
        assert sheet.totals == totals
        assert sum(sheet.totals) == 130 + sum(cantes)
        best = max(totals)
        tied = [s for s in range(r.sides) if totals[s] == best]
        if len(tied) == 1:
            winner = tied[0]
        else:
            winner = next(r.side_of(t.winner) for t in reversed(sheet.tricks) if r.side_of(t.winner) in tied)
        assert sheet.winner == winner and sheet.tie_break is (len(tied) > 1)
        if name == "ludoteka-pairs":
            worth = 2 if totals[winner] > 100 else 1
        elif name == "playcard-2p":
            worth = 1
        else:
            worth = 2 if sheet.card_points[winner] + (10 if last == winner else 0) > 120 else 1
        assert sheet.match_points == tuple(worth if s == winner else 0 for s in range(r.sides))
        assert sheet.doubled is (worth == 2)


# ---------------------------------------------------------------------------
# The first deal of a match.

def _deck_2o_second() -> list[int]:
    """The pack in int order with 2O (int 0) moved to the second card dealt; the last card is 1B."""
    deck = list(range(40))
    deck[0], deck[1] = deck[1], deck[0]
    return deck


def test_ludoteka_first_deal_oros_trump_and_2o_leads():
    r = preset("ludoteka-pairs")
    deck = _deck_2o_second()
    first = Deal.from_deck(r, deck, dealer=0, first_of_match=True)
    assert first.turned == card_from_code("1B") and first.hand(0).count(first.turned) == 1
    assert first.trump == OROS
    assert first.hands[2] >> card_from_code("2O") & 1
    assert first.turn == 2 and first.mano == 1
    later = Deal.from_deck(r, deck, dealer=0, first_of_match=False)
    assert later.trump == BASTOS
    assert later.turn == 1


def test_ludoteka_match_first_deal_then_turned_trump():
    deck = _deck_2o_second()
    m = Match(preset("ludoteka-pairs"), first_dealer=0, target=100)
    d1 = m.next_deal(list(deck))
    assert d1.dealer == 0 and d1.trump == OROS and d1.turn == 2
    play_out(d1)
    m.record(d1)
    d2 = m.next_deal(list(deck))
    assert d2.dealer == 1 and d2.turned == card_from_code("1B")
    assert d2.trump == BASTOS
    assert d2.hands[3] >> card_from_code("2O") & 1
    assert d2.turn == 2  # mano, not the holder of 2O


@pytest.mark.parametrize("name", ["playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"])
def test_other_presets_first_deal_trump_from_turned_card_and_mano_leads(name):
    r = preset(name)
    deck = cards_in(pack(r.removed_ranks))
    deck[0], deck[1] = deck[1], deck[0]
    deal = Deal.from_deck(r, deck, dealer=0, first_of_match=True)
    assert CARD_SUIT[deal.turned] != OROS
    assert deal.trump == CARD_SUIT[deal.turned]
    assert deal.turn == deal.mano == 1


# ---------------------------------------------------------------------------
# The match.

@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("first_dealer", [0, 1])
def test_dealer_moves_one_seat_each_deal(name, first_dealer):
    r = preset(name)
    n = r.players
    m = Match(r, seed=3, first_dealer=first_dealer, target=10_000)
    for i in range(n + 2):
        expected = (first_dealer + i) % n
        assert m.dealer == expected
        deal = m.next_deal()
        assert deal.dealer == expected and deal.mano == (expected + 1) % n
        assert m.deal_no == i + 1
        if i > 0 or name != "ludoteka-pairs":
            assert deal.turn == deal.mano
        play_out(deal)
        m.record(deal)
        assert not m.over
    assert sum(m.standing) == sum(sum(s.match_points) for s in m.sheets)


def _sweep_100():
    return sweep("ludoteka-pairs", "1O 3O 1C 3C 12C", "1E 3E 1B 3B 10E", "3B")


def _sweep_101():
    return sweep("ludoteka-pairs", "1O 3O 1C 3C 12C", "1E 3E 1B 3B 11E", "3B")


def _finished(deal: Deal) -> Deal:
    play_out(deal)
    return deal


def test_match_ends_when_a_side_reaches_the_target():
    m = Match(preset("ludoteka-pairs"), target=2)
    m.next_deal()
    m.record(_finished(_sweep_100()))
    assert m.standing == [1, 0] and not m.over and m.winner is None
    m.next_deal()
    m.record(_finished(_sweep_100()))
    assert m.standing == [2, 0] and m.over and m.winner == 0
    with pytest.raises(ValueError):
        m.next_deal()


def test_match_ends_when_a_side_passes_the_target():
    m = Match(preset("ludoteka-pairs").with_options(match_target=2))
    assert m.target == 2
    m.record(_finished(_sweep_100()))
    assert not m.over
    m.record(_finished(_sweep_101()))  # a doubled deal: 1 + 2 = 3
    assert m.standing == [3, 0] and m.over and m.winner == 0
    with pytest.raises(ValueError):
        m.next_deal()


def test_torofun_default_match_is_one_deal():
    r = preset("torofun-4p")
    deal = build(r, dict(N="1O 4C", W="10O 11C", S="4O 5C", E="5O 6C"), turned="5O")
    play_out(deal)
    m = Match(r)
    assert m.target == 1
    m.next_deal()
    m.record(deal)
    assert m.over and m.winner == deal.score().winner
    with pytest.raises(ValueError):
        m.next_deal()


def test_playcard_match_to_three_deals():
    r = preset("playcard-2p")
    m = Match(r)
    for i in range(3):
        assert not m.over
        deal = build(r, dict(N="1O 3O", S="4C 5C"), stock="12O", turned="6O")
        play_out(deal)
        m.record(deal)
    assert m.standing == [3, 0] and m.over and m.winner == 0


def test_recording_an_unfinished_deal_is_refused():
    m = Match(preset("ludoteka-pairs"))
    deal = m.next_deal()
    with pytest.raises(ValueError):
        m.record(deal)


def _ludoteka_tute(target: int) -> Deal:
    deal = build("ludoteka-pairs", dict(N="12O 12C 12E 12B 4C 6C", W="5C 2C 4O 5O 4E 5E",
                                        S="1C 3C 6O 7O 7E 2E", E="7C 10C 2O 1O 4B 5B"),
                 turned="5B", match_target=target)
    plays(deal, "4C 5C 1C 7C")
    deal.tute(0, 12)
    return deal


@pytest.mark.parametrize("target", [2, 4])
def test_ludoteka_tute_wins_a_short_match(target):
    m = Match(preset("ludoteka-pairs"), target=target)
    m.next_deal()
    sheet = m.record(_ludoteka_tute(target))
    assert sheet.wins_match
    assert m.over and m.winner == 0
    with pytest.raises(ValueError):
        m.next_deal()


@pytest.mark.parametrize("target", [6, 8])
def test_ludoteka_tute_scores_two_in_a_long_match(target):
    m = Match(preset("ludoteka-pairs"), target=target)
    for k in range(1, target // 2 + 1):
        assert not m.over
        m.record(_ludoteka_tute(target))
        assert m.standing == [2 * k, 0]
    assert m.over and m.winner == 0


def test_torofun_tute_wins_the_match_whatever_the_target():
    r = preset("torofun-3p").with_options(match_target=5)
    deal = build(r, dict(N="12O 12C 12E 12B 1C", W="4C 4O 5O 4E 5E", E="5C 6O 6E 4B 5B"), turned="5B")
    plays(deal, "1C 4C 5C")
    deal.tute(0, 12)
    m = Match(r)
    m.record(deal)
    assert m.over and m.winner == 0 and m.standing == [0, 0, 0]


def test_playcard_tute_scores_one_deal():
    r = preset("playcard-2p")
    m = Match(r)
    deal = build(r, dict(N="12O 12C 12E 12B 1C", S="11O 11C 11E 11B 4C"), stock="6O 6E 7E", turned="5B")
    deal.tute(0, 12)
    m.record(deal)
    assert m.standing == [1, 0] and not m.over
