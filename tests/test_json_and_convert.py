"""The JSON form and conversions: lossless round trips on simulated archives, errors, the schema, tute convert."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutepgn.cards import CARD_STYLES, TOKEN_STYLES
from tutepgn.cli.main import app
from tutepgn.notation.convert import convert, format_of_path, iter_input, sniff
from tutepgn.errors import ConvertError, JsonRecordError, NotationError, TuteError
from tutepgn.notation import Note, Record, iter_records, read_record, write_record
from tutepgn.notation.jsonform import from_json, iter_json, iter_jsonl, model_to_record, record_to_model, to_json
from tutepgn.notation.jsonmodel import RecordModel, json_schema, schema_text
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "schema" / "record.schema.json"
DEALS = 1000
runner = CliRunner()


@pytest.fixture(scope="module")
def archives() -> dict[str, tuple[list[str], list[Record]]]:
    """Per preset, 1000 simulated deals: their export texts and the records read back from one file."""
    out = {}
    for k, name in enumerate(PRESETS):
        texts = [r.tpgn() for r in deal_records(preset(name), DEALS, seed=100 + k)]
        records = list(iter_records("\n".join(texts), strict=True))
        assert len(records) == DEALS
        out[name] = texts, records
    return out


# ---------------------------------------------------------------------------
# Lossless round trips.

@pytest.mark.parametrize("name", list(PRESETS))
def test_text_model_text_is_byte_identical(archives, name: str) -> None:  # type: ignore[no-untyped-def]
    texts, records = archives[name]
    for text, record in zip(texts, records):
        assert record.tpgn() == text
        model = record_to_model(record)
        assert model_to_record(model).tpgn() == text
        again = RecordModel.model_validate(model.model_dump())  # derived fields in the input are ignored
        assert model_to_record(again).tpgn() == text


@pytest.mark.parametrize("name", list(PRESETS))
def test_text_json_text_is_lossless(archives, name: str) -> None:  # type: ignore[no-untyped-def]
    texts, records = archives[name]
    for text, record in zip(texts, records):
        line = to_json(record)
        assert "\n" not in line
        back = from_json(line)
        assert back.tpgn() == text
        assert [e[1:3] for e in back.entries] == [e[1:3] for e in record.entries]
        assert to_json(back) == line


@pytest.mark.parametrize("name", list(PRESETS))
def test_token_card_styles_there_and_back(archives, name: str) -> None:  # type: ignore[no-untyped-def]
    """Each deal written in a token style (they take turns, ~250 deals each) and read back by its Cards tag."""
    texts, records = archives[name]
    styles = [TOKEN_STYLES[i % len(TOKEN_STYLES)] for i in range(len(records))]
    styled = [write_record(r, style) for r, style in zip(records, styles)]
    assert all((f'[Cards "{style}"]' in t) == (style != "es") for t, style in zip(styled, styles))
    back = list(iter_records("\n".join(styled), strict=True))  # one file, styles mixed
    assert [r.tpgn() for r in back] == texts
    for style in TOKEN_STYLES[1:]:  # by the reader's option instead, the Cards tag removed
        bare = "\n".join(t.replace(f'[Cards "{style}"]\n', "") for t, s in zip(styled[:400], styles) if s == style)
        assert [r.tpgn() for r in iter_records(bare, strict=True, cards=style)] == [
            t for t, s in zip(texts[:400], styles) if s == style], style


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_card_style_through_json(archives, name: str) -> None:  # type: ignore[no-untyped-def]
    texts, records = archives[name]
    for style in CARD_STYLES:
        for text, record in zip(texts[:200], records[:200]):
            line = to_json(record, cards=style)
            assert json.loads(line)["cards"] == style
            assert from_json(line).tpgn() == text, style


def test_spaced_styles_write_words() -> None:
    record = read_record('[Rules "playcard-2p"]\n[Trump "12O"]\n\n1. N 1O 3O\nS 20C\nN tute 11\nS x7O\n*\n')
    en = json.loads(to_json(record, cards="en"))
    assert [e.get("card") or e.get("suit") or e.get("rank") for e in en["events"]] == [
        "ace of coins", "three of coins", "cups", 11, "seven of coins"]
    assert en["trump"] == "king of coins" and en["trump_suit"] == "coins"
    names = json.loads(to_json(record, cards="names"))
    assert names["events"][0]["card"] == "as de oros" and names["events"][2]["suit"] == "copas"
    for style in ("en", "names"):
        with pytest.raises(ValueError, match="cannot be written in .tpgn"):
            write_record(record, style)


def _annotated(record: Record, rng: random.Random) -> Record:
    """The record with an intro, annotations and awkward comments on some events."""
    awkward = ["plain", "a } brace", "back\\slash", "two\nlines", "line\n[Looks \"like a tag\"]", "  spaced  ",
               "", "ñandú «quotes» \"double\"", "{nested}", "; not a line comment", "$5 !?"]
    out = Record(tags=record.tags, intro=[rng.choice(awkward), "intro two"], termination=record.termination)
    notes = {}
    for i in rng.sample(range(len(record.events)), min(6, len(record.events))):
        nags = rng.sample([1, 2, 3, 4, 5, 6, 14, 255, 0], rng.randint(0, 3))
        comments = rng.sample(awkward, rng.randint(0 if nags else 1, 2))
        notes[i] = Note(nags, comments)
    for i, entry in enumerate(record.entries):
        out.add(entry.event, entry.line, entry.column, notes.get(i))
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_comments_and_annotations_round_trip(archives, name: str) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(name)
    _, records = archives[name]
    for record in records[:100]:
        text = _annotated(record_to_model_copy(record), rng).tpgn()
        read = read_record(text)
        assert read.tpgn() == text
        model = json.loads(to_json(read))
        assert model["intro"][1] == "intro two"
        assert any(e["comments"] or e["nags"] for e in model["events"])
        assert from_json(to_json(read)).tpgn() == text
        for style in ("names", "it"):
            assert from_json(to_json(read, cards=style)).tpgn() == text


def record_to_model_copy(record: Record) -> Record:
    """A fresh copy of a record (through JSON), so that the shared fixture is not changed."""
    return model_to_record(record_to_model(record))


def test_hand_written_comments_and_line_comments() -> None:
    text = ('[Rules "playcard-2p"]\n[Trump "12O"]\n\n; file-level? no: before the play\n{intro}\n'
            '1. N 1O ! $14 {good} ; a line comment\n3O ?? \nN 40 {the forty}\n*\n')
    record = read_record(text)
    data = json.loads(to_json(record))
    assert data["intro"] == ["file-level? no: before the play", "intro"]
    assert data["events"][0]["nags"] == [1, 14] and data["events"][0]["comments"] == ["good", "a line comment"]
    assert data["events"][2] == {"type": "cante", "seat": "N", "suit": "O", "line": 8, "column": 1, "nags": [],
                                 "comments": ["the forty"]}
    assert from_json(to_json(record)).tpgn() == record.tpgn()


# ---------------------------------------------------------------------------
# The model: derived fields, hand-written input, errors.

def test_derived_fields(archives) -> None:  # type: ignore[no-untyped-def]
    _, records = archives["ludoteka-pairs"]
    record = records[0]
    data = json.loads(to_json(record, cards="names"))
    assert data["rules"] == "ludoteka-pairs" and data["players"] == 4
    assert set(data["seats"]) == {"N", "W", "S", "E"} and data["seats"]["N"] == record.tags["North"]
    assert data["dealer"] == record.tags["Dealer"]
    assert sorted(len(h) for h in data["deal"].values()) == [10, 10, 10, 10]
    assert all(" de " in c for h in data["deal"].values() for c in h)
    assert data["stock"] is None and " de " in data["trump"]
    assert set(data["score"]) == {"NS", "WE"} and sum(data["score"].values()) >= 120
    assert data["result"] == record.termination
    plays = [e for e in data["events"] if e["type"] == "play"]
    assert [e["trick"] for e in plays] == [i // 4 + 1 for i in range(40)]


def test_minimal_hand_written_json() -> None:
    record = from_json('{"tags": {"Rules": "playcard-2p", "Trump": "12O"}, "events": ['
                       '{"type": "play", "seat": "N", "card": "1o"}, {"type": "play", "seat": "S", "card": "3O"},'
                       '{"type": "cante", "seat": "N", "suit": "o"}]}')
    assert record.position(0) is None and record.termination == "*"
    assert record.tpgn().endswith("\n1. N 1O 3O\nN 40\n*\n")
    # Derived fields are ignored: stale ones do not matter.
    data = json.loads(to_json(record))
    data["deal"] = "nonsense"
    data["rules"] = 42
    assert model_to_record(RecordModel.model_validate(data)).tpgn() == record.tpgn()


def test_cards_tag_in_input_tags_is_honoured() -> None:
    italian = read_record('[Rules "playcard-2p"]\n[Cards "it"]\n[Trump "10D"]\n\n1. N 1D 3D\n*\n')
    assert italian.tags["Trump"] == "12O"  # the reader keeps es codes
    data = json.loads(to_json(italian, cards="it"))
    assert data["tags"]["Trump"] == "12O" and data["trump"] == "10D" and "Cards" not in data["tags"]
    data["tags"]["Cards"] = "it"
    data["tags"]["Trump"] = "10D"  # hand-written: tag values in the Cards style
    assert model_to_record(RecordModel.model_validate(data)).tpgn() == italian.tpgn()


@pytest.mark.parametrize("change, where", [
    (lambda d: d["events"][1].update(card="13O"), "events[1].card"),
    (lambda d: d["events"][0].update(seat="W"), "events[0].seat"),
    (lambda d: d["events"][0].update(seat="X"), "events[0].seat"),
    (lambda d: d["events"][2].update(suit="Z"), "events[2].suit"),
    (lambda d: d["events"][0].update(type="discard"), "events[0]"),
    (lambda d: d["events"][0].update(nags=[300]), "events[0].nags[0]"),
    (lambda d: d["events"][0].update(colour="red"), "events[0].colour"),
    (lambda d: d.update(termination="N+1"), "termination"),
    (lambda d: d.update(termination="draw"), "termination"),
    (lambda d: d.update(version=2), "version"),
    (lambda d: d.update(cards="klingon"), "cards"),
    (lambda d: d.update(tage={}), "tage"),
    (lambda d: d.pop("tags"), "tags"),
    (lambda d: d["tags"].update({"Bad Name": "x"}), "tags"),
    (lambda d: d["tags"].update(Event="two\nlines"), "tags.Event"),
    (lambda d: d["tags"].update(Cards="names"), "tags.Cards"),
])
def test_invalid_json_records_are_located(change, where: str) -> None:  # type: ignore[no-untyped-def]
    record = read_record('[Rules "playcard-2p"]\n[Trump "12O"]\n[Result "*"]\n\n1. N 1O 3O\nN 20C\n*\n')
    good = json.loads(to_json(record))
    bad = json.loads(json.dumps(good))
    change(bad)
    lines = [json.dumps(good), "", json.dumps(bad), json.dumps(good)]
    with pytest.raises(JsonRecordError) as info:
        list(iter_jsonl("\n".join(lines) + "\n", strict=True))
    error = info.value
    assert isinstance(error, TuteError) and isinstance(error, ValueError) and isinstance(error, NotationError)
    assert error.line == 3 and error.index == 1
    assert error.path.startswith(where) and where in str(error) and ":3:" in str(error)
    lenient = list(iter_jsonl("\n".join(lines)))
    assert [bool(r.errors) for r in lenient] == [False, True, False]
    assert lenient[1].errors[0].line == 3


def test_not_json_at_all() -> None:
    with pytest.raises(JsonRecordError, match=r"<text>:2:\d+ \(record 2\): not valid JSON"):
        list(iter_jsonl('{"tags": {}}\n{"tags": \n', strict=True))
    with pytest.raises(JsonRecordError, match="a record is a JSON object"):
        from_json("[1, 2]")
    with pytest.raises(JsonRecordError, match=r":3:\d+: not valid JSON"):  # a broken document is unreadable
        list(iter_json('[\n{"tags": {}},\n{"tags": }\n]'))
    with pytest.raises(JsonRecordError, match="expected , or ]"):
        list(iter_json('[{"tags": {}} {"tags": {}}]'))


def test_json_documents_array_or_one_object(archives) -> None:  # type: ignore[no-untyped-def]
    texts, records = archives["torofun-3p"]
    array = "[\n" + ",\n".join(json.dumps(record_to_model(r).model_dump(), indent=2) for r in records[:5]) + "\n]\n"
    back = list(iter_json(array, strict=True))
    assert [r.tpgn() for r in back] == texts[:5]
    lines = array.split("\n")
    assert back[0].line == 2 and all(lines[r.line - 1] == "{" and lines[r.line - 2] in ("[", "},") for r in back)
    assert list(iter_json("[ ]")) == []
    single = list(iter_json(json.dumps(record_to_model(records[0]).model_dump(), indent=1), strict=True))
    assert single[0].tpgn() == texts[0]


# ---------------------------------------------------------------------------
# The schema.

def test_schema_file_is_current() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "docs/schema/record.schema.json is out of date: python -m tutepgn.notation.jsonmodel > docs/schema/record.schema.json")


def test_schema_marks_derived_fields_and_requires_only_input() -> None:
    schema = json_schema()
    props = schema["properties"]
    derived = ["rules", "players", "seats", "dealer", "deal", "stock", "trump", "trump_suit", "score", "result"]
    assert all(props[k].get("readOnly") for k in derived)
    assert not any(props[k].get("readOnly") for k in ("version", "cards", "tags", "intro", "events", "termination"))
    assert all("Authoritative" in props[k]["description"] for k in ("tags", "events", "termination"))
    assert schema["required"] == ["tags"]
    assert schema["$defs"]["PlayEvent"]["required"] == ["type", "seat", "card"]
    assert schema["$defs"]["PlayEvent"]["properties"]["trick"]["readOnly"] is True


# ---------------------------------------------------------------------------
# The conversion library.

def test_convert_library_forms_and_errors(archives) -> None:  # type: ignore[no-untyped-def]
    texts, _ = archives["playcard-2p"]
    text = "\n".join(texts[:20])
    jsonl = "".join(convert(text, to="jsonl"))
    assert len(jsonl.splitlines()) == 20
    array = "".join(convert(jsonl, to="json", cards="names"))
    assert len(json.loads(array)) == 20 and array.startswith("[\n{") and array.endswith("}\n]\n")
    assert "".join(convert(array, to="tpgn")) == text + ("" if text.endswith("\n") else "\n")
    assert "".join(convert(io.StringIO(array), to="tpgn", cards="fr")).count('[Cards "fr"]') == 20
    assert "".join(convert("", to="json")) == "[]\n"
    with pytest.raises(ConvertError, match="spaces"):
        convert(text, to="tpgn", cards="names")
    for bad in ({"to": "xml"}, {"cards": "klingon"}, {"from_cards": "en"}):
        with pytest.raises(ConvertError):
            convert(text, **{"to": "json", **bad})  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        convert("no/such/file.tpgn", to="json")
    conversion = convert(jsonl, to="tpgn", from_cards="it")
    assert conversion.warnings and "ignored" in conversion.warnings[0]


def test_convert_reports_bad_records_and_goes_on(archives) -> None:  # type: ignore[no-untyped-def]
    texts, _ = archives["torofun-2p"]
    broken = texts[1].replace("\n1. ", "\n1. N 9Z\n2. ", 1)
    conversion = convert("\n".join([texts[0], broken, texts[2]]), to="jsonl")
    lines = "".join(conversion).splitlines()
    assert len(lines) == 2 and conversion.read == 3 and conversion.written == 2 and conversion.failed == 1
    error = conversion.errors[0]
    assert error.index == 1 and error.line == texts[0].count("\n") + 2 + texts[1].split("\n\n")[0].count("\n") + 2


def test_format_detection() -> None:
    assert [format_of_path(p) for p in ("a.tpgn", "a.JSON", "b.jsonl", "c.ndjson", "d.txt", None)] == [
        "tpgn", "json", "jsonl", "jsonl", None, None]
    assert sniff('[Event "x"]\n') == "tpgn" and sniff('[ Event "x"]') == "tpgn" and sniff("; file\n[E \"x\"]") == "tpgn"
    assert sniff("\ufeff[\n  {") == "json" and sniff("[]") == "json"
    assert sniff('{"tags": {}}\n{"tags": {}}\n') == "jsonl" and sniff('{\n  "tags": {}\n}\n') == "json"
    assert sniff("{a brace comment}\n1. N 1O 3O") == "tpgn"


def test_iter_input_reads_any_form(archives, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    texts, records = archives["torofun-4p"]
    jsonl = "".join(to_json(r) + "\n" for r in records[:3])
    for name, content in (("a.tpgn", "\n".join(texts[:3])), ("a.json", jsonl), ("a.jsonl", jsonl), ("a.txt", jsonl)):
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        assert [r.tpgn() for r in iter_input(path)] == texts[:3], name
        assert [r.tpgn() for r in iter_input(str(path))] == texts[:3], name
        assert [r.tpgn() for r in iter_input(io.StringIO(content))] == texts[:3], name


# ---------------------------------------------------------------------------
# tute convert.

@pytest.fixture()
def deals_file(archives, tmp_path: Path) -> tuple[Path, list[str]]:  # type: ignore[no-untyped-def]
    texts, _ = archives["ludoteka-pairs"]
    path = tmp_path / "deals.tpgn"
    path.write_text("\n".join(texts[:10]), encoding="utf-8")
    return path, texts[:10]


def test_cli_convert_each_target_and_back(deals_file, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, texts = deals_file
    expected = "\n".join(texts)
    for target in ("tpgn", "json", "jsonl"):
        result = runner.invoke(app, ["convert", str(path), "--to", target])
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
        if target == "json":
            assert len(json.loads(result.stdout)) == 10
        elif target == "jsonl":
            assert [json.loads(x)["tags"]["Round"] for x in result.stdout.splitlines()] == [str(i) for i in range(1, 11)]
        else:
            assert result.stdout == expected
        out = tmp_path / f"out.{target}"
        result = runner.invoke(app, ["convert", str(path), "-o", str(out)])  # the form from the extension
        assert result.exit_code == 0, result.output
        back = runner.invoke(app, ["convert", str(out), "--to", "tpgn"])
        assert back.exit_code == 0 and back.stdout == expected, target


def test_cli_convert_styles_and_stdin(deals_file, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, texts = deals_file
    expected = "\n".join(texts)
    names = runner.invoke(app, ["convert", str(path), "--to", "jsonl", "--cards", "names"])
    assert names.exit_code == 0 and '"cards":"names"' in names.stdout and "rey de" in names.stdout
    back = runner.invoke(app, ["convert", "-", "--to", "tpgn"], input=names.stdout)  # stdin, form from content
    assert back.exit_code == 0 and back.stdout == expected
    italian = runner.invoke(app, ["convert", str(path), "--to", "tpgn", "--cards", "it"])
    assert italian.exit_code == 0 and italian.stdout.count('[Cards "it"]') == 10
    bare = italian.stdout.replace('[Cards "it"]\n', "")
    back = runner.invoke(app, ["convert", "-", "--to", "tpgn", "--from-cards", "it"], input=bare)
    assert back.exit_code == 0 and back.stdout == expected


def test_cli_convert_invalid_records_exit_1_with_location(deals_file, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, texts = deals_file
    broken = list(texts)
    broken[3] = broken[3].replace("\n1. ", "\n1. N 9Z\n2. ", 1)
    bad = tmp_path / "bad.tpgn"
    bad.write_text("\n".join(broken), encoding="utf-8")
    line = "\n".join(broken[:3]).count("\n") + 2 + broken[3].split("\n\n")[0].count("\n") + 2
    result = runner.invoke(app, ["convert", str(bad), "--to", "jsonl"])
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 9
    assert f"bad.tpgn:{line}:" in result.stderr and "(record 4)" in result.stderr
    assert "1 of 10 records" in result.stderr
    jsonl = tmp_path / "bad.jsonl"
    rows = [json.loads(x) for x in runner.invoke(app, ["convert", str(path), "--to", "jsonl"]).stdout.splitlines()]
    rows[6]["events"][5]["card"] = "99X"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = runner.invoke(app, ["convert", str(jsonl), "--to", "tpgn"])
    assert result.exit_code == 1
    assert "bad.jsonl:7:1 (record 7): events[5].card: '99X' is not a card in style es" in result.stderr


def test_cli_convert_usage_errors_exit_2(deals_file, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, _ = deals_file
    broken_json = tmp_path / "broken.json"
    broken_json.write_text('[{"tags": {}}, {"tags": ', encoding="utf-8")
    for args, message in (
        (["convert", str(path), "--to", "tpgn", "--cards", "names"], "spaces"),
        (["convert", str(path), "--to", "xml"], "unknown target form"),
        (["convert", str(path), "--to", "json", "--cards", "klingon"], "unknown card style"),
        (["convert", str(path), "--to", "json", "--from-cards", "names"], "cannot be read in card style"),
        (["convert", str(path)], "--to"),
        (["convert", str(tmp_path / "missing.tpgn"), "--to", "json"], "no such file"),
        (["convert", str(path), "-o", str(path)], "input too"),
        (["convert", str(broken_json), "--to", "tpgn"], "broken.json:1:"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "error:" in result.stderr and message in result.stderr, (args, result.stderr)
        assert result.stdout == ""
