"""Cantes and tute: when they may be declared, what limits them, what they are worth.

Every test builds a short hand-written position and asserts the exact rule code
(``IllegalDeclaration.rule``) or the exact points, following docs/rules.md.
Positions put seat 0 (N) on lead: the dealer is the last seat, so N is mano.  Trump is bastos (the turned 5B) unless said
otherwise; for dealer_last rulesets the dealer holds 5B, for 2-player rulesets
it lies at the bottom of the stock.

Seats: 4 players 0=N 1=W 2=S 3=E (N/S side 0, W/E side 1); 3 players
0=N 1=W 2=E; 2 players 0=N 1=S.
"""

from __future__ import annotations

import pytest
from positions import ALL, PAIRS, build, plays

from tutepgn import Deal, IllegalDeclaration, UnknownSeat, preset
from tutepgn.cards import BASTOS, COPAS, ESPADAS, OROS, card_code
from tutepgn.events import Cante, Tute
from tutepgn.score import CanteScore

TOROFUN = ["torofun-2p", "torofun-3p", "torofun-4p"]
ONE_PER_TRICK = ["playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"]


def play_out(deal: Deal) -> None:
    """Finish the deal, each seat playing its first legal card, declaring nothing."""
    while not deal.over:
        deal.play(min(deal.hand(deal.turn), key=lambda c: not deal.can_play(c)))


def refused(rule: str, action, *args) -> IllegalDeclaration:
    """Assert that the declaration is refused with exactly this rule code."""
    with pytest.raises(IllegalDeclaration) as info:
        action(*args)
    assert info.value.rule == rule, str(info.value)
    return info.value


def n_of(name: str) -> int:
    return preset(name).players


# ---------------------------------------------------------------------------
# Positions.  In each, trick 1 is N's 1O followed by low oros: N's side wins 11.

def window_position(name: str) -> Deal:
    """N holds the copas cante, W (seat 1, an opponent) the espadas cante, S (4p) the oros cante."""
    n = n_of(name)
    if n == 4:
        return build(name, dict(N="1O 12C 11C", W="4O 12E 11E", S="5O 12O 11O", E="6O 4C 5B"))
    if n == 3:
        return build(name, dict(N="1O 12C 11C", W="4O 12E 11E", E="5O 4C 5B"))
    return build(name, dict(N="1O 12C 11C", S="4O 12E 11E"), stock="5O 6O 7O")


TRICK1 = {4: "1O 4O 5O 6O", 3: "1O 4O 5O", 2: "1O 4O"}


def window_after_trick1(name: str) -> Deal:
    deal = window_position(name)
    plays(deal, TRICK1[n_of(name)])
    assert deal.tricks[-1].winner == 0
    return deal


def two_cantes_position(name: str, trump_pair: bool = False) -> Deal:
    """N holds two cantes: copas and espadas (or, with trump_pair, bastos = las cuarenta, and copas).

    Trick 1: N's 1O wins.  Trick 2: N leads 12C and wins it again.
    """
    n = n_of(name)
    second = "12B 11B" if trump_pair else "12E 11E"
    if n == 4:
        return build(name, dict(N=f"1O 12C 11C {second}", W="4O 4C 5C 6E 7E", S="5O 12O 11O 4E 5E",
                                E="6O 6C 7C 2E 5B"))
    if n == 3:
        return build(name, dict(N=f"1O 12C 11C {second}", W="4O 4C 5C 6E 7E", E="5O 6C 7C 4E 5B"))
    return build(name, dict(N=f"1O 12C 11C {second}", S="4O 4C 5C 6E 7E"), stock="5O 6O 7C")


TRICK2_12C = {4: "12C 4C 4E 6C", 3: "12C 4C 6C", 2: "12C 4C"}


def silent_first_win_position(name: str) -> Deal:
    """N holds the copas cante (and S, 4p, the espadas cante); N's side wins tricks 1 and 2 with 1O, 3O."""
    n = n_of(name)
    if n == 4:
        return build(name, dict(N="1O 3O 12C 11C", W="4O 5O 4C 4E", S="6O 7O 12E 11E", E="2O 10O 5C 5B"))
    if n == 3:
        return build(name, dict(N="1O 3O 12C 11C", W="4O 5O 4C 4E", E="6O 7O 5C 5B"))
    return build(name, dict(N="1O 3O 12C 11C", S="4O 5O 4C 4E"), stock="6O 7O 5E 6E 7E")


SILENT_T1 = {4: "1O 4O 6O 2O", 3: "1O 4O 6O", 2: "1O 4O"}
TRICK2_3O = {4: "3O 5O 7O 10O", 3: "3O 5O 7O", 2: "3O 5O"}


# ---------------------------------------------------------------------------
# 1. The cante window.

@pytest.mark.parametrize("name", ALL)
def test_no_cante_before_the_first_trick(name):
    deal = window_position(name)
    refused("declare_after_won_trick", deal.cante, 0, "C")
    refused("declare_after_won_trick", deal.cante, 1, "E")
    assert not any(isinstance(a, Cante) for a in deal.legal_actions())


@pytest.mark.parametrize("name", ALL)
def test_no_cante_in_the_middle_of_a_trick(name):
    deal = window_position(name)
    deal.play("1O")
    refused("declare_between_tricks", deal.cante, 0, "C")
    refused("declare_between_tricks", deal.cante, 1, "E")
    deal.play("4O")
    if n_of(name) > 2:  # still mid-trick
        refused("declare_between_tricks", deal.cante, 0, "C")


@pytest.mark.parametrize("name", ALL)
def test_no_cante_by_the_side_that_lost_the_trick(name):
    deal = window_after_trick1(name)
    err = refused("declare_by_trick_winner", deal.cante, 1, "E")
    assert err.seat == 1
    assert not deal.can_cante(1, "E")
    assert Cante(1, ESPADAS) not in deal.legal_actions()


@pytest.mark.parametrize("name", ALL)
def test_cante_after_a_won_trick_is_worth_20(name):
    deal = window_after_trick1(name)
    assert Cante(0, COPAS) in deal.legal_actions()
    deal.cante(0, "C")
    assert deal.score().cantes == (CanteScore(seat=0, side=0, suit=COPAS, points=20),)
    assert deal.score().totals[0] == 11 + 20


@pytest.mark.parametrize("name", ALL)
def test_cante_in_trump_is_worth_40(name):
    n = n_of(name)
    hands = {4: dict(N="1O 12B 11B", W="4O 4C 4E", S="5O 5C 5E", E="6O 6C 5B"),
             3: dict(N="1O 12B 11B", W="4O 4C 4E", E="5O 5C 5B"),
             2: dict(N="1O 12B 11B", S="4O 4C 4E")}[n]
    deal = build(name, hands, stock="5O 6O 7O" if n == 2 else "")
    assert deal.trump == BASTOS
    plays(deal, TRICK1[n])
    deal.cante(0, "B")
    assert deal.score().cantes == (CanteScore(seat=0, side=0, suit=BASTOS, points=40),)


@pytest.mark.parametrize("name", PAIRS)
def test_either_partner_may_sing_after_the_pair_won(name):
    deal = window_after_trick1(name)  # N won trick 1; S holds the oros cante
    deal.cante(2, "O")
    assert deal.score().cantes == (CanteScore(seat=2, side=0, suit=OROS, points=20),)


@pytest.mark.parametrize("name", PAIRS)
def test_partners_do_not_pool_rey_and_caballo(name):
    deal = build(name, dict(N="1O 12C 4E", W="4O 4C 5E", S="5O 11C 6E", E="6O 5C 5B"))
    plays(deal, "1O 4O 5O 6O")
    refused("cante_not_held", deal.cante, 0, "C")
    refused("cante_not_held", deal.cante, 2, "C")


@pytest.mark.parametrize("name", ALL)
def test_cante_needs_both_cards_still_in_hand(name):
    deal = two_cantes_position(name)
    plays(deal, TRICK1[n_of(name)])
    refused("cante_not_held", deal.cante, 0, "O")  # holds neither
    deal.cante(0, "E")
    plays(deal, TRICK2_12C[n_of(name)])  # N's 12C wins trick 2: only 11C is left
    assert deal.tricks[-1].winner == 0
    refused("cante_not_held", deal.cante, 0, "C")


@pytest.mark.parametrize("name", ALL)
def test_a_suit_is_sung_once_per_deal(name):
    deal = two_cantes_position(name)
    plays(deal, TRICK1[n_of(name)])
    deal.cante(0, "E")
    refused("cante_suit_sung", deal.cante, 0, "E")  # same window
    plays(deal, TRICK2_12C[n_of(name)])
    refused("cante_suit_sung", deal.cante, 0, "E")  # a later window
    assert [c.suit for c in deal.score().cantes] == [ESPADAS]


@pytest.mark.parametrize("name", ALL)
def test_window_closes_at_the_next_lead(name):
    deal = two_cantes_position(name)
    plays(deal, TRICK1[n_of(name)])
    deal.play("12C")  # N leads without singing espadas
    refused("declare_between_tricks", deal.cante, 0, "E")


@pytest.mark.parametrize("name", ALL)
def test_no_cante_after_the_last_trick(name):
    deal = window_after_trick1(name)
    play_out(deal)
    assert deal.over and deal.score().complete
    refused("deal_over", deal.cante, deal.tricks[-1].winner, "C")


# ---------------------------------------------------------------------------
# 2. How many cantes after one won trick, and the 40 first.

def test_ludoteka_pair_may_sing_two_cantes_after_one_trick_not_three():
    deal = two_cantes_position("ludoteka-pairs")
    plays(deal, TRICK1[4])
    deal.cante(0, "C")
    deal.cante(0, "E")  # two by the same player
    err = refused("cantes_per_trick", deal.cante, 2, "O")  # a third, by the partner
    assert err.option == "cantes_per_trick"
    assert deal.score().totals[0] == 11 + 20 + 20


def test_ludoteka_two_cantes_by_both_partners():
    deal = two_cantes_position("ludoteka-pairs")
    plays(deal, TRICK1[4])
    deal.cante(0, "C")
    deal.cante(2, "O")
    refused("cantes_per_trick", deal.cante, 0, "E")
    assert [(c.seat, c.suit, c.points) for c in deal.score().cantes] == [(0, COPAS, 20), (2, OROS, 20)]


@pytest.mark.parametrize("name", ONE_PER_TRICK)
def test_one_cante_per_won_trick(name):
    deal = two_cantes_position(name)
    plays(deal, TRICK1[n_of(name)])
    deal.cante(0, "C")
    err = refused("cantes_per_trick", deal.cante, 0, "E")
    assert err.option == "cantes_per_trick"
    if n_of(name) == 4:
        refused("cantes_per_trick", deal.cante, 2, "O")
    # the limit is per won trick: the next won trick opens a new window
    plays(deal, TRICK2_12C[n_of(name)])
    deal.cante(0, "E")
    assert [c.suit for c in deal.score().cantes] == [COPAS, ESPADAS]


@pytest.mark.parametrize("name", ALL)
def test_forty_before_twenty(name):
    deal = two_cantes_position(name, trump_pair=True)
    plays(deal, TRICK1[n_of(name)])
    err = refused("forty_first", deal.cante, 0, "C")
    assert err.option == "forty_first"
    assert Cante(0, COPAS) not in deal.legal_actions()
    deal.cante(0, "B")
    if name == "ludoteka-pairs":
        deal.cante(0, "C")  # after the 40, the 20 is fine where two are allowed
        assert [(c.suit, c.points) for c in deal.score().cantes] == [(BASTOS, 40), (COPAS, 20)]
    else:
        refused("cantes_per_trick", deal.cante, 0, "C")


@pytest.mark.parametrize("name", ONE_PER_TRICK)
def test_twenty_after_forty_at_a_later_trick(name):
    """With one cante per trick, the 20 comes at the next won trick (the 40 no longer blocks it)."""
    n = n_of(name)
    if n == 4:
        deal = build(name, dict(N="1O 3O 12B 11B 12C 11C", W="4O 5O 4C 5C 4E 5E", S="6O 7O 6C 7C 6E 7E",
                                E="2O 10O 2C 2E 10E 5B"))
    elif n == 3:
        deal = build(name, dict(N="1O 3O 12B 11B 12C 11C", W="4O 5O 4C 5C 4E 5E", E="6O 7O 6C 7E 6E 5B"))
    else:
        deal = build(name, dict(N="1O 3O 12B 11B 12C 11C", S="4O 5O 4C 5C 4E 5E"), stock="6O 7O 6C 7C 6E")
    plays(deal, SILENT_T1[n])
    deal.cante(0, "B")
    plays(deal, TRICK2_3O[n])
    deal.cante(0, "C")
    assert [(c.suit, c.points) for c in deal.score().cantes] == [(BASTOS, 40), (COPAS, 20)]


@pytest.mark.parametrize("name", PAIRS)
def test_forty_first_is_per_player(name):
    """N may sing a 20 while the partner S holds the 40."""
    deal = build(name, dict(N="1O 12C 11C", W="4O 4C 4E", S="5O 12B 11B", E="6O 5C 5B"))
    plays(deal, TRICK1[4])
    deal.cante(0, "C")
    assert deal.score().cantes == (CanteScore(0, 0, COPAS, 20),)


# ---------------------------------------------------------------------------
# 3. ludoteka-pairs: the first cante only right after the pair's first won trick.

def test_ludoteka_silence_at_first_win_bars_singing():
    deal = silent_first_win_position("ludoteka-pairs")
    plays(deal, SILENT_T1[4])
    plays(deal, TRICK2_3O[4])  # N leads without singing after the pair's first won trick
    assert deal.tricks[-1].winner == 0
    err = refused("cante_only_if_sung_at_first_win", deal.cante, 0, "C")
    assert err.option == "cante_only_if_sung_at_first_win"
    refused("cante_only_if_sung_at_first_win", deal.cante, 2, "E")  # the partner too


def test_ludoteka_pair_that_sang_at_first_win_sings_later():
    deal = two_cantes_position("ludoteka-pairs")
    plays(deal, TRICK1[4])
    deal.cante(0, "C")
    plays(deal, TRICK2_12C[4])
    deal.cante(0, "E")
    deal.cante(2, "O")
    assert [c.suit for c in deal.score().cantes] == [COPAS, ESPADAS, OROS]


# W/E win trick 1 (W holds the espadas cante and stays silent); N/S win trick 2 (their first);
# W/E win trick 3 with a trump.
FIRST_WIN_LATER = dict(N="4O 12C 11C 3E 7C", W="1O 4E 12E 11E 2B", S="5O 5E 6C 4C 6B", E="6O 6E 5C 4B 5B")


@pytest.mark.parametrize("name,expected", [("ludoteka-pairs", "cante_only_if_sung_at_first_win"),
                                           ("torofun-4p", "forfeit_unsung_cantes")])
def test_first_win_of_a_pair_is_its_own_not_the_deals(name, expected):
    deal = build(name, FIRST_WIN_LATER)
    plays(deal, "4O 1O 5O 6O")
    assert deal.tricks[-1].winner == 1
    plays(deal, "4E 5E 6E 3E")  # W/E led without singing; N wins the pair's first trick
    assert deal.tricks[-1].winner == 0
    deal.cante(0, "C")  # allowed: this is N/S's first won trick
    plays(deal, "12C 2B 4C 5C")
    assert deal.tricks[-1].winner == 1
    refused(expected, deal.cante, 1, "E")
    assert [(c.seat, c.suit) for c in deal.score().cantes] == [(0, COPAS)]


def test_playcard_has_no_silence_penalty():
    deal = silent_first_win_position("playcard-2p")
    plays(deal, SILENT_T1[2])
    plays(deal, TRICK2_3O[2])
    deal.cante(0, "C")
    assert deal.score().cantes == (CanteScore(0, 0, COPAS, 20),)


# ---------------------------------------------------------------------------
# 4. torofun: cantes not declared after a won trick are lost.

@pytest.mark.parametrize("name", TOROFUN)
def test_torofun_silent_winner_forfeits_its_cantes(name):
    deal = silent_first_win_position(name)
    plays(deal, SILENT_T1[n_of(name)])
    plays(deal, TRICK2_3O[n_of(name)])  # led without declaring although N could sing copas
    assert deal.tricks[-1].winner == 0
    err = refused("forfeit_unsung_cantes", deal.cante, 0, "C")
    assert err.option == "forfeit_unsung_cantes"
    assert Cante(0, COPAS) not in deal.legal_actions()


def test_torofun_pair_forfeits_the_partners_cante_too():
    deal = silent_first_win_position("torofun-4p")  # S holds 12E 11E
    plays(deal, SILENT_T1[4])
    plays(deal, TRICK2_3O[4])
    refused("forfeit_unsung_cantes", deal.cante, 2, "E")


def test_torofun_pair_that_declares_one_cante_keeps_the_partners():
    deal = silent_first_win_position("torofun-4p")
    plays(deal, SILENT_T1[4])
    deal.cante(0, "C")
    plays(deal, TRICK2_3O[4])
    deal.cante(2, "E")
    assert [(c.seat, c.suit) for c in deal.score().cantes] == [(0, COPAS), (2, ESPADAS)]


@pytest.mark.parametrize("name", TOROFUN)
def test_torofun_player_that_declares_one_cante_keeps_the_other(name):
    deal = two_cantes_position(name)
    plays(deal, TRICK1[n_of(name)])
    deal.cante(0, "C")
    plays(deal, TRICK2_12C[n_of(name)])
    deal.cante(0, "E")
    assert [c.suit for c in deal.score().cantes] == [COPAS, ESPADAS]


def test_torofun_2p_cante_not_yet_held_is_not_lost():
    """N holds only 12C when it wins trick 1 in silence; it draws 11C after trick 2 and may sing."""
    deal = build("torofun-2p", dict(N="1O 3O 12C 4C", S="4O 5O 5C 4E"), stock="6O 7O 11C 6E 7E")
    plays(deal, "1O 4O")
    plays(deal, "3O 5O")
    assert deal.hands[0] >> 16 & 1  # 11C drawn
    deal.cante(0, "C")
    assert deal.score().cantes == (CanteScore(0, 0, COPAS, 20),)


@pytest.mark.parametrize("name", PAIRS[1:] + ["torofun-3p"])
def test_torofun_opponents_cantes_are_not_lost_by_the_winners_silence(name):
    """W holds 12E 11E while N's side wins trick 1 in silence; W wins trick 2 and sings."""
    if n_of(name) == 4:
        deal = build(name, dict(N="1O 4C 2E 7E", W="4O 1C 12E 11E", S="5O 5C 4E 5E", E="6O 6C 6E 5B"))
        plays(deal, "1O 4O 5O 6O")
        plays(deal, "4C 1C 5C 6C")
    else:
        deal = build(name, dict(N="1O 4C 6E 7E", W="4O 1C 12E 11E", E="5O 5C 4E 5B"))
        plays(deal, "1O 4O 5O")
        plays(deal, "4C 1C 5C")
    assert deal.tricks[-1].winner == 1
    deal.cante(1, "E")
    assert deal.score().cantes == (CanteScore(1, 1, ESPADAS, 20),)


def _forty_and_twenty(name: str) -> Deal:
    n = n_of(name)
    if n == 4:
        return build(name, dict(N="1O 3O 12B 11B 12C 11C", W="4O 5O 4C 5C 4E 5E", S="6O 7O 6C 7C 6E 7E",
                                E="2O 10O 2C 2E 10E 5B"))
    if n == 3:
        return build(name, dict(N="1O 3O 12B 11B 12C 11C", W="4O 5O 4C 5C 4E 5E", E="6O 7O 6C 7E 6E 5B"))
    return build(name, dict(N="1O 3O 12B 11B 12C 11C", S="4O 5O 4C 5C 4E 5E"), stock="6O 7O 6C 7C 6E")


@pytest.mark.parametrize("name", TOROFUN)
def test_torofun_silence_loses_the_forty_but_not_a_twenty_it_could_not_sing_yet(name):
    """With the 40 and a 20 in hand, only the 40 could be declared (40 first): only the 40 is lost."""
    n = n_of(name)
    deal = _forty_and_twenty(name)
    plays(deal, SILENT_T1[n])
    plays(deal, TRICK2_3O[n])  # silent after trick 1
    refused("forfeit_unsung_cantes", deal.cante, 0, "B")
    deal.cante(0, "C")
    assert deal.score().cantes == (CanteScore(0, 0, COPAS, 20),)


@pytest.mark.parametrize("name", TOROFUN)
def test_torofun_what_is_lost_does_not_depend_on_the_card_led_next(name):
    """Same as above, but N leads the 12B next: the 20 still was not declarable after trick 1."""
    n = n_of(name)
    deal = _forty_and_twenty(name)
    plays(deal, SILENT_T1[n])
    plays(deal, {4: "12B 4C 6C 5B", 3: "12B 4C 5B", 2: "12B 4C"}[n])
    assert deal.tricks[-1].winner == 0
    refused("cante_not_held", deal.cante, 0, "B")
    deal.cante(0, "C")
    assert deal.score().cantes == (CanteScore(0, 0, COPAS, 20),)


# ---------------------------------------------------------------------------
# 5. Tute.

def _reyes_4p(name, extra_caballo: bool = False, **options) -> Deal:
    """N holds the four reyes; S wins tricks 1 and 2 with 1C and 3C (copas led each time)."""
    if extra_caballo:
        return build(name, dict(N="12O 12C 12E 12B 11C 4C 6C", W="5C 2C 4O 5O 4E 5E 6E",
                                S="1C 3C 6O 7O 7E 2E 10E", E="7C 10C 2O 1O 1E 4B 5B"), **options)
    return build(name, dict(N="12O 12C 12E 12B 4C 6C", W="5C 2C 4O 5O 4E 5E",
                            S="1C 3C 6O 7O 7E 2E", E="7C 10C 2O 1O 4B 5B"), **options)


REYES_T1, REYES_T2 = "4C 5C 1C 7C", "3C 10C 6C 2C"


@pytest.mark.parametrize("name", PAIRS)
def test_tute_not_before_the_first_trick_in_pairs(name):
    deal = _reyes_4p(name)
    refused("declare_after_won_trick", deal.tute, 0, 12)


@pytest.mark.parametrize("name", PAIRS)
def test_tute_not_mid_trick(name):
    deal = _reyes_4p(name)
    deal.play("4C")
    refused("declare_between_tricks", deal.tute, 0, 12)


@pytest.mark.parametrize("name", PAIRS)
def test_tute_not_after_a_trick_won_by_the_opponents(name):
    deal = build(name, dict(N="12O 12C 12E 12B 4C", W="1C 4O 5O 4E 5E", S="5C 6O 7O 6E 7E", E="6C 2O 2E 4B 5B"))
    plays(deal, "4C 1C 5C 6C")
    assert deal.tricks[-1].winner == 1
    refused("declare_by_trick_winner", deal.tute, 0, 12)
    assert not any(isinstance(a, Tute) for a in deal.legal_actions())


@pytest.mark.parametrize("name", PAIRS)
def test_tute_after_a_trick_won_by_the_partner(name):
    deal = _reyes_4p(name)
    plays(deal, REYES_T1)
    assert deal.tricks[-1].winner == 2
    refused("tute_not_held", deal.tute, 0, 11)
    refused("tute_not_held", deal.tute, 2, 12)
    assert Tute(0, 12) in deal.legal_actions()
    deal.tute(0, 12)
    assert deal.over
    assert deal.legal_actions() == []


def test_ludoteka_tute_after_any_won_trick_even_after_silence():
    """Not only right after the first won trick; the pair's silence bars cantes, not a tute."""
    deal = _reyes_4p("ludoteka-pairs")
    plays(deal, REYES_T1)
    plays(deal, REYES_T2)
    assert deal.tricks[-1].winner == 2
    deal.tute(0, 12)
    assert deal.over


def test_ludoteka_tute_allowed_after_a_cante():
    deal = _reyes_4p("ludoteka-pairs", extra_caballo=True)
    plays(deal, REYES_T1)
    deal.cante(0, "C")
    deal.tute(0, 12)  # same window
    assert deal.over
    sheet = deal.score()
    assert sheet.tute == Tute(0, 12) and sheet.winner == 0


@pytest.mark.parametrize("target,points,wins_match", [(2, (0, 0), True), (4, (0, 0), True),
                                                      (6, (2, 0), False), (8, (2, 0), False)])
def test_ludoteka_tute_effect_depends_on_match_target(target, points, wins_match):
    deal = _reyes_4p("ludoteka-pairs", match_target=target)
    plays(deal, REYES_T1)
    deal.tute(0, 12)
    sheet = deal.score()
    assert sheet.winner == 0
    assert sheet.wins_match is wins_match
    assert sheet.match_points == points
    assert not sheet.complete


def test_ludoteka_tute_score_with_explicit_match_target():
    deal = _reyes_4p("ludoteka-pairs")
    plays(deal, REYES_T1)
    deal.tute(0, 12)
    assert deal.score(match_target=4).wins_match is True
    six = deal.score(match_target=6)
    assert six.wins_match is False and six.match_points == (2, 0)


def test_torofun_4p_tute_after_partners_trick_wins_the_match():
    deal = _reyes_4p("torofun-4p")
    plays(deal, REYES_T1)
    deal.tute(0, 12)
    sheet = deal.score()
    assert deal.over and sheet.winner == 0 and sheet.wins_match is True


@pytest.mark.parametrize("same_window", [True, False])
def test_torofun_no_tute_after_the_side_sang(same_window):
    deal = _reyes_4p("torofun-4p", extra_caballo=True)
    plays(deal, REYES_T1)
    deal.cante(0, "C")
    if not same_window:
        plays(deal, REYES_T2)
        assert deal.tricks[-1].winner == 2
    err = refused("tute_blocked_by_earlier_cante", deal.tute, 0, 12)
    assert err.option == "tute_blocked_by_earlier_cante"


@pytest.mark.parametrize("name", ["torofun-3p", "torofun-2p"])
def test_torofun_individual_tute_after_own_won_trick_wins_the_match(name):
    if n_of(name) == 3:
        deal = build(name, dict(N="12O 12C 12E 12B 1C", W="4C 4O 5O 4E 5E", E="5C 6O 6E 4B 5B"))
        refused("declare_after_won_trick", deal.tute, 0, 12)
        plays(deal, "1C 4C 5C")
    else:
        deal = build(name, dict(N="12O 12C 12E 12B 1C", S="4C 4O 5O 4E 5E"), stock="6O 6E 7E")
        refused("declare_after_won_trick", deal.tute, 0, 12)
        plays(deal, "1C 4C")
    deal.tute(0, 12)
    sheet = deal.score()
    assert deal.over and sheet.winner == 0 and sheet.wins_match is True


def test_torofun_3p_tute_not_after_another_players_trick():
    deal = build("torofun-3p", dict(N="12O 12C 12E 12B 4C", W="1C 4O 5O 4E 5E", E="5C 6O 6E 4B 5B"))
    plays(deal, "4C 1C 5C")
    refused("declare_by_trick_winner", deal.tute, 0, 12)


def test_playcard_tute_at_the_first_lead_wins_the_deal():
    deal = build("playcard-2p", dict(N="12O 12C 12E 12B 1C", S="11O 11C 11E 11B 4C"), stock="6O 6E 7E")
    err = refused("tute_by_leader", deal.tute, 1, 11)  # S holds four caballos but N is on lead
    assert err.option == "tute_at_first_lead"
    assert Tute(0, 12) in deal.legal_actions()
    deal.tute(0, 12)
    assert deal.over
    sheet = deal.score()
    assert sheet.winner == 0 and sheet.match_points == (1, 0) and sheet.wins_match is False
    assert sheet.tute == Tute(0, 12)


def test_playcard_tute_on_lead_after_a_won_trick():
    deal = build("playcard-2p", dict(N="12O 12C 12E 12B 4C", S="11O 11C 11E 11B 1C"), stock="6O 6E 7E")
    plays(deal, "4C 1C")  # S wins and leads next
    refused("declare_by_trick_winner", deal.tute, 0, 12)
    deal.tute(1, 11)
    sheet = deal.score()
    assert deal.over and sheet.winner == 1 and sheet.match_points == (0, 1) and not sheet.wins_match


def test_playcard_tute_wins_whatever_the_score():
    deal = build("playcard-2p", dict(N="12O 12C 12E 12B 3C 1E", S="1C 7E 4O 5O 4E 5E"),
                 stock="6O 6E 7C 5C 7O")
    plays(deal, "3C 1C")  # S wins 21
    plays(deal, "7E 1E")  # N wins 11
    assert deal.tricks[-1].winner == 0
    deal.tute(0, 12)
    sheet = deal.score()
    assert sheet.card_points == (11, 21)
    assert sheet.winner == 0 and sheet.match_points == (1, 0) and not sheet.wins_match


@pytest.mark.parametrize("name", ALL)
def test_no_play_after_a_tute(name):
    n = n_of(name)
    if n == 4:
        deal = _reyes_4p(name)
        plays(deal, REYES_T1)
    elif n == 3:
        deal = build(name, dict(N="12O 12C 12E 12B 1C", W="4C 4O 5O 4E 5E", E="5C 6O 6E 4B 5B"))
        plays(deal, "1C 4C 5C")
    else:
        deal = build(name, dict(N="12O 12C 12E 12B 1C", S="4C 4O 5O 4E 5E"), stock="6O 6E 7E")
        plays(deal, "1C 4C")
    deal.tute(0, 12)
    assert deal.over
    assert deal.legal_actions() == []
    with pytest.raises(ValueError):
        deal.play(deal.hand(deal.turn)[0])


# ---------------------------------------------------------------------------
# ludoteka-pairs: in a match's first deal oros is trump whatever the turned card.

@pytest.mark.parametrize("first,oros_points,bastos_points", [(True, 40, 20), (False, 20, 40)])
def test_ludoteka_first_deal_cuarenta_is_in_oros(first, oros_points, bastos_points):
    deal = build("ludoteka-pairs", dict(N="1O 2O 12O 11O", W="4O 4C 5C 6C", S="5O 7C 12B 11B",
                                        E="6O 4E 5E 5B"), first_of_match=first)
    assert card_code(deal.turned) == "5B" and deal.trump == (OROS if first else BASTOS)
    assert deal.turn == 0
    plays(deal, "1O 4O 5O 6O")
    if first:
        deal.cante(0, "O")
        deal.cante(2, "B")
    else:
        deal.cante(2, "B")
        deal.cante(0, "O")
    points = {c.suit: c.points for c in deal.score().cantes}
    assert points == {OROS: oros_points, BASTOS: bastos_points}


# ---------------------------------------------------------------------------
# Seats by letter, and any declaration through verify / can / apply.

@pytest.mark.parametrize("name", ALL)
def test_declarations_take_seats_as_letters(name):
    deal = window_after_trick1(name)
    opponent = deal.rules.seat_names[1]  # W, or S for 2 players
    refused("declare_by_trick_winner", deal.cante, opponent, "E")
    assert not deal.can_cante(opponent, "E") and deal.can_cante("N", "C")
    assert deal.can(Cante(0, COPAS)) and not deal.can(Cante(1, ESPADAS))
    deal.verify(Cante(0, COPAS))
    assert deal.cante("N", "C") == Cante(0, COPAS)
    assert deal.score().cantes == (CanteScore(seat=0, side=0, suit=COPAS, points=20),)
    assert not deal.can_tute("N", 12)
    refused("tute_not_held", deal.tute, "N", 12)


@pytest.mark.parametrize("name", ["torofun-3p", "torofun-4p", "playcard-2p"])
def test_a_seat_the_ruleset_does_not_have_is_refused_with_its_seats(name):
    deal = window_position(name)
    missing = {2: "W", 3: "S", 4: "X"}[n_of(name)]
    for seat in (missing, n_of(name), -1):
        with pytest.raises(UnknownSeat) as info:
            deal.cante(seat, "C")
        assert " ".join(deal.rules.seat_names) in str(info.value)
        assert isinstance(info.value, ValueError)
    assert deal.side_of("N") == 0 and deal.hand("N") == deal.hand(0)
