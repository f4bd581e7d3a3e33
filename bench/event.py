"""Standings and ratings of a league of 200 players over 10,000 matches (target: under 1 s each).

The league is all-play-all (the circle method: 100 tables a round, 100 rounds), each match's result drawn
from a seed.  Timed, each ``--runs`` times: the standings with their tie-breaks and the cross-table on the
event in memory (:mod:`tutepgn.tournament`), the ratings of every player over the league's matches in order
(:func:`tutepgn.tournament.ratings.rate`, OpenSkill), and the same standings read from an archive file first
(:func:`tutepgn.archive.events.load_event`, what ``tute event standings`` does).  Printed: median and p90 of the
wall time (``bench/ratings.py`` times the ratings over a mix of 2-, 3-player and pairs' matches, with CPU time).

    python bench/event.py [--players 200] [--matches 10000] [--runs 7] [--no-archive]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tutepgn.archive import Archive
from tutepgn.archive.events import create_event, load_event
from tutepgn.tournament import Entrant, Event, Result, crosstable, next_round, standings
from tutepgn.tournament.ratings import Outcome, rate

TARGET = 1.0


def league(players: int, matches: int, seed: int = 1) -> Event:
    """A league of ``players`` single players with ``matches`` results, paired round by round."""
    event = Event(name="liga", kind="liga", rules="playcard-2p", format="round-robin", seed=seed,
                  entrants=[Entrant(number=i, players=(f"Jugador {i}",)) for i in range(1, players + 1)])
    rng = random.Random(seed)
    played = 0
    while played < matches:
        rnd = next_round(event)
        rnd.tables = rnd.tables[:matches - played] if matches - played < len(rnd.tables) else rnd.tables
        for t in rnd.tables:
            if t.away is not None:
                won = rng.randint(0, 1)
                rnd.results[t.number] = Result(table=t.number, matches=(won, 1 - won),
                                               deals=(rng.randint(0, 5), rng.randint(0, 5)),
                                               points=(rng.randint(0, 600), rng.randint(0, 600)))
                played += 1
        event.rounds.append(rnd)
    return event


def outcomes(event: Event) -> list[Outcome]:
    """The league's matches as the ratings read them: round by round, the winner first."""
    told = []
    for rnd in event.rounds:
        for r in rnd.results.values():
            t = rnd.table(r.table)
            assert t.away is not None
            sides = (event.entrant(t.home).players, event.entrant(t.away).players)
            told.append(Outcome(f"R{rnd.number:03}-T{t.number:03}", None, len(told), sides,
                                (0, 1) if r.matches[0] > r.matches[1] else (1, 0)))
    return told


def timed(work: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and p90 of ``runs`` timings of ``work``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, round(0.9 * (len(times) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-archive", action="store_true", help="skip the timing through an archive file")
    args = parser.parse_args()
    event = league(args.players, args.matches)
    results = sum(len(r.results) for r in event.rounds)
    print(f"league: {args.players} players, {results} matches, {len(event.rounds)} rounds")
    lines: list[tuple[str, float, float]] = [
        ("standings (in memory)", *timed(lambda: standings(event), args.runs)),
        ("cross-table (in memory)", *timed(lambda: crosstable(event), args.runs))]
    told = outcomes(event)
    lines.append(("ratings (every player, in order)", *timed(lambda: rate(told), args.runs)))
    if not args.no_archive:
        with tempfile.TemporaryDirectory() as folder:
            archive = Archive(Path(folder) / "bench.duckdb")
            start = time.perf_counter()
            create_event(archive, event)
            print(f"stored in {time.perf_counter() - start:.2f} s (one transaction)")
            lines.append(("read from the archive + standings",
                          *timed(lambda: standings(load_event(archive, "liga")), args.runs)))
            archive.close()
    for name, median, p90 in lines:
        verdict = "ok" if p90 < TARGET else f"over the {TARGET:.0f} s target"
        print(f"{name:36} median {median * 1000:8.1f} ms   p90 {p90 * 1000:8.1f} ms   {verdict}")


if __name__ == "__main__":
    main()
