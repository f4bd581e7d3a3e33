"""Events written and read in one place, the header read once, and the entries view of a record."""

from __future__ import annotations

import pytest

from tutepgn.cards import CODES
from tutepgn.errors import JsonRecordError, NotationError
from tutepgn.events import Cante, Context, Exchange, Play, Tute, event_from_json, parse_declaration
from tutepgn.notation import Entry, Note, Record, iter_records, jsonform, read_record, tpgn
from tutepgn.recording.simulate import deal_records
from tutepgn.rules import preset

CTX = Context(seats=("N", "W", "S", "E"), trump=3)  # bastos is trump


def c(code: str) -> int:
    return CODES.index(code)


# ---------------------------------------------------------------------------
# The declaration parser: every form.


@pytest.mark.parametrize("text, event", [
    ("40", Cante(2, 3)), ("40B", Cante(2, 3)), ("40b", Cante(2, 3)),
    ("20C", Cante(2, 1)), ("20o", Cante(2, 0)), ("20B", Cante(2, 3)),  # a 20 in trump is read as written
    ("tute 12", Tute(2, 12)), ("tute 11", Tute(2, 11)), ("tute R", Tute(2, 12)), ("TUTE c", Tute(2, 11)),
    ("tute12", Tute(2, 12)), ("x7B", Exchange(2, c("7B"))), ("x 2B", Exchange(2, c("2B"))), ("X7b", Exchange(2, c("7B"))),
])
def test_every_form_of_a_declaration(text: str, event: object) -> None:
    assert parse_declaration(2, text, CTX) == event


@pytest.mark.parametrize("text, trump, message, expected", [
    ("20", 3, "a cante of 20 names its suit", "20 then one of OCEB"),
    ("40O", 3, "40 is the cante in trump (B); 40O names another suit", "40 or 20O"),
    ("40", None, "40 is the cante in trump, but the record has no Trump tag", "a Trump tag, or 40 with its suit (OCEB)"),
    ("20Z", 3, "Z is not a suit in style es", "one of OCEB"),
    ("tute 10", 3, "a tute names its rank", "tute 12 (reyes) or tute 11 (caballos)"),
    ("x9B", 3, "9B is not a card in style es", "the 7 or 2 of trump, e.g. x7B"),
    ("50", 3, "not a declaration", "40, 20 and a suit, tute 12, tute 11, or x and a card"),
])
def test_declaration_errors_say_what_and_what_was_expected(text: str, trump: int | None, message: str,
                                                          expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_declaration(0, text, Context(trump=trump))
    assert (caught.value.message, caught.value.expected, caught.value.text) == (message, expected, text)


@pytest.mark.parametrize("play, line, column, found", [
    ("N 40O", 5, 3, "40O"), ("N 40", 5, 3, "40"), ("S x9O", 5, 4, "9O"),
])
def test_declaration_errors_are_located_at_their_token(play: str, line: int, column: int, found: str) -> None:
    text = f'[Rules "playcard-2p"]\n[Trump "3B"]\n[Deal "?"]\n1. N 1O 3O\n{play}\n*\n'
    trumpless = text.replace('[Trump "3B"]\n', '[Event "x"]\n') if play == "N 40" else text
    (record,) = iter_records(trumpless)
    (error,) = record.errors
    assert (error.line, error.column, error.text) == (line, column, found)


def test_the_same_parser_reads_the_export_form_the_grammar_and_the_recorder() -> None:
    from tutepgn.recording.recorder import Recorder
    from tutepgn.errors import EntryError
    text = '[Rules "torofun-2p"]\n[Trump "5B"]\n\n1. N 1O 3O\nS 20C\nN tute 11\nS x7B\n*\n'
    export = read_record(text)
    lax = read_record(text.replace("S 20C", "S 20c {lax}"))
    assert export.events[2:] == lax.events[2:] == [Cante(1, 1), Tute(0, 11), Exchange(1, c("7B"))]
    assert export.play_text is not None and lax.play_text is None
    rec = Recorder.start("torofun-2p", seed=3)
    assert rec.parse("S 20C") == Cante(1, 1) and rec.parse("N tute c") == Tute(0, 11)
    with pytest.raises(EntryError, match="a cante of 20 names its suit"):
        rec.parse("N 20")


def test_events_write_themselves() -> None:
    assert [e.text(CTX) for e in (Play(0, c("1O")), Cante(0, 3), Cante(1, 1), Tute(2, 12), Exchange(3, c("7B")))] \
        == ["N 1O", "N 40", "W 20C", "S tute 12", "E x7B"]
    assert Cante(0, 3).text(Context(trump=None)) == "N 20B"
    assert Play(0, c("11C")).text(Context(cards="fr")) == "N QH"


def test_events_json_round_trip_and_errors_name_the_field() -> None:
    ctx = Context(seats=("N", "S"), cards="en")
    for event in (Play(0, c("1O")), Cante(1, 2), Tute(0, 11), Exchange(1, c("2B"))):
        assert event_from_json(event.to_json(ctx), ctx) == event
    assert Cante(1, 2).to_json(ctx) == {"type": "cante", "seat": "S", "suit": "swords"}
    with pytest.raises(JsonRecordError) as caught:
        event_from_json({"type": "play", "seat": "W", "card": "1O"}, ctx, "events[3].")
    assert caught.value.path == "events[3].seat"


# ---------------------------------------------------------------------------
# The header: the tags read once, one error at the tag at fault.

TAGS = {"Rules": "playcard-2p", "Dealer": "S", "Deal": "N:1O 3O S:4O 5O", "Trump": "12B", "DealNo": "1",
        "Score": "N:10 S:20", "MatchScore": "S:1 N:0", "MatchTarget": "3"}


def with_tags(**changed: str) -> str:
    """A record with the tags above, some changed, one a line, and no play."""
    return "".join(f'[{name} "{value}"]\n' for name, value in {**TAGS, **changed}.items()) + "\n*\n"


GOOD = with_tags()


def test_the_header_reads_every_typed_tag() -> None:
    header = read_record(GOOD).header()
    assert (header.rules.preset, header.dealer, header.turned, header.trump, header.deal_no, header.first_of_match,
            header.claimed_score, header.match_score, header.match_target) == (
        "playcard-2p", 1, c("12B"), 3, 1, True, (10, 20), (0, 1), 3)
    assert header.hands == ((1 << c("1O")) | (1 << c("3O")), (1 << c("4O")) | (1 << c("5O")))
    assert header.errors == {}


@pytest.mark.parametrize("tag, value, line, message", [
    ("Dealer", "W", 2, "[Dealer] 'W' is not a seat here; seats are N S"),
    ("Deal", "N:1O 9O S:4O", 3, "[Deal] '9O' is not a card in style es"),
    ("Trump", "12B 1O", 4, "[Trump] give the one turned card"),
    ("Score", "NS:10", 6, "[Score] 'NS:10': write one value per side, e.g. N:78 S:52"),
    ("MatchScore", "x", 7, "[MatchScore] write e.g. NS:2 WE:1"),
    ("MatchTarget", "zero", 8, "MatchTarget 'zero' is not a whole number in digits 0-9 (from 1 to 2147483647)"),
])
def test_a_bad_tag_is_one_error_at_that_tag(tag: str, value: str, line: int, message: str) -> None:
    record = read_record(with_tags(**{tag: value}))
    with pytest.raises(NotationError) as caught:
        record.header()
    assert (caught.value.line, caught.value.message) == (line, message)
    lenient = record.header(lenient=True)
    assert list(lenient.errors) == [tag] and lenient.errors[tag].message == message
    assert lenient.rules.preset == "playcard-2p"


def test_the_header_builds_the_deal_and_names_the_missing_tag() -> None:
    record = next(deal_records(preset("torofun-4p"), 1, seed=5))
    deal = record.header().deal()
    assert tuple(deal.initial_hands) == record.header().hands
    del record.tags["Dealer"]
    with pytest.raises(NotationError, match=r"^.*\[Dealer\] the record has no Dealer tag"):
        record.header().deal()
    with pytest.raises(NotationError, match=r"\[Rules\] the Rules tag is missing"):
        Record(tags={"Dealer": "N"}).header(lenient=True)


def test_the_header_is_read_again_when_the_tags_change() -> None:
    record = read_record(GOOD)
    assert record.header() is record.header()
    record.tags["Dealer"] = "N"
    assert record.header().dealer == 0


# ---------------------------------------------------------------------------
# The entries view, and reading and writing many records.


def test_entries_give_each_event_with_its_place_and_note() -> None:
    record = read_record('[Rules "playcard-2p"]\n{before} 1. N 1O! {good} 3O\nN 20C\n*')
    assert record.intro == ["before"]
    assert record.entries == [Entry(Play(0, c("1O")), 2, 15, Note([1], ["good"])), Entry(Play(1, c("3O")), 2, 26, None),
                              Entry(Cante(0, 1), 3, 1, None)]
    assert record.position(-1) == (3, 1) and record.note(0) == Note([1], ["good"]) and record.comments == [
        "before", "good"]
    built = Record(tags={"Rules": "playcard-2p"})
    built.add(Play(0, c("1O")), note=Note(comments=["x"]))
    assert built.entries == [Entry(Play(0, c("1O")), None, None, Note([], ["x"]))] and built.position(0) is None


def test_export_records_work_out_positions_only_from_their_kept_play_text() -> None:
    text = next(deal_records(preset("torofun-4p"), 1, seed=9)).tpgn()
    record = read_record(text)
    assert record.play_text == text.split("\n\n", 1)[1].rsplit("\n", 2)[0]
    lines = text.split("\n")
    for entry in record.entries:
        word = lines[entry.line - 1][entry.column - 1:].split()[0]
        assert word in (CODES[entry.event.card] if type(entry.event) is Play else "NWSE")
    record.add(Play(0, 0))
    assert record.play_text is None  # changed since it was read: written afresh


def test_load_and_dump_many_records_in_both_forms(tmp_path) -> None:
    records = list(deal_records(preset("playcard-2p"), 3, seed=1))
    text = tpgn.dumps(records)
    assert text == "\n".join(r.tpgn() for r in records) and tpgn.dumps([]) == ""
    assert [r.tpgn() for r in tpgn.loads(text)] == [r.tpgn() for r in records]
    path = tmp_path / "x.tpgn"
    with path.open("w", encoding="utf-8") as out:
        tpgn.dump(records, out)
    with path.open(encoding="utf-8") as handle:
        assert len(tpgn.load(handle)) == 3
    assert jsonform.dumps([]) == "[]\n" and jsonform.dumps([], lines=True) == ""
    array, lines = jsonform.dumps(records), jsonform.dumps(records, lines=True)
    assert array.startswith("[\n{") and array.endswith("}\n]\n") and lines.count("\n") == 3
    assert [r.tpgn() for r in jsonform.loads(array)] == [r.tpgn() for r in jsonform.loads(lines, lines=True)] \
        == [r.tpgn() for r in records]
