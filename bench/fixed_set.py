"""The solver's fixed benchmark set (bench/data/): 1,000 deals per preset, made once from a seed and checked in.

As DDS ships a fixed list of deals, every version of the solver is timed and
checked on the same work.  Each preset's file holds one deal a line, the
shuffled pack's order as one character a card (``chr(48 + card)``): the deal is
``Deal.from_deck(rules, deck)`` (dealer N).  For the 2-player presets the
position solved is the endgame once the stock is empty (as ``bench/solve.py``'s
2-player endgame), so the line also holds the cards played until then, one
character each, after a space.

What is solved, per deal (the expected values, ``bench/data/<preset>.values.json``,
were computed with the solver of the commit that made the set, before any change
to the search):

* 4 players (ludoteka-pairs, torofun-4p): the value at the first lead for the
  side to move, without cantes (``bench/solve.py`` times the value with cantes too, not checked here);
* 3 players (torofun-3p): the value at the first lead for each seat, without cantes;
* 2 players (playcard-2p, torofun-2p): the endgame's value for the side to move, without cantes.

    python bench/fixed_set.py make        # writes bench/data/<preset>.txt (once: never rerun on a new solver)
    python bench/fixed_set.py expected [PRESET ...]   # writes bench/data/<preset>.values.json with the current solver
    python bench/fixed_set.py time PRESET KIND START STOP  # CPU ms and nodes per solve, one JSON line (bench/solve.py)

``time`` is what ``bench/solve.py --fixed`` runs in a subprocess, with
``PYTHONPATH`` naming the checkout whose solver is timed (``--baseline``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tutepgn import Deal, Play, preset
from tutepgn.analysis.solve import Position, Solver
from tutepgn.cards import cards_in, pack

DATA = Path(__file__).resolve().parent / "data"
PRESETS = ("ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p")
DEALS = 1000
SEED = 37
"""The seed the set was made from (issue 37)."""


def encode(cards: list[int]) -> str:
    """Cards as one character each."""
    return "".join(chr(48 + c) for c in cards)


def decode(text: str) -> list[int]:
    """The cards of :func:`encode`."""
    return [ord(ch) - 48 for ch in text]


def make_line(name: str, rng: random.Random) -> str:
    """One deal of ``name`` (and for 2 players the random plays that empty the stock)."""
    rules = preset(name)
    deck = cards_in(pack(rules.removed_ranks))
    rng.shuffle(deck)
    line = encode(deck)
    if rules.players == 2:
        deal = Deal.from_deck(rules, deck)
        played = []
        while deal.stock_left:
            play = rng.choice([a for a in deal.legal_actions() if type(a) is Play])
            deal.apply(play)
            played.append(play.card)
        line += " " + encode(played)
    return line


def path_of(name: str) -> Path:
    """A preset's file of deals."""
    return DATA / f"{name}.txt.gz"


def deal_of(name: str, line: str) -> Deal:
    """The deal of one line, played to the position the set solves."""
    rules = preset(name)
    deck, _, plays = line.partition(" ")
    deal = Deal.from_deck(rules, decode(deck))
    for c in decode(plays):
        deal.apply(Play(deal.turn, c))
    return deal


def deals(name: str) -> list[Deal]:
    """The preset's 1,000 deals, at the position solved."""
    with gzip.open(path_of(name), "rt", encoding="ascii") as f:
        return [deal_of(name, line.rstrip("\n")) for line in f]


def positions(name: str, deal: Deal) -> Iterator[tuple[str, Position]]:
    """The positions solved for one deal, each with the name of its value."""
    if preset(name).players == 3:
        for seat in range(3):
            yield f"seat{seat}", Position.from_deal(deal, seat)
        return
    yield "value", Position.from_deal(deal)


def values_path(name: str) -> Path:
    """A preset's expected values: ``{"fields": [...], "values": [[...] per deal]}``."""
    return DATA / f"{name}.values.json"


def expected(name: str) -> tuple[list[str], list[list[int] | None]]:
    """The names of a preset's values and each deal's values, as checked in (None: not computed yet)."""
    with open(values_path(name), encoding="utf-8") as f:
        data = json.load(f)
    return data["fields"], data["values"]


def expected_values(name: str, deal_list: list[Deal], part: Path | None = None) -> list[list[int] | None]:
    """Each deal's values, as :func:`positions` lists them, with the C core (or the fallback); with ``part``,
    each deal's also appended to that file as it comes (one JSON list a line: a long run keeps what it made)."""
    out: list[list[int] | None] = []
    for i, deal in enumerate(deal_list):
        out.append([Solver().value(p) for _, p in positions(name, deal)])
        if part is not None:
            with open(part, "a", encoding="utf-8") as f:
                f.write(json.dumps(out[-1]) + "\n")
        if i % 100 == 99:
            print(f"  {name}: {i + 1}", file=sys.stderr, flush=True)
    return out


KINDS = {4: ("deal", "win", "cantes"), 3: ("seat",), 2: ("endgame",)}
"""What is timed per preset, by its players: the value at the first lead without cantes, the win test (66 of
130) and the value with cantes; the value for each seat; the endgame's value."""
WIN = 66


def solves(name: str, kind: str, deal: Deal) -> list[Callable[[Solver], object]]:
    """The solves of one kind for one deal, each to run on a fresh solver."""
    if kind == "seat":
        return [lambda s, p=p: s.value(p) for _, p in positions(name, deal)]
    p = Position.from_deal(deal, cantes=kind == "cantes")
    if kind == "win":
        return [lambda s: s.reaches(p, WIN)]
    return [lambda s: s.value(p)]


def time_solves(name: str, kind: str, start: int, stop: int) -> list[tuple[float, int]]:
    """CPU milliseconds and nodes of each solve of deals ``start:stop``, a fresh solver each."""
    out = []
    for deal in deals(name)[start:stop]:
        for job in solves(name, kind, deal):
            solver = Solver()
            t = time.process_time()
            job(solver)
            out.append(((time.process_time() - t) * 1000, solver.nodes))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("make", "expected", "time"))
    parser.add_argument("presets", nargs="*", default=PRESETS, help="the presets to value (default: all)")
    parser.add_argument("--part", help="expected: only deals A:B, appended to <preset>.values.json.A (then --merge)")
    parser.add_argument("--merge", action="store_true", help="expected: join a preset's parts into its file")
    args = parser.parse_args()
    if args.what == "time":
        name, kind, start, stop = args.presets
        print(json.dumps(time_solves(name, kind, int(start), int(stop))))
        return
    if args.what == "make":
        DATA.mkdir(exist_ok=True)
        rng = random.Random(SEED)
        for name in PRESETS:
            lines = [make_line(name, rng) for _ in range(DEALS)]
            with gzip.GzipFile(path_of(name), "wb", mtime=0) as f:  # no time stamp: the same bytes each run
                f.write("".join(line + "\n" for line in lines).encode("ascii"))
        return
    for name in args.presets:
        deal_list = deals(name)
        fields = [label for label, _ in positions(name, deal_list[0])]
        path = values_path(name)
        if args.merge:  # each part at its place, null for a deal whose value is not known yet
            values = [None] * len(deal_list)
            for part in path.parent.glob(path.name + ".*"):
                lines = part.read_text(encoding="utf-8").splitlines()
                start = int(part.suffix[1:])
                values[start:start + len(lines)] = [json.loads(line) for line in lines]
        elif args.part:
            start, stop = map(int, args.part.split(":"))
            expected_values(name, deal_list[start:stop], path.with_name(f"{path.name}.{start}"))
            continue
        else:
            values = expected_values(name, deal_list)
        with open(path, "w", encoding="utf-8") as f:  # one deal a line
            f.write(f'{{"fields": {json.dumps(fields)}, "values": [\n'
                    + ",\n".join(json.dumps(v) for v in values) + "\n]}\n")


if __name__ == "__main__":
    main()
