"""The import format as people write it, and the reader's promises about errors.

Every test asserts exact results: the tags, the events, where each event
stood in the source (line, column), the notes, and for an error its source,
record index, line, column, offending text and what was expected.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path

import pytest

from tutepgn.cards import CODES
from tutepgn.events import Cante, Exchange, Play, Tute
from tutepgn.errors import NotationError
from tutepgn.notation import Note, Record, iter_records, play_lines, read_record, scan_headers, scan_tags, split
from tutepgn.notation.export_reader import read_export
from tutepgn.notation.grammar import not_a_card, read_grammar, syntax_errors
from tutepgn.notation.split import BLOCK_SIZE
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records, match_records
from tutepgn.check.validate import validate


ROOT = Path(__file__).resolve().parent.parent


def c(code: str) -> int:
    """A card by its canonical code."""
    return CODES.index(code)


def positions(record: Record) -> list[tuple[int | None, int | None]]:
    """Where each event stood."""
    return [(e.line, e.column) for e in record.entries]


def notes(record: Record) -> dict[int, tuple[list[int], list[str]]]:
    """Each event's note as (nags, comments), by event index; the intro's comments at -1."""
    out = {-1: ([], record.intro)} if record.intro else {}
    out.update({i: (e.note.nags, e.note.comments) for i, e in enumerate(record.entries) if e.note is not None})
    return out


def key(record: Record) -> tuple:
    """Everything a record says, as comparable data."""
    return record.tags, record.events, positions(record), notes(record), record.termination


def shifted(record: Record, lines: int) -> tuple:
    """``key(record)`` as if the record stood ``lines`` lines further down its file."""
    tags, events, where, notes_, termination = key(record)
    return tags, events, [(line + lines, col) for line, col in where], notes_, termination


@lru_cache(maxsize=None)
def sim(name: str, count: int = 6, seed: int = 3) -> tuple[str, ...]:
    """Export-format texts of simulated deals."""
    return tuple(r.tpgn() for r in deal_records(preset(name), count, seed=seed))


def error_of(text: str | object, **kw: object) -> NotationError:
    with pytest.raises(NotationError) as info:
        list(iter_records(text, strict=True, **kw))  # type: ignore[arg-type]
    return info.value


def where(error: NotationError) -> tuple:
    return (error.source, error.index, error.line, error.column, error.text, error.expected)


# ---------------------------------------------------------------------------
# One hand-written record with everything the import format allows.

LAX = (
    "; A file comment before the first record\n"
    ";   and a second one\n"
    "\n"
    '  [Event "Club night"]   [Site "Madrid"]\n'
    '[Rules\t  "playcard-2p"]\n'
    "\n"
    '[Trump "3O"]\n'
    "{An intro comment\n"
    "over two lines, with a \\} brace}\n"
    "1.  N\tAO !  SE ?! {first trick}\n"
    "  N 20c $12 ; she had both\n"
    "2. N cc rb\n"
    "S 40 {in trump}   S x7O\n"
    "3.   S 7o\n"
    "*\n"
)

LAX_EVENTS = [Play(0, c("1O")), Play(1, c("10E")), Cante(0, 1), Play(0, c("11C")), Play(1, c("12B")),
              Cante(1, 0), Exchange(1, c("7O")), Play(1, c("7O"))]
LAX_POSITIONS = [(10, 7), (10, 13), (11, 3), (12, 6), (12, 9), (13, 1), (13, 19), (14, 8)]
LAX_NOTES = {-1: ([], ["An intro comment\nover two lines, with a } brace"]), 0: ([1], []), 1: ([6], ["first trick"]),
             2: ([12], ["she had both"]), 5: ([], ["in trump"])}


def test_a_lax_record_reads_exactly() -> None:
    record = read_record(LAX)
    assert record.tags == {"Event": "Club night", "Site": "Madrid", "Rules": "playcard-2p", "Trump": "3O"}
    assert record.tag_lines == {"Event": 4, "Site": 4, "Rules": 5, "Trump": 7}
    assert record.events == LAX_EVENTS
    assert positions(record) == LAX_POSITIONS
    assert notes(record) == LAX_NOTES
    assert record.termination == "*"
    assert (record.line, record.index, record.source, record.errors) == (4, 0, None, [])


def test_the_lax_record_rewritten_in_export_format_reads_back_the_same() -> None:
    record = read_record(LAX)
    again = read_record(record.tpgn())
    assert again.events == record.events
    assert notes(again) == LAX_NOTES
    assert again.tags == {"Event": "Club night", "Site": "Madrid", "Date": "????.??.??", "Round": "?",
                          "Rules": "playcard-2p", "North": "?", "South": "?", "Dealer": "?", "Trump": "3O",
                          "Result": "*"}


def test_crlf_and_a_bom_change_nothing(tmp_path) -> None:
    crlf = "\ufeff" + LAX.replace("\n", "\r\n")
    path = tmp_path / "crlf.tpgn"
    path.write_bytes(crlf.encode("utf-8"))
    expected = (LAX_EVENTS, LAX_POSITIONS, LAX_NOTES)
    for source in (crlf, path, str(path), open(path, encoding="utf-8", newline="")):
        record = read_record(source)
        assert (record.events, positions(record),
                notes(record)) == expected
        assert record.tags["Event"] == "Club night"  # no BOM glued to the first tag
        assert record.tag_lines["Event"] == 4


def test_crlf_export_records_read_like_lf_ones() -> None:
    text = "".join(sim("torofun-3p"))
    crlf = "\ufeff" + text.replace("\n", "\r\n")
    assert [key(r) for r in iter_records(crlf, strict=True)] == [key(r) for r in iter_records(text, strict=True)]


def test_spaces_tabs_and_blank_lines_anywhere() -> None:
    plain = '[Rules "torofun-4p"]\n[Trump "1B"]\n\n1. N 1O 3O 4O 5O\nE 20C\n2. E 6O 7O 10O 11O\nS tute 12\n*\n'
    loose = ('\n\n\t[ Rules \t"torofun-4p" ]\n\n\n[Trump "1B"]   \n\n \t1.N 1O\t\t3O\n\n 4O   5O  \n\n'
             'E\n20C\n\n2.\tE  6O 7O\n10O 11O\n   S   tute\t12\n\n  *  \n\n\n')
    a, b = read_record(plain), read_record(loose)
    assert a.tags == b.tags == {"Rules": "torofun-4p", "Trump": "1B"}
    assert a.events == b.events == [Play(0, c("1O")), Play(1, c("3O")), Play(2, c("4O")), Play(3, c("5O")),
                                    Cante(3, 1), Play(3, c("6O")), Play(0, c("7O")), Play(1, c("10O")),
                                    Play(2, c("11O")), Tute(2, 12)]
    assert positions(b) == [(8, 7), (8, 11), (10, 2), (10, 7), (12, 1), (15, 7), (15, 10), (16, 1), (16, 5),
                           (17, 4)]
    assert (b.line, b.tag_lines) == (3, {"Rules": 3, "Trump": 6})


def test_tags_on_one_line() -> None:
    record = read_record('[Rules "torofun-2p"] [Trump "1B"][Event "x y"]\n1. N 1O 3O\n*')
    assert record.tags == {"Rules": "torofun-2p", "Trump": "1B", "Event": "x y"}
    assert record.tag_lines == {"Rules": 1, "Trump": 1, "Event": 1}
    assert positions(record) == [(2, 6), (2, 9)]
    text = '[Rules "torofun-2p"] [Trump "1B"]\n\n1. N 1O 3O\n*\n'
    assert [h.tags for h in scan_headers(text)] == [read_record(text).tags] == [{"Rules": "torofun-2p",
                                                                                "Trump": "1B"}]


def test_tag_values_with_escapes() -> None:
    record = read_record('[Rules "torofun-2p"]\n[Event "the \\"big\\" one \\\\ 2"]\n\n*\n')
    assert record.tags["Event"] == 'the "big" one \\ 2'
    assert read_record(record.tpgn()).tags["Event"] == 'the "big" one \\ 2'


def test_comments_everywhere_the_grammar_allows() -> None:
    text = ('[Rules "playcard-2p"]\n'
            "{before the play} ; and a line comment\n"
            "{multi\nline \\\\ with \\} escapes}\n"
            "1. N 1O {after a card} ; a line comment after a card\n"
            "{a second comment on 1O} 3O\n"
            "N 20C {after a declaration}\n"
            "; a line comment on its own line\n"
            "2. N 4O ; before the termination\n"
            "*")
    record = read_record(text)
    assert record.events == [Play(0, c("1O")), Play(1, c("3O")), Cante(0, 1), Play(0, c("4O"))]
    assert positions(record) == [(5, 6), (6, 26), (7, 1), (9, 6)]
    assert {i: comments for i, (_, comments) in notes(record).items()} == {
        -1: ["before the play", "and a line comment", "multi\nline \\ with } escapes"],
        0: ["after a card", "a line comment after a card", "a second comment on 1O"],
        2: ["after a declaration", "a line comment on its own line"],
        3: ["before the termination"],
    }


def test_annotations() -> None:
    record = read_record('[Rules "playcard-2p"]\n1. N 1O! 3O?! 2. S 4O !! $12 $255 5O ?? !? ?\n*')
    assert [(i, nags) for i, (nags, _) in sorted(notes(record).items())] == [(0, [1]), (1, [6]), (2, [3, 12, 255]),
                                                                            (3, [4, 5, 2])]
    assert notes(read_record(record.tpgn())).keys() == notes(record).keys()


def test_card_aliases_and_lower_case() -> None:
    canonical = read_record('[Rules "torofun-4p"]\n1. N 1O 10E 11C 12B\n2. S 7b 2c 1e 3o\nN 20B\n*')
    aliased = read_record('[Rules "torofun-4p"]\n1. N AO SE CC RB\n2. S 7B 2C ae 3O\nN 20b\n*')
    (lower,) = iter_records('[rules "torofun-4p"]\n1. N ao se cc rb\n2. S 7b 2c 1e 3o\nN 20b\n*')
    assert canonical.events == aliased.events == lower.events == [
        Play(0, c("1O")), Play(1, c("10E")), Play(2, c("11C")), Play(3, c("12B")),
        Play(2, c("7B")), Play(3, c("2C")), Play(0, c("1E")), Play(1, c("3O")), Cante(0, 3)]
    # Tag names are case-sensitive: [rules] is another tag, so that record has no Rules tag.
    assert [e.message for e in lower.errors] == [
        "[Rules] the Rules tag is missing: every record names its ruleset"]


def test_tute_and_exchange_spellings() -> None:
    record = read_record('[Rules "torofun-2p"]\n[Trump "5B"]\nN tute 11 S TUTE r N Tute C S X7b N x2B\n*')
    assert record.events == [Tute(0, 11), Tute(1, 12), Tute(0, 11), Exchange(1, c("7B")), Exchange(0, c("2B"))]


def test_missing_optional_tags() -> None:
    record = read_record('[Rules "torofun-3p"]\n\n1. W 1O 3O 4O\n*\n')
    assert record.tags == {"Rules": "torofun-3p"}
    assert record.events == [Play(1, c("1O")), Play(2, c("3O")), Play(0, c("4O"))]
    header = record.header()
    assert (record.result, header.dealer, header.hands, header.stock, header.turned, header.claimed_score) == (
        "*", None, None, (), None, None)
    assert record.errors == []


def test_an_unfinished_record_may_end_in_an_incomplete_trick() -> None:
    export = '[Rules "ludoteka-pairs"]\n[Result "*"]\n\n1. N 1O 3O 4O 5O\n2. W 6O 7O\n*\n'
    lax = '[Rules "ludoteka-pairs"]\n1. N 1O 3O 4O 5O 2. W 6O 7O {stopped here} *'
    assert read_export(lax, 1) is None
    fast = read_export(export, 1)  # the export fast path accepts it
    for record in (read_record(export), read_record(lax), fast):
        assert record.events[4:] == [Play(1, c("6O")), Play(2, c("7O"))]
        assert record.termination == "*"
        assert record.errors == []
    # A last trick with too many cards is an error on both paths.
    long = export.replace("2. W 6O 7O", "2. W 6O 7O 10O 11O 12O")
    assert read_export(long, 1) is None
    assert where(error_of(long)) == (None, 0, 5, 20, "12O", "4 cards")
    # ... and with declarations after the open trick.
    assert read_record('[Rules "ludoteka-pairs"]\n[Trump "1C"]\n1. N 1O\nN 40\n*').events == [
        Play(0, c("1O")), Cante(0, 1)]


# ---------------------------------------------------------------------------
# Records in a file.


def test_records_back_to_back_without_blank_lines() -> None:
    text = ('[Rules "playcard-2p"]\n1. N 1O 3O\n*\n[Rules "torofun-2p"]\n[Trump "1B"]\n1. S 4O 5O\nS+2\n'
            '[Rules "torofun-3p"]\n1. E 6O 7O 10O\n*\n')
    records = list(iter_records(text, strict=True))
    assert [(r.index, r.line, r.tags["Rules"], r.termination) for r in records] == [
        (0, 1, "playcard-2p", "*"), (1, 4, "torofun-2p", "S+2"), (2, 8, "torofun-3p", "*")]
    assert [positions(r) for r in records] == [[(2, 6), (2, 9)], [(6, 6), (6, 9)], [(9, 6), (9, 9), (9, 12)]]
    assert [(h.tags["Rules"], h.index, h.line) for h in scan_headers(text)] == [
        ("playcard-2p", 0, 1), ("torofun-2p", 1, 4), ("torofun-3p", 2, 8)]


def test_export_records_back_to_back_without_blank_lines() -> None:
    texts = sim("torofun-4p")
    glued = "".join(t.rstrip("\n") + "\n" for t in texts)
    spaced = "\n".join(texts)
    a, b = list(iter_records(glued, strict=True)), list(iter_records(spaced, strict=True))
    assert len(a) == len(b) == len(texts)
    for i, (x, y) in enumerate(zip(a, b)):
        assert key(x) == shifted(y, x.line - y.line)
    assert [(h.tags, h.line) for h in scan_headers(glued)] == [(r.tags, r.line) for r in a]


def test_an_indented_tag_line_starts_the_next_record() -> None:
    text = '[Rules "playcard-2p"]\n1. N 1O 3O\n*\n   [Rules "torofun-2p"]\n\t1. S 4O 5O\n\t*\n'
    records = list(iter_records(text, strict=True))
    assert [(r.line, r.tags, positions(r)) for r in records] == [
        (1, {"Rules": "playcard-2p"}, [(2, 6), (2, 9)]), (4, {"Rules": "torofun-2p"}, [(5, 7), (5, 10)])]
    assert [(h.tags, h.line) for h in scan_headers(text)] == [(r.tags, r.line) for r in records]


def test_file_comments_before_between_and_after_records() -> None:
    one, two = sim("playcard-2p")[:2]
    text = ("; Archive of the club\n;\n\n" + one + "; between the records\n\n" + two + "\n; the end\n;\n")
    records = list(iter_records(text, strict=True))
    lines_one = one.count("\n")
    assert [r.line for r in records] == [4, 4 + lines_one + 2]
    alone = [read_record(one), read_record(two)]
    assert key(records[0]) == shifted(alone[0], 3)
    assert key(records[1]) == shifted(alone[1], 3 + lines_one + 2)
    assert [(h.tags, h.index, h.line) for h in scan_headers(text)] == [(r.tags, r.index, r.line) for r in records]


def test_a_file_of_comments_only_has_no_records() -> None:
    assert list(iter_records("; nothing here\n\n  ; really\n", strict=True)) == []
    assert list(scan_headers("; nothing here\n\n  ; really\n")) == []
    with pytest.raises(NotationError):
        read_record("; nothing here\n")


def test_path_string_and_stream_give_identical_records(tmp_path) -> None:
    text = "\n".join(sim("ludoteka-pairs") + (LAX,) + sim("torofun-2p"))
    path = tmp_path / "mixed.tpgn"
    path.write_text(text, encoding="utf-8")
    from_text = [key(r) for r in iter_records(text, strict=True)]
    assert len(from_text) == 13
    with open(path, encoding="utf-8") as handle:
        from_stream = [key(r) for r in iter_records(handle, strict=True)]
    from_path = list(iter_records(path, strict=True))
    assert [key(r) for r in from_path] == from_stream == from_text
    assert [key(r) for r in iter_records(str(path), strict=True)] == from_text
    assert [key(r) for r in iter_records(io.StringIO(text), strict=True)] == from_text
    assert {r.source for r in from_path} == {str(path)}


def test_a_file_larger_than_the_block_size(tmp_path) -> None:
    texts = [t for name in PRESETS for t in sim(name, 20, seed=9)]
    one_pass = "\n".join(texts) + "\n"
    text = one_pass * (BLOCK_SIZE // len(one_pass) + 2)  # more than one block of 1 MiB
    assert len(text) > BLOCK_SIZE
    path = tmp_path / "big.tpgn"
    path.write_text(text, encoding="utf-8")
    records = list(iter_records(path, strict=True))
    assert len(records) == len(texts) * (BLOCK_SIZE // len(one_pass) + 2)
    line = 1
    alone = [read_record(t) for t in texts]
    for i, record in enumerate(records):
        assert (record.index, record.line) == (i, line)
        assert key(record) == shifted(alone[i % len(texts)], line - 1)
        line += texts[i % len(texts)].count("\n") + 1
    headers = list(scan_headers(path))
    assert [(h.tags, h.index, h.line) for h in headers] == [(r.tags, r.index, r.line) for r in records]


@pytest.mark.parametrize("block", [7, 64, 333, 1000, 4096])
def test_small_blocks_cut_records_anywhere(tmp_path, monkeypatch, block: int) -> None:
    texts = list(sim("torofun-4p", 4)) + [LAX] + list(sim("playcard-2p", 3))
    text = "; file comment\n" + "\n".join(texts).replace('[Rules "torofun-4p"]\n', '[Rules "torofun-4p"]\n\n')
    path = tmp_path / "blocks.tpgn"
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))  # CRLF: blocks may end between \r and \n
    expected = [(r.line, key(r)) for r in iter_records(text, strict=True)]
    assert len(expected) == 8
    monkeypatch.setattr(split, "BLOCK_SIZE", block)
    assert [(r.line, key(r)) for r in iter_records(path, strict=True)] == expected
    assert [(h.tags, h.line) for h in scan_headers(path)] == [(tags, line) for line, (tags, *_) in expected]


# ---------------------------------------------------------------------------
# Errors: strict mode raises the first, lenient mode keeps it on its record.

GOOD = '[Rules "playcard-2p"]\n\n1. N 1O 3O\n*\n'
BAD = '[Rules "playcard-2p"]\n\n1. N 1O 3O\n2. S 4O # 5O\n*\n'  # "#" is no token: line 4 of the record


def test_strict_raises_the_first_error_with_its_location(tmp_path) -> None:
    path = tmp_path / "bad.tpgn"
    path.write_text(GOOD + "\n" + BAD + "\n" + BAD, encoding="utf-8")
    error = error_of(path)
    assert where(error) == (str(path), 1, 9, 9, "# 5O", error.expected)
    assert error.message == "unexpected character (every record ends with a termination marker such as NS+1 or *)"
    assert "a card" in error.expected and "*" in error.expected
    assert str(error).startswith(f"{path}:9:9 (record 2): unexpected character (every record ends with a "
                                 "termination marker such as NS+1 or *); found '# 5O'; expected ")
    assert where(error_of(GOOD + "\n" + BAD))[:5] == (None, 1, 9, 9, "# 5O")


def test_lenient_keeps_the_error_on_its_record_and_reads_on() -> None:
    text = GOOD + "\n" + BAD + "\n" + GOOD + BAD + GOOD
    records = list(iter_records(text))
    assert [(r.index, r.line, len(r.errors)) for r in records] == [(0, 1, 0), (1, 6, 1), (2, 12, 0), (3, 16, 1),
                                                                 (4, 21, 0)]
    assert [(e.index, e.line, e.column, e.text) for r in records for e in r.errors] == [(1, 9, 9, "# 5O"),
                                                                                      (3, 19, 9, "# 5O")]
    assert records[1].tags == {"Rules": "playcard-2p"} and records[1].events == []
    for good in (records[0], records[2], records[4]):
        assert key(good) == shifted(read_record(GOOD), good.line - 1)


@pytest.mark.parametrize("text, line, column, found, message", [
    ('[Rules "playcard-2p"]\n1. N 1O 3O\n', 2, 11, "", "unexpected end of record (every record ends with a "
                                                    "termination marker such as NS+1 or *)"),
    ('[Rules "playcard-2p"]\n1. N 1O {never closed\n*\n', 2, 9, "{never close",
     "unexpected character (every record ends with a termination marker such as NS+1 or *)"),
    ('[Rules "playcard-2p"\n1. N 1O\n*\n', 2, 1, "1.", "unexpected token"),
    ('[Rules playcard-2p]\n*\n', 1, 8, "playcard", "unexpected token"),
    ('[Rules "playcard-2p"]\n1. N 1O\n* *\n', 3, 3, "*", "unexpected token"),
    ('[Rules "playcard-2p"]\n1. N 9O\n*\n', 2, 6, "9O", not_a_card("9O")),
])
def test_syntax_errors_are_located(text: str, line: int, column: int, found: str, message: str) -> None:
    error = error_of(GOOD + text)
    assert (error.index, error.line, error.column, error.text, error.message) == (1, line + 4, column, found,
                                                                                  message)
    lenient = list(iter_records(GOOD + text + GOOD))
    assert [len(r.errors) for r in lenient] == [0, 1, 0]
    assert where(lenient[1].errors[0]) == where(error)


SPANISH_PACK = ("ranks 1 2 3 4 5 6 7 10 11 12 (or A S C R: as, sota, caballo, rey); suits O (oros), C (copas), "
                "E (espadas), B (bastos)")
DOUBLES = (ROOT / "samples" / "doubles.tpgn").read_text(encoding="utf-8")
DOUBLES = re.sub(r"\n\{.*\}\n", "\n", DOUBLES[:DOUBLES.index("NS+2\n") + 5])
"""A record in export form (its comment left out): line 16 is ``1. W 2O 1O 10O 6O``, line 17 ``N 40``."""
DOUBLES_LAX = DOUBLES.replace("1. W 2O 1O 10O 6O\nN 40\n", "1.W 2o 1o 10o 6o   N 40 !  ")
"""The same record as people write it (lower case, a declaration on a trick's line): the grammar alone reads it."""


@pytest.mark.parametrize("typo, line, column, message", [
    ("1O 12X", 16, 12, "'12X' is not a card of the Spanish pack: " + SPANISH_PACK),
    ("1O 13O", 16, 12, "'13O' is not a card of the Spanish pack: " + SPANISH_PACK),
    ("1O 1Z", 16, 12, "'1Z' is not a card of the Spanish pack: " + SPANISH_PACK),
    ("1O 8O", 16, 12, "'8O' is not a card of the Spanish pack: " + SPANISH_PACK),
    ("N 20X", 17, 3, "'20X' is not a cante: 40, or 20 and its suit (O, C, E, B)"),
])
def test_a_mistyped_card_or_cante_is_named_and_nothing_else_is_blamed_on_it(typo: str, line: int, column: int,
                                                                           message: str) -> None:
    """Issue 16: a mistyped card said "unexpected token... every record ends with a termination marker"; ``8O``
    was explained but then blamed for two illegal plays.  The export form and the lax form, strict and lenient."""
    word = typo.split()[1]
    assert read_export(DOUBLES, 1) is not None  # the export form's fast path reads the good record...
    export = DOUBLES.replace("1O 10O" if typo[0] == "1" else "N 40", typo, 1)
    assert read_export(export, 1) is None  # ...and leaves the mistyped one to the grammar
    lax = DOUBLES_LAX.replace("1o 10o" if typo[0] == "1" else "N 40", typo, 1)
    lax_column = column - (1 if typo[0] == "1" else 0)  # "1.W" where export writes "1. W"
    for text, col in ((export, column), (lax, lax_column if typo[0] == "1" else len("1.W 2o 1o 10o 6o   ") + 3)):
        lax_line = line if text is export else 16
        error = error_of(text)
        assert (error.line, error.column, error.text, error.message) == (lax_line, col, word, message)
        (record,) = iter_records(text)
        assert [(e.line, e.column, e.text, e.message) for e in record.errors] == [(lax_line, col, word, message)]
        report = validate(record)
        assert [(f.code, f.line, f.column) for f in report.findings if f.severity != "info"] == [
            ("syntax", lax_line, col)], report.findings  # no illegal play, no missing card blamed on it
    if "X" in word or "Z" in word:
        assert "a card" in error.expected or "20 then" in error.expected


def test_every_mistyped_card_of_a_record_is_located() -> None:
    text = (DOUBLES.replace("1O 10O", "1O 13O").replace("N 40", "N 20X").replace("3. N 10C 11C", "3. N 10C 1Z")
            .replace("5. S 7O 5O 7B 3O", "5. S 7O 5O 12X 8O"))
    expected = [(16, 12, "13O"), (17, 3, "20X"), (20, 10, "1Z"), (22, 12, "12X"), (22, 16, "8O")]
    assert [(e.line, e.column, e.text) for e in syntax_errors(text)] == expected
    (record,) = iter_records(text)
    assert [(e.line, e.column, e.text) for e in record.errors] == expected
    assert record.events == [] and record.tags["Result"] == "NS+2"  # unreadable: its tags, every error located
    assert where(error_of(text)) == where(record.errors[0])  # strict raises the first
    # After another kind of error the parser cannot tell where the record goes on: the search stops there.
    assert [e.text for e in syntax_errors(text.replace("2. S 11E", "2. S @@"))] == ["13O", "20X", "@@ 7E 1E 5E"]
    assert syntax_errors(DOUBLES) == []


def test_a_mistyped_card_is_explained_in_the_records_card_style() -> None:
    text = '[Rules "playcard-2p"]\n[Cards "it"]\n\n1. N 1D 12S\n*\n'
    error = error_of(text)
    assert (error.line, error.column, error.text) == (4, 9, "12S")
    assert error.message == ("'12S' is not a card of the Spanish pack in card style it: ranks 1 2 3 4 5 6 7 8 9 10; "
                             "suits D (oros), C (copas), S (espadas), B (bastos)")


@pytest.mark.parametrize("text, line, column, found, expected, message", [
    # trick numbers out of order
    ('[Rules "playcard-2p"]\n1. N 1O 3O\n3. N 4O 5O\n*', 3, 1, "3.", "2.", "trick 3 out of order"),
    # a finished record with a short trick, and one with a long trick
    ('[Rules "torofun-3p"]\n[Result "N+1"]\n1. N 1O 3O\n2. N 4O 5O 6O\nN+1', 3, 1, "1.", "3 cards",
     "trick 1 has 2 cards; a trick has one card per player (3)"),
    ('[Rules "torofun-3p"]\n[Result "N+1"]\n1. N 1O 3O 4O\n2. N 5O 6O 7O 10O\nN+1', 4, 15, "10O", "3 cards",
     "trick 2 has 4 cards; a trick has one card per player (3)"),
    ('[Rules "torofun-3p"]\n1. N 1O 3O 4O 5O\n*', 2, 15, "5O", "3 cards",
     "trick 1 has 4 cards; a trick has one card per player (3)"),
    # a seat that does not exist for the player count, in a trick and in a declaration
    ('[Rules "torofun-3p"]\n1. S 1O 3O 4O\n*', 2, 4, "S", "N W E", "S is not a seat in a 3-player game"),
    ('[Rules "playcard-2p"]\n1. N 1O 3O\nE 20C\n*', 3, 1, "E", "N S", "E is not a seat in a 2-player game"),
    # 40 naming a suit that is not trump
    ('[Rules "playcard-2p"]\n[Trump "3B"]\n1. N 1O 3O\nN 40O\n*', 4, 3, "40O", "40 or 20O",
     "40 is the cante in trump (B); 40O names another suit"),
    ('[Rules "playcard-2p"]\n1. N 1O 3O\nN 40\n*', 3, 3, "40", "a Trump tag, or 40 with its suit (OCEB)",
     "40 is the cante in trump, but the record has no Trump tag"),
    # the termination disagreeing with the Result tag
    ('[Rules "playcard-2p"]\n[Result "N+1"]\n1. N 1O 3O\nS+1', 4, 1, "S+1", "N+1",
     "the termination marker S+1 disagrees with the Result tag 'N+1'"),
    ('[Rules "playcard-2p"]\n[Result "N+1"]\n1. N 1O\n*', 4, 1, "*", "N+1",
     "the termination marker * disagrees with the Result tag 'N+1'"),
    # no Rules tag, an unknown ruleset, a tag given twice
    ('[Event "x"]\n1. N 1O 3O\n*', 1, 1, "", '[Rules "PRESET option=value ..."]',
     "[Rules] the Rules tag is missing: every record names its ruleset"),
    ('[Event "x"]\n[Rules "tute-6p"]\n1. N 1O 3O\n*', 2, 1, "tute-6p", "",
     "[Rules] unknown ruleset 'tute-6p'; presets are " + ", ".join(PRESETS)),
    ('[Rules "playcard-2p"]\n[Event "x"]\n[Event "y"]\n1. N 1O 3O\n*', 3, 2, "Event", "",
     "tag Event appears twice"),
    ('[Rules "playcard-2p"]\n[Rules "playcard-2p"]\n\n1. N 1O 3O\n*\n', 2, 2, "Rules", "",
     "tag Rules appears twice"),
    ('[Rules "playcard-2p"]\n[Cards "xx"]\n1. N 1O 3O\n*', 1, 2, "Rules", "es, es-letters, it, fr",
     "unknown card style 'xx'"),
])
def test_semantic_errors_are_located(text: str, line: int, column: int, found: str, expected: str,
                                     message: str) -> None:
    error = error_of(GOOD + text + "\n")
    assert (error.source, error.index, error.line, error.column, error.text, error.expected, error.message) == (
        None, 1, line + 4, column, found, expected, message)
    lenient = list(iter_records(GOOD + text + "\n" + GOOD))
    assert [r.index for r in lenient] == [0, 1, 2]
    assert where(lenient[1].errors[0]) == where(error)
    assert lenient[0].errors == lenient[2].errors == []
    assert key(lenient[2]) == shifted(read_record(GOOD), lenient[2].line - 1)


def test_lenient_keeps_every_error_of_a_record_and_its_events() -> None:
    text = '[Rules "playcard-2p"]\n[Result "N+1"]\n1. N 1O 3O\n3. W 4O 5O\nN 40\nS+1\n'
    (record,) = iter_records(text)
    assert [(e.line, e.column, e.message) for e in record.errors] == [
        (4, 1, "trick 3 out of order"),
        (4, 4, "W is not a seat in a 2-player game"),
        (5, 3, "40 is the cante in trump, but the record has no Trump tag"),
        (6, 1, "the termination marker S+1 disagrees with the Result tag 'N+1'"),
    ]
    assert record.events == [Play(0, c("1O")), Play(1, c("3O")), Play(0, c("4O")), Play(1, c("5O"))]
    assert record.termination == "S+1"


def test_a_record_without_rules_reads_on_in_lenient_mode() -> None:
    (record,) = iter_records('[Result "*"]\nN x7O\n1. N 1O 3O 4O 5O\n*\n')
    assert [e.message for e in record.errors] == [
        "[Rules] the Rules tag is missing: every record names its ruleset"]
    assert record.events == [Exchange(0, c("7O")), Play(0, c("1O")), Play(1, c("3O")), Play(2, c("4O")),
                             Play(3, c("5O"))]
    # Without a ruleset the first trick tells the player count, if it can be one (2 to 4).
    (record,) = iter_records('[Rules "?"]\n1. N 1O 3O 4O 5O 6O 7O\n2. N 10O\n*\n')
    assert [(e.line, e.column, e.message) for e in record.errors] == [
        (1, 1, "[Rules] the Rules tag is missing: every record names its ruleset"),
        (2, 21, "trick 1 has 6 cards; a trick has one card per player (4)")]
    assert [e.seat for e in record.events] == [0, 1, 2, 3, 0, 1, 0]


# ---------------------------------------------------------------------------
# The two parsers agree.


def _parity_texts() -> list[str]:
    out = []
    for name in PRESETS:
        for record in deal_records(preset(name), 300, seed=2024):
            out.append(record.tpgn())
            cut = Record(tags=dict(record.tags, Result="*"), events=record.events[:len(record.events) * 2 // 3],
                         termination="*")
            out.append(cut.tpgn())  # unfinished, mostly with an open last trick
        out.extend(r.tpgn() for r in match_records(preset(name), 2, seed=7))
    return out


def test_fast_path_and_grammar_path_agree() -> None:
    texts = _parity_texts()
    assert len(texts) >= 3000
    for text in texts:
        fast = read_export(text, 5)  # None if the fast path declined: it must not
        slow = read_grammar(text, 5, None, 0, None, True)
        assert fast is not None, text
        assert key(fast) == key(slow), text
        assert (fast.tag_lines, fast.line) == (slow.tag_lines, slow.line)
        assert slow.errors == []
    # Some declarations of every kind were in there.
    kinds = {type(e) for text in texts for e in read_export(text, 1).events}  # type: ignore[union-attr]
    assert kinds == {Play, Cante, Tute, Exchange}


def test_fast_path_declines_what_it_does_not_check() -> None:
    base = sim("torofun-3p")[0]
    head, play = base.split("\n\n")
    for lax in (base.replace("\n1. ", "\n1.  "), base.replace('"]\n', '"] \n', 1), base.replace("\n\n", "\n"),
                head + "\n\n" + re.sub(r"(?<= )1([OCEB])", r"A\1", play), head + "\n\n" + play.lower(),
                base.replace("\n2. ", "\n3. "), base.rstrip("\n") + " ; done\n", base.replace("\n1. ", "\n1. {c} "),
                base.replace('[Result "', '[Result "?'), re.sub(r"\n1\. [NWE]", "\n1. S", base),
                base.replace('[Rules "', '[Rules "x'), base.replace('\n[Rules', '\n[Cards "es"]\n[Rules')):
        assert lax != base
        assert read_export(lax, 1) is None


# ---------------------------------------------------------------------------
# The header-only scan agrees with the full reader.


def _mixed_file() -> str:
    parts = ["; a mixed archive\n\n"]
    variants = 0
    for name in PRESETS:
        for i, text in enumerate(sim(name, 8, seed=31)):
            kind = i % 8
            if kind == 1:  # blank lines and spaces between tags
                text = text.replace('"]\n[', '"]\n\n  [', 3)
            elif kind == 2:  # comments in the play
                lines = text.split("\n")
                play = lines.index("") + 1
                lines[play] += " {a comment with [Fake \"tag\"] inside}"
                lines.insert(play + 1, "; a line comment")
                text = "\n".join(lines)
            elif kind == 3:  # tags on one line, no blank line before the play
                head, play = text.split("\n\n", 1)
                text = " ".join(head.split("\n")) + "\n" + play
            elif kind == 4:  # lower-case cards and aliases, glued to the next record
                head, play = text.split("\n\n", 1)
                play = re.sub(r"(?<= )1O(?=[ \n])", "ao", re.sub(r"(?<= )12B(?=[ \n])", "rb", play))
                text = head + "\n\n" + re.sub(r"(?<= )(1[0-2]|[1-7])([OCEB])(?=[ \n])",
                                              lambda m: m[1] + m[2].lower(), play).rstrip("\n") + "\n"
            elif kind == 5:  # indented, with a file comment after it
                text = "".join("  " + line + "\n" for line in text.rstrip("\n").split("\n")) + "; after\n"
            elif kind == 6:  # escapes in a tag value
                text = text.replace('[Site "tutepgn simulator"]', '[Site "the \\"club\\" \\\\ bar"]')
            variants += kind != 0
            parts.append(text if kind == 4 else text + "\n")
    return "".join(parts)


def test_header_scan_agrees_with_the_full_reader(tmp_path, monkeypatch) -> None:
    text = _mixed_file()
    records = list(iter_records(text, strict=True))
    assert len(records) == 40
    assert records[0].line == 3
    assert sum(r.tags.get("Site") == 'the "club" \\ bar' for r in records) == 5
    expected = [(r.tags, r.index, r.line) for r in records]
    assert [(h.tags, h.index, h.line) for h in scan_headers(text)] == expected
    path = tmp_path / "mixed.tpgn"
    path.write_text(text, encoding="utf-8")
    assert [(h.tags, h.index, h.line, h.source) for h in scan_headers(path)] == [e + (str(path),) for e in expected]
    for block in (50, 511, 2048):
        monkeypatch.setattr(split, "BLOCK_SIZE", block)
        assert [(h.tags, h.index, h.line) for h in scan_headers(path)] == expected
        assert [(r.tags, r.index, r.line) for r in iter_records(path, strict=True)] == expected


def test_header_scan_of_a_broken_record_keeps_the_tags_before_the_break() -> None:
    text = GOOD + '\n[Rules "playcard-2p"]\n[Event "x"]\n1. N 1O # 3O\n*\n\n' + GOOD
    records = list(iter_records(text))
    assert [r.tags for r in records] == [{"Rules": "playcard-2p"}, {"Rules": "playcard-2p", "Event": "x"},
                                         {"Rules": "playcard-2p"}]
    assert [(h.tags, h.line) for h in scan_headers(text)] == [(r.tags, r.line) for r in records]


def test_note_model_is_the_notation_one() -> None:
    assert isinstance(read_record(LAX).entries[0].note, Note)


def test_kept_play_text_is_what_the_writer_would_write() -> None:
    """The fast path keeps the play lines of export-form records; writing them afresh must give the same text."""
    texts = [r.tpgn() for name in PRESETS for r in deal_records(preset(name), 60, seed=11)]
    texts += [r.tpgn() for r in match_records(preset("ludoteka-pairs"), 2, seed=3)]
    kept = 0
    for text in texts:
        record = read_record(text)
        if record.play_text is None:
            continue
        kept += 1
        assert "\n".join(play_lines(record)[:-1]) == record.play_text
        assert record.tpgn() == text
    assert kept == len(texts)


@pytest.mark.parametrize("head", [
    '[Annotator "Copa \\"del\\" Bar"]',  # escaped quotes: the general path unescapes them
    '[Annotator "a \\\\ b"]',            # an escaped backslash
    '[Annotator "one"]\n[Annotator "two"]',  # a repeated tag: the first wins
    '[1x "v"]', '[_a "v"]',              # names the grammar refuses
    '[Bad Name "v"]', '[Annotator ""]',  # a space in a name; an empty value
    '[Annotator "say "hi" now"]',        # a bare quote inside a value
])
def test_the_header_scan_reads_odd_tag_lines_as_the_general_path_does(head: str) -> None:
    one, two = sim("playcard-2p")[:2]
    first = head + "\n" + one
    text = first + "\n" + two + "\n" + two.replace("[Event", '[Zzz "new name"]\n[Event', 1)
    expected = [scan_tags(first), scan_tags(two), scan_tags(two) | {"Zzz": "new name"}]
    lines = [1, 1 + first.count("\n") + 1, 1 + first.count("\n") + 1 + two.count("\n") + 1]
    assert [(h.tags, h.index, h.line) for h in scan_headers(text)] == list(zip(expected, range(3), lines))
