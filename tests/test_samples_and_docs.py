"""The sample records and the examples of docs/notation.md: they parse, replay, score, round-trip, and show what they claim.

Every file under samples/ is read strictly; every complete record replays
legally and its Score and Result tags are the engine's; records written in
export layout give back their bytes; and each hand-made sample is checked for
the feature its name promises (samples/README.md lists them).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from tutepgn.cards import CARD_RANK, CARD_STYLES, CARD_SUIT, OROS, card_from_code
from tutepgn.engine import Deal
from tutepgn.score import ScoreSheet
from tutepgn.events import Cante, Exchange, Play, Tute
from tutepgn.notation import UNFINISHED, Record, format_side_values, iter_records, read_record, result_text
from tutepgn.rules import PRESETS
from tutepgn.check.validate import validate

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
DOC = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")

ALL_FILES = sorted(SAMPLES.rglob("*.tpgn"))
HAND_FILES = sorted(SAMPLES.glob("*.tpgn"))
LAX_FILES = {"hand-written.tpgn"}
"""Samples written in the import format, by hand: they are not their own export."""
STYLE = {"torofun-2p-italian-cards.tpgn": "it"}
"""Samples written in a card style other than es: they round-trip in that style."""

DOC_BLOCKS = re.findall(r"^```tpgn\n(.*?)^```$", DOC, flags=re.M | re.S)


def name(path: Path) -> str:
    return str(path.relative_to(SAMPLES))


@lru_cache(maxsize=None)
def records(path: Path) -> tuple[Record, ...]:
    """Every record of a sample file, read strictly."""
    return tuple(iter_records(path, strict=True))


def sample(file: str) -> tuple[Record, ...]:
    return records(SAMPLES / file)


def replay(record: Record) -> tuple[Deal, ScoreSheet]:
    """Replay a record's events from its tags; the sheet is scored against its MatchTarget if it has one."""
    deal = record.header().deal()
    for event in record.events:
        deal.apply(event)
    target = record.tags.get("MatchTarget")
    return deal, deal.score(int(target) if target is not None else None)


def check_score_and_result(record: Record) -> ScoreSheet:
    """A complete record replays and claims the engine's Score and Result."""
    deal, sheet = replay(record)
    assert deal.over, f"{record!r}: the play stops before the end of the deal but the result is {record.result}"
    header = record.header()
    claimed = header.claimed_score  # the sides in any order in a lax record
    assert claimed is not None
    assert format_side_values(claimed, header.rules) == format_side_values(sheet.totals, header.rules)
    assert record.tags["Result"] == result_text(sheet, header.rules) == record.termination
    return sheet


def side_of_seat(record: Record, letter: str) -> int:
    rules = record.header().rules
    return rules.side_of(rules.seat_names.index(letter))


# ---------------------------------------------------------------------------
# Every sample file and every example of the spec.


def test_there_are_enough_samples() -> None:
    hand = [r for path in HAND_FILES for r in records(path)]
    assert len(hand) >= 12
    assert {r.header().rules.preset for r in hand} == set(PRESETS)
    assert (SAMPLES / "README.md").exists()
    listed = (SAMPLES / "README.md").read_text(encoding="utf-8")
    for path in HAND_FILES:
        assert f"`{path.name}`" in listed, f"samples/README.md does not describe {path.name}"
    assert len(list((SAMPLES / "simulated").glob("*.tpgn"))) >= 5


@pytest.mark.parametrize("path", ALL_FILES, ids=name)
def test_sample_parses_strictly_and_scores_as_the_engine(path: Path) -> None:
    recs = records(path)
    assert recs, f"{name(path)} holds no record"
    for record in recs:
        assert not record.errors
        if record.termination == UNFINISHED:
            deal, _ = replay(record)  # what was played was legal
            assert not deal.over
        else:
            check_score_and_result(record)


@pytest.mark.parametrize("path", [p for p in ALL_FILES if p.name not in LAX_FILES], ids=name)
def test_export_layout_sample_round_trips_byte_for_byte(path: Path) -> None:
    style = STYLE.get(path.name, "es")
    text = path.read_text(encoding="utf-8")
    assert "\n".join(r.tpgn(style) for r in records(path)) == text


@pytest.mark.parametrize("path", [SAMPLES / f for f in sorted(LAX_FILES)], ids=name)
def test_lax_sample_export_is_idempotent(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    once = "\n".join(r.tpgn() for r in records(path))
    assert once != text, "a lax sample should not already be in export format"
    twice = "\n".join(r.tpgn() for r in iter_records(once, strict=True))
    assert twice == once
    # The same text with a byte order mark and CRLF line ends reads the same.
    crlf = "\ufeff" + text.replace("\n", "\r\n")
    assert "\n".join(r.tpgn() for r in iter_records(crlf, strict=True)) == once


def test_the_doc_has_examples() -> None:
    assert len(DOC_BLOCKS) >= 6


@pytest.mark.parametrize("index", range(len(DOC_BLOCKS)))
def test_doc_example_parses_and_scores(index: int) -> None:
    block = DOC_BLOCKS[index]
    recs = list(iter_records(block, strict=True))
    assert recs
    for record in recs:
        assert not record.errors
        if record.header().result_only:  # sin jugadas: nothing to replay, the Score and Result must agree
            assert validate(record).valid
        elif record.termination != UNFINISHED:
            check_score_and_result(record)


def test_doc_has_an_export_format_record_for_every_preset() -> None:
    exported: set[str] = set()
    for block in DOC_BLOCKS:
        for style in ("es", "it", "fr"):
            recs = list(iter_records(block, strict=True))
            if len(recs) == 1 and recs[0].tpgn(style) == block and recs[0].termination != UNFINISHED:
                exported.add(recs[0].header().rules.preset)
    assert exported == set(PRESETS)


def test_doc_card_table_lists_every_card_in_every_style() -> None:
    rows = [line for line in DOC.splitlines() if line.startswith("| `") and line.count("|") == 7]
    cells = [[c.strip().strip("`") for c in row.strip("|").split("|")] for row in rows]
    table = [row for row in cells if row[0] in CARD_STYLES["es"]]
    assert len(table) == 40
    for row in table:
        c = card_from_code(row[0])
        assert row == [CARD_STYLES[s][c] for s in ("es", "es-letters", "it", "fr", "en", "names")]


def test_doc_lax_example_exports_as_shown() -> None:
    lax = (SAMPLES / "hand-written.tpgn").read_text(encoding="utf-8")
    assert lax in DOC_BLOCKS
    assert read_record(lax).tpgn() in DOC_BLOCKS


# ---------------------------------------------------------------------------
# What each sample shows.


def test_ludoteka_match_is_one_continuous_match() -> None:
    recs = sample("ludoteka-match.tpgn")
    assert len(recs) >= 3
    assert {r.tags["Rules"] for r in recs} == {"ludoteka-pairs"}
    assert len({r.tags["Match"] for r in recs}) == 1
    assert [r.tags["DealNo"] for r in recs] == [str(i + 1) for i in range(len(recs))]
    target = int(recs[0].tags["MatchTarget"])
    standing = [0, 0]
    for i, record in enumerate(recs):
        assert int(record.tags["MatchTarget"]) == target
        assert record.header().match_score == tuple(standing), f"deal {i + 1}: MatchScore is not the standing so far"
        assert max(standing) < target, "a deal after the end of the match"
        deal, sheet = replay(record)
        assert deal.dealer == i % 4, "the deal passes one seat each deal"
        standing = [s + p for s, p in zip(standing, sheet.match_points)]
    assert max(standing) >= target, "the match is not finished"
    assert sorted(standing) == [2, 4]


def test_ludoteka_first_deal_plays_in_oros_and_the_2_of_oros_leads() -> None:
    first = sample("ludoteka-match.tpgn")[0]
    assert first.tags["DealNo"] == "1"
    deal, _ = replay(first)
    assert deal.trump == OROS
    assert CARD_SUIT[first.header().turned] != OROS, "the turned card should not already be oros"
    holder = next(s for s, hand in enumerate(first.header().hands) if hand >> card_from_code("2O") & 1)
    assert deal.first_leader == holder != deal.mano
    assert first.events[0] == Play(holder, first.events[0].card)
    cantes = [i for i, e in enumerate(first.events) if type(e) is Cante]
    assert len(cantes) == 2 and cantes[1] == cantes[0] + 1, "two cantes after one trick"
    assert any(r.tags["Result"].endswith("+2") for r in sample("ludoteka-match.tpgn")), "a double in the match"


def test_playcard_exchange_of_the_7_and_a_cante_after_the_stock() -> None:
    (record,) = sample("playcard-exchange-and-late-cante.tpgn")
    assert record.header().rules.preset == "playcard-2p"
    exchanges = [e for e in record.events if type(e) is Exchange]
    assert exchanges and all(CARD_RANK[e.card] == 7 for e in exchanges)
    deal = record.header().deal()
    late = []
    for event in record.events:
        if type(event) is Cante and deal.stock_left == 0:
            late.append(event)
        deal.apply(event)
    assert late, "no cante after the stock ran out"


def test_torofun_2p_exchanges_the_7_and_the_2() -> None:
    for file in ("torofun-2p-exchange-7-and-2.tpgn", "torofun-2p-italian-cards.tpgn"):
        (record,) = sample(file)
        assert record.header().rules.preset == "torofun-2p"
        ranks = [CARD_RANK[e.card] for e in record.events if type(e) is Exchange]
        assert ranks == [7, 2], file


def test_italian_cards_sample_is_written_in_the_it_style() -> None:
    text = (SAMPLES / "torofun-2p-italian-cards.tpgn").read_text(encoding="utf-8")
    assert '[Cards "it"]' in text
    (record,) = sample("torofun-2p-italian-cards.tpgn")
    assert "Cards" not in record.tags
    assert record.tpgn() != text and read_record(record.tpgn()).tpgn("it") == text


def test_tutes_and_their_effects() -> None:
    by_preset = {}
    for record in sample("tutes.tpgn"):
        _, sheet = replay(record)
        assert sheet.tute is not None and type(record.events[-1]) is Tute
        by_preset[record.header().rules.preset] = (record, sheet)
    first_lead, sheet = by_preset["playcard-2p"]
    assert type(first_lead.events[0]) is Tute, "the tute comes before the first lead"
    assert first_lead.result == "S+1"
    ludoteka, sheet = by_preset["ludoteka-pairs"]
    assert ludoteka.header().rules.match_target >= 5 and max(sheet.match_points) == 2 and not sheet.wins_match
    torofun, sheet = by_preset["torofun-3p"]
    assert sheet.wins_match and torofun.result.endswith("+match")


def test_tie_decided_by_the_last_trick() -> None:
    (record,) = sample("tie-decided-by-last-trick.tpgn")
    _, sheet = replay(record)
    assert sheet.tie_break and len(set(sheet.totals)) == 1
    assert sheet.winner == sheet.last_trick_side
    assert sheet.card_points[sheet.winner] != sheet.card_points[1 - sheet.winner]


def test_doubles_count_what_their_ruleset_counts() -> None:
    ludoteka, same_deal, over_120 = sample("doubles.tpgn")
    _, sheet = replay(ludoteka)
    winner = sheet.winner
    cards_and_last = sheet.card_points[winner] + sheet.last_trick_bonus * (sheet.last_trick_side == winner)
    assert ludoteka.header().rules.preset == "ludoteka-pairs" and sheet.doubled
    assert sheet.totals[winner] > 100 >= cards_and_last, "the cantes make this double"
    _, same = replay(same_deal)
    assert same_deal.header().rules.preset == "torofun-4p" and same_deal.tags["Deal"] == ludoteka.tags["Deal"]
    assert [e for e in same_deal.events if type(e) is Play] == [e for e in ludoteka.events if type(e) is Play]
    assert same.totals[same.winner] > 120 and not same.doubled and same_deal.result.endswith("+1")
    _, big = replay(over_120)
    w = big.winner
    assert over_120.header().rules.preset == "torofun-4p" and big.doubled and over_120.result.endswith("+2")
    assert big.card_points[w] + big.last_trick_bonus * (big.last_trick_side == w) > 120


def test_unfinished_deal_ends_in_an_open_trick() -> None:
    (record,) = sample("unfinished-deal.tpgn")
    assert record.termination == record.result == UNFINISHED and "Score" not in record.tags
    deal, sheet = replay(record)
    assert not deal.over and deal.trick, "the last trick should be incomplete"
    assert sheet.winner is None


def test_torofun_3p_and_4p_deals() -> None:
    (three,) = sample("torofun-3p.tpgn")
    assert three.header().rules.preset == "torofun-3p" and three.header().rules.sides == 3
    _, sheet = replay(three)
    assert sheet.tie_break, "the 3-player sample breaks a tie between two of the three"
    (four,) = sample("torofun-4p-lost-cante.tpgn")
    assert four.header().rules.preset == "torofun-4p"
    deal, _ = replay(four)
    assert deal.lost_cantes, "no cante was lost by silence"


def test_hand_written_sample_uses_the_lax_forms() -> None:
    text = (SAMPLES / "hand-written.tpgn").read_text(encoding="utf-8")
    (record,) = sample("hand-written.tpgn")
    assert text.startswith(";"), "file comments"
    assert re.search(r"\b(ab|sc|rb|co)\b", text), "lower case and letter ranks"
    assert "{" in text and re.search(r"^[^;\n]+;", text, flags=re.M), "brace and line comments"
    assert re.search(r"[0-9]\.[NWSE]", text), "irregular spacing"
    assert re.search(r"(?m)^\d+\..*\d+\. ", text), "several tricks on a line"
    assert record.tags["Rules"] == "playcard", "the preset alias"
    notes = [e.note for e in record.entries if e.note is not None]
    assert any(n.nags for n in notes) and any(n.comments for n in notes) and record.intro
    tag_lines = [line for line in record.tpgn().splitlines() if line.startswith("[")]
    assert tag_lines[-1].startswith("[Annotator "), "an unknown tag, written after the known ones"
    check_score_and_result(record)
