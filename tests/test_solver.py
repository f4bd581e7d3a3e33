"""The double-dummy solver against references that share none of its shortcuts.

* exhaustive minimax over copies of the engine's own ``Deal`` (its legal plays, its cante rules through
  ``legal_actions``, its count): positions of 2-4 tricks, mid-trick included, every preset, with and
  without cantes; the value, the value of every legal card and the win test, on both backends;
* the same search without a transposition table (and with a table of 16 entries, where every slot is
  overwritten all the time): positions of 4-7 tricks;
* a copy of the package installed where the compiler is hidden answers with its pure-Python search.
"""

from __future__ import annotations

import copy
import os
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tutepgn import PRESETS, Cante, Deal, Play, Tute
from tutepgn.cards import CABALLO, REY, card, cards_in, pack
from tutepgn.analysis.solve import C_AVAILABLE, Position, Solver, default_backend
from tutepgn.analysis.alphabeta import PythonSearch

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ["python", "c"] if C_AVAILABLE else ["python"]
FOUR_PLAYERS = [name for name, r in PRESETS.items() if r.players == 4]


# -- The reference: minimax over the engine ---------------------------------------------------------------

def clone(deal: Deal) -> Deal:
    """A copy of a deal that can be played on without touching the original (its containers copied)."""
    new = copy.copy(deal)
    for name, value in vars(deal).items():
        if isinstance(value, (list, set, dict)):
            setattr(new, name, value.copy())
    return new


def sing_greedily(deal: Deal) -> None:
    """The solver's cante policy, through the engine's own refusals: the 40 first, then the 20s by suit."""
    while True:
        cantes = [a for a in deal.legal_actions() if type(a) is Cante]
        if not cantes:
            return
        deal.apply(min(cantes, key=lambda a: (a.suit != deal.trump, a.suit)))


def after(deal: Deal, c: int, cantes: bool) -> Deal:
    """The deal after ``c`` is played, and with cantes, after the trick's winner sang what it could."""
    child = clone(deal)
    child.play(c)
    if cantes and not child.trick and not child.over:
        sing_greedily(child)
    return child


def minimax(deal: Deal, side: int, cantes: bool) -> int:
    """The side's total at the end of the deal under best play by all (every line searched)."""
    if deal.over:
        return deal.score().totals[side]
    values = [minimax(after(deal, c, cantes), side, cantes) for c in deal.legal_plays()]
    return max(values) if deal.side_of(deal.turn) == side else min(values)


def reference(deal: Deal, side: int, cantes: bool) -> tuple[int, dict[int, int]]:
    """The value from now for ``side`` and the value of each legal card, by minimax over the engine."""
    start = clone(deal)
    before = deal.score().totals[side]
    if cantes and not start.trick:
        sing_greedily(start)
    window = start.score().totals[side] - before
    cards = {c: minimax(after(start, c, cantes), side, cantes) - before for c in start.legal_plays()}
    best = max(cards.values()) if start.side_of(start.turn) == side else min(cards.values())
    assert window >= 0
    return best, cards


# -- Positions ------------------------------------------------------------------------------------------

def played_down(name: str, seed: int, tricks: int, on_table: int, cantes: bool) -> Deal | None:
    """A random deal played at random (declarations too) until ``tricks`` tricks are left, ``on_table`` cards down."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, rng)
    target = tricks * rules.players - on_table
    while True:
        held = sum(h.bit_count() for h in deal.hands)
        if deal.stock_left == 0 and held == target:
            return deal
        if held < target or deal.over:
            return None
        actions = [a for a in deal.legal_actions() if type(a) is not Tute]
        declarations = [a for a in actions if type(a) is not Play]
        if declarations and (cantes or type(declarations[0]) is not Cante) and rng.random() < 0.6:
            deal.apply(rng.choice(declarations))
        else:
            deal.apply(rng.choice([a for a in actions if type(a) is Play]))


def planted(name: str, seed: int, tricks: int, on_table: int) -> Deal:
    """A small endgame dealt at random with rey and caballo pairs planted in hands, so that cantes count."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    n = rules.players
    deck = cards_in(pack(rules.removed_ranks))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for suit in rng.sample(range(4), rng.choice((1, 2, 2, 3))):
        seat = rng.randrange(n)
        if len(hands[seat]) + 2 <= tricks:
            pair = [card(REY, suit), card(CABALLO, suit)]
            hands[seat] += pair
            deck = [c for c in deck if c not in pair]
    for seat in range(n):
        while len(hands[seat]) < tricks:
            hands[seat].append(deck.pop())
    dealer = rng.randrange(n)
    masks = [sum(1 << c for c in h) for h in hands]
    deal = Deal(rules, masks, [], rng.choice(hands[dealer]), dealer)
    for _ in range(on_table):
        deal.play(rng.choice(list(deal.legal_plays())))
    return deal


def small_positions() -> list[tuple[str, Deal, bool]]:
    """At least 100 positions of 2-4 tricks: every preset, both kinds, with and without cantes, mid-trick too."""
    out = []
    for name, rules in PRESETS.items():
        most = 3 if rules.players == 4 else 4
        for i in range(12):
            tricks, on_table, cantes = 2 + i % (most - 1), i % rules.players, i % 2 == 0
            deal = None
            seed = 1000 * i
            while deal is None:
                deal = played_down(name, seed, tricks, on_table, cantes)
                seed += 1
            out.append((name, deal, cantes))
            out.append((name, planted(name, i, tricks, (i + 1) % rules.players), True))
    return out


SMALL = small_positions()


def with_stock(seed: int) -> Deal:
    """A tiny 2-player deal with cards in the stock: 1-3 cards a hand, 2 or 4 in the stock, maybe a card down."""
    rules = PRESETS[("playcard-2p", "torofun-2p")[seed % 2]]
    rng = random.Random(seed)
    deck = cards_in(pack(rules.removed_ranks))
    rng.shuffle(deck)
    size, stock = 1 + seed % 3, deck[6:6 + 2 * rng.randint(1, 2)]
    hands = [sum(1 << c for c in deck[3 * i:3 * i + size]) for i in range(2)]
    deal = Deal(rules, hands, stock, stock[-1], rng.randrange(2))
    if rng.random() < 0.5:
        deal.play(rng.choice(list(deal.legal_plays())))
    return deal


STOCK = [with_stock(seed) for seed in range(120)]
STOCK_REFERENCE = [reference(d, Position.from_deal(d).side, False) for d in STOCK]


def test_the_stock_set_draws_and_plays_freely() -> None:
    assert all(d.stock_left for d in STOCK) and any(d.trick for d in STOCK)
    assert {len(Position.from_deal(d).stock) for d in STOCK} == {2, 4}


@pytest.mark.parametrize("backend", BACKENDS)
def test_stock_positions_agree_with_minimax_over_the_engine(backend: str) -> None:
    """The engine draws after each trick (the winner first) and lets any card be played while the stock lasts."""
    for deal, (best, cards) in zip(STOCK, STOCK_REFERENCE):
        position = Position.from_deal(deal)
        solver = Solver(backend)
        assert solver.value(position) == best
        assert {c: v.value for v in solver.values_of_legal_cards(position) for c in v.cards} == cards


def test_python_and_c_agree_on_stock_positions_of_the_presets() -> None:
    """The last draw of random playcard-2p and torofun-2p deals: 2 cards left in the stock, 9 tricks."""
    if not C_AVAILABLE:
        pytest.skip("the C core was not built")
    for seed in range(10):
        rules = PRESETS[("playcard-2p", "torofun-2p")[seed % 2]]
        rng = random.Random(seed)
        deal = Deal.shuffled(rules, rng)
        while deal.stock_left > 2 or (seed % 4 > 1 and not deal.trick):  # mid-trick for half of them
            deal.play(rng.choice(list(deal.legal_plays())))
        position = Position.from_deal(deal)
        assert position.stock
        by = {b: Solver(b).values_of_legal_cards(position) for b in ("python", "c")}
        assert by["python"] == by["c"]


def test_the_small_set_is_what_the_issue_asks() -> None:
    assert len(SMALL) >= 100
    assert {name for name, _, _ in SMALL} == set(PRESETS)
    assert any(deal.trick for _, deal, _ in SMALL) and any(not deal.trick for _, deal, _ in SMALL)
    assert {c for _, _, c in SMALL} == {False, True}


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_agree_with_minimax_over_the_engine(backend: str) -> None:
    sung = 0
    for name, deal, cantes in SMALL:
        sides = range(deal.rules.sides) if deal.rules.players == 3 else [deal.side_of(deal.turn)]
        for side in sides:  # three players: each seat against the other two, three solves
            seat = next(s for s in range(deal.rules.players) if deal.side_of(s) == side)
            position = Position.from_deal(deal, seat, cantes=cantes)
            solver = Solver(backend)
            expected, per_card = reference(deal, side, cantes)
            assert solver.value(position) == expected, (name, cantes, side)
            got = {c: cv.value for cv in solver.values_of_legal_cards(position) for c in cv.cards}
            assert got == per_card, (name, cantes, side)
            assert solver.reaches(position, expected) and not solver.reaches(position, expected + 1)
            if cantes:
                sung += expected != Solver(backend).value(Position.from_deal(deal, seat))
    assert sung >= 10  # cantes changed the value of enough positions for the comparison to mean something


def quick_tricks_at_root(position: Position) -> int:
    """The quick-trick points of the side to lead at a trick start (PythonSearch leaves the root's state set)."""
    search = PythonSearch(None)
    search.search(position.packed(), 0, 1)
    return search.quick_tricks(sum(position.hands))


def with_quick_tricks(count: int) -> list[tuple[str, Deal, bool]]:
    """``count`` trick starts of 3 (4 players) or 4 tricks where the side to lead has quick tricks, every preset."""
    out: list[tuple[str, Deal, bool]] = []
    seed = 0
    while len(out) < count:
        name = list(PRESETS)[seed % len(PRESETS)]
        cantes = seed % 3 == 0
        deal = played_down(name, 70_000 + seed, 3 if PRESETS[name].players == 4 else 4, 0, cantes)
        if deal is not None and quick_tricks_at_root(Position.from_deal(deal, cantes=cantes)) > 0:
            out.append((name, deal, cantes))
        seed += 1
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_positions_with_quick_tricks_agree_with_minimax(backend: str) -> None:
    """Valued for each side: the quick tricks raise the least (the side valued leads) and lower the most (it does not)."""
    positions = with_quick_tricks(30)
    assert {name for name, _, _ in positions} == set(PRESETS)
    for name, deal, cantes in positions:
        for side in range(deal.rules.sides):
            seat = next(s for s in range(deal.rules.players) if deal.side_of(s) == side)
            position = Position.from_deal(deal, seat, cantes=cantes)
            expected, per_card = reference(deal, side, cantes)
            solver = Solver(backend)
            assert solver.value(position) == expected, (name, side)
            assert {c: cv.value for cv in solver.values_of_legal_cards(position) for c in cv.cards} == per_card


@pytest.mark.parametrize("backend", BACKENDS)
def test_quick_tricks_do_not_bound_a_forced_lead(backend: str) -> None:
    """The leader's as of bastos is a sure trick worth 15 (its 11 and the rey the other must follow with), so the
    position is worth at least 15; leading the dos instead loses every trick: the bound rests on the choice of lead."""
    deal = Deal.from_hands(PRESETS["torofun-2p"], ["12B 2O 1E", "1B 11B 2B"], dealer="N", turned="2O")
    position = Position.from_deal(deal)
    expected, per_card = reference(deal, position.side, False)
    assert expected == 15 and per_card[card(1, 3)] == 15 and per_card[card(2, 3)] == 0
    got = {c: cv.value for cv in Solver(backend).values_of_legal_cards(position) for c in cv.cards}
    assert got == per_card


def test_equal_cards_are_grouped_and_only_equal_ones() -> None:
    deal = Deal.from_hands(PRESETS["torofun-2p"], ["2O 4O 6O 10O 11O", "5O 7O 1E 3E 2E"], dealer="S", turned="2E")
    groups = Position.from_deal(deal).card_groups()
    # 2O and 4O are adjacent among the live cards and worth nothing; 6O is not (5O lies between);
    # 10O and 11O are adjacent but worth 2 and 3 points.
    assert groups == [(card(2, 0), card(4, 0)), (card(6, 0),), (card(10, 0),), (card(11, 0),)]


# -- The table against a table-free search, at 4-7 tricks ------------------------------------------------

def large_positions(count: int) -> list[tuple[Position, str]]:
    """``count`` positions of 4-7 tricks from played-down deals, every preset, with and without cantes."""
    out = []
    names = list(PRESETS)
    i = 0
    while len(out) < count:
        name = names[i % len(names)]
        rules = PRESETS[name]
        tricks = 4 + (i // len(names)) % 4
        cantes = (i // 20) % 2 == 0
        deal = played_down(name, 50_000 + i, tricks, i % rules.players, cantes)
        if deal is not None:
            out.append((Position.from_deal(deal, cantes=cantes), name))
        i += 1
    return out


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core was not built")
def test_the_c_table_agrees_with_a_table_free_search() -> None:
    positions = large_positions(500)
    assert {p.tricks_left for p, _ in positions} == {4, 5, 6, 7}
    free = Solver("c", table_bits=0)
    for position, name in positions:
        expected = free.value(position)
        assert Solver("c").value(position) == expected, name
        assert Solver("c", table_bits=4).value(position) == expected, name  # slots overwritten all the time


def test_the_python_table_agrees_with_a_table_free_search() -> None:
    for position, name in large_positions(500)[::10]:
        if position.tricks_left <= 5:
            assert Solver("python").value(position) == Solver("python", table_bits=0).value(position), name


@pytest.mark.slow
@pytest.mark.skipif(not C_AVAILABLE, reason="the C core was not built")
def test_python_and_c_agree_on_the_large_set() -> None:
    for position, name in large_positions(500):
        solver = Solver("python")
        assert solver.value(position) == Solver("c").value(position), name
        if position.tricks_left == 4:
            assert ([cv.value for cv in solver.values_of_legal_cards(position)]
                    == [cv.value for cv in Solver("c").values_of_legal_cards(position)]), name


# -- Backends, threads, the install without a compiler ---------------------------------------------------

def test_the_setting_forces_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTEPGN_SOLVER", "python")
    assert default_backend() == "python" and Solver().backend == "python"
    monkeypatch.setenv("TUTEPGN_SOLVER", "fortran")
    with pytest.raises(ValueError, match="TUTEPGN_SOLVER"):
        default_backend()


def test_positions_the_solver_refuses() -> None:
    deal = Deal.shuffled(PRESETS["playcard-2p"], seed=1)
    assert Position.from_deal(deal).stock == Position.from_deal(deal, cantes=True).stock == tuple(deal.stock)
    endgame = Deal.from_hands(PRESETS["playcard-2p"], ["1O 3O", "2O 4B"], dealer="S", turned="4B")
    with pytest.raises(ValueError, match="not a legal play"):
        Solver().search(Position.from_deal(endgame), 0, 1, only=card(2, 0))  # S's card, N to move


def test_solvers_in_threads_keep_their_own_tables() -> None:
    positions = [p for p, _ in large_positions(24)]
    expected = [Solver("python" if not C_AVAILABLE else "c").value(p) for p in positions]
    results: dict[int, list[int]] = {}

    def work(k: int) -> None:
        solver = Solver()
        results[k] = [solver.value(p) for p in positions]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(3))


def test_an_install_without_a_compiler_answers_with_the_fallback(tmp_path: Path) -> None:
    """``CC=/bin/false``: the extension fails to build, the install goes on, the Python search answers the same
    (and the validator and the reader fall back to Python too)."""
    target = tmp_path / "site"
    source = tmp_path / "source"  # the tree without what a build left in it (build/, an in-place .so)
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "bench", "tests", "test-artifacts", "*.so", "*.egg-info", "__pycache__", ".*_cache"))
    env = {**os.environ, "CC": "/bin/false", "PIP_NO_INPUT": "1"}
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--target", str(target), str(source)], check=True, env=env, cwd=tmp_path,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert not list(target.rglob("ccore*.so"))
    positions = [p for p, _ in large_positions(12)]
    script = ("import sys, tutepgn.analysis as s\n"
              "from tutepgn.analysis import Position, Solver\n"
              f"assert s.__file__.startswith({str(target)!r}) and not s.C_AVAILABLE\n"
              "import tutepgn.native, tutepgn.check.fastreplay as f, tutepgn.notation.split as split\n"
              "assert tutepgn.native.ccore is None and f.BACKEND == 'python' and split.c_scan() is None\n"
              f"positions = [Position(**kw) for kw in {[_fields(p) for p in positions]!r}]\n"
              "print([Solver().value(p) for p in positions])\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(target)}, cwd=tmp_path).stdout
    assert out.strip() == str([Solver().value(p) for p in positions])


def _fields(position: Position) -> dict[str, object]:
    return {name: getattr(position, name) for name in Position.__slots__}
