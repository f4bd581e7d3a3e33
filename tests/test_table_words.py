"""What the table sees, in its own words (issue 35, part "esplay"): cards, suits and seats named in words in
Spanish sentences, the recorder's commands in both languages, the trump suit (not the muestra) shown in a
match's first deal, dates as the language writes them, and the validator's findings grouped under the first
error they follow from."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutepgn.cards import card_from_code
from tutepgn.check.validate import explain_score, validate
from tutepgn.cli.main import app
from tutepgn.events import PLAYS, Context
from tutepgn.errors import IllegalPlay
from tutepgn.i18n import speaking
from tutepgn.notation import iter_records, read_record
from tutepgn.recording.live import changes
from tutepgn.recording.commands import asks, is_undo
from tutepgn.recording.recorder import Recorder
from tutepgn.rules import preset
from tutepgn.words import card_words, cards_words, date_words, seat_words, suit_words

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "ludoteka-match.tpgn"
LETTER = re.compile(r"(?<![\w\[])[NSWEOCB](?![\w\]])")
"""A lone seat or suit letter in running text."""


def first_deal() -> str:
    """The sample match's first deal (ludoteka-pairs: oros is trump whatever the muestra, 2B), as written."""
    return SAMPLE.read_text(encoding="utf-8").split("\n\n[Event")[0] + "\n"


def test_cards_suits_and_seats_in_spanish_words() -> None:
    with speaking("es"):
        assert card_words(card_from_code("11C")) == "el caballo de copas"
        assert card_words("1O") == "el as de oros" and card_words("7B") == "el 7 de bastos"
        assert card_words("10E") == "la sota de espadas" and card_words("12O") == "el rey de oros"
        assert cards_words([card_from_code(c) for c in ("1O", "3O", "10C")]) == \
            "el as de oros, el 3 de oros y la sota de copas"
        assert suit_words(3) == suit_words("B") == "bastos"
        assert [seat_words(s) for s in ("N", "S", "E", "W", "NS", "WE")] == \
            ["Norte", "Sur", "Este", "Oeste", "Norte-Sur", "Oeste-Este"]
        assert seat_words("Elena") == "Elena" and seat_words("?") == "?"  # not a seat: left as it is


def test_english_names_suits_and_keeps_the_notation_of_cards_and_seats() -> None:
    with speaking("en"):
        assert (card_words("11C"), suit_words("C"), seat_words("NS")) == ("11C", "copas", "NS")


def test_an_illegal_play_is_refused_in_the_words_of_the_table() -> None:
    deal = read_record(first_deal()).header().deal()
    deal.apply(PLAYS[2][card_from_code("6B")])  # Sur leads the 6 de bastos; Este holds 7B, 11B and 3B
    with speaking("es"), pytest.raises(IllegalPlay) as refused:
        deal.apply(PLAYS[3][card_from_code("7O")])
    message = refused.value.message
    assert message.startswith("Este debe montar la carta más alta de bastos en la baza (el 6 de bastos)"), message
    assert "el 7 de oros" in message and "(puede jugar el 7 de bastos, el caballo de bastos y el 3 de bastos)" in message, message
    assert not LETTER.search(message) and not re.search(r"\d[OCEB]\b", message), message
    with pytest.raises(IllegalPlay) as in_english:
        deal.apply(PLAYS[3][card_from_code("7O")])
    assert "7O breaks it" in in_english.value.message and "(may play 7B 11B 3B)" in in_english.value.message


def test_the_recorders_commands_in_both_languages(tmp_path: Path) -> None:
    rec = Recorder.start("ludoteka-pairs", turned="4B", dealer="N")
    for word in ("?", "help", "ayuda", "AYUDA"):
        reply = rec.enter(word)
        assert not reply.refused and reply.legal and reply.frame is not None, word
    assert not rec.enter("W 1O").refused and not rec.enter("3O").refused
    reply = rec.enter("deshacer")
    assert not reply.refused and len(rec.deal.log) == 1
    assert not rec.enter("3O").refused and not rec.enter("4O").refused
    assert not rec.enter("deshacer 2").refused and len(rec.deal.log) == 1
    assert not rec.enter("undo").refused and not rec.deal.log
    with speaking("es"):
        assert "deshacer 0 no quita nada" in rec.enter("deshacer 0").message
    for word in ("fin", "end", "FIN"):
        reply = rec.enter(word)
        assert reply.end and not reply.refused and not rec.deal.log
    assert is_undo("deshacer 3") and is_undo("Undo") and not is_undo("deshace")
    assert all(asks(w) and not changes(w) for w in ("ayuda", "help", "?", "fin", "end"))
    assert changes("deshacer") and changes("1O")


def test_tute_record_stops_on_fin_keeping_what_was_entered(tmp_path: Path) -> None:
    path = tmp_path / "club.tpgn"
    with speaking("en"):  # --lang sets the language for the rest of the context: kept inside this block
        result = CliRunner().invoke(app, ["--lang", "es", "record", "--rules", "ludoteka-pairs", "--single",
                                          "--players", "Ana,Blas,Carmen,Dario", "--event", "Club", "--turned", "4B",
                                          "-o", str(path)], input="ayuda\n1O\nfin\n1C\n")
    assert result.exit_code == 0, result.output
    assert "deshacer para quitar la última entrada" in result.output  # ayuda lists the commands in Spanish
    assert "Detenido:" in result.output
    record = read_record(path.read_text(encoding="utf-8"))
    assert [e.text(Context(("N", "W", "S", "E"), 3)) for e in record.events] == ["W 1O"]  # fin stopped it: 1C was never read


def test_the_trump_shown_in_a_first_deal_is_the_trump_suit_not_the_muestra() -> None:
    rec = Recorder.start("ludoteka-pairs", turned="2B", dealer="N",
                         tags={"Match": "m", "DealNo": "1", "MatchTarget": "4"})
    frame = rec.frame()
    assert (frame.trump, frame.turned) == ("O", "2B")  # first_deal_trump: oros whatever the muestra
    later = Recorder.start("ludoteka-pairs", turned="2B", dealer="N", tags={"Match": "m", "DealNo": "2"})
    assert later.frame().trump == "B"


@pytest.mark.parametrize("lang, long, short", [("es", "15 de marzo de 2025", "15/03/2025"),
                                               ("en", "15 March 2025", "15 Mar 2025")])
def test_dates_as_the_language_writes_them(lang: str, long: str, short: str) -> None:
    with speaking(lang):
        assert date_words("2025.03.15") == long and date_words("2025.03.15", short=True) == short
        assert date_words(date(2025, 3, 15)) == long
        assert date_words("2025.??.??") == "2025" and date_words("????.??.??") == date_words(None) == "?"
        assert date_words("2025.03.??") == ("marzo de 2025" if lang == "es" else "March 2025")
        assert date_words("2025.02.30") == "2025.02.30"  # not a date: shown as written (the validator says why)


def test_one_card_missing_from_a_trick_gives_one_finding() -> None:
    """The issue's 17 findings: one card left out of trick 3 moved every later card to the next seat, and each
    was reported (out of turn, not held, a duty broken), then the count.  Now: the one error, and a note."""
    text = first_deal().replace("3. W 11O 11E 12O 5O", "3. W 11O 11E 5O")
    report = validate(read_record(text, strict=False))
    assert [(f.code, f.trick) for f in report.errors] == [("syntax", None)], [f.message for f in report.errors]
    assert "trick 3 has 3 cards" in report.errors[0].message
    assert [f.code for f in report.findings if f.severity == "info"] == ["unread_play"]
    assert report.explanation == [] or report.explanation is None


def test_two_cards_swapped_are_both_named_and_what_follows_is_not() -> None:
    """N's 2B and W's 4O swapped in trick 4: both cards are named; the swap gives the trick to N (4O is a trump),
    so trick 5 seems led by the wrong seat and the count and result differ.  Before, those three were reported
    too; they only follow from the swap."""
    text = first_deal().replace("4. E 3B 2B 4O 1B", "4. E 3B 4O 2B 1B")
    report = validate(read_record(text, strict=False))
    assert [(f.code, f.seat) for f in report.errors] == [("not_held", "N"), ("not_held", "W")]
    assert [(f.code, f.line) for f in report.findings if f.severity == "info"] == [("unjudged_rest", 27)]


def test_a_trick_given_to_the_wrong_leader_is_not_followed_card_by_card() -> None:
    """Trick 2 written as led by West (North won trick 1): every later card stands at the wrong seat.  Two
    errors name it; a note says the rest is not judged; no count or result is blamed on it."""
    text = first_deal().replace("2. N 6O 3O 2O 7O", "2. W 6O 3O 2O 7O")
    report = validate(read_record(text, strict=False))
    assert [f.code for f in report.errors] == ["not_your_turn", "not_held"], [f.message for f in report.errors]
    notes = [f for f in report.findings if f.code == "unjudged_rest"]
    assert len(notes) == 1 and notes[0].severity == "info" and notes[0].line == 24
    assert not any(f.code in ("score_mismatch", "result_mismatch", "incomplete") for f in report.findings)


def test_no_trick_guessed_to_the_wrong_side_when_the_play_broke_a_rule() -> None:
    record = read_record(first_deal())
    report = validate(record)
    assert report.sheet is not None and not report.errors
    rules = preset("ludoteka-pairs")
    worth = next(t.points for t in report.sheet.tricks if t.points)
    claimed = (report.sheet.totals[0] + worth, report.sheet.totals[1] - worth)
    guessed = explain_score(report.sheet, claimed, [], rules)
    assert any("credited to the wrong side" in line for line in guessed)
    after_a_revoke = explain_score(report.sheet, claimed, [], rules, play_errors=True)
    assert after_a_revoke and not any("wrong side" in line for line in after_a_revoke)


def test_spanish_findings_name_seats_and_cards_in_words() -> None:
    text = first_deal().replace("2. N 6O 3O 2O 7O", "2. W 6O 3O 2O 7O")  # written as led by Oeste: Norte won trick 1
    with speaking("es"):
        report = validate(read_record(text, strict=False))
    first = report.errors[0]
    assert first.code == "not_your_turn" and "Oeste" in first.message and "Norte" in first.message, first.message
    assert not LETTER.search(first.message), first.message
    assert first.seat == "W"  # the finding's field stays notation


def test_every_sample_deal_still_validates() -> None:
    for record in iter_records(SAMPLE):
        assert not validate(record).errors


def test_one_card_left_out_of_a_hand_in_the_deal_tag_gives_one_finding() -> None:
    """The hand one card short, the card missing from the pack, and its play by a seat that was not dealt it:
    one fact, one finding."""
    text = first_deal().replace(" 6E 4B S:", " 6E S:")  # W's 4B left out of the Deal tag
    with speaking("es"):
        report = validate(read_record(text, strict=False))
    assert [f.code for f in report.errors] == ["hand_size"], [f.message for f in report.errors]
    assert report.errors[0].message == "Oeste recibe 9 cartas; ludoteka-pairs reparte 10: falta el 4 de bastos"


def test_the_deal_and_match_pages_say_dates_seats_and_cantes_in_words(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from tutepgn.api.app import Settings, create_app
    from tutepgn.archive import Archive

    archive = Archive(tmp_path / "a.duckdb")
    assert archive.import_sources([SAMPLE]).added > 0
    archive.close()
    client = TestClient(create_app(Settings(db=tmp_path / "a.duckdb")))
    ids = [d["id"] for d in client.get("/api/v1/deals", params={"limit": 20}).json()["items"]]
    first = next(i for i in ids if '[DealNo "1"]' in client.get(f"/api/v1/deals/{i}.tpgn").text)
    spanish = client.get(f"/deals/{first}", params={"lang": "es"}).text
    heading = re.search(r"<h1[^>]*>.*?</h1>", spanish, re.S)
    assert heading and "15 de marzo de 2025" in heading[0] and "2025.03.15" not in heading[0], heading
    assert "Norte cantó 20 en copas" in spanish and "Sur cantó 20 en espadas" in spanish
    assert re.search(r'<div class="seat-label"><b>Oeste</b>', spanish)
    english = client.get(f"/deals/{first}", params={"lang": "en"}).text
    assert "15 March 2025" in english and "N sang 20 in copas" in english
    found = client.get("/", params={"lang": "es"}).text  # the search page
    assert "15/03/2025" in found


def test_a_refusal_lists_the_legal_cards_only_when_the_hands_are_known() -> None:
    unknown = Recorder.start("ludoteka-pairs", turned="4B", dealer="N")
    assert not unknown.enter("W 1O").refused
    reply = unknown.enter("W 3O")  # not West's turn
    assert reply.refused and reply.legal == ""  # not the 39 cards not played yet
    with speaking("es"):
        said = unknown.enter("1O").message  # already played
    assert said.count("rechazada") == 1 and "el as de oros" in said and "Oeste" in said, said
    known = Recorder.start("ludoteka-pairs", seed=3, dealer="N")
    reply = known.enter("N 1O")  # West is mano and leads: refused whoever holds 1O
    assert reply.refused and " may play " in reply.legal
