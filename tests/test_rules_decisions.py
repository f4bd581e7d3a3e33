"""The decisions the engine makes where the source texts are silent (docs/rules.md, section 6), played out.

Each entry of :data:`tutepgn.sources.DECISIONS` has a test here or names one
elsewhere (:data:`TESTED_ELSEWHERE`), so a decision listed in the code is
both stated in the docs (tests/test_docs_rules.py) and held by the engine.

Seats: 2 players 0=N 1=S (N deals, S is mano and leads); 3 players 0=N 1=W 2=E (E deals).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from positions import build, plays

from tutepgn import Deal, IllegalDeclaration, preset
from tutepgn.cards import CODES, COPAS
from tutepgn.events import Cante, Play
from tutepgn.notation import Record, read_record
from tutepgn.recording.simulate import deal_records, stream_seed
from tutepgn.check.validate import Report, validate
from tutepgn.sources import DECISIONS

N, S = 0, 1
TESTS = Path(__file__).resolve().parent
TESTED_ELSEWHERE = {
    "tie_goes_to_the_latest_trick": ("test_scoring_and_match.py", "test_three_player_tie_without_the_last_trick_winner"),
    "winner_draws_first": ("test_stock_and_exchange.py", "test_draws_winner_first_and_the_turned_card_last"),
}
"""Decisions whose behaviour another test file already plays out: the file and the test."""


def refused(rule: str, action, *args) -> None:
    with pytest.raises(IllegalDeclaration) as info:
        action(*args)
    assert info.value.rule == rule, str(info.value)


def torofun_2p(s_hand: str, n_hand: str, stock: str) -> Deal:
    """A torofun-2p deal: trump oros unless the stock's last card says otherwise; S leads."""
    deal = Deal.from_hands(preset("torofun-2p"), [n_hand, s_hand], dealer=N, stock=stock)
    assert deal.turn == S
    return deal


def s_wins_the_first_trick(deal: Deal) -> None:
    """S leads 1C, N follows with 4C: S wins, then both draw (S first)."""
    plays(deal, "1C 4C")
    assert deal.tricks[-1].winner == S and deal.window_side == S


# -- silence_judged_at_the_lead -------------------------------------------------------------

def forty_from_the_exchange() -> Deal:
    """S holds 7O and 11O; the turned card is the 12O: the exchange completes las cuarenta."""
    deal = torofun_2p("1C 7O 11O", "4C 5E 6E", "4E 5B 6B 12O")
    s_wins_the_first_trick(deal)
    deal.exchange(S, "7O")
    assert deal.can_cante(S, "O")
    return deal


def test_silence_is_judged_after_the_exchange_a_cante_it_completed_is_lost_unsung() -> None:
    deal = forty_from_the_exchange()
    plays(deal, "4E 5B")  # S leads without singing the 40 the exchange gave; S wins the trick with 4E
    assert deal.tricks[-1].winner == S
    refused("forfeit_unsung_cantes", deal.cante, S, "O")


def test_a_cante_completed_by_the_exchange_may_be_sung_in_the_same_window() -> None:
    deal = forty_from_the_exchange()
    deal.cante(S, "O")
    assert [c.points for c in deal.score().cantes] == [40]


def test_a_twenty_that_had_to_wait_for_the_forty_is_not_lost() -> None:
    # torofun-3p, trump bastos (E deals and holds the turned 5B).  N wins tricks 1 and 2 and sings nothing
    # after trick 1, when it could sing the 40 but not the 20 in copas (the 40 first): only the 40 is lost.
    deal = build("torofun-3p", dict(N="1O 3O 12B 11B 12C 11C", W="4O 5O 4C 4E 6C 7C", E="6O 7O 5C 5B 6E 7E"))
    plays(deal, "1O 4O 6O")
    refused("forty_first", deal.cante, N, "C")
    plays(deal, "3O 5O 7O")
    assert deal.tricks[-1].winner == N
    refused("forfeit_unsung_cantes", deal.cante, N, "B")
    deal.cante(N, "C")
    assert [(c.suit, c.points) for c in deal.score().cantes] == [(COPAS, 20)]


# -- exchange_is_not_a_cante ----------------------------------------------------------------

def copas_and_an_exchange() -> Deal:
    """S holds the copas cante and the 7O; the turned card is the 1O."""
    deal = torofun_2p("1C 7O 12C 11C", "4C 5E 6E 4O", "4E 5B 6B 1O")
    s_wins_the_first_trick(deal)
    deal.exchange(S, "7O")
    return deal


def test_an_exchange_does_not_break_the_silence() -> None:
    deal = copas_and_an_exchange()
    plays(deal, "4E 5B")  # S exchanged but sang nothing, and leads; S wins the trick
    assert deal.tricks[-1].winner == S
    refused("forfeit_unsung_cantes", deal.cante, S, "C")


def test_an_exchange_does_not_use_up_the_one_cante_after_a_trick() -> None:
    deal = copas_and_an_exchange()
    deal.cante(S, "C")
    assert deal.score().cantes[0].suit == COPAS


def test_an_exchange_does_not_bar_a_later_tute() -> None:
    deal = torofun_2p("1C 7O 12O 12C 12E 12B", "4C 5E 6E 4O 5O 6O", "4E 5B 6B 1O")
    s_wins_the_first_trick(deal)
    deal.exchange(S, "7O")
    deal.tute(S, 12)
    assert deal.over and deal.score().wins_match


# -- exchanges_in_any_order -----------------------------------------------------------------

def test_a_cante_then_the_seven_then_the_two_in_one_window() -> None:
    deal = torofun_2p("1C 7O 2O 12C 11C", "4C 5E 6E 4O 5O", "4E 5B 6B 1O")
    s_wins_the_first_trick(deal)
    deal.cante(S, "C")
    deal.exchange(S, "7O")  # the 7 for the turned 1O: the 7 is now the turned card
    deal.exchange(S, "2O")  # and the 2 for the turned 7
    assert CODES[deal.turned] == "2O" and {"1O", "7O"} <= {CODES[c] for c in deal.hand(S)}
    assert [type(a).__name__ for a in deal.log[2:]] == ["Cante", "Exchange", "Exchange"]


# -- first_leader_card_missing ---------------------------------------------------------------

def test_mano_leads_when_no_one_holds_the_first_leader_card() -> None:
    rules = preset("ludoteka-pairs").with_options(removed_ranks=(2,), hand_size=9)
    assert rules.first_deal_leader_card == "2O"
    deal = Deal.shuffled(rules, seed=3, dealer="N", first_of_match=True)
    assert deal.first_leader == deal.mano == 1


# -- hidden_cards_in_the_players_favour -------------------------------------------------------

def without_stock(record: Record, events: list | None = None, *drop: str) -> Report:
    """Validate a record with its Deal and Stock tags (and ``drop``) left out, with ``events`` for its play."""
    tags = {k: v for k, v in record.tags.items() if k not in ("Deal", "Stock", *drop)}
    copy = Record(tags=tags, events=list(record.events if events is None else events), termination=record.termination)
    return validate(read_record(copy.tpgn(), strict=False))


def test_a_cante_the_reconstruction_would_forfeit_is_allowed_when_some_order_allows_it() -> None:
    # The stock order that brings each card as late as the play allows gives N a pair at a silent window here,
    # which forfeit_unsung_cantes would punish; another order does not, so the deal validates as played.
    record = list(deal_records(preset("torofun-2p"), 2, seed=stream_seed(preset("torofun-2p"), 5)))[1]  # the stream this test's seed was chosen on (stream_seed is its own inverse)
    report = without_stock(record)
    assert report.valid and report.score_ok and [f.code for f in report.findings] == ["stock_reconstructed"]


def last_draw_cante(seed_index: int, suit: int) -> tuple[Record, list, int]:
    """A torofun-2p simulated deal with a cante inserted right after trick 12 by its winner, the seat that drew
    the last card of unknown origin (the other seat drew the turned card)."""
    record = list(deal_records(preset("torofun-2p"), seed_index + 1, seed=stream_seed(preset("torofun-2p"), 9)))[
        seed_index]  # the stream this test's seed was chosen on (stream_seed is its own inverse)
    events = list(record.events)
    at = [i for i, e in enumerate(events) if type(e) is Play][23] + 1
    winner = events[at].seat
    return record, events[:at] + [Cante(winner, suit)] + events[at:], at


def test_a_cante_with_a_card_that_may_be_the_last_drawn_is_undecidable() -> None:
    record, events, at = last_draw_cante(6, 0)
    report = without_stock(record, events, "Score", "Result")
    finding = next(f for f in report.findings if f.code == "undecidable")
    assert (finding.severity, finding.option, finding.event) == ("warning", "no_declare_with_last_drawn", "S 20O")
    assert finding.line == report.record.position(at)[0]
    assert not any(f.code == "no_declare_with_last_drawn" for f in report.findings)
    assert [c.suit for c in report.sheet.cantes].count(0) == 1  # taken as allowed: the 20 scores


def test_a_cante_with_the_card_that_must_be_the_last_drawn_is_refused() -> None:
    record, events, at = last_draw_cante(159, 0)
    report = without_stock(record, events, "Score", "Result")
    assert [f.code for f in report.errors] == ["no_declare_with_last_drawn"]
    assert report.errors[0].line == report.record.position(at)[0]
    assert "undecidable" not in [f.code for f in report.findings]


# -- every decision is played out -------------------------------------------------------------

def test_every_decision_has_a_behaviour_test() -> None:
    headers = Path(__file__).read_text(encoding="utf-8")
    for d in DECISIONS:
        if d.key in TESTED_ELSEWHERE:
            file, test = TESTED_ELSEWHERE[d.key]
            names = {n.name for n in ast.walk(ast.parse((TESTS / file).read_text(encoding="utf-8")))
                     if isinstance(n, ast.FunctionDef)}
            assert test in names, f"{d.key}: {file} has no {test}"
        else:
            assert f"# -- {d.key} " in headers, f"{d.key}: no section of tests here plays it out"
