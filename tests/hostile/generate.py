"""Hostile inputs for the readers, the CLI and the service (issue 13): every numeric tag at and past every
width, Unicode digits, huge and nested comments, bad encodings, duplicated and foreign cards, thousands of
tricks and declarations, deep JSON, NUL bytes, CR-only line ends, BOMs.

Each :class:`Case` is one record (bytes), to be put between good records (:func:`batch`), or a whole
file (``alone``).  ``bad`` cases must be refused or stored flagged with a located error; the others may
be read either way, but never crash.  Run ``python tests/hostile/generate.py DIR`` to write them as files.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE = (ROOT / "samples" / "tie-decided-by-last-trick.tpgn").read_text(encoding="utf-8")
"""A valid 4-player record in export format with Score and Result: the record every case changes."""
GOOD = [t for t in (ROOT / "samples" / "simulated" / "playcard-2p-50-deals.tpgn").read_text(
    encoding="utf-8").split("\n\n[")[:3]]
GOOD = [GOOD[0].rstrip("\n") + "\n"] + ["[" + t.rstrip("\n") + "\n" for t in GOOD[1:]]
"""Three valid records: every batch holds them, and every one of them must be imported."""

INT32 = 2**31 - 1
UNICODE_DIGITS = ("²", "١٢", "٣", "０", "७", "𝟗")
"""Characters Python's ``int`` or ``str.isdigit`` take as digits: only 0-9 may be read as numbers."""
HUGE = "9" * 5000
"""Past Python's int-string limit (4,300 digits)."""


@dataclass(frozen=True)
class Case:
    """One hostile input: a record, or a whole file when ``alone``."""
    name: str
    data: bytes
    bad: bool = True
    alone: bool = False


def _tag(text: str, name: str, value: str) -> str:
    """The record with tag ``name`` set to ``value`` (added after Rules when missing)."""
    line = f'[{name} "{value}"]'
    lines = text.split("\n")
    for i, old in enumerate(lines):
        if old.startswith(f"[{name} "):
            lines[i] = line
            return "\n".join(lines)
    i = next(i for i, old in enumerate(lines) if old.startswith("[Rules "))
    return "\n".join(lines[:i + 1] + [line] + lines[i + 1:])


def _case(name: str, text: str, bad: bool = True) -> Case:
    return Case(name, text.encode("utf-8"), bad)


def numeric_cases() -> list[Case]:
    """Every numeric tag at and past its width, in Unicode digits, and too long for ``int``."""
    out = []
    match = _tag(_tag(BASE, "Match", "m1"), "DealNo", "1")
    for name, base in (("DealNo", match), ("MatchTarget", match), ("MatchTarget", BASE)):
        out.append(_case(f"{name}-at-width", _tag(base, name, str(INT32)), bad=False))
        out.append(_case(f"{name}-leading-zeros", _tag(base, name, "0" * 5000 + "1"), bad=False))
        for value in (str(INT32 + 1), "99999999999", HUGE, "-1", *UNICODE_DIGITS):
            out.append(_case(f"{name}={value[:12]}", _tag(base, name, value)))
    for value in (f"NS:{INT32 + 1} WE:0", f"NS:{HUGE} WE:0", "NS:² WE:0", "NS:١٢ WE:0", f"NS:-{INT32 + 1} WE:0"):
        out.append(_case(f"Score={value[:16]}", _tag(BASE, "Score", value)))
        out.append(_case(f"MatchScore={value[:16]}", _tag(match, "MatchScore", value)))
    out.append(_case("Score-at-width", _tag(BASE, "Score", f"NS:{INT32} WE:0")))  # a wrong count: flagged
    for value in ("32768.01.01", "10000.12.31", "99999999999.01.01", HUGE + ".01.01", "٢٠٢٤.01.01",
                  "2024.²1.01", "2024.01.0７"):
        out.append(_case(f"Date={value[:14]}", _tag(BASE, "Date", value)))
    out.append(_case("Date-at-width", _tag(BASE, "Date", "9999.12.31"), bad=False))
    for option in ("match_target=99999999999", f"match_target={HUGE}", "match_target=²", "match_target=١٢",
                   "cante_points=300", "cante_points=-5", "cuarenta_points=99999999999", "last_trick_bonus=256",
                   "deal_points=100000", "double_points=70000", "exchange_seven_for=1,99999", "tute_match_points=-1",
                   "exchange_seven_for=a", "hand_size=0", "cantes_per_trick=9999999999999"):
        out.append(_case(f"Rules {option[:20]}", _tag(BASE, "Rules", f"ludoteka-pairs {option}")))
    out.append(_case("Result-huge", BASE.replace("NS+1", f"NS+{HUGE}")))
    out.append(_case("trick-number-huge", BASE.replace("\n3. W", f"\n{HUGE}. W")))
    out.append(_case("trick-number-unicode", BASE.replace("\n3. W", "\n٣. W")))
    return out


def notation_cases() -> list[Case]:
    """Annotations, comments, cards and counts a record may not have."""
    cut = BASE.rindex("\nNS+1")
    play, end = BASE[:cut], BASE[cut:]
    out = [_case("nag-999", BASE.replace("2. E 4C", "2. E 4C $999")),
           _case("nag-256", BASE.replace("2. E 4C", "2. E 4C $256")),
           _case("nag-255", BASE.replace("2. E 4C", "2. E 4C $255"), bad=False),
           _case("comment-nested", BASE.replace("{75 points", "{ { nested } 75 points")),
           _case("comment-2MiB", BASE.replace("{75 points", "{" + "x" * (2 << 20) + " 75 points")),
           _case("comment-unclosed", BASE.replace("75 points each: the tie goes to the pair that won the last trick.}",
                                                  "never closed")),
           _case("tag-value-100KB", _tag(BASE, "Annotator", "a" * 100_000), bad=False),
           _case("cards-duplicated", BASE.replace("W:2O 4O", "W:5O 4O")),
           _case("cards-foreign", BASE.replace("W:2O 4O", "W:8O 4O")),
           _case("cards-13", BASE.replace("1. S 4B", "1. S 13B")),
           _case("deal-5000-cards", _tag(BASE, "Deal", "N:" + " 1O" * 5000)),
           _case("tricks-300", play + "".join(f"\n{n}. N 1O 3O 4O 5O" for n in range(11, 311)) + end),
           _case("declarations-1000", play + "\nN 20C" * 1000 + end),
           _case("exchanges-300", play + "\nN x7O" * 300 + end),
           _case("nul-in-tag", _tag(BASE, "Event", "a\x00b"), bad=False),  # a character like any other
           _case("nul-in-play", BASE.replace("2. E 4C", "2. E 4C\x00")),
           _case("no-termination", BASE[:cut] + "\n"),
           Case("tags-only", b'[Event "x"]\n[Rules "ludoteka-pairs"]\n', alone=True),  # would join the next record
           _case("unknown-rules", _tag(BASE, "Rules", "no-such-preset")),
           _case("rules-empty", _tag(BASE, "Rules", ""))]
    return out


def encoding_cases() -> list[Case]:
    """Bytes that are not UTF-8, and line ends and marks a file may have."""
    raw = BASE.encode("utf-8")
    return [Case("byte-ff-in-tag", raw.replace(b"Benavente", b"Bena\xffvente")),
            Case("latin-1", raw.replace("Julián".encode(), "Julián".encode("latin-1"))),
            Case("byte-c3-at-end", raw.rstrip(b"\n") + b" \xc3\n"),
            Case("cr-only", (BASE + "\n" + GOOD[0]).replace("\n", "\r").encode(), bad=False, alone=True),
            Case("crlf", (BASE + "\n" + GOOD[0]).replace("\n", "\r\n").encode(), bad=False, alone=True),
            Case("bom", b"\xef\xbb\xbf" + (BASE + "\n" + GOOD[0]).encode(), bad=False, alone=True),
            Case("utf-16", (BASE + "\n" + GOOD[0]).encode("utf-16"), alone=True)]


def json_cases() -> list[Case]:
    """JSON a converter must refuse without dying: deep nesting, huge numbers."""
    return [Case("json-deep-array", b"[" * 100_000 + b"]" * 100_000, alone=True),
            Case("json-deep-object", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, alone=True),
            Case("json-deep-unclosed", b"[" * 200_000, alone=True),
            Case("json-deep-in-tags", b'[{"tags": ' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}]",
                 alone=True),
            Case("json-huge-number", b'[{"tags": {}, "events": [{"type": "play", "seat": "N", "card": "1O", "line": '
                 + HUGE.encode() + b"}]}]", alone=True),
            Case("jsonl-deep", b"[" * 100_000 + b"\n", alone=True)]


def cases() -> list[Case]:
    """Every .tpgn case."""
    return numeric_cases() + notation_cases() + encoding_cases()


def batch(case: Case) -> bytes:
    """The case between good records (as a file), or the case alone."""
    if case.alone:
        return case.data
    return (GOOD[0] + "\n").encode() + case.data.rstrip(b"\n") + b"\n\n" + "\n".join(GOOD[1:]).encode()


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-inputs")
    target.mkdir(parents=True, exist_ok=True)
    for i, case in enumerate(cases() + json_cases()):
        suffix = ".json" if case.name.startswith("json") else ".tpgn"
        (target / f"{i:03d}-{''.join(c if c.isalnum() else '-' for c in case.name)}{suffix}").write_bytes(batch(case))
    print(f"{len(cases()) + len(json_cases())} files in {target}")
