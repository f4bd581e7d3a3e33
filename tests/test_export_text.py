"""The archive's export text: the input itself when it is written as the writer writes it, else written anew.

:func:`tutepgn.notation.export_text` must always equal ``record.tpgn()`` (the
deal's id is the hash of that text): a simulated deal of every preset as
written, every sample file's records, and each of them altered in the ways
the writer would rewrite (tag order, values, spacing, escapes) or not.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tutepgn.notation import export_text, iter_raw_records, parse_record, writer
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _both(text: str) -> tuple[str, str]:
    record = parse_record(text)
    return export_text(record, text), record.tpgn()


def _simulated() -> list[str]:
    return [r.tpgn() for name in PRESETS for r in deal_records(preset(name), 6, seed=5)]


def test_a_record_as_written_is_its_own_export_text(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _simulated()
    records = [parse_record(text) for text in texts]
    assert all(export_text(r, t) == r.tpgn() == t for r, t in zip(records, texts))

    def fail(*args: object) -> str:
        raise AssertionError("written anew")
    monkeypatch.setattr(writer, "write_record", fail)  # the text is vouched for, not written again
    for record, text in zip(records, texts):
        assert export_text(record, text) == text
        assert export_text(record, text.rstrip("\n") + "\n\n  \n") == text


def test_every_sample_record_gives_the_writers_text() -> None:
    raw = list(iter_raw_records(sorted(str(p) for p in SAMPLES.rglob("*.tpgn"))))
    assert len(raw) > 20
    for _, _, first_line, text in raw:
        got, written = _both(text)
        assert got == written


def _edits(text: str, rng: random.Random) -> list[str]:
    """The text altered in ways the writer rewrites, and in ways it keeps."""
    tags, _, play = text.partition("\n\n")
    lines = tags.split("\n")
    out = []
    i, j = rng.sample(range(len(lines)), 2)
    swapped = lines[:]
    swapped[i], swapped[j] = swapped[j], swapped[i]
    out.append("\n".join(swapped) + "\n\n" + play)
    out.append("\n".join(line for line in lines if not line.startswith("[Result ")) + "\n\n" + play)
    out.append("\n".join(line for line in lines if not line.startswith("[Site ")) + "\n\n" + play)
    out.append("\n".join([*lines, '[Annotator "x"]']) + "\n\n" + play)
    out.append("\n".join([*lines, '[Zeta "x"]', '[Annotator "x"]']) + "\n\n" + play)
    out.append("\n".join([lines[0].replace('"]', ' \\"a\\" \\\\"]'), *lines[1:]]) + "\n\n" + play)
    for name in ("Deal", "Stock", "Trump", "Score", "Rules"):
        for k, line in enumerate(lines):
            if line.startswith(f"[{name} "):
                value = line[len(name) + 3:-2]
                variants = [value.lower(), value.replace(" ", "  ", 1), " ".join(reversed(value.split(" "))),
                            value + " ", "x" + value]
                if name == "Rules":
                    variants.append(str(preset(value)) if value in PRESETS else value)
                for v in variants:
                    out.append("\n".join([*lines[:k], f'[{name} "{v}"]', *lines[k + 1:]]) + "\n\n" + play)
    out.append(text.replace("\n", " \n", 1))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_altered_records_give_the_writers_text(seed: int) -> None:
    rng = random.Random(seed)
    kept = rewritten = 0
    for text in _simulated():
        for edited in _edits(text, rng):
            got, written = _both(edited)
            assert got == written, edited
            kept += got == edited
            rewritten += got != edited
    assert kept and rewritten  # both ways were taken
