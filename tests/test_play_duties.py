"""Play duties ("arrastre"), checked on hand-written positions.

rules.md, section 1 "Play obligations": in force for 3 and 4 players throughout
and for 2 players once the stock is exhausted.  Every test asserts the exact
legal set and the exact rule code (``IllegalPlay.rule``) that a wrong card
breaks, so a rule that is loosened or tightened makes it fail.

Positions for 3 and 4 players use trump oros (O) and a copas (C) lead unless
said otherwise.  Seats 0, 1, 2 play in that order; seat 0 leads (the dealer is
the last seat, so seat 0 is mano).  The dealer's hand always holds an oro, which
is the turned card that shows trump.
"""

from __future__ import annotations

import pytest

from tutepgn.cards import CARD_SUIT, CODES, CardSet, card_from_code, suit_from_letter
from tutepgn.engine import Deal
from tutepgn.events import Play
from tutepgn.errors import IllegalPlay, UnknownSeat
from tutepgn.rules import preset

TRICK_PRESETS = ["ludoteka-pairs", "torofun-3p", "torofun-4p"]
"""Presets where the duties apply from the first card: 3 and 4 players."""
PAIRS_PRESETS = ["ludoteka-pairs", "torofun-4p"]
TWO_PLAYER_PRESETS = ["playcard-2p", "torofun-2p"]

SEAT3_FILLER = "7O 3B 12B"
"""The 4th seat's hand when a 4-player position does not use it (it is the dealer: 7O is turned)."""


# ---------------------------------------------------------------------------
# Helpers


def rules_of(name: str, **options):
    r = preset(name)
    return r.with_options(**options) if options else r


def trick_deal(name: str, hands: list[str], plays: str = "", seat3: str = SEAT3_FILLER, **options) -> Deal:
    """A 3- or 4-player deal from the hands of seats 0-2 (and seat 3 for 4 players), after ``plays``."""
    r = rules_of(name, **options)
    n = r.players
    all_hands = list(hands[:3]) + ([seat3] if n == 4 else [])
    assert len(all_hands) == n
    dealer = n - 1
    oros = [c for c in all_hands[dealer].split() if CARD_SUIT[card_from_code(c)] == suit_from_letter("O")]
    assert oros, "test setup: the dealer must hold the turned oro"
    deal = Deal.from_hands(r, all_hands, dealer=dealer, turned=oros[0])
    assert deal.trump == suit_from_letter("O") and deal.turn == 0
    for code in plays.split():
        deal.play(code)
    return deal


def legal(deal: Deal) -> set[str]:
    """The legal plays of the player to move, as card codes."""
    return set(deal.legal_plays().codes())


def hand(deal: Deal, seat: int) -> set[str]:
    return {CODES[c] for c in deal.hand(seat)}


def assert_refused(deal: Deal, code: str, rule: str, option: str | None = "same") -> IllegalPlay:
    """``code`` may not be played by the seat to move, for ``rule``; nothing changes."""
    seat = deal.turn
    c = card_from_code(code)
    before_hand, before_trick, before_log = deal.hands[seat], list(deal.trick), len(deal.log)
    assert not deal.can_play(c)
    assert not deal.can_play(seat, c)
    assert not deal.can_play(deal.rules.seat_names[seat], code)
    with pytest.raises(IllegalPlay) as info:
        deal.verify_play(seat, c)
    assert info.value.rule == rule
    assert info.value.option == (rule if option == "same" else option)
    assert info.value.seat == seat
    with pytest.raises(IllegalPlay) as info2:
        deal.play(code)
    assert info2.value.rule == rule
    assert (deal.hands[seat], deal.trick, len(deal.log), deal.turn) == (before_hand, before_trick, before_log, seat)
    return info.value


def assert_playable(deal: Deal, code: str) -> None:
    """``code`` may be played now, and playing it works."""
    seat = deal.turn
    c = card_from_code(code)
    assert deal.can_play(seat, c)
    deal.verify_play(deal.rules.seat_names[seat], code)
    deal.play(code)
    assert code not in hand(deal, seat)


# ---------------------------------------------------------------------------
# Rules every 3- and 4-player preset shares


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_leading_is_free(name):
    deal = trick_deal(name, ["1C 4O 5E", "4C 5C 6C", "7C 10C 6O"])
    assert legal(deal) == {"1C", "4O", "5E"}
    assert_playable(deal, "5E")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_leader_of_a_later_trick_is_free(name):
    # Seat 1 wins the first trick with the 1C and leads anything, trumps included.
    deal = trick_deal(name, ["4C 4E 5E", "1C 5O 6E", "7C 10C 6O"], "4C 1C 7C", seat3="5C 3B 10O")
    if deal.rules.players == 4:
        deal.play("5C")
    assert deal.turn == 1 and deal.tricks[-1].winner == 1
    assert legal(deal) == {"5O", "6E"}


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_must_follow_suit_when_unable_to_beat(name):
    deal = trick_deal(name, ["6C 4E 5E", "4C 1E 5B", "7C 10C 6O"], "6C")
    assert legal(deal) == {"4C"}
    err = assert_refused(deal, "1E", "must_follow")
    assert "4C" in str(err)
    assert_refused(deal, "5B", "must_follow")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_must_beat_the_led_card_when_able(name):
    deal = trick_deal(name, ["10C 4E 5E", "4C 12C 1C", "7C 6E 6O"], "10C")
    assert legal(deal) == {"12C", "1C"}
    assert_refused(deal, "4C", "must_beat")
    assert_playable(deal, "12C")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_revoke_when_able_to_beat_reports_must_beat(name):
    # The allowed set is the beating cards, so an off-suit card breaks must_beat.
    deal = trick_deal(name, ["10C 4E 5E", "4C 12C 1E", "7C 6E 6O"], "10C")
    assert legal(deal) == {"12C"}
    assert_refused(deal, "1E", "must_beat")
    assert_refused(deal, "4C", "must_beat")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_must_beat_the_highest_card_of_the_led_suit_not_just_the_lead(name):
    # 11C beats the 4C led but not the 12C played after it.
    deal = trick_deal(name, ["4C 4E 5E", "12C 5B 6B", "11C 1C 6O"], "4C 12C")
    assert legal(deal) == {"1C"}
    assert_refused(deal, "11C", "must_beat")
    assert_refused(deal, "6O", "must_beat")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_any_card_of_the_suit_when_unable_to_beat(name):
    deal = trick_deal(name, ["1C 4E 5E", "4C 12C 6E", "7C 10C 6O"], "1C")
    assert legal(deal) == {"4C", "12C"}
    assert_refused(deal, "6E", "must_follow")
    assert_playable(deal, "4C")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_beat_waived_when_a_plain_suit_lead_was_trumped(name):
    deal = trick_deal(name, ["10C 4E 5E", "4O 5B 6B", "5C 1C 6O"], "10C 4O")
    assert legal(deal) == {"5C", "1C"}
    assert_refused(deal, "6O", "must_follow")
    assert_playable(deal, "5C")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_beat_not_waived_when_trump_was_led(name):
    # Trump led: following with trump must beat the highest trump (12O), trumped or not.
    deal = trick_deal(name, ["5O 4E 5E", "12O 5B 6B", "6O 1O 6E"], "5O 12O")
    assert legal(deal) == {"1O"}
    assert_refused(deal, "6O", "must_beat")
    assert_refused(deal, "6E", "must_beat")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_trump_lead_follow_lower_trump_when_unable_to_beat(name):
    deal = trick_deal(name, ["1O 4E 5E", "4O 12O 6B", "7C 10C 6O"], "1O")
    assert legal(deal) == {"4O", "12O"}
    assert_refused(deal, "6B", "must_follow")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_must_trump_when_void_in_the_suit_led(name):
    deal = trick_deal(name, ["10C 4E 5E", "4O 1E 5B", "7C 10B 6O"], "10C")
    assert legal(deal) == {"4O"}
    assert_refused(deal, "1E", "must_trump")
    assert_refused(deal, "5B", "must_trump")
    assert_playable(deal, "4O")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_must_overtrump_a_trump_already_in_the_trick(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4O 12O 1E"], "10C 5O")
    assert legal(deal) == {"12O"}
    assert_refused(deal, "4O", "must_overtrump")
    assert_refused(deal, "1E", "must_overtrump")
    assert_playable(deal, "12O")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_cannot_overtrump_then_any_card_no_duty_to_undertrump(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4O 1E 7B"], "10C 5O")
    assert legal(deal) == {"4O", "1E", "7B"}
    assert_playable(deal, "1E")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_void_in_suit_led_without_trumps_plays_anything(name):
    deal = trick_deal(name, ["10C 4E 5E", "1E 3E 5B", "7C 10B 6O"], "10C")
    assert legal(deal) == {"1E", "3E", "5B"}
    assert_playable(deal, "5B")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_not_held(name):
    deal = trick_deal(name, ["10C 4E 5E", "1E 3E 5B", "7C 10B 6O"])
    err = assert_refused(deal, "1O", "not_held", option=None)
    assert "1O" in str(err)
    # A card another seat holds is not held either.
    assert_refused(deal, "1E", "not_held", option=None)


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_not_your_turn(name):
    deal = trick_deal(name, ["10C 4E 5E", "1E 3E 5B", "7C 10B 6O"])
    c = card_from_code("1E")
    assert not deal.can_play(1, c)
    with pytest.raises(IllegalPlay) as info:
        deal.verify_play(1, c)
    assert info.value.rule == "not_your_turn" and info.value.option is None
    with pytest.raises(IllegalPlay) as info:
        deal.play(deal.rules.seat_names[1], "1E")
    assert info.value.rule == "not_your_turn"
    assert deal.turn == 0 and not deal.trick and "1E" in hand(deal, 1)
    # Also mid-trick: seat 2 may not play before seat 1.
    deal.play("10C")
    with pytest.raises(IllegalPlay) as info:
        deal.play(2, "7C")
    assert info.value.rule == "not_your_turn"
    assert deal.trick == [card_from_code("10C")]


# ---------------------------------------------------------------------------
# Partners (4 players): no exemption when the partner is winning


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_partner_winning_still_must_beat(name):
    # N (0) leads 12C and is winning; S (2), N's partner, must still beat with the 1C.
    deal = trick_deal(name, ["12C 4E 5E", "4C 5B 6B", "5C 1C 6O"], "12C 4C")
    assert deal.side_of(2) == deal.side_of(0)
    assert legal(deal) == {"1C"}
    assert_refused(deal, "5C", "must_beat")


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_partner_winning_still_must_trump(name):
    deal = trick_deal(name, ["1C 4E 5E", "4C 5B 6B", "5O 1E 6E"], "1C 4C")
    assert legal(deal) == {"5O"}
    assert_refused(deal, "1E", "must_trump")


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_partner_winning_with_a_trump_still_must_overtrump(name):
    # W (1) trumps, S (2) follows; E (3), W's partner, void in copas, must overtrump W.
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4C 1E 6E"], "10C 5O 4C", seat3="12O 1B 4O")
    assert deal.turn == 3 and deal.side_of(3) == deal.side_of(1)
    assert legal(deal) == {"12O"}
    assert_refused(deal, "4O", "must_overtrump")
    assert_refused(deal, "1B", "must_overtrump")


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_last_player_must_beat_the_opponent(name):
    # E (3) must beat the 12C of S (2), the opponents' winning card.
    deal = trick_deal(name, ["4C 4E 5E", "5C 5B 6B", "12C 1E 6E"], "4C 5C 12C", seat3="1C 11C 7O")
    assert legal(deal) == {"1C"}
    assert_refused(deal, "11C", "must_beat")


# ---------------------------------------------------------------------------
# Custom options


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_option_partner_winning_exempts_frees_the_beat(name):
    deal = trick_deal(name, ["12C 4E 5E", "4C 5B 6B", "5C 1C 6O"], "12C 4C", partner_winning_exempts=True)
    assert legal(deal) == {"5C", "1C"}
    assert_refused(deal, "6O", "must_follow")
    assert_playable(deal, "5C")


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_option_partner_winning_exempts_frees_the_trump(name):
    deal = trick_deal(name, ["1C 4E 5E", "4C 5B 6B", "5O 1E 6E"], "1C 4C", partner_winning_exempts=True)
    assert legal(deal) == {"5O", "1E", "6E"}
    assert_playable(deal, "1E")


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_option_partner_winning_exempts_frees_the_overtrump(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4C 1E 6E"], "10C 5O 4C", seat3="12O 1B 4O",
                      partner_winning_exempts=True)
    assert legal(deal) == {"12O", "1B", "4O"}


@pytest.mark.parametrize("name", PAIRS_PRESETS)
def test_option_partner_winning_exempts_only_when_the_partner_wins(name):
    # W (1) is winning with 12C; S (2) is not exempt against an opponent.
    deal = trick_deal(name, ["4C 4E 5E", "12C 5B 6B", "11C 1C 6O"], "4C 12C", partner_winning_exempts=True)
    assert legal(deal) == {"1C"}
    assert_refused(deal, "11C", "must_beat")


def test_option_partner_winning_exempts_changes_nothing_without_partners():
    deal = trick_deal("torofun-3p", ["12C 4E 5E", "4C 5B 6B", "5C 1C 6O"], "12C 4C", partner_winning_exempts=True)
    assert legal(deal) == {"1C"}
    assert_refused(deal, "5C", "must_beat")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_must_undertrump(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4O 1E 7B"], "10C 5O", must_undertrump=True)
    assert legal(deal) == {"4O"}
    assert_refused(deal, "1E", "must_undertrump")
    assert_refused(deal, "7B", "must_undertrump")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_must_undertrump_still_prefers_an_overtrump(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4O 12O 1E"], "10C 5O", must_undertrump=True)
    assert legal(deal) == {"12O"}
    assert_refused(deal, "4O", "must_overtrump")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_must_overtrump_false_any_trump_will_do(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4O 12O 1E"], "10C 5O", must_overtrump=False)
    assert legal(deal) == {"4O", "12O"}
    assert_refused(deal, "1E", "must_trump")
    assert_playable(deal, "4O")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_must_overtrump_false_still_must_trump(name):
    deal = trick_deal(name, ["10C 4E 5E", "5O 5B 6B", "4O 1E 7B"], "10C 5O", must_overtrump=False)
    assert legal(deal) == {"4O"}
    assert_refused(deal, "1E", "must_trump")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_must_beat_false_any_card_of_the_suit(name):
    deal = trick_deal(name, ["10C 4E 5E", "4C 12C 1E", "7C 6E 6O"], "10C", must_beat=False)
    assert legal(deal) == {"4C", "12C"}
    assert_refused(deal, "1E", "must_follow")
    assert_playable(deal, "4C")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_beat_waived_when_trumped_false(name):
    deal = trick_deal(name, ["10C 4E 5E", "4O 5B 6B", "5C 1C 6O"], "10C 4O", beat_waived_when_trumped=False)
    assert legal(deal) == {"1C"}
    assert_refused(deal, "5C", "must_beat")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_must_trump_false(name):
    deal = trick_deal(name, ["10C 4E 5E", "4O 1E 5B", "7C 10B 6O"], "10C", must_trump=False)
    assert legal(deal) == {"4O", "1E", "5B"}


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_option_free_play_while_stock_changes_nothing_without_a_stock(name):
    for value in (True, False):
        deal = trick_deal(name, ["10C 4E 5E", "4O 1E 5B", "7C 10B 6O"], "10C", free_play_while_stock=value)
        assert legal(deal) == {"4O"}


# ---------------------------------------------------------------------------
# 2 players: duties start once the stock is exhausted.
#
# Trump bastos (B): the stock is one hidden card (6E) and the turned 4B.  Seat 1
# (S) is mano.  In the first trick S leads 7E and N plays 5E (free: N could
# also play anything else); S wins, draws 6E, and N draws the turned 4B.  From
# the second trick on, the duties apply.


def two_player_endgame(name: str, s_hand: str, n_hand: str, **options) -> Deal:
    r = rules_of(name, **options)
    deal = Deal.from_hands(r, [n_hand, s_hand], dealer=0, stock="6E 4B")
    assert deal.trump == suit_from_letter("B") and deal.turn == 1 and deal.stock_left == 2
    # The trick that empties the stock is still played freely.
    assert legal(deal) == hand(deal, 1)
    deal.play("7E")
    assert legal(deal) == hand(deal, 0)
    deal.play("5E")
    assert deal.tricks[-1].winner == 1
    assert deal.stock_left == 0
    assert "6E" in hand(deal, 1) and "4B" in hand(deal, 0)
    return deal


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_free_play_while_the_stock_has_cards(name):
    # N holds copas and a trump, yet may revoke and need not beat or trump.
    deal = Deal.from_hands(preset(name), ["4C 1C 5O 10E", "10C 7E 4E 6E"], dealer=0,
                           stock="5E 6B 7B 4B")
    deal.play("10C")
    assert legal(deal) == {"4C", "1C", "5O", "10E"}
    assert_playable(deal, "10E")  # a revoke, and not even a trump
    assert deal.tricks[-1].winner == 1


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_must_beat_once_the_stock_is_exhausted(name):
    deal = two_player_endgame(name, "7E 5C 12O 1E", "5E 1C 7C 4O")
    deal.play("5C")
    assert legal(deal) == {"1C", "7C"}
    assert_refused(deal, "4O", "must_beat")
    assert_refused(deal, "4B", "must_beat")  # holding copas, no trumping


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_must_beat_the_lead_when_able(name):
    deal = two_player_endgame(name, "7E 10C 12O 1E", "5E 1C 7C 4O")
    deal.play("10C")
    assert legal(deal) == {"1C"}
    assert_refused(deal, "7C", "must_beat")


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_must_follow_when_unable_to_beat(name):
    deal = two_player_endgame(name, "7E 10C 12O 1E", "5E 1C 7C 4O")
    deal.play("12O")
    assert legal(deal) == {"4O"}
    assert_refused(deal, "4B", "must_follow")
    assert_refused(deal, "1C", "must_follow")


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_must_trump_when_void(name):
    deal = two_player_endgame(name, "7E 10C 12O 1E", "5E 1C 7C 4O")
    deal.play("1E")
    assert legal(deal) == {"4B"}
    assert_refused(deal, "1C", "must_trump")
    assert_playable(deal, "4B")
    assert deal.tricks[-1].winner == 0


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_void_without_trumps_plays_anything(name):
    # Trick 2: S leads 1E, N must trump with the 4B and wins.  Trick 3: N leads 1C;
    # S, void in copas and holding no trump, may play anything.
    deal = two_player_endgame(name, "7E 12O 1E 3E", "5E 1C 4O 7C")
    deal.play("1E")
    deal.play("4B")
    assert deal.turn == 0
    deal.play("1C")
    assert legal(deal) == {"12O", "3E", "6E"}
    assert_playable(deal, "3E")


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_trump_led_must_beat_trump(name):
    # A longer stock to give both players trumps: trump B, the stock 5E then the turned 4B.
    deal = Deal.from_hands(preset(name), ["5E 12B 5B 4C", "7E 10B 1C 6E"], dealer=0, stock="7B 4B")
    deal.play("7E")
    deal.play("5E")  # S wins, draws 7B; N draws 4B
    assert deal.stock_left == 0 and deal.turn == 1
    deal.play("10B")
    assert legal(deal) == {"12B"}
    assert_refused(deal, "5B", "must_beat")
    assert_refused(deal, "4C", "must_beat")


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_option_free_play_while_stock_false(name):
    deal = Deal.from_hands(rules_of(name, free_play_while_stock=False), ["4C 1C 5O 10E", "10C 7E 4E 6E"],
                           dealer=0, stock="5E 6B 7B 4B")
    assert deal.stock_left == 4
    deal.play("10C")
    assert legal(deal) == {"1C"}
    assert_refused(deal, "10E", "must_beat")
    assert_refused(deal, "4C", "must_beat")


@pytest.mark.parametrize("name", TWO_PLAYER_PRESETS)
def test_2p_duties_never_apply_during_a_whole_stock_phase(name):
    # A full deal played with the weakest-int card each time: every stock trick is free.
    for seed in range(5):
        deal = Deal.shuffled(preset(name), seed=seed)
        while deal.stock_left:
            assert deal.legal_plays() == CardSet(deal.hands[deal.turn])
            deal.play(min(deal.legal_plays()))
        assert sum(m.bit_count() for m in deal.hands) == 16
        assert len(deal.tricks) == 12


# ---------------------------------------------------------------------------
# The public surface: (seat, card) or (card) alone, seats as letters, legal_plays a CardSet.

@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_a_play_names_its_seat_by_letter_or_number_or_not_at_all(name):
    for form in ((), ("N",), (0,)):
        deal = trick_deal(name, ["10C 4E 5E", "1E 3E 5B", "7C 10B 6O"])
        assert deal.can_play(*form, "10C") and deal.can(Play(0, card_from_code("10C")))
        deal.verify_play(*form, "10C")
        assert deal.play(*form, "10C") == Play(0, card_from_code("10C"))
    second = deal.rules.seat_names[1]
    assert not deal.can_play("N", "4E") and not deal.can(Play(0, card_from_code("4E")))
    with pytest.raises(IllegalPlay) as info:
        deal.play("N", "4E")
    assert info.value.rule == "not_your_turn"
    assert deal.play(second, "1E") == Play(1, card_from_code("1E"))
    with pytest.raises(UnknownSeat):
        deal.play("X", "7C")


@pytest.mark.parametrize("name", TRICK_PRESETS)
def test_legal_plays_is_a_card_set_and_legal_actions_its_plays(name):
    deal = trick_deal(name, ["10C 4E 5E", "1E 3E 5B", "7C 10B 6O"], plays="10C")
    legal_cards = deal.legal_plays()
    assert isinstance(legal_cards, CardSet) and legal_cards <= CardSet(deal.hands[deal.turn])
    assert [a for a in deal.legal_actions() if type(a) is Play] == [Play(deal.turn, c) for c in legal_cards]
    assert all(deal.can(Play(deal.turn, c)) == (c in legal_cards) for c in deal.hand(deal.turn))
