"""The native core in one place: the layouts C shares with Python come from one table, the C files share one
header for the game, and reading or validating a record loads no solver (nor pydantic)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tutepgn.check import fastreplay
from tutepgn.events import Cante, Exchange, Play, Tute
from tutepgn.native import layout
from tutepgn.native.layout import DUTY_OPTIONS, EVENT_KINDS, PACKED_FIELDS, REPLAY_OPTIONS, duty_bits, duty_options
from tutepgn.rules import PRESETS
from tutepgn.recording.simulate import simulate_deals
from tutepgn.analysis import Position

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "tutepgn" / "native"


def test_the_checked_in_layout_header_is_the_one_the_tables_make() -> None:
    """A name added to a table of layout.py, without the header regenerated, fails here."""
    assert layout.header() == layout.HEADER.read_text(), "stale layout.h: run python -m tutepgn.native.layout"


def test_the_c_files_define_the_game_once_and_read_layouts_by_name() -> None:
    """Masks, points, the cante pair, the duty bits and the duties live in tute.h (layouts in layout.h):
    no C file defines them again, nor reads a packed position or the options by a number."""
    shared = ("SUIT_MASK", "ABOVE", "REY_CABALLO", "CARD_POINTS", "DUTY_MUST_FOLLOW", "MUST_FOLLOW", "play_duty")
    assert '#include "tute.h"' in (NATIVE / "creplay.h").read_text()
    for name in ("ccore.c", "creplay.c", "playout.c", "creplay.h"):
        text = (NATIVE / name).read_text()
        assert '#include "tute.h"' in text or '#include "creplay.h"' in text  # creplay.h: the replay's deal
        redefined = [s for s in shared if re.search(rf"#define {s}\b|\b{s}\s*=|\b{s}\[\d*\]\s*=|u64 {s}\(", text)]
        assert not redefined, f"{name} defines {redefined} again: they belong in tute.h"
        assert not re.search(r"\bv\[\d", text) and "enum { O_" not in text, f"{name} counts a layout by hand"
    tute_h = (NATIVE / "tute.h").read_text()
    assert "static inline u64 play_duty(" in tute_h and '#include "layout.h"' in tute_h


def test_the_python_side_reads_the_same_tables() -> None:
    """Packed positions and the replay's options, read by name, hold what their names say."""
    assert tuple(kind.__name__.lower() for kind in fastreplay.KINDS) == EVENT_KINDS == ("play", "cante", "tute",
                                                                                           "exchange")
    assert fastreplay.KINDS == (Play, Cante, Tute, Exchange)
    for rules in PRESETS.values():
        named = dict(zip(REPLAY_OPTIONS, fastreplay.options(rules), strict=True))
        assert named["players"] == rules.players and named["cante_points"] == rules.cante_points
        assert named["duties"] == duty_bits(rules)
        assert named["double_threshold"] == (rules.double_threshold or 0)
        done = next(simulate_deals(rules, 1, seed=5))
        deal = done.restart()
        for event in done.log[:7]:
            deal.apply(event)
        if deal.stock_left > layout.MAX_STOCK:
            continue
        position = Position.from_deal(deal)
        packed = dict(zip(PACKED_FIELDS, position.packed(), strict=True))
        assert [packed[f"hand{i}"] for i in range(rules.players)] == list(deal.hands)
        assert packed["leader"] == position.leader and packed["trick_len"] == len(deal.trick)
        assert packed["duties"] == duty_bits(rules) and packed["team"] == position.team
        assert packed["stock_len"] == deal.stock_left


def test_the_duty_bits_are_packed_by_one_function_and_read_back() -> None:
    """Each preset's duties, and each with one duty option flipped, packed and read back, are its options."""
    for preset in PRESETS.values():
        for i, flipped in enumerate(DUTY_OPTIONS):
            rules = preset.with_options(**{flipped: not getattr(preset, flipped)})
            assert duty_bits(rules) == duty_bits(preset) ^ 1 << i
            back = duty_options(duty_bits(rules))
            assert {name: getattr(back, name) for name in DUTY_OPTIONS} == {n: getattr(rules, n) for n in DUTY_OPTIONS}


def _after_reading_and_validating(tamper: str = "") -> set[str]:
    """The modules a fresh interpreter holds after reading a record and validating it.

    ``tamper`` is code run on ``text`` before reading, to make the record invalid: then the report must have
    findings, else it must be valid.
    """
    script = ("import sys\n"
              "import tutepgn.notation as n\n"
              "from tutepgn.check.validate import validate\n"
              f"text = open({str(ROOT / 'samples' / 'torofun-3p.tpgn')!r}).read()\n"
              f"{tamper}\n"
              "report = validate(n.read_record(text))\n"
              f"assert {'not report.valid and report.findings' if tamper else 'report.valid'}\n"
              "print(' '.join(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    return set(out.split())


def test_reading_and_validating_load_no_solver() -> None:
    modules = _after_reading_and_validating()
    assert "tutepgn.check.validate" in modules and "tutepgn.check.fastreplay" in modules
    assert not [m for m in modules if m.startswith("tutepgn.analysis")]


def _pydantic(modules: set[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in ("pydantic", "pydantic_core")]


def test_reading_and_validating_load_no_pydantic() -> None:
    """The report and its findings are plain data: pydantic loads only when a JSON form is asked for."""
    assert not _pydantic(_after_reading_and_validating())
    # An invalid record (a wrong Score, an illegal card, no Dealer tag): findings made, still no pydantic.
    tamper = ("text = text.replace('[Score \"N:42', '[Score \"N:7').replace('1. N 4E 6E 12E', '1. N 4E 6E 12O')"
              ".replace('[Dealer \"E\"]', '')")
    modules = _after_reading_and_validating(tamper)
    assert "tutepgn.check.report" in modules and not _pydantic(modules)
