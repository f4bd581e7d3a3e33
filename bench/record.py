"""Recording at the table, hands unknown: the time to judge one entry, and a whole deal.

Each entry is judged by replaying every entry so far from the cards seen
(:func:`tutepgn.recording.sighted.check`), so an entry late in a deal costs the most.
For each preset, ``--deals`` simulated deals (fixed seed) are entered one
event a line into a :class:`~tutepgn.recording.recorder.Recorder` with no file, and the
script prints the median and the slowest entry in milliseconds, the median
time of a whole deal, and the median and slowest time to list the declarations
offered after an entry (:meth:`Recorder.declarations`, each candidate judged
from the cards seen: what the phone page's state adds to an entry).  A scorer types an entry every few seconds: anything
under a few milliseconds is instant.

    python bench/record.py [--deals 100]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tutepgn.cards import CODES
from tutepgn.events import Context
from tutepgn.recording.recorder import Recorder
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records

SEED = 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    args = parser.parse_args()
    print(f"{'preset':16} {'entry median ms':>16} {'entry max ms':>13} {'deal median ms':>15} "
          f"{'offer median ms':>16} {'offer max ms':>13}")
    for name in PRESETS:
        entries: list[float] = []
        deals: list[float] = []
        offers: list[float] = []
        for record in deal_records(preset(name), args.deals, seed=SEED):
            header = record.header()
            assert header.turned is not None and header.dealer is not None
            ctx = Context(header.rules.seat_names, header.trump)
            rec = Recorder.start(name, turned=CODES[header.turned], dealer=header.rules.seat_names[header.dealer])
            begin = time.perf_counter()
            for event in record.events:
                t = time.perf_counter()
                reply = rec.enter(event.text(ctx))
                entries.append(time.perf_counter() - t)
                assert not reply.refused, reply.message
            deals.append(time.perf_counter() - begin)
            rec = Recorder.start(name, turned=CODES[header.turned], dealer=header.rules.seat_names[header.dealer])
            for event in record.events:
                rec.enter(event.text(ctx))
                t = time.perf_counter()
                rec.declarations()
                offers.append(time.perf_counter() - t)
        print(f"{name:16} {statistics.median(entries) * 1000:16.2f} {max(entries) * 1000:13.2f} "
              f"{statistics.median(deals) * 1000:15.1f} {statistics.median(offers) * 1000:16.2f} "
              f"{max(offers) * 1000:13.2f}")


if __name__ == "__main__":
    main()
