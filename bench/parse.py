"""Reading speed: tutepgn's reader against a regex floor and against python-chess.

Generates a file of simulated 4-player deals (half ludoteka-pairs, half
torofun-4p, fixed seed) and times, on one core, as the median of several runs:

* the full parse into the model (``iter_records`` over the file): deals/s and
  card plays/s (target: at least 10,000 deals/s);
* the header-only scan (``scan_headers``): records/s (target: at least 100,000/s);
* parse + replay + score (``validate_records`` over ``iter_records``): what
  ``tute validate`` does to each record, in deals/s and card plays/s, with the
  replay fast path in C and again with it switched off (the engine replays
  every deal, as ``TUTEPGN_REPLAY=python`` or an install without the C core);
* the floor: a plain regex tokenization of the same text,
  ``re.findall(r"\\S+", text)``, in records/s;

Rates are per CPU second of the one thread (``time.process_time``), so that
other load on the machine does not lower them; the JSON also holds the
wall-clock rate of every run.  The runs go in rounds: each round times every
work once, in turn, python-chess's too, so that a change of the machine's speed
during the minute the bench takes hits every work alike; each ratio is the
median of the rounds' ratios.  And, in the same run, python-chess on a PGN file of random legal games
(about 80 plies each, fixed seed, written with ``str(game)``): ``read_game``
(games/s, plies/s) and ``read_headers`` (headers/s).  The generated PGN is
cached in the temp directory, since generating it takes far longer than
reading it.  Needs python-chess (``pip install -e '.[bench]'``).

    python bench/parse.py [--deals 20000] [--games 2000] [--runs 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from tutepgn.check import fastreplay
from tutepgn.events import Play
from tutepgn.notation import iter_records, scan_headers
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records
from tutepgn.check.validate import validate_records

PRESETS_4P = ("ludoteka-pairs", "torofun-4p")
SEED = 2026


def one_core(cpu: int | None) -> str:
    """One process, one thread; optionally pinned to one CPU."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned"


WALL: dict[str, list[float]] = {}
"""Wall-clock rates of each timed work, by name: a busy machine makes them lower than the CPU-time ones."""


def timed_rounds(works: dict[str, tuple[int, Callable[[], int]]], runs: int) -> dict[str, list[float]]:
    """Items per CPU second of each work (which returns how many items it did), every run, by name.

    ``runs`` rounds, each timing every work once in turn: on a machine whose
    speed drifts, a round's works ran at the same speed, so their ratio holds
    where medians taken a minute apart would not.  Rates are per second of this
    process's CPU time on its one thread, so that other load on the machine
    does not count; wall-clock rates go to ``WALL``.
    """
    rates: dict[str, list[float]] = {name: [] for name in works}
    for name in works:
        WALL[name] = []
    for _ in range(runs):
        for name, (count, work) in works.items():
            gc.collect()
            start, start_wall = time.process_time(), time.perf_counter()
            done = work()
            elapsed, elapsed_wall = time.process_time() - start, time.perf_counter() - start_wall
            assert done == count, (name, done, count)
            rates[name].append(count / max(elapsed, 1e-9))
            WALL[name].append(count / elapsed_wall)
    return rates


def ratio(rates: dict[str, list[float]], over: str, under: str, scale: float = 1.0) -> float:
    """The median over the rounds of ``over``'s rate times ``scale`` divided by ``under``'s."""
    return statistics.median(a * scale / b for a, b in zip(rates[over], rates[under], strict=True))


def make_tpgn(path: Path, deals: int) -> tuple[int, int]:
    """Write the deals file; return (deals, card plays)."""
    plays = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for i, name in enumerate(PRESETS_4P):
            share = deals // len(PRESETS_4P) + (1 if i < deals % len(PRESETS_4P) else 0)
            for record in deal_records(preset(name), share, seed=SEED + i):
                plays += sum(1 for e in record.events if type(e) is Play)
                out.write(record.tpgn())
                out.write("\n")
    return deals, plays


def make_pgn(path: Path, games: int, plies: int) -> None:
    """Random legal chess games written by python-chess itself."""
    import chess
    import chess.pgn

    rng = random.Random(SEED)
    tmp = path.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8") as out:
        for i in range(games):
            board = chess.Board()
            for _ in range(plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "Random legal games"
            game.headers["Round"] = str(i + 1)
            out.write(str(game))
            out.write("\n\n")
    tmp.replace(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20000, help="4-player deals in the .tpgn file")
    parser.add_argument("--games", type=int, default=2000,
                        help="chess games in the PGN file (about the same bytes per game as per deal)")
    parser.add_argument("--plies", type=int, default=80, help="plies per random chess game")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="also write all figures here")
    parser.add_argument("--no-chess", action="store_true", help="skip python-chess")
    parser.add_argument("--pin", type=int, metavar="CPU", help="pin the process to this CPU")
    args = parser.parse_args()
    pinned = one_core(args.pin)

    work = Path(tempfile.gettempdir())
    tpgn = work / f"tutepgn-bench-{args.deals}-{os.getpid()}.tpgn"
    t0 = time.perf_counter()
    deals, plays = make_tpgn(tpgn, args.deals)
    made = time.perf_counter() - t0
    text = tpgn.read_text(encoding="utf-8")
    size = len(text.encode("utf-8"))

    # Check once, untimed, that the whole file reads without an error and the scan agrees.
    records = list(iter_records(tpgn))
    assert len(records) == deals and not any(r.errors for r in records)
    assert sum(1 for r in records for e in r.events if type(e) is Play) == plays
    headers = list(scan_headers(tpgn))
    assert [h.tags for h in headers] == [r.tags for r in records]
    del records, headers

    def parse() -> int:
        n = 0
        for _ in iter_records(tpgn):
            n += 1
        return n

    def scan() -> int:
        n = 0
        for _ in scan_headers(tpgn):
            n += 1
        return n

    def floor() -> int:
        re.findall(r"\S+", text)
        return deals

    def check() -> int:  # parse + replay + score: what `tute validate` does to each record
        n = 0
        for report in validate_records(iter_records(tpgn)):
            n += report.valid
        return n

    def check_off() -> int:  # the same with the fast path switched off: the engine replays every deal
        backend, fastreplay.BACKEND = fastreplay.BACKEND, "python"
        try:
            return check()
        finally:
            fastreplay.BACKEND = backend

    works: dict[str, tuple[int, Callable[[], int]]] = {
        "parse": (deals, parse), "check": (deals, check), "check_off": (deals, check_off), "scan": (deals, scan),
        "floor": (deals, floor)}
    chess_file: dict[str, object] = {}  # python-chess's version and file, when it is timed
    games = plies = pgn_bytes = 0
    if not args.no_chess:
        try:
            import chess
            import chess.pgn
        except ImportError:
            sys.exit("python-chess is missing: pip install -e '.[bench]' (or --no-chess)")
        pgn = work / f"tutepgn-bench-chess-{args.games}-{args.plies}-{SEED}-{chess.__version__}.pgn"
        t0 = time.perf_counter()
        if not pgn.exists():
            make_pgn(pgn, args.games, args.plies)
        chess_made = time.perf_counter() - t0
        with open(pgn, encoding="utf-8") as f:
            plies = 0
            games = 0
            while (game := chess.pgn.read_game(f)) is not None:
                assert not game.errors, game.errors
                plies += sum(1 for _ in game.mainline_moves())
                games += 1
        assert games == args.games

        def reading(read: Callable[[IO[str]], object]) -> Callable[[], int]:
            """Work that reads the whole PGN file with ``read`` and counts the games."""
            def work() -> int:
                n = 0
                with open(pgn, encoding="utf-8") as f:
                    while read(f) is not None:
                        n += 1
                return n
            return work

        works["read_game"] = (games, reading(chess.pgn.read_game))
        works["read_headers"] = (games, reading(chess.pgn.read_headers))
        pgn_bytes = pgn.stat().st_size
        chess_file = {"version": chess.__version__, "games": games, "plies": plies, "bytes": pgn_bytes,
                      "generate_s": round(chess_made, 1)}

    rates = timed_rounds(works, args.runs)
    median = {name: statistics.median(runs) for name, runs in rates.items()}
    parse_rate, check_rate, off_rate = median["parse"], median["check"], median["check_off"]
    scan_rate, floor_rate = median["scan"], median["floor"]
    tpgn.unlink()

    def runs_of(name: str) -> dict[str, list[int]]:
        return {"runs": [round(r) for r in rates[name]], "wall_runs": [round(r) for r in WALL[name]]}

    figures: dict[str, object] = {
        "machine": {"python": sys.version.split()[0], "cpu": pinned, "runs": args.runs,
                    "rates": "per CPU second of the one thread (process_time); *_wall_runs: per wall second; "
                             "rounds: every work once a round, in turn; ratios: the median of the rounds' ratios"},
        "tutepgn": {
            "deals": deals, "card_plays": plays, "bytes": size, "generate_s": round(made, 1),
            "parse_deals_per_s": round(parse_rate), "parse_card_plays_per_s": round(parse_rate * plays / deals),
            **{f"parse_deals_per_s_{k}": v for k, v in runs_of("parse").items()},
            "scan_headers_records_per_s": round(scan_rate),
            **{f"scan_headers_records_per_s_{k}": v for k, v in runs_of("scan").items()},
            "parse_replay_score_deals_per_s": round(check_rate),
            "parse_replay_score_card_plays_per_s": round(check_rate * plays / deals),
            **{f"parse_replay_score_deals_per_s_{k}": v for k, v in runs_of("check").items()},
            "fast_path": fastreplay.BACKEND,
            "parse_replay_score_off_deals_per_s": round(off_rate),
            "parse_replay_score_off_card_plays_per_s": round(off_rate * plays / deals),
            **{f"parse_replay_score_off_deals_per_s_{k}": v for k, v in runs_of("check_off").items()},
            "regex_floor_records_per_s": round(floor_rate),
            **{f"regex_floor_records_per_s_{k}": v for k, v in runs_of("floor").items()},
            "targets": {"parse_deals_per_s": 10000, "scan_headers_records_per_s": 100000},
        },
    }
    print(f"tutepgn reader, {deals:,} 4-player deals ({' + '.join(PRESETS_4P)}), {size / 1e6:.1f} MB, "
          f"{plays:,} card plays")
    print(f"  rates per CPU second of one thread ({pinned}), median of {args.runs} runs, "
          f"in rounds with python-chess's")
    print(f"  full parse (iter_records)   {parse_rate:>12,.0f} deals/s   {parse_rate * plays / deals:>12,.0f} "
          f"card plays/s   target 10,000 deals/s: {'met' if parse_rate >= 10000 else 'NOT met'}")
    print(f"  parse + replay + score      {check_rate:>12,.0f} deals/s   {check_rate * plays / deals:>12,.0f} "
          f"card plays/s   (validate_records: every rule checked, the score recomputed; fast path: "
          f"{fastreplay.BACKEND})")
    print(f"  the same, fast path off     {off_rate:>12,.0f} deals/s   {off_rate * plays / deals:>12,.0f} "
          f"card plays/s   (the engine replays every deal)")
    print(f"  header scan (scan_headers)  {scan_rate:>12,.0f} records/s                             "
          f"target 100,000 records/s: {'met' if scan_rate >= 100000 else 'NOT met'}")
    print(f"  regex floor (\\S+ findall)   {floor_rate:>12,.0f} records/s")
    print(f"  parse / regex floor         {ratio(rates, 'parse', 'floor'):>12.3f}")

    if chess_file:
        game_rate, header_rate = median["read_game"], median["read_headers"]
        ply_rate = game_rate * plies / games
        figures["python_chess"] = {
            **chess_file,
            "read_game_games_per_s": round(game_rate), "read_game_plies_per_s": round(ply_rate),
            **{f"read_game_games_per_s_{k}": v for k, v in runs_of("read_game").items()},
            "read_headers_per_s": round(header_rate),
            **{f"read_headers_per_s_{k}": v for k, v in runs_of("read_headers").items()},
        }
        per_move = plays / deals * games / plies  # card plays a deal over plies a game
        ratios = {
            "card_plays_per_s_over_chess_plies_per_s": ratio(rates, "parse", "read_game", per_move),
            "parse_replay_score_card_plays_per_s_over_chess_plies_per_s": ratio(rates, "check", "read_game", per_move),
            "parse_replay_score_off_card_plays_per_s_over_chess_plies_per_s": ratio(rates, "check_off", "read_game",
                                                                                   per_move),
            "scan_headers_over_read_headers": ratio(rates, "scan", "read_headers"),
            "parse_over_regex_floor": ratio(rates, "parse", "floor"),
        }
        figures["ratios"] = {k: round(v, 3 if k == "parse_over_regex_floor" else 2) for k, v in ratios.items()}
        check_ratio, scan_ratio = ratios["parse_replay_score_card_plays_per_s_over_chess_plies_per_s"], \
            ratios["scan_headers_over_read_headers"]
        print(f"python-chess {chess_file['version']}, {games:,} random legal games, {pgn_bytes / 1e6:.1f} MB, "
              f"{plies:,} plies ({plies / games:.0f} a game)")
        print(f"  read_game                   {game_rate:>12,.0f} games/s   {ply_rate:>12,.0f} plies/s")
        print(f"  read_headers                {header_rate:>12,.0f} headers/s")
        print("ratios (the median of the rounds' ratios)")
        print(f"  our card plays/s / python-chess plies/s   "
              f"{ratios['card_plays_per_s_over_chess_plies_per_s']:>8.2f}   (parse only)")
        print(f"  the same, parse + replay + score          {check_ratio:>8.2f}   "
              f"target 10: {'met' if check_ratio >= 10 else 'NOT met'}")
        print(f"  the same, fast path off                   "
              f"{ratios['parse_replay_score_off_card_plays_per_s_over_chess_plies_per_s']:>8.2f}")
        print(f"  our header scan / read_headers            {scan_ratio:>8.2f}   "
              f"target 2.5: {'met' if scan_ratio >= 2.5 else 'NOT met'}")
        print(f"  our parse / regex floor                   {ratios['parse_over_regex_floor']:>8.3f}")
    else:
        figures["ratios"] = {"parse_over_regex_floor": round(ratio(rates, "parse", "floor"), 3)}

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"parse": figures}, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
