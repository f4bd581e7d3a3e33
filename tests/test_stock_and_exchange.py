"""The 2-player stock: free play, the draws, the exchange of the 7 (and 2) of trump,
and the declarations that torofun-2p ties to the draws.

rules.md, section 1 "2-player stock phase", section 3 (playcard-2p: Exchange,
Cantes) and section 4 (torofun-2p).  Seat 0 is N, the dealer; seat 1 is S, mano,
who leads the first trick.  Stocks are written top card first, the turned card
last; they are kept tiny so that the stock runs out within a trick or three.
"""

from __future__ import annotations

import pytest

from tutepgn.cards import CODES, card_from_code, suit_from_letter
from tutepgn.engine import Deal
from tutepgn.events import Cante, Exchange, Play
from tutepgn.errors import IllegalDeclaration, IllegalPlay
from tutepgn.rules import preset

TWO_PLAYER_PRESETS = ["playcard-2p", "torofun-2p"]
N, S = 0, 1


def deal2(name: str, n_hand: str, s_hand: str, stock: str, **options) -> Deal:
    r = preset(name)
    if options:
        r = r.with_options(**options)
    deal = Deal.from_hands(r, [n_hand, s_hand], dealer=N, stock=stock)
    assert deal.turn == S
    return deal


def hand(deal: Deal, seat: int) -> set[str]:
    return {CODES[c] for c in deal.hand(seat)}


def legal(deal: Deal) -> set[str]:
    return set(deal.legal_plays().codes())


def trick(deal: Deal, lead: str, follow: str, winner: int) -> None:
    """Play one trick of two cards and check who won it and leads next."""
    deal.play(lead)
    deal.play(follow)
    assert deal.tricks[-1].winner == winner
    assert deal.turn == winner


def refused_exchange(deal: Deal, seat: int, code: str, rule: str, option: str | None) -> None:
    """The exchange is refused for ``rule``, and nothing changes."""
    before = (list(deal.hands), list(deal.stock), deal.turned, len(deal.log))
    assert not deal.can_exchange(seat, code)
    assert not deal.can_exchange(seat, card_from_code(code))
    assert Exchange(seat, card_from_code(code)) not in deal.legal_actions()
    with pytest.raises(IllegalDeclaration) as info:
        deal.verify_exchange(seat, code)
    assert info.value.rule == rule
    assert info.value.option == option
    with pytest.raises(IllegalDeclaration) as info2:
        deal.exchange(seat, code)
    assert info2.value.rule == rule
    assert (list(deal.hands), list(deal.stock), deal.turned, len(deal.log)) == before


def do_exchange(deal: Deal, seat: int, code: str) -> None:
    """The exchange is allowed; make it and check the hand, the turned card and the stock's bottom."""
    old_turned = CODES[deal.turned]
    old_hand = hand(deal, seat)
    left = deal.stock_left
    trump = deal.trump
    assert deal.can_exchange(seat, code)
    assert Exchange(seat, card_from_code(code)) in deal.legal_actions()
    deal.verify_exchange(seat, code)
    event = deal.exchange(seat, code)
    assert event == Exchange(seat, card_from_code(code)) and deal.log[-1] == event
    assert hand(deal, seat) == old_hand - {code} | {old_turned}
    assert CODES[deal.turned] == code
    assert CODES[deal.stock[-1]] == code
    assert deal.stock_left == left
    assert deal.trump == trump


def refused_cante(deal: Deal, seat: int, suit: str, rule: str) -> None:
    assert not deal.can_cante(seat, suit)
    assert Cante(seat, suit_from_letter(suit)) not in deal.legal_actions()
    with pytest.raises(IllegalDeclaration) as info:
        deal.cante(seat, suit)
    assert info.value.rule == rule
    assert info.value.option == rule
    assert deal.cantes == []


def sung(deal: Deal, seat: int, suit: str, points: int) -> None:
    assert deal.can_cante(seat, suit)
    assert Cante(seat, suit_from_letter(suit)) in deal.legal_actions()
    deal.cante(seat, suit)
    assert [(c.seat, c.suit, c.points) for c in deal.cantes] == [(seat, suit_from_letter(suit), points)]


# ---------------------------------------------------------------------------
# The stock phase and the draws


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_any_card_while_the_stock_has_cards(name):
    # N holds copas that beat the lead and a trump, yet may play a losing espada.
    deal = deal2(name, "4C 1C 5B 10E", "10C 7E 4E 6E", "5E 6O 7O 4B")
    assert deal.trump == suit_from_letter("B")
    deal.play("10C")
    assert legal(deal) == {"4C", "1C", "5B", "10E"}
    deal.play("10E")
    assert deal.tricks[-1].winner == S


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_draws_winner_first_and_the_turned_card_last(name):
    # Trump B (turned 7B).  Stock top first: 4E 5E 6E, then the turned 7B.
    deal = deal2(name, "4C 12E", "1C 10E", "4E 5E 6E 7B")
    assert deal.stock_left == 4 and CODES[deal.turned] == "7B"
    # Trick 1: the leader S wins and draws first (4E); N draws the next card (5E).
    trick(deal, "1C", "4C", winner=S)
    assert hand(deal, S) == {"10E", "4E"} and hand(deal, N) == {"12E", "5E"}
    assert deal.stock_left == 2
    # Trick 2: the follower N wins and draws first (6E); the loser S draws the turned 7B.
    trick(deal, "10E", "12E", winner=N)
    assert hand(deal, N) == {"5E", "6E"} and hand(deal, S) == {"4E", "7B"}
    assert deal.stock_left == 0
    # Stock exhausted: the duties start.  S holds 4E and must follow the 5E.
    deal.play("5E")
    assert legal(deal) == {"4E"}
    with pytest.raises(IllegalPlay) as info:
        deal.play("7B")
    assert info.value.rule == "must_follow"


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_trick_that_empties_the_stock_is_free_the_next_is_not(name):
    deal = deal2(name, "4C 1C 7C", "10C 5E 6E", "12O 4B")
    assert deal.stock_left == 2
    deal.play("10C")
    assert legal(deal) == {"4C", "1C", "7C"}  # free: the stock still has cards
    deal.play("4C")  # S wins, draws 12O; N draws the turned 4B
    assert deal.stock_left == 0 and hand(deal, N) == {"1C", "7C", "4B"}
    deal.play("5E")
    assert legal(deal) == {"4B"}  # void in espadas, holds a trump: must trump


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_full_deal_stock_size_and_draw_count(name):
    deal = Deal.shuffled(preset(name), seed=3)
    assert deal.stock_left == 24 and deal.stock[-1] == deal.turned
    assert all(m.bit_count() == 8 for m in deal.hands)
    turned = deal.turned
    while deal.stock_left:
        before = deal.stock_left
        deal.play(min(deal.legal_plays()))
        deal.play(min(deal.legal_plays()))
        assert deal.stock_left == before - 2
        assert all(m.bit_count() == 8 for m in deal.hands)
    loser = 1 - deal.tricks[-1].winner
    assert deal.hands[loser] >> turned & 1


# ---------------------------------------------------------------------------
# playcard-2p: the 7 of trump for the turned card, on lead, while the stock has cards

PLAYCARD_STOCK = "12C 3E 5B 1O"
"""Trump oros; the turned card is the 1O."""


def test_playcard_exchange_seven_at_the_first_lead():
    deal = deal2("playcard-2p", "6E 10E 4B", "7O 4C 5C", PLAYCARD_STOCK)
    do_exchange(deal, S, "7O")
    assert hand(deal, S) == {"1O", "4C", "5C"}
    assert hand(deal, N) == {"6E", "10E", "4B"}
    # The 7O lies under the stock and is drawn last, by the loser of the last stock trick.
    trick(deal, "4C", "6E", winner=S)
    assert hand(deal, S) == {"1O", "5C", "12C"} and hand(deal, N) == {"10E", "4B", "3E"}
    trick(deal, "5C", "10E", winner=S)
    assert hand(deal, S) == {"1O", "12C", "5B"} and hand(deal, N) == {"4B", "3E", "7O"}
    assert deal.stock_left == 0


def test_playcard_exchange_seven_after_winning_a_trick():
    deal = deal2("playcard-2p", "7O 10E 4B", "6E 4C 5C", PLAYCARD_STOCK)
    trick(deal, "6E", "10E", winner=N)  # N wins: draws 12C, S draws 3E
    assert hand(deal, N) == {"7O", "4B", "12C"}
    do_exchange(deal, N, "7O")
    assert hand(deal, N) == {"1O", "4B", "12C"}
    trick(deal, "4B", "4C", winner=N)  # N wins: draws 5B, S draws the 7O
    assert hand(deal, S) == {"5C", "3E", "7O"}


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 6, 10, 11, 12])
def test_playcard_seven_for_any_turned_card(rank):
    deal = deal2("playcard-2p", "6E 10E 4B", "7O 4C 5C", f"12C {rank}O")
    do_exchange(deal, S, "7O")
    assert hand(deal, S) == {f"{rank}O", "4C", "5C"}


def test_playcard_no_exchange_of_the_two():
    deal = deal2("playcard-2p", "6E 10E 4B", "2O 4C 5C", PLAYCARD_STOCK)
    refused_exchange(deal, S, "2O", "exchange_card", "exchange_two")


def test_playcard_no_exchange_of_a_plain_seven():
    deal = deal2("playcard-2p", "6E 10E 4B", "7C 4C 5C", PLAYCARD_STOCK)
    refused_exchange(deal, S, "7C", "exchange_card", "exchange_seven")


def test_playcard_no_exchange_when_not_on_lead():
    deal = deal2("playcard-2p", "7O 10E 4B", "6E 4C 5C", PLAYCARD_STOCK)
    refused_exchange(deal, N, "7O", "exchange_on_lead", None)
    # Nor once a card is led, although N is now the player to move.
    deal.play("4C")
    assert deal.turn == N
    refused_exchange(deal, N, "7O", "exchange_on_lead", None)


def test_playcard_no_exchange_after_leading():
    deal = deal2("playcard-2p", "6E 10E 4B", "7O 4C 5C", PLAYCARD_STOCK)
    deal.play("4C")
    refused_exchange(deal, S, "7O", "exchange_on_lead", None)


def test_playcard_no_exchange_once_the_stock_is_exhausted():
    deal = deal2("playcard-2p", "6E 10E 4B", "7O 4C 5C", "12C 1O")
    trick(deal, "4C", "6E", winner=S)  # S draws 12C, N draws the turned 1O
    assert deal.stock_left == 0 and "1O" in hand(deal, N)
    refused_exchange(deal, S, "7O", "exchange_needs_stock", None)


def test_playcard_exchange_needs_the_seven_in_hand():
    deal = deal2("playcard-2p", "7O 10E 4B", "6E 4C 5C", PLAYCARD_STOCK)
    refused_exchange(deal, S, "7O", "exchange_not_held", None)


def test_playcard_exchange_after_the_loser_of_the_last_trick():
    # S wins trick 1; N, who lost it, may not exchange although it holds the 7.
    deal = deal2("playcard-2p", "7O 10E 4B", "6E 4C 5C", PLAYCARD_STOCK)
    trick(deal, "4C", "10E", winner=S)
    refused_exchange(deal, N, "7O", "exchange_on_lead", None)


# ---------------------------------------------------------------------------
# torofun-2p: only after a won trick; the 7 for 1/3/12/11/10, the 2 for 7/6/5/4

TOROFUN_SEVEN_FOR = [1, 3, 12, 11, 10]
TOROFUN_TWO_FOR = [7, 6, 5, 4]


def torofun_after_first_trick(held: str, turned_rank: int) -> Deal:
    """S holds ``held`` (a trump) and wins the first trick; two cards remain in the stock."""
    deal = deal2("torofun-2p", "4C 5E 6E", f"{held} 1C 3C", f"4E 5B 6B {turned_rank}O")
    trick(deal, "1C", "4C", winner=S)
    assert deal.stock_left == 2
    return deal


def test_torofun_no_exchange_at_the_first_lead():
    deal = deal2("torofun-2p", "4C 5E 6E", "7O 1C 3C", "4E 5B 6B 1O")
    refused_exchange(deal, S, "7O", "exchange_at_first_lead", "exchange_at_first_lead")


@pytest.mark.parametrize("rank", TOROFUN_SEVEN_FOR)
def test_torofun_seven_for_a_turned_high_card(rank):
    deal = torofun_after_first_trick("7O", rank)
    do_exchange(deal, S, "7O")
    assert hand(deal, S) == {f"{rank}O", "3C", "4E"}


@pytest.mark.parametrize("rank", [6, 5, 4, 2])
def test_torofun_seven_not_for_a_turned_low_card(rank):
    deal = torofun_after_first_trick("7O", rank)
    refused_exchange(deal, S, "7O", "exchange_turned_rank", "exchange_seven_for")


@pytest.mark.parametrize("rank", TOROFUN_TWO_FOR)
def test_torofun_two_for_a_turned_seven_to_four(rank):
    deal = torofun_after_first_trick("2O", rank)
    do_exchange(deal, S, "2O")
    assert hand(deal, S) == {f"{rank}O", "3C", "4E"}


@pytest.mark.parametrize("rank", TOROFUN_SEVEN_FOR)
def test_torofun_two_not_for_a_turned_high_card(rank):
    deal = torofun_after_first_trick("2O", rank)
    refused_exchange(deal, S, "2O", "exchange_turned_rank", "exchange_two_for")


def test_torofun_only_the_trick_winner_may_exchange():
    deal = deal2("torofun-2p", "7O 5E 6E", "4C 1C 3C", "4E 5B 6B 1O")
    trick(deal, "1C", "5E", winner=S)
    refused_exchange(deal, N, "7O", "exchange_on_lead", None)


def test_torofun_no_exchange_after_leading():
    deal = torofun_after_first_trick("7O", 1)
    deal.play("3C")
    refused_exchange(deal, S, "7O", "exchange_on_lead", None)


def test_torofun_seven_then_two_and_the_exchanged_card_is_drawn_last():
    deal = deal2("torofun-2p", "2O 4C 5C", "7O 1C 3C", "4E 5E 6E 4B 5B 1O")
    # Trick 1: S wins, draws 4E; N draws 5E.  S gives the 7O for the turned 1O.
    trick(deal, "1C", "4C", winner=S)
    assert hand(deal, S) == {"7O", "3C", "4E"} and hand(deal, N) == {"2O", "5C", "5E"}
    refused_exchange(deal, N, "2O", "exchange_on_lead", None)
    do_exchange(deal, S, "7O")
    assert hand(deal, S) == {"1O", "3C", "4E"}
    # Trick 2: N wins, draws 6E; S draws 4B.  The turned card is now the 7: N gives the 2O for it.
    trick(deal, "4E", "5E", winner=N)
    assert hand(deal, N) == {"2O", "5C", "6E"} and hand(deal, S) == {"1O", "3C", "4B"}
    do_exchange(deal, N, "2O")
    assert hand(deal, N) == {"7O", "5C", "6E"}
    # Trick 3 empties the stock: S wins and draws 5B; N draws the 2O, the exchanged card, last.
    trick(deal, "5C", "3C", winner=S)
    assert deal.stock_left == 0
    assert hand(deal, S) == {"1O", "4B", "5B"} and hand(deal, N) == {"7O", "6E", "2O"}
    refused_exchange(deal, S, "2O", "exchange_needs_stock", None)
    refused_exchange(deal, N, "7O", "exchange_needs_stock", None)


def test_torofun_no_exchange_once_the_stock_is_exhausted():
    deal = deal2("torofun-2p", "4C 5E 6E", "7O 1C 3C", "4B 1O")
    trick(deal, "1C", "4C", winner=S)
    assert deal.stock_left == 0
    refused_exchange(deal, S, "7O", "exchange_needs_stock", None)


def test_exchange_recorded_in_the_log_between_tricks():
    deal = torofun_after_first_trick("7O", 1)
    deal.exchange(S, "7O")
    deal.play("3C")
    assert [type(a) for a in deal.log] == [Play, Play, Exchange, Play]


# ---------------------------------------------------------------------------
# Declarations tied to the stock (trump espadas: the turned 4E)


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_cante_after_the_trick_that_empties_the_stock(name):
    # N has held 12C 11C from the deal and wins the last stock trick (a trick followed by a draw).
    deal = deal2(name, "12C 11C 1B 6C", "4B 5B 6O 7O", "5O 4E")
    trick(deal, "4B", "1B", winner=N)
    assert deal.stock_left == 0
    sung(deal, N, "C", 20)


def test_torofun_no_cante_after_a_trick_without_a_draw():
    deal = deal2("torofun-2p", "12C 11C 1B 6C", "4B 5B 6O 7O", "5O 4E")
    trick(deal, "4B", "6C", winner=S)  # the last draw: S 5O, N the turned 4E
    trick(deal, "5B", "1B", winner=N)  # no stock: no draw after this trick
    refused_cante(deal, N, "C", "declare_only_after_draw")


def test_playcard_cante_after_the_stock_is_exhausted():
    deal = deal2("playcard-2p", "12C 11C 1B 6C", "4B 5B 6O 7O", "5O 4E")
    trick(deal, "4B", "6C", winner=S)
    trick(deal, "5B", "1B", winner=N)
    sung(deal, N, "C", 20)


def test_torofun_no_tute_after_a_trick_without_a_draw():
    deal = deal2("torofun-2p", "11O 11C 11E 11B 1B 6C", "4B 5B 6O 7O 3O 4O", "5O 4E")
    trick(deal, "4B", "6C", winner=S)  # the last draw
    trick(deal, "5B", "1B", winner=N)  # no draw after this trick
    assert not deal.can_tute(N, 11)
    with pytest.raises(IllegalDeclaration) as info:
        deal.tute(N, 11)
    assert info.value.rule == "declare_only_after_draw"
    assert not deal.over


@pytest.mark.parametrize("drawn,held", [("11C", "12C"), ("12C", "11C")])
def test_torofun_no_cante_with_a_card_from_the_draw_that_emptied_the_stock(drawn, held):
    deal = deal2("torofun-2p", f"{held} 1B 6C", "4B 5B 6O", f"{drawn} 4E")
    trick(deal, "4B", "1B", winner=N)  # N draws the last hidden card; S the turned 4E
    assert deal.stock_left == 0 and {"12C", "11C"} <= hand(deal, N)
    refused_cante(deal, N, "C", "no_declare_with_last_drawn")


@pytest.mark.parametrize("drawn,held", [("11C", "12C"), ("12C", "11C")])
def test_playcard_cante_with_a_card_from_the_last_draw(drawn, held):
    deal = deal2("playcard-2p", f"{held} 1B 6C", "4B 5B 6O", f"{drawn} 4E")
    trick(deal, "4B", "1B", winner=N)
    sung(deal, N, "C", 20)


def test_torofun_cante_with_a_card_from_an_earlier_draw():
    # The 11C comes in the first draw, not the one that empties the stock.
    deal = deal2("torofun-2p", "12C 1B 6C", "4B 5B 6O", "11C 7O 5O 4E")
    trick(deal, "4B", "1B", winner=N)
    assert deal.stock_left == 2
    sung(deal, N, "C", 20)


def test_torofun_no_tute_with_a_rey_from_the_draw_that_emptied_the_stock():
    deal = deal2("torofun-2p", "12O 12C 12E 1B", "4B 5B 6O 7O", "12B 4E")
    trick(deal, "4B", "1B", winner=N)
    assert {"12O", "12C", "12E", "12B"} <= hand(deal, N)
    assert not deal.can_tute(N, 12)
    with pytest.raises(IllegalDeclaration) as info:
        deal.tute(N, 12)
    assert info.value.rule == "no_declare_with_last_drawn"
    assert not deal.over


def test_torofun_tute_with_reyes_held_before_the_last_draw():
    deal = deal2("torofun-2p", "12O 12C 12E 12B 1B", "4B 5B 6O 7O 6C", "5E 4E")
    trick(deal, "4B", "1B", winner=N)
    assert deal.can_tute(N, 12)
    deal.tute(N, 12)
    assert deal.over and deal.score().wins_match
