"""The validator catches every illegality the engine knows, in hand-written records.

Each test writes a short record by hand (export format unless it says lax),
validates it and asserts every error finding exactly: its ``code``, ``line``,
``column``, ``trick`` and ``seat``, and the ``option`` of the rule broken.
Most records hold a second, later error too, to show that the validator
never stops at the first one: after an illegal event the replay goes on as the
record wrote it.

Positions: a card's own column in its trick line (``1. N 4O 10O`` puts 4O at
column 6 and 10O at column 9); a declaration's seat letter at column 1.  The
``trick`` of a declaration is the trick it comes before.

The deals:

* ``D4`` (ludoteka-pairs, torofun-4p), dealer E so N leads; trump bastos
  (E's turned 5B).  N sings copas and espadas, S oros and the 40; W and E are
  void in espadas, W holds 1B 7B, E holds 3B (beats 7B, not 1B).
* ``T4`` (4 players): N holds the four reyes and 11C.
* ``D2`` (playcard-2p, torofun-2p), dealer S so N leads; turned 1B under the
  stock.  ``STOCK_PHASE`` plays the 12 tricks of the stock; S wins the 12th
  and draws 11E (the last draw), and N holds 7B and 2B of trump.
* ``D3`` (torofun-3p), a simulated deal: dealer N, so W leads; trump oros.
"""

from __future__ import annotations

import pytest

from tutepgn.events import Tute
from tutepgn.notation import iter_records, read_record
from tutepgn.rules import preset
from tutepgn.recording.simulate import match_records, stream_seed
from tutepgn.check.validate import Finding, Report, validate, validate_records

pytestmark = pytest.mark.usefixtures("replay_backend")  # with the C fast path and without: the same results

# ---------------------------------------------------------------------------
# Helpers.


def check(text: str) -> Report:
    """Validate one hand-written record (read leniently, as the validator does)."""
    return validate(read_record(text, strict=False))


def errors(report: Report) -> list[tuple[str, int | None, int | None, int | None, str | None]]:
    """Every error finding as (code, line, column, trick, seat), in record order."""
    return [(f.code, f.line, f.column, f.trick, f.seat) for f in report.errors]


def one(report: Report, code: str) -> Finding:
    """The single finding with this code."""
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, [(f.code, f.message) for f in report.findings]
    return found[0]


def codes(report: Report) -> list[str]:
    return [f.code for f in report.findings]


D4 = ("N:3O 4O 11C 12C 2E 4E 5E 11E 12E 2B W:1O 2O 10O 1C 3C 6C 7C 10C 1B 7B "
      "S:11O 12O 1E 3E 6E 7E 10E 10B 11B 12B E:5O 6O 7O 2C 4C 5C 3B 4B 5B 6B")


def d4(*play: str, rules: str = "ludoteka-pairs", tags: str = "", end: str = "*") -> str:
    """A D4 record: four tag lines (plus ``tags``), a blank line, the play from line 6, the marker."""
    return (f'[Rules "{rules}"]\n[Dealer "E"]\n[Deal "{D4}"]\n[Trump "5B"]\n{tags}\n'
            + "\n".join(play) + f"\n{end}\n")


FULL = ["1. N 4O 10O 11O 5O",  # line 8 in full(): S wins
        "S 40",
        "N 20C",
        "2. S 7E 4B 5E 7B",
        "3. W 1B 11B 6B 2B",
        "4. W 1C 10B 2C 12C",  # line 13: S wins
        "N 20E",
        "5. S 12O 7O 3O 1O",
        "6. W 10C 12B 4C 11C",
        "7. S 3E 5B 2E 2O",
        "8. E 3B 12E 6C 10E",
        "9. E 6O 11E 7C 6E",
        "10. E 5C 4E 3C 1E"]  # line 20
"""A whole legal D4 deal under ludoteka-pairs: NS 31 in cards + 80 in cantes = 111, WE 89 + 10 = 99."""


def full(play: list[str] = FULL, *, score: str | None = "NS:111 WE:99", result: str = "NS+2",
         rules: str = "ludoteka-pairs", deal: bool = True) -> str:
    """A finished D4 record with Score and Result tags: tags on lines 1-6, the play from line 8."""
    tags = f'[Rules "{rules}"]\n[Dealer "E"]\n' + (f'[Deal "{D4}"]\n' if deal else "") + '[Trump "5B"]\n'
    if score is not None:
        tags += f'[Score "{score}"]\n'
    tags += f'[Result "{result}"]\n'
    return tags + "\n" + "\n".join(play) + f"\n{result}\n"


T4 = ("N:12O 12C 12E 12B 11C 1O 1E 1B 3B 2O W:3O 11O 10O 7O 3C 10C 7C 3E 11E 10E "
      "S:6O 5O 6C 5C 4C 7E 6E 5E 11B 10B E:4O 1C 2C 2E 4E 2B 4B 5B 6B 7B")

D2 = "N:11O 12O 11C 12C 3E 4E 2B 7B S:1O 3O 1C 3C 1E 12E 11B 12B"
STOCK2 = "2O 2C 2E 4O 4C 5E 5O 5C 6E 6O 6C 7E 7O 7C 10E 10O 10C 3B 4B 5B 6B 10B 11E 1B"
STOCK_PHASE = ["1. N 4E 3O", "2. N 2O 2C", "3. N 2E 4O", "4. N 4C 5E", "5. N 5O 5C", "6. N 6E 6O",
               "7. N 6C 7E", "8. N 7O 7C", "9. N 2B 10O", "10. N 10C 3C", "11. S 4B 5B", "12. N 6B 10B"]
"""The 12 tricks of D2's stock, on lines 7-18; free play (S does not follow oros in trick 2).

Winners: N tricks 1-9 and 11, S tricks 10 and 12.  After trick 12 the hands are
N 11O 12O 11C 12C 10E 3E 7B 1B and S 1O 1C 11E 12E 1E 11B 12B 3B (S drew 11E last).
"""


def d2(*play: str, rules: str = "playcard-2p", end: str = "*") -> str:
    """A D2 record: five tag lines, a blank line, the play from line 7, the marker."""
    return (f'[Rules "{rules}"]\n[Dealer "S"]\n[Deal "{D2}"]\n[Stock "{STOCK2}"]\n[Trump "1B"]\n\n'
            + "\n".join(play) + f"\n{end}\n")


D3 = ("N:1O 6O 11O 3C 4C 5C 3E 6E 7E 11E 12E 6B W:3O 4O 5O 7O 6C 7C 10C 5E 4B 5B 10B 11B "
      "E:10O 12O 1C 11C 12C 1E 4E 10E 1B 3B 7B 12B")
D3_PLAY = ["1. W 5O 12O 1O",  # line 8 in d3(): N wins
           "N 20E",
           "2. N 3C 10C 1C",
           "E 20C",
           "3. E 3B 6B 11B",
           "4. E 7B 11O 5B",  # line 13: N trumps and wins
           "5. N 3E 5E 1E",
           "6. E 12C 5C 6C",
           "7. E 10O 6O 3O",
           "8. W 7C 11C 4C",
           "9. E 10E 11E 4O",
           "10. W 4B 12B 12E",
           "11. E 1B 7E 10B",
           "12. E 4E 6E 7O"]
"""A simulated torofun-3p deal: N 38, W 27, E 105 (E+1)."""


def d3(play: list[str] = D3_PLAY, *, deal: str | None = D3, score: str = "N:38 W:27 E:105",
       result: str = "E+1") -> str:
    """A D3 record: tags on lines 1-6 (Deal optional), the play from line 8."""
    tags = '[Rules "torofun-3p"]\n[Dealer "N"]\n' + (f'[Deal "{deal}"]\n' if deal else "") + '[Trump "11O"]\n'
    tags += f'[Score "{score}"]\n[Result "{result}"]\n'
    return tags + "\n" + "\n".join(play) + f"\n{result}\n"


FOUR = pytest.mark.parametrize("rules", ["ludoteka-pairs", "torofun-4p"])
"""The two 4-player presets share the play duties: each duty test runs under both."""


def test_the_base_records_are_valid() -> None:
    for text in (full(), full(rules="ludoteka-pairs"), d3(), d2(*STOCK_PHASE), d4("1. N 4O 10O 11O 5O")):
        report = check(text)
        assert report.valid, [(f.code, f.message) for f in report.findings]
    report = check(full())
    assert report.score_ok and report.result_ok and report.computed_result == "NS+2"
    assert check(d3()).score_ok


# ---------------------------------------------------------------------------
# Play duties (arrastre): the same in every preset once they apply.


@FOUR
def test_must_follow_and_a_later_must_trump(rules: str) -> None:
    report = check(d4("1. N 4O 10O 11O 2C",   # E holds 5O 6O 7O (none beats 11O) but plays copas
                      "2. S 1E 5O 2E 7B", rules=rules))    # E is void in espadas and holds trumps: 5O breaks must_trump
    assert errors(report) == [("must_follow", 6, 17, 1, "E"), ("must_trump", 7, 9, 2, "E")]
    first, second = report.errors
    assert first.option == "must_follow" and first.event == "2C"
    assert "may play 5O 6O 7O" in first.message
    assert second.option == "must_trump"
    assert [f.code for f in report.findings if f.severity == "info"] == ["unfinished"]


@FOUR
def test_must_beat_and_a_later_must_overtrump(rules: str) -> None:
    report = check(d4("1. N 4O 2O 11O 5O",    # W holds 10O and 1O, which beat 4O
                      "2. S 1E 3B 2E 7B", rules=rules))    # W is void, E trumped with 3B: W must overtrump with 1B
    assert errors(report) == [("must_beat", 6, 9, 1, "W"), ("must_overtrump", 7, 15, 2, "W")]
    assert [f.option for f in report.errors] == ["must_beat", "must_overtrump"]
    assert "may play 1B" in report.errors[1].message


@FOUR
def test_must_trump_and_a_wrong_leader(rules: str) -> None:
    report = check(d4("1. N 4E 10O 6E 3B",    # W is void in espadas and holds 1B 7B; E trumps and wins
                      "2. W 2O 12O 5O 3O", rules=rules))   # E won trick 1, so W may not lead trick 2
    assert errors(report) == [("must_trump", 6, 9, 1, "W"), ("not_your_turn", 7, 6, 2, "W")]
    assert report.errors[0].option == "must_trump"
    assert report.errors[1].message == "trick 2 is written as led by W, but E, who won trick 1, leads it"
    assert report.errors[1].option is None


@FOUR
def test_must_overtrump(rules: str) -> None:
    report = check(d4("1. N 4E 7B 6E 4B",     # E holds 3B, which beats 7B
                      "2. E 5O 3O 1O 12O", rules=rules))   # W won trick 1 with 7B
    assert errors(report) == [("must_overtrump", 6, 15, 1, "E"), ("not_your_turn", 7, 6, 2, "E")]
    assert report.errors[0].option == "must_overtrump"
    assert "W, who won trick 1" in report.errors[1].message


def test_must_undertrump_only_where_the_ruleset_says_so() -> None:
    play = ("1. N 4E 1B 6E 5O",  # E cannot beat 1B but holds lower trumps
            "2. W 2O 12O 2C 3O")  # E holds 6O 7O: 2C breaks must_follow
    report = check(d4(*play, rules="ludoteka-pairs must_undertrump=true"))
    assert errors(report) == [("must_undertrump", 6, 15, 1, "E"), ("must_follow", 7, 13, 2, "E")]
    assert report.errors[0].option == "must_undertrump"
    assert errors(check(d4(*play))) == [("must_follow", 7, 13, 2, "E")]  # no preset has the undertrump duty


def test_beat_waived_once_trumped_is_an_option() -> None:
    play = ("1. N 12E 7B 6E 3B",)  # W trumps; S holds 1E 3E but may play any espada
    assert check(d4(*play)).valid
    report = check(d4(*play, rules="ludoteka-pairs beat_waived_when_trumped=false"))
    assert errors(report) == [("must_beat", 6, 13, 1, "S")]
    assert report.errors[0].option == "must_beat"


@FOUR
def test_card_not_held_and_a_later_must_follow(rules: str) -> None:
    report = check(d4("1. N 1O 10O 11O 5O",   # 1O is W's card; the replay moves it to N and goes on
                      "2. N 3O 2O 12O 2C", rules=rules))
    assert errors(report) == [("not_held", 6, 6, 1, "N"), ("must_follow", 7, 16, 2, "E")]
    assert report.errors[0].message == "N does not hold 1O" and report.errors[0].option is None
    assert report.sheet is not None and report.sheet.tricks[0].winner == 0  # N won trick 1 with 1O


def test_card_still_in_the_stock() -> None:
    # 10B lies in the stock: the replay takes it from there, and the stock runs one card short at the
    # last draw (the validator used to crash there with an IndexError).
    report = check(d2("1. N 10B 3O", *STOCK_PHASE[1:], "13. S 1C 12C"))
    assert errors(report) == [("not_held", 7, 6, 1, "N"), ("not_held", 18, 10, 12, "S")]


@FOUR
def test_wrong_first_leader(rules: str) -> None:
    report = check(d4("1. W 1O 11O 5O 4O",    # dealer E: N is mano and leads
                      "2. W 10O 12O 6O 4E", rules=rules))  # N holds 3O, which beats 12O
    assert errors(report) == [("not_your_turn", 6, 6, 1, "W"), ("must_beat", 7, 17, 2, "N")]
    assert report.errors[0].message == "trick 1 is written as led by W, but N, the first leader, leads it"


def test_play_duties_wait_for_the_empty_stock_with_two_players() -> None:
    # Trick 2: S holds 1O but plays 2C: free play while the stock lasts.
    play = [*STOCK_PHASE,
            "13. S 11E 10E",  # line 19: N holds 3E, which beats 11E
            "14. S 1E 3E",
            "15. S 12E 11O"]  # N is void in espadas and holds 7B 1B
    for rules in ("playcard-2p", "torofun-2p"):
        report = check(d2(*play, rules=rules))
        assert errors(report) == [("must_beat", 19, 11, 13, "N"), ("must_trump", 21, 11, 15, "N")], rules
        assert [f.option for f in report.errors] == ["must_beat", "must_trump"]


# ---------------------------------------------------------------------------
# Declarations: when, by whom, how many.


def test_declaration_before_any_trick_is_won() -> None:
    report = check(d4("N 20C",                 # line 6: no trick won yet
                      "1. N 4O 10O 11O 5O",
                      "N 20C"))                # line 8: after S won trick 1, legal
    assert errors(report) == [("declare_after_won_trick", 6, 1, 1, "N")]
    assert report.errors[0].option is None and report.errors[0].event == "N 20C"
    assert report.sheet is not None and [c.points for c in report.sheet.cantes] == [20]


def test_declaration_by_the_side_that_lost_the_trick() -> None:
    report = check(d4("1. N 4O 10O 11O 5O",   # S wins
                      "W 20C",
                      "S 40"))
    assert errors(report) == [("declare_by_trick_winner", 7, 1, 2, "W")]
    assert "S won it" in report.errors[0].message
    assert report.sheet is not None and [(c.seat, c.points) for c in report.sheet.cantes] == [(2, 40)]


def test_declaration_during_a_trick() -> None:
    report = check(d4("1. N 4O 10O",
                      "S 40"))
    assert errors(report) == [("declare_between_tricks", 7, 1, 1, "S")]


def test_cante_not_held_then_a_legal_one() -> None:
    report = check(d4("1. N 4O 10O 11O 5O",
                      "N 20O",                 # rey and caballo of oros are S's
                      "N 20C"))
    assert errors(report) == [("cante_not_held", 7, 1, 2, "N")]
    assert report.refused_cantes[0].reason == "cante_not_held"
    assert report.sheet is not None and len(report.sheet.cantes) == 1


def test_cante_in_a_suit_already_sung() -> None:
    report = check(d4("1. N 4O 10O 11O 5O",
                      "N 20C",
                      "N 20C"))
    assert errors(report) == [("cante_suit_sung", 8, 1, 2, "N")]


def test_cantes_per_trick_two_in_ludoteka_one_in_torofun() -> None:
    report = check(d4("1. N 4O 10O 11O 5O", "S 40", "N 20C", "N 20E"))
    assert errors(report) == [("cantes_per_trick", 9, 1, 2, "N")]
    assert report.errors[0].option == "cantes_per_trick" and "at most 2" in report.errors[0].message
    report = check(d4("1. N 4O 10O 11O 5O", "N 20C", "N 20E", rules="torofun-4p"))
    assert errors(report) == [("cantes_per_trick", 8, 1, 2, "N")]
    assert "at most 1" in report.errors[0].message


def test_forty_before_twenty() -> None:
    trick = "1. N 11C 3C 10B 2C"  # S is void in copas and trumps: S wins and keeps 12O 11O 12B 11B
    report = check(d4(trick, "S 20O", "S 40", "S 20O"))
    assert errors(report) == [("forty_first", 7, 1, 2, "S")]
    assert report.errors[0].option == "forty_first"
    report = check(d4(trick, "S 20O", "S 40", "S 20O", rules="torofun-4p"))
    assert errors(report) == [("forty_first", 7, 1, 2, "S"), ("cantes_per_trick", 9, 1, 2, "S")]


def test_silence_after_the_first_win_ludoteka_and_torofun() -> None:
    # No cante after trick 1 (won by S); N sings after trick 4, won by S again.
    play = [line for line in FULL if line not in ("S 40", "N 20C")]
    report = check(full(play, score="NS:31 WE:99", result="WE+1"))
    assert errors(report) == [("cante_only_if_sung_at_first_win", 12, 1, 5, "N")]
    assert report.errors[0].option == "cante_only_if_sung_at_first_win"
    report = check(full(play, score="NS:31 WE:99", result="WE+1", rules="torofun-4p"))
    assert errors(report) == [("forfeit_unsung_cantes", 12, 1, 5, "N")]
    assert report.errors[0].option == "forfeit_unsung_cantes"


def test_torofun_3p_declarations_between_single_players() -> None:
    play = list(D3_PLAY)
    play.insert(1, "W 20C")  # line 9: N won trick 1
    report = check(d3(play))
    assert errors(report) == [("declare_by_trick_winner", 9, 1, 2, "W")]
    assert "N won it" in report.errors[0].message
    # N sings nothing after trick 1 though it could sing espadas: lost for the deal.
    play = [line for line in D3_PLAY if line != "N 20E"]
    play.insert(5, "N 20E")  # line 13, after trick 4 (won by N); the claimed N:38 still counts it
    report = check(d3(play))
    assert errors(report) == [("forfeit_unsung_cantes", 13, 1, 5, "N"), ("score_mismatch", 5, 1, None, None)]
    assert report.explanation == [("N claims 38 but counts 18 (18 in cards): the difference is the refused "
                                   "cante 20 in espadas (forfeit_unsung_cantes).")]


def test_tute_not_held() -> None:
    report = check(d4("1. N 4O 10O 11O 5O", "N tute 12", "2. S 1E 3B 2E 7B"))
    assert errors(report) == [("tute_not_held", 7, 1, 2, "N"), ("must_overtrump", 8, 15, 2, "W")]


def test_tute_after_a_cante_ends_the_deal_in_ludoteka_and_is_refused_in_torofun() -> None:
    play = ("1. N 1O 3O 5O 4O",    # line 6: N wins
            "N 20C",
            "2. N 1E 3E 5E 2E",    # N wins
            "N tute 12",           # line 9
            "3. N 12O 7O 6O 2B")   # line 10
    report = check(d4(*play).replace(D4, T4))
    assert errors(report) == [("after_end", 10, 6, None, "N")]
    assert report.sheet is not None and report.sheet.tute is not None
    assert report.computed_result == "NS+match"  # ludoteka: a tute wins the match below a target of 5
    report = check(d4(*play, rules="torofun-4p").replace(D4, T4))
    assert errors(report) == [("tute_blocked_by_earlier_cante", 9, 1, 3, "N")]
    assert report.errors[0].option == "tute_blocked_by_earlier_cante"
    assert report.computed_result == "*"  # the refused tute did not end the deal: trick 3 is judged


def test_tute_of_another_rank_cannot_be_written_but_is_refused() -> None:
    # The notation only writes tute 12 and tute 11; a program may build any event.
    record = read_record(d4("1. N 4O 10O 11O 5O", "N tute 12"), strict=False)
    record.events[-1] = Tute(0, 10)
    report = validate(record)
    assert errors(report) == [("tute_rank", 7, 1, 2, "N")]


TUTE2 = ('[Rules "{rules}"]\n[Dealer "S"]\n[Deal "N:12O 12C 12E 12B 1O 1C 1E 1B S:3O 3C 3E 3B 11O 11C 11E 11B"]\n'
         '[Stock "2O 4O 5O 6O 7O 10O 2C 4C 5C 6C 7C 10C 2E 4E 5E 6E 7E 10E 2B 4B 5B 6B 10B 7B"]\n[Trump "7B"]\n'
         '[Score "N:0 S:0"]\n[Result "N+1"]\n\n{play}\nN+1\n')


def test_tute_at_the_first_lead_playcard_only_by_the_leader() -> None:
    assert check(TUTE2.format(rules="playcard-2p", play="N tute 12")).valid
    report = check(TUTE2.format(rules="playcard-2p", play="S tute 12\nN tute 12"))
    assert errors(report) == [("tute_by_leader", 9, 1, 1, "S")]
    assert report.errors[0].option == "tute_at_first_lead"
    report = check(TUTE2.format(rules="torofun-2p", play="N tute 12\n1. N 1O 3O"))
    assert errors(report) == [("declare_after_won_trick", 9, 1, 1, "N"), ("incomplete", 11, None, None, None)]


def test_declarations_and_the_last_draw_playcard_and_torofun() -> None:
    play = list(STOCK_PHASE)
    play.insert(2, "N 20O")  # line 9: N won tricks 1 and 2 in silence
    play += ["S 20E",        # line 20: S drew 11E in the last draw
             "S 40",
             "13. S 1C 12C",
             "S 20E",        # line 23: no draw after trick 13
             "14. S 1O 11O"]
    report = check(d2(*play, rules="playcard-2p"))
    assert errors(report) == [("forty_first", 20, 1, 13, "S")]
    assert report.sheet is not None and [(c.suit, c.points) for c in report.sheet.cantes] == [(0, 20), (3, 40), (2, 20)]
    report = check(d2(*play, rules="torofun-2p"))
    assert errors(report) == [("forfeit_unsung_cantes", 9, 1, 3, "N"),
                              ("no_declare_with_last_drawn", 20, 1, 13, "S"),
                              ("forfeit_unsung_cantes", 21, 1, 13, "S"),  # S won trick 10 and sang nothing
                              ("declare_only_after_draw", 23, 1, 14, "S")]
    assert [f.option for f in report.errors] == ["forfeit_unsung_cantes", "no_declare_with_last_drawn",
                                                 "forfeit_unsung_cantes", "declare_only_after_draw"]
    assert report.sheet is not None and report.sheet.cantes == ()


# ---------------------------------------------------------------------------
# Exchanges of the 7 (and 2) of trump.


def test_exchanges_playcard() -> None:
    report = check(d2("N x7B",   # line 7: legal at the first lead in playcard
                      "N x7B",   # N gave it away
                      "S x7B",   # N is on lead
                      "N x2B",   # no exchange of the 2 in playcard
                      "N x7O",   # not trump
                      "1. N 4E 3O"))
    assert errors(report) == [("exchange_not_held", 8, 1, 1, "N"), ("exchange_on_lead", 9, 1, 1, "S"),
                              ("exchange_card", 10, 1, 1, "N"), ("exchange_card", 11, 1, 1, "N")]
    assert [f.option for f in report.errors] == [None, None, "exchange_two", "exchange_seven"]


def test_exchanges_torofun() -> None:
    # Before the first trick: refused, but the cards are swapped as written (N later plays 1B).
    report = check(d2("N x7B", *STOCK_PHASE[:2], rules="torofun-2p"))
    assert errors(report) == [("exchange_at_first_lead", 7, 1, 1, "N")]
    assert report.errors[0].option == "exchange_at_first_lead"
    # After a won trick: the 2 only for a turned 7, 6, 5 or 4.
    report = check(d2("1. N 4E 3O", "N x2B", "2. N 2O 2C", rules="torofun-2p"))
    assert errors(report) == [("exchange_turned_rank", 8, 1, 2, "N")]
    assert report.errors[0].option == "exchange_two_for"
    assert "2B may not be exchanged for the turned 1B" in report.errors[0].message
    # The 7 only for a turned 1, 3, 12, 11 or 10: here 4B is turned (and the 2 may be given for it).
    turned_4 = d2("1. N 4E 3O", "N x7B", "N x2B", "2. N 2O 2C", rules="torofun-2p").replace(
        " 3B 4B 5B 6B 10B 11E 1B", " 3B 1B 5B 6B 10B 11E 4B").replace('[Trump "1B"]', '[Trump "4B"]')
    report = check(turned_4)
    assert errors(report) == [("exchange_turned_rank", 8, 1, 2, "N")]
    assert report.errors[0].option == "exchange_seven_for"
    assert [x["card"] for x in report.to_dict()["exchanges"]] == ["7B", "2B"]


def test_exchange_after_the_stock_is_exhausted() -> None:
    report = check(d2(*STOCK_PHASE, "S x7B", "13. S 1C 12C"))
    assert errors(report) == [("exchange_needs_stock", 19, 1, 13, "S")]


# ---------------------------------------------------------------------------
# The end of the deal, the count and the result.


def test_card_after_the_end_of_the_deal() -> None:
    report = check(full([*FULL, "11. S 1E 2E 3E 4E"]))
    assert errors(report) == [("after_end", 21, 7, None, "S")]
    assert report.score_ok and report.result_ok  # the deal itself is still counted
    report = check(full([*FULL, "S 20O"]))
    assert errors(report) == [("after_end", 21, 1, None, "S")]


def test_record_ending_before_the_deal_is_over() -> None:
    report = check(d4("1. N 4O 10O 11O 5O", tags='[Result "NS+1"]\n', end="NS+1"))
    assert errors(report) == [("incomplete", 8, None, None, None)]
    assert "36 cards were never played" in report.errors[0].message
    assert one(report, "unfinished").severity == "info"


def test_unfinished_record_gets_no_score_verdict() -> None:
    report = check(d4("1. N 4O 10O 11O 5O", tags='[Score "NS:70 WE:60"]\n'))
    assert report.valid
    assert [(f.severity, f.code, f.line) for f in report.findings] == [("info", "unfinished", 8)]
    assert report.score_ok is None and report.result_ok is None and report.computed_result == "*"


def test_finished_deal_marked_unfinished() -> None:
    text = full(result="NS+2").replace('[Result "NS+2"]\n', "").replace("\nNS+2\n", "\n*\n")
    report = check(text)
    assert report.valid and report.result_ok is None
    assert [(f.severity, f.code, f.line) for f in report.findings] == [
        ("warning", "unfinished_marker", 20), ("info", "unfinished", 20)]


def test_refused_cante_counted_in_the_claimed_score() -> None:
    play = [line.replace("N 20E", "N 20O") for line in FULL]  # N holds no oros cante
    report = check(full(play))  # the claim 111 counts it
    assert errors(report) == [("cante_not_held", 14, 1, 5, "N"), ("score_mismatch", 5, 1, None, None),
                              ("result_mismatch", 6, 1, None, None)]
    assert report.claimed_score == (111, 99) and report.sheet is not None and report.sheet.totals == (91, 99)
    assert report.explanation == [
        ("NS claims 111 but counts 91 (31 in cards + 60 in cantes): "
         "the difference is the refused cante 20 in oros (cante_not_held).")]
    assert "WE+1" in one(report, "result_mismatch").message


def test_last_ten_credited_to_the_wrong_side() -> None:
    report = check(full(score="NS:121 WE:89"))  # W/E won the last trick
    assert errors(report) == [("score_mismatch", 5, 1, None, None)]
    assert report.result_ok  # the winner does not change
    text = " ".join(report.explanation)
    assert "the last ten went to the other side" in text and "the last ten may be missing" in text
    assert one(report, "score_mismatch").message == "the Score tag says NS:121 WE:89, the deal counts NS:111 WE:99"


def test_wrong_result() -> None:
    report = check(full(result="NS+1"))  # 111 is over 100: a double
    assert errors(report) == [("result_mismatch", 6, 1, None, None)]
    assert report.score_ok and report.result_ok is False
    assert one(report, "result_mismatch").message == (
        "the Result tag says NS+1, the deal gives NS+2 (NS has 111, over 100 in all: double)")


def test_wrong_marker_without_a_result_tag() -> None:
    text = full().replace('[Result "NS+2"]\n', "").replace("\nNS+2\n", "\nWE+1\n")
    report = check(text)
    assert errors(report) == [("termination", 20, None, None, None)]
    assert report.result_ok is False
    right = check(full().replace('[Result "NS+2"]\n', ""))
    assert right.valid and right.result_ok is True


def test_malformed_score_tag() -> None:
    report = check(full(score="NS:111"))
    assert errors(report) == [("score_tag", 5, 1, None, None)]
    assert report.score_ok is None


# ---------------------------------------------------------------------------
# The tags that describe the deal.


def test_hand_sizes() -> None:
    deal = D4.replace(" 2B W:", " W:2B ")  # N is dealt 9 cards, W 11
    report = check(d4("1. N 4O 10O 11O 5O").replace(D4, deal))
    assert errors(report)[:2] == [("hand_size", 3, None, None, "N"), ("hand_size", 3, None, None, "W")]
    assert [f.option for f in report.errors[:2]] == ["hand_size", "hand_size"]
    assert report.errors[0].message == "N is dealt 9 cards; ludoteka-pairs deals 10"


def test_pack_errors() -> None:
    # torofun-3p plays without the 2s: 2B instead of N's 6B.
    report = check(d3().replace("12E 6B W:", "12E 2B W:"))
    pack = [f for f in report.errors if f.code == "pack"]
    assert [(f.line, f.option) for f in pack] == [(3, None), (3, "removed_ranks")]
    assert pack[0].message == "cards missing from the deal and stock: 6B"
    assert pack[1].message == "cards not in this ruleset's pack: 2B"
    # A 2-player stock one card short.
    report = check(d2("1. N 4E 3O").replace("[Stock \"2O 2C ", "[Stock \"2O "))
    assert errors(report) == [("pack", 3, None, None, None)]  # at the Deal tag, which names the hands
    assert report.errors[0].message == "cards missing from the deal and stock: 2C"


def test_turned_card_and_impossible_deals() -> None:
    report = check(d2("1. N 4E 3O").replace('[Trump "1B"]', '[Trump "10B"]'))
    assert errors(report) == [("turned_card", 5, None, None, None), ("deal", 3, 1, None, None)]
    assert report.errors[0].message == "the Trump tag 10B is not the last card of the Stock (1B)"
    report = check(d4("1. N 4O 10O 11O 5O").replace('[Trump "5B"]', '[Trump "1B"]'))
    assert errors(report) == [("deal", 3, 1, None, None)]  # 1B is W's: the dealer E keeps the turned card
    assert "must be in the dealer's hand" in report.errors[0].message
    report = check(d4("1. N 4O 10O 11O 5O").replace("2B W:", "3B W:"))  # 3B twice, 2B nowhere
    assert errors(report) == [("pack", 3, None, None, None), ("deal", 3, 1, None, None)]


def test_missing_tags() -> None:
    report = check(d4("1. N 4O 10O 11O 5O").replace('[Dealer "E"]\n', ""))
    assert errors(report) == [("no_dealer", 1, None, None, None)]
    report = check(d4("1. N 4O 10O 11O 5O").replace('[Trump "5B"]\n', ""))
    assert errors(report) == [("no_trump", 1, None, None, None)]
    report = check(d4("1. N 4O 10O 11O 5O").replace('[Rules "ludoteka-pairs"]', '[Rules "chinchon"]'))
    assert errors(report) == [("rules", 1, 1, None, None)]  # reported once, not also as a syntax error
    report = check(d4("1. N 4O 10O 11O 5O").replace('[Dealer "E"]', '[Dealer "X"]'))
    assert errors(report) == [("tag", 2, 1, None, None)]
    assert "'X' is not a seat here" in report.errors[0].message


def test_two_player_record_without_deal_and_stock_is_reconstructed() -> None:
    text = d2("1. N 4E 3O", "2. N 2O 2C")
    text = text.replace(f'[Deal "{D2}"]\n', "").replace(f'[Stock "{STOCK2}"]\n', "")
    report = check(text)
    assert report.valid and codes(report) == ["stock_reconstructed", "deal_unknown"]
    assert report.sheet is None  # unfinished: the cards never played are unknown
    # The turned card lies under the stock until the last draw: nobody plays it in trick 2.
    report = check(text.replace("2. N 2O 2C", "2. N 2O 1B"))
    assert errors(report) == [("impossible_event", 6, 9, 2, "S")]
    assert "it is the turned card" in report.errors[0].message
    # With the Deal tag and no Stock tag: N holds only its dealt cards at the first trick.
    text = d2("1. N 4E 3O", "2. N 2O 2C").replace(f'[Stock "{STOCK2}"]\n', "")
    assert codes(check(text)) == ["stock_reconstructed", "deal_unknown"]
    report = check(text.replace("1. N 4E 3O", "1. N 4O 3O"))
    assert errors(report) == [("impossible_event", 6, 6, 1, "N")]
    assert "the Deal tag does not deal it to N" in report.errors[0].message


def test_four_and_three_player_records_without_deal_tag_are_reconstructed() -> None:
    for text in (full(deal=False), d3(deal=None)):
        report = check(text)
        assert report.valid and report.score_ok and report.result_ok
        assert [(f.severity, f.code, f.line) for f in report.findings] == [("warning", "deal_reconstructed", 1)]
    # Still judged: a declaration by the losing side.
    play = list(FULL)
    play.insert(1, "W 20C")  # line 8 (no Deal tag): S won trick 1
    report = check(full(play, deal=False))
    assert errors(report) == [("declare_by_trick_winner", 8, 1, 2, "W")]
    # Unfinished and without a Deal tag: the cards never played are unknown.
    report = check(d4("1. N 4O 10O 11O 5O").replace(f'[Deal "{D4}"]\n', ""))
    assert report.valid and codes(report) == ["deal_reconstructed", "deal_unknown"]
    assert report.sheet is None


def test_match_target_tag() -> None:
    report = check(d4("1. N 4O 10O 11O 5O", tags='[MatchTarget "5"]\n'))
    finding = one(report, "match_target")
    assert (finding.severity, finding.line, finding.option) == ("warning", 5, "match_target_choices")
    report = check(d4("1. N 4O 10O 11O 5O", tags='[MatchTarget "five"]\n'))
    assert errors(report) == [("match_target", 5, None, None, None)]


def test_syntax_error() -> None:
    report = check(d4("1. N 4O 10O 11O 5Z"))
    assert errors(report) == [("syntax", 6, 17, None, None)]
    assert report.parse_errors and not report.valid


def test_lax_record_positions() -> None:
    text = ('[Rules "ludoteka-pairs"] [Dealer "E"]\n'                 # line 1
            f'[Deal "{D4}"]\n'                                          # line 2
            '[Trump "5B"]\n'                                            # line 3
            "{the duties, written loosely}\n"                           # line 4
            "1. N 4o 2O! {W holds 10O and 1O} 11O 5O    2. S 1E\n"      # line 5
            "   3B 2E 7B ?? ; W must overtrump\n"                        # line 6
            "*\n")
    report = check(text)
    assert not report.parse_errors
    assert errors(report) == [("must_beat", 5, 9, 1, "W"), ("must_overtrump", 6, 10, 2, "W")]


# ---------------------------------------------------------------------------
# Matches.

def match_texts(seed: int = 3) -> list[str]:
    """The records of one simulated ludoteka-pairs match (seed 3: five deals, NS wins 4-1)."""
    rules = preset("ludoteka-pairs")
    return [r.tpgn() for r in match_records(rules, 1, seed=stream_seed(rules, seed))]  # the stream the seed was chosen on


def validate_match(texts: list[str]) -> list[Report]:
    return list(validate_records(iter_records("\n".join(texts))))


def test_simulated_match_is_valid() -> None:
    texts = match_texts()
    reports = validate_match(texts)
    assert len(reports) == 5 and all(r.valid for r in reports)
    assert all(not r.findings for r in reports)
    assert [r.standing_after for r in reports] == [(1, 0), (1, 1), (2, 1), (3, 1), (4, 1)]


def _tag_line(text: str, name: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if line.startswith(f"[{name} "))


def test_dealer_rotation() -> None:
    texts = match_texts()
    texts[2] = texts[2].replace('[Dealer "S"]', '[Dealer "E"]')
    reports = validate_match(texts)
    finding = one(reports[2], "dealer_rotation")
    assert finding.message == "the dealer should be S, on the right of the last dealer W, not E"
    offset = sum(t.count("\n") + 1 for t in texts[:2])  # records are joined by a blank line
    assert finding.line == offset + _tag_line(texts[2], "Dealer")
    assert codes(reports[2]) == ["deal", "dealer_rotation"]  # and E does not hold the turned card
    assert all(r.valid for r in reports[:2])


def test_match_score_discontinuity() -> None:
    texts = match_texts()
    texts[3] = texts[3].replace('[MatchScore "NS:2 WE:1"]', '[MatchScore "NS:3 WE:1"]')
    reports = validate_match(texts)
    finding = one(reports[3], "match_score")
    assert finding.message == "MatchScore says NS:3 WE:1, but the match stood at NS:2 WE:1 after the last deal"
    offset = sum(t.count("\n") + 1 for t in texts[:3])
    assert finding.line == offset + _tag_line(texts[3], "MatchScore")
    assert codes(reports[3]) == ["match_score"] and reports[4].valid  # the standing goes on from the deals


def test_missing_deal_in_a_match() -> None:
    texts = match_texts()
    del texts[2]
    reports = validate_match(texts)
    assert codes(reports[2]) == ["match_deal_no", "dealer_rotation", "match_score"]
    assert one(reports[2], "match_deal_no").message == "DealNo 4 follows DealNo 2"


def test_deal_number_gap() -> None:
    texts = match_texts()
    texts[4] = texts[4].replace('[DealNo "5"]', '[DealNo "6"]')
    reports = validate_match(texts)
    assert codes(reports[4]) == ["match_deal_no"]
    assert one(reports[4], "match_deal_no").message == "DealNo 6 follows DealNo 4"


def test_deal_after_the_end_of_the_match() -> None:
    texts = match_texts()
    # Deal 2 again (dealt by W, who follows the last dealer N), numbered and scored as a sixth deal.
    extra = texts[1].replace('[DealNo "2"]', '[DealNo "6"]')
    extra = extra.replace('[MatchScore "NS:1 WE:0"]', '[MatchScore "NS:4 WE:1"]')
    reports = validate_match([*texts, extra])
    assert codes(reports[5]) == ["match_over"]
    match_id = f"sim-{stream_seed(preset('ludoteka-pairs'), 3)}-1"
    assert one(reports[5], "match_over").message == f"match {match_id} was already over: no deal after the end"
    assert "match_over" not in codes(reports[4])


def test_match_starting_later_is_taken_as_given() -> None:
    reports = validate_match(match_texts()[2:])
    assert one(reports[0], "match_first_deal").severity == "warning"
    assert all(r.valid for r in reports)


def test_first_deal_of_ludoteka_match_trump_oros_and_the_2_of_oros_leads() -> None:
    tags = '[Match "m1"]\n[DealNo "1"]\n'
    # W holds 2O and leads; oros is trump whatever the turned card: W wins an espada lead with 1O.
    report = check(d4("1. W 2O 11O 5O 3O", "N 20C", "2. N 2E 1O 10E 7O", tags=tags))
    assert report.valid, [(f.code, f.message) for f in report.findings]
    assert report.sheet is not None and report.sheet.tricks[1].winner == 1
    report = check(d4("1. N 4O 10O 11O 5O", tags=tags))  # N is mano, but W holds 2O
    assert errors(report) == [("not_your_turn", 8, 6, 1, "N")]
    assert report.errors[0].message == "trick 1 is written as led by N, but W, the first leader, leads it"
    # Not the first deal: mano leads, the turned card shows trump (S's 40 is in bastos).
    report = check(d4("1. N 4O 10O 11O 5O", "S 40", tags='[Match "m1"]\n[DealNo "2"]\n'))
    assert report.valid and report.sheet is not None and [(c.suit, c.points) for c in report.sheet.cantes] == [(3, 40)]


# ---------------------------------------------------------------------------
# The report's JSON model.


def _report_schema() -> tuple[object, dict[str, object]]:
    import json
    from pathlib import Path
    jsonschema = pytest.importorskip("jsonschema")
    path = Path(__file__).resolve().parent.parent / "docs" / "schema" / "validate-report.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    return jsonschema, {"$defs": schema["$defs"], "$ref": "#/$defs/report"}


def test_the_report_model_is_to_dict_typed_and_follows_the_schema() -> None:
    import json
    from tutepgn.check.validate import ReportModel
    jsonschema, schema = _report_schema()
    bad = check(d2("1. N 4E 3O", "N x2B", "2. N 2O 2C", rules="torofun-2p"))
    texts = [r.tpgn() for r in match_records(preset("ludoteka-pairs"), 1, seed=stream_seed(preset("ludoteka-pairs"), 2))]
    reports = [bad, *validate_records(iter_records("\n".join(texts)))]
    for report in reports:
        for sheet in (True, False):
            data = report.to_dict(sheet)
            model = report.model(sheet)
            assert list(data) == list(ReportModel.model_fields)  # the CLI's JSON keeps its key order
            assert model.model_dump() == data
            assert ReportModel.model_validate_json(model.model_dump_json()) == model
            jsonschema.validate(json.loads(json.dumps(data)), schema)
    model = bad.model()
    assert model.findings[0].code == "exchange_turned_rank" and model.findings[0].seat == "N"
    assert [x.card for x in model.exchanges] == ["2B"] and model.sheet is not None
    assert model.sheet.tricks[0].leader == "N" and model.sheet.tricks[0].cards == ["4E", "3O"]
    assert reports[-1].model().standing_after is not None


def test_findings_take_their_fields_by_position_or_by_name() -> None:
    assert Finding("error", "syntax", "bad", line=3) == Finding(severity="error", code="syntax", message="bad", line=3)
    assert list(Finding("info", "x", "y").to_dict()) == ["severity", "code", "option", "message", "line", "column",
                                                          "trick", "seat", "event"]
