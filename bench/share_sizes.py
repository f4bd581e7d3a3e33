"""How long are shared deals' links and position strings?  Over every record of ``samples/`` (simulated
included), per ruleset: the export text's bytes, the link's characters (``/view?d=`` + the token, without the
service's address), and the position strings' lengths over every frame.  A link should stay well under 2,000
characters, the length every browser, proxy and server takes.

    python bench/share_sizes.py
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

from tutepgn.check.moment import positions
from tutepgn.notation import iter_records
from tutepgn.notation.share import deal_link

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def main() -> None:
    """Print one line per ruleset: records, text bytes, link characters and position string characters."""
    sizes: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for path in sorted(SAMPLES.glob("*.tpgn")) + sorted(SAMPLES.glob("simulated/*.tpgn")):
        for record in iter_records(path):
            if record.errors:
                continue
            text = record.tpgn()
            longest = max(len(p) for p in positions(record))
            sizes[record.tags.get("Rules", "?").split()[0]].append((len(text.encode()), len(deal_link(text)), longest))
    print(f"{'rules':<16}{'records':>8}{'text bytes (median)':>21}{'link chars (median / max)':>28}"
          f"{'position chars (max)':>22}")
    for rules, rows in sorted(sizes.items()):
        texts, links, longest = zip(*rows)
        print(f"{rules:<16}{len(rows):>8}{statistics.median(texts):>21.0f}"
              f"{statistics.median(links):>18.0f} / {max(links):<7}{max(longest):>22}")


if __name__ == "__main__":
    main()
