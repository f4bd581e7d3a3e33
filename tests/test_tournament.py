"""Club events without a database: pairings (Swiss, all-play-all, knockout), standings' tie-breaks, duplicate."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from tutepgn.errors import EventError
from tutepgn.rules import preset
from tutepgn.tournament import (BoardResult, Entrant, Event, Result, Round, Table, add_entrant, check_result,
                                crosstable, history, matchpoints, next_round, ranking, round_boards, round_limit,
                                standings)
from tutepgn.tournament.duplicate import par


def entrants(n: int) -> list[Entrant]:
    return [Entrant(number=i, players=(f"P{i}a", f"P{i}b")) for i in range(1, n + 1)]


def play(event: Event, rnd: Round, rng: random.Random) -> None:
    """Random results for every table that plays (draws included, as a league allows)."""
    for t in rnd.tables:
        if not t.bye:
            home = rng.randint(0, 2)
            rnd.results[t.number] = Result(table=t.number, matches=(home, 2 - home), deals=(rng.randint(0, 6), 3),
                                           points=(rng.randint(0, 400), 200))


def swiss_event(size: int, rounds: int, seed: int) -> Event:
    """A Swiss event played to its end with results drawn from ``seed``."""
    event = Event(name="s", format="swiss", planned_rounds=rounds, seed=seed, entrants=entrants(size))
    rng = random.Random(seed)
    for _ in range(round_limit(event)):
        rnd = next_round(event)
        event.rounds.append(rnd)
        play(event, rnd, rng)
    return event


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(size=st.integers(4, 20), rounds=st.integers(3, 7), seed=st.integers(0, 2**32))
def test_swiss_never_repeats_an_encounter_and_gives_byes_fairly(size: int, rounds: int, seed: int) -> None:
    """Over 1,000 seeded events: every round pairs everyone once, no encounter repeats, a second bye only once
    everyone has had one, every round the format allows is paired, and the same seed gives the same event."""
    event = swiss_event(size, rounds, seed)
    assert len(event.rounds) == min(rounds, round_limit(event)) and round_limit(event) >= 3
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for rnd in event.rounds:
        seen = [n for t in rnd.tables for n in (t.home, t.away) if n is not None]
        assert sorted(seen) == list(range(1, size + 1))
        assert sum(t.bye for t in rnd.tables) == size % 2
        for t in rnd.tables:
            if t.away is None:
                byes[t.home] += 1
                assert byes[t.home] == 1 or all(byes[e.number] for e in event.entrants)
            else:
                pair = frozenset((t.home, t.away))
                assert pair not in met
                met.add(pair)
    assert swiss_event(size, rounds, seed) == event


def test_swiss_byes_go_to_the_lowest_ranked_without_one() -> None:
    """Five entrants: round 1's bye goes to the last of the seeded order; round 2's to the last in matches won
    among those without a bye."""
    event = Event(name="s", format="swiss", seed=3, entrants=entrants(5))
    first = next_round(event)
    event.rounds.append(first)
    for t in first.tables:
        if not t.bye:
            first.results[t.number] = Result(table=t.number, matches=(1, 0))
    second = next_round(event)
    bye = next(t.home for t in second.tables if t.bye)
    won = {line.entrant: line.matches_won for line in standings(event)}
    had = next(t.home for t in first.tables if t.bye)
    assert bye != had and won[bye] == min(won[n] for n in won if n != had)
    # three entrants have one match won (two winners, the bye), one has none: one float, the rest by score
    floats = [t for t in second.tables if t.away is not None and won[t.home] != won[t.away]]
    assert len(floats) == 1


def test_swiss_refuses_more_rounds_than_it_can_pair_without_a_repeat() -> None:
    event = Event(name="s", format="swiss", planned_rounds=9, entrants=entrants(6))
    assert round_limit(event) == 3
    rng = random.Random(0)
    for _ in range(3):
        event.rounds.append(next_round(event))
        play(event, event.rounds[-1], rng)
    with pytest.raises(EventError, match="all its 3 rounds"):
        next_round(event)


@pytest.mark.parametrize("size", range(2, 22))
def test_all_play_all_meets_every_pair_once(size: int) -> None:
    event = Event(name="rr", format="round-robin", entrants=entrants(size))
    rng = random.Random(size)
    while len(event.rounds) < round_limit(event):
        event.rounds.append(next_round(event))
        play(event, event.rounds[-1], rng)
    pairs = [frozenset((t.home, t.away)) for r in event.rounds for t in r.tables if t.away is not None]
    assert len(pairs) == len(set(pairs)) == size * (size - 1) // 2
    byes = Counter(t.home for r in event.rounds for t in r.tables if t.away is None)
    assert byes == (Counter(range(1, size + 1)) if size % 2 else Counter())


def test_a_round_is_not_paired_before_the_last_ones_results() -> None:
    event = Event(name="rr", format="round-robin", entrants=entrants(4))
    event.rounds.append(next_round(event))
    with pytest.raises(EventError, match="without a result"):
        next_round(event)


def test_knockout_gives_byes_to_the_top_seeds_and_pairs_the_winners() -> None:
    event = Event(name="ko", format="knockout", entrants=entrants(6))
    first = next_round(event, ranking=[6, 5, 4, 3, 2, 1])  # entrant 6 is the top seed
    # bracket order of 8: seeds 1-8, 4-5, 2-7, 3-6; seeds 7 and 8 are missing: seeds 1 and 2 have byes
    assert [(t.home, t.away) for t in first.tables] == [(6, None), (3, 2), (5, None), (4, 1)]
    event.rounds.append(first)
    first.results[2] = Result(table=2, matches=(0, 2))
    with pytest.raises(EventError, match="needs a winner"):
        check_result(event, 1, Result(table=4, matches=(1, 1)))
    with pytest.raises(EventError, match="is a bye"):
        check_result(event, 1, Result(table=3, matches=(1, 0)))
    first.results[4] = Result(table=4, matches=(2, 1))
    second = next_round(event)
    assert [(t.home, t.away) for t in second.tables] == [(6, 2), (5, 4)]
    assert round_limit(event) == 3


def hand_made() -> Event:
    """Twelve entrants whose standings need every tie-break: see test_each_tie_break_decides."""
    names = ["Alba", "Blas", "Ciro", "Dora", "Zoe", "Abel", "Eva", "Fran", "Gil", "Hugo", "Iris", "Juan"]
    n = {name: i for i, name in enumerate(names, 1)}
    played = [("Alba", "Fran", (3, 0), (6, 0), (400, 100)), ("Blas", "Eva", (2, 1), (5, 2), (300, 200)),
              ("Ciro", "Eva", (2, 1), (4, 3), (300, 200)), ("Dora", "Fran", (1, 0), (3, 2), (250, 150)),
              ("Iris", "Juan", (1, 0), (3, 2), (220, 170)), ("Zoe", "Abel", (1, 0), (2, 2), (100, 100)),
              ("Abel", "Fran", (1, 0), (2, 2), (100, 100)), ("Fran", "Zoe", (1, 0), (2, 2), (100, 100))]
    rounds = [Round(number=i, tables=[Table(number=1, home=n[h], away=n[a])],
                    results={1: Result(table=1, matches=m, deals=d, points=p)})
              for i, (h, a, m, d, p) in enumerate(played, 1)]
    rounds.append(Round(number=len(rounds) + 1, tables=[Table(number=1, home=n["Hugo"]), Table(number=2, home=n["Gil"])]))
    return Event(name="tb", format="round-robin", entrants=[Entrant(number=i, players=(name,))
                                                          for name, i in n.items()], rounds=rounds)


def test_each_tie_break_decides() -> None:
    """Alba by matches won; Blas over Ciro by deals difference (+3, +1); Dora over Iris by points difference
    (+100, +50); Zoe over Abel, Gil and Hugo (all 1 won, 0, 0) by head to head (she beat Abel); Abel, Gil and
    Hugo by name, sharing a place; Fran (1 won, deals -7) after them."""
    lines = standings(hand_made())
    assert [line.name for line in lines] == ["Alba", "Blas", "Ciro", "Eva", "Dora", "Iris", "Zoe", "Abel", "Gil",
                                             "Hugo", "Fran", "Juan"]
    assert [line.place for line in lines] == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 11, 12]
    by = {line.name: line for line in lines}
    assert (by["Blas"].deals_difference, by["Ciro"].deals_difference) == (3, 1)
    assert (by["Dora"].points_difference, by["Iris"].points_difference) == (100, 50)
    assert (by["Zoe"].head_to_head, by["Abel"].head_to_head, by["Gil"].byes) == (1, 0, 1)
    assert (by["Fran"].matches_won, by["Fran"].deals_difference) == (1, -7)


def test_crosstable_and_history_read_each_side_its_own_way() -> None:
    event = hand_made()
    rows = {row.name: row for row in crosstable(event)}
    order = [row.entrant for row in crosstable(event)]
    assert rows["Alba"].cells[order.index(8)] == "3-0" and rows["Fran"].cells[order.index(1)] == "0-3"
    assert rows["Alba"].cells[order.index(2)] is None
    fran = history(event, 8)
    assert [(e.opponent_name, e.matches, e.points) for e in fran] == [
        ("Alba", (0, 3), (100, 400)), ("Dora", (0, 1), (150, 250)), ("Abel", (0, 1), (100, 100)),
        ("Zoe", (1, 0), (100, 100))]
    assert [(e.opponent, e.matches) for e in history(event, 10)] == [(None, (1, 0))]


def test_entrants_are_pairs_or_players_not_both_nor_twice() -> None:
    event = Event(name="e", entrants=[add_entrant(Event(name="e"), "Ana Pérez / Bea  Gil")])
    assert event.entrants[0].players == ("Ana Pérez", "Bea Gil")
    with pytest.raises(EventError, match="2 players"):
        add_entrant(event, "Carlos Ruiz")
    with pytest.raises(EventError, match="already"):
        add_entrant(event, "ana pérez/Dani Sol")
    with pytest.raises(EventError):
        add_entrant(event, "A/B/C")


def test_matchpoints_on_a_hand_checked_board() -> None:
    """docs/club.md's worked example: side 0 made +30, +10, +10 and -50 at four tables (points less the other
    side's): 2 per result beaten, 1 per tie."""
    assert matchpoints([30, 10, 10, -50]) == [6, 3, 3, 0]
    event = Event(name="d", format="duplicate", boards_per_round=1, seed=4, entrants=entrants(8))
    rnd = next_round(event)
    event.rounds.append(rnd)
    for table, points in zip(rnd.tables, [(80, 50), (70, 60), (70, 60), (40, 90)]):
        rnd.boards.append(BoardResult(table=table.number, board=1, points=points))
    lines = {line.entrant: line for line in ranking(event)}
    homes = [t.home for t in rnd.tables]
    aways = [t.away for t in rnd.tables]
    assert [lines[h].matchpoints for h in homes] == [6, 3, 3, 0]
    assert [lines[a].matchpoints for a in aways if a] == [0, 3, 3, 6]
    assert [lines[h].percentage for h in homes] == [100.0, 50.0, 50.0, 0.0]
    assert ranking(event)[0].place == 1 and ranking(event)[0].percentage == 100.0


def test_a_board_is_the_same_deal_at_every_table_and_par_is_the_solvers() -> None:
    event = Event(name="d", format="duplicate", boards_per_round=2, seed=11, entrants=entrants(4))
    rules = preset(event.rules)
    boards = round_boards(event, 2)
    assert [b.number for b in boards] == [3, 4] and [b.dealer for b in boards] == [2, 3]
    assert boards[0].hands(rules) == round_boards(event, 2)[0].hands(rules) != boards[1].hands(rules)
    value = par(boards[0], rules)
    assert value is not None and len(value) == 2 and sum(value) >= 130  # 120 in cards and 10 for the last trick
    assert par(round_boards(Event(name="d2", rules="playcard-2p", format="duplicate"), 1)[0], preset("playcard-2p")) is None


def test_a_new_event_is_refused_in_words() -> None:
    from tutepgn.errors import UnknownRuleset

    assert Event.new("  Liga   de invierno ", kind="liga", format="round-robin").name == "Liga de invierno"
    with pytest.raises(UnknownRuleset):
        Event.new("Liga", rules="nope")
    with pytest.raises(EventError, match="1 to 200"):
        Event.new("   ")
    with pytest.raises(EventError, match="format one of"):
        Event.new("Liga", format="swiss-ish")
