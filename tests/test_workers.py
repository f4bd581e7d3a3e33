"""The worker processes of imports, validations and analyses (tutepgn/workers.py): spawned without the modules
they never use, and making the same rows as the process that started them."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

import pytest

from tutepgn.archive.rows import arrow_batch, worker_batch
from tutepgn.notation import iter_raw_records
from tutepgn.workers import ordered_map

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples").glob("*.tpgn"))


def test_a_worker_keeps_pandas_out_though_it_is_installed() -> None:
    pytest.importorskip("pandas")  # here it imports; pyarrow would import it in every worker (48 MiB each)
    probe = functools.partial(importlib.import_module, "pandas")
    with pytest.raises(ModuleNotFoundError, match="kept out of tutepgn's workers"):
        list(ordered_map(probe, iter([0]), 2, ahead=1))


def test_a_workers_rows_are_the_rows_made_here() -> None:
    raw = list(iter_raw_records(SAMPLES[:12]))
    pieces = [raw[i:i + 5] for i in range(0, len(raw), 5)]
    made_there = list(ordered_map(worker_batch, iter(pieces), 2, ahead=2))
    assert len(made_there) == len(pieces)
    for there, piece in zip(made_there, pieces):
        here = arrow_batch(piece)
        assert there.keys() == here.keys() and all(there[t].equals(here[t]) for t in here)
