"""The engine is the game alone: importing it, building a deal and playing it loads no pydantic (the JSON
models of the events are built by :mod:`tutepgn.notation.jsonmodel`, on first use)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAY = """
import json, sys
import tutepgn.engine
from tutepgn.engine import Deal
from tutepgn.rules import preset
deal = Deal.shuffled(preset("torofun-2p"), seed=3)
deal.play(next(iter(deal.legal_plays())))
while not deal.over:
    deal.apply(deal.legal_actions()[0])
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "pydantic")))
"""


def test_the_engine_loads_no_pydantic() -> None:
    """In a fresh interpreter (the test session has pydantic loaded already)."""
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(done.stdout) == []


def test_the_record_schema_is_what_the_events_say() -> None:
    """The event models, built from the events' field arguments, write the checked-in schema byte for byte."""
    done = subprocess.run([sys.executable, "-m", "tutepgn.notation.jsonmodel"], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout == (ROOT / "docs/schema/record.schema.json").read_text(encoding="utf-8")
