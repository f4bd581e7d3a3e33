"""The import's workers build whole columns at once (plays from the deals' event codes, the hands' cards from
their masks, the tags MAP from flat lists, the Deal tag from a text per suit): each is held here to what a
straightforward loop over the same records gives, card by card, on every sample record and records made wrong
on purpose."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tutepgn.archive import rows
from tutepgn.cards import CARD_POINTS, CARD_RANK, CARD_STYLES, CARD_SUIT, CODES, SUIT_LETTERS, display_cards
from tutepgn.check.validate import validate_records
from tutepgn.events import Play
from tutepgn.notation import iter_raw_records, parse_or_placeholder
from tutepgn.notation.inputs import expand
from tutepgn.notation.writer import deal_value
from tutepgn.rules import SEAT_NAMES

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _spoilt(raw: list[rows.Raw]) -> list[rows.Raw]:
    """Each record once more with a line dropped, a card word changed or two words swapped (a fixed seed)."""
    rng = random.Random(11)
    out = []
    for k, (_, _, _, text) in enumerate(raw):
        lines = text.split("\n")
        at = rng.randrange(len(lines))
        words = lines[at].split(" ")
        how = k % 3
        if how == 0:
            del lines[at]
        elif how == 1:
            words[rng.randrange(len(words))] = rng.choice(["13O", "1X", "7B", "N"])
            lines[at] = " ".join(words)
        elif len(words) > 2:
            a, b = rng.randrange(1, len(words)), rng.randrange(1, len(words))
            words[a], words[b] = words[b], words[a]
            lines[at] = " ".join(words)
        out.append(("spoilt", k, 1, "\n".join(lines)))
    return out


@pytest.fixture(scope="module")
def piece() -> list[rows.Raw]:
    raw = list(iter_raw_records(expand([str(SAMPLES)])))
    return raw + _spoilt(raw)


def _expected(piece: list[rows.Raw]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[list[tuple[str, str]]]]:
    """The plays' rows, the hands' (deal, cards) and each deal's tags, card by card in plain Python."""
    records = [parse_or_placeholder(t, first_line=line, source=s, index=i) for s, i, line, t in piece]
    plays: list[tuple[Any, ...]] = []
    hands: list[tuple[Any, ...]] = []
    tags: list[list[tuple[str, str]]] = []
    seen: set[int] = set()
    for report, (_, _, _, text) in zip(validate_records(records), piece):
        out = rows.new_rows({})
        if not rows.add_rows(report, text, out):
            continue
        did = out.plays["ids"][0]
        if did in seen:
            continue
        seen.add(did)
        record, rules, sheet = report.record, report.rules, report.sheet
        names = rules.seat_names if rules else SEAT_NAMES[4]
        n = len(names)
        player = [record.tags.get({"N": "North", "W": "West", "S": "South", "E": "East"}[x]) for x in names]
        winners = [t.winner for t in sheet.tricks] if sheet else []
        for k, e in enumerate([e for e in record.events if type(e) is Play]):
            trick = k // n
            won = trick < len(winners) and winners[trick] == e.seat
            plays.append((did, k + 1, trick + 1, k % n, names[e.seat], player[e.seat], CODES[e.card],
                          SUIT_LETTERS[CARD_SUIT[e.card]], CARD_RANK[e.card], CARD_POINTS[e.card], won))
        hands.extend((did, [CODES[c] for c in display_cards(m or 0)]) for m in out.columns["hands"]["mask"])
        tags.append(list(record.tags.items()))
    return plays, hands, tags


def test_the_columns_made_at_once_are_those_of_a_loop_card_by_card(piece: list[rows.Raw]) -> None:
    tables = rows.arrow_batch(piece)
    plays, hands, tags = _expected(piece)
    assert tables["deals"].num_rows == len(tags) > 2 * 20
    assert tables["deals"].column("valid").to_pylist().count(False) > 10  # the spoilt records are there
    got = tables["plays"]
    assert list(zip(*(got.column(c).to_pylist() for c in got.column_names))) == plays
    assert list(zip(tables["hands"].column("deal_id").to_pylist(), tables["hands"].column("cards").to_pylist())) == hands
    assert tables["deals"].column("tags").to_pylist() == tags


def test_event_codes_in_python_are_those_of_the_c_core(piece: list[rows.Raw], monkeypatch: pytest.MonkeyPatch) -> None:
    if rows.encode([], 4) is None:
        pytest.skip("the C extension is not built")
    records = [parse_or_placeholder(t, first_line=line, source=s, index=i) for s, i, line, t in piece]
    in_c = [rows.event_codes(r.events, 4) for r in records]
    monkeypatch.setattr(rows, "encode", lambda events, players: None)
    assert [rows.event_codes(r.events, 4) for r in records] == in_c
    assert rows.arrow_batch(piece)["plays"].num_rows > 1000  # the whole piece through the Python codes


def test_the_deal_tag_by_suit_texts_is_the_card_by_card_one() -> None:
    rng = random.Random(3)
    for style, cards in CARD_STYLES.items():
        for _ in range(200):
            hands = (*(rng.getrandbits(40) & rng.getrandbits(40) for _ in range(3)), 0)
            plain = " ".join(f"{s}:" + " ".join(cards[c] for c in display_cards(m)) for s, m in zip("NWSE", hands))
            assert deal_value(hands, ("N", "W", "S", "E"), style) == plain
