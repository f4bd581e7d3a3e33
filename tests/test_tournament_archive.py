"""Club events stored in the archive file: what is written is read back whole, a refusal writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutepgn.archive import Archive
from tutepgn.archive.events import (add_entrants, create_event, enter_board, enter_result, event_names, load_event,
                                    pair_round, player_history)
from tutepgn.errors import EventError
from tutepgn.tournament import BoardResult, Event, Result, ranking, standings

PAIRS = ["Elena Prieto/Hugo Benavides", "Manuel Ortega/Gloria Sastre", "Inés Robles/Elena Carro",
         "Gloria Villa/Fermín Llamas"]


def test_an_event_reads_back_as_it_was_written_across_connections(tmp_path: Path) -> None:
    path = tmp_path / "club.duckdb"
    with Archive(path) as archive:
        create_event(archive, Event(name="Liga", kind="liga", format="round-robin", seed=3))
        add_entrants(archive, "Liga", PAIRS)
        rnd = pair_round(archive, "Liga")
        for t in rnd.tables:
            enter_result(archive, "Liga", 1, Result(table=t.number, matches=(2, 1), deals=(6, 4), points=(500, 420)))
        written = load_event(archive, "Liga")
    with Archive(path, read_only=True) as archive:
        assert load_event(archive, "Liga") == written
        assert event_names(archive) == ["Liga"]
        history = player_history(archive, "elena carro")
    assert [h.entrant.name for h in history] == ["Inés Robles/Elena Carro"] and len(history[0].encounters) == 1
    assert [line.matches_won for line in standings(written)] == [2, 2, 1, 1]


def test_a_refused_write_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    with Archive(tmp_path / "club.duckdb") as archive:
        create_event(archive, Event(name="Copa", format="knockout"))
        with pytest.raises(EventError, match="already"):
            add_entrants(archive, "Copa", [*PAIRS, "Hugo Benavides/Ana Sol"])  # the last one repeats a player
        assert load_event(archive, "Copa").entrants == []
        add_entrants(archive, "Copa", PAIRS)
        pair_round(archive, "Copa")
        with pytest.raises(EventError, match="needs a winner"):
            enter_result(archive, "Copa", 1, Result(table=1, matches=(1, 1)))
        with pytest.raises(EventError, match="without a result"):
            pair_round(archive, "Copa")
        assert load_event(archive, "Copa").rounds[0].results == {} and len(load_event(archive, "Copa").rounds) == 1
        with pytest.raises(EventError, match="exists already"):
            create_event(archive, Event(name="Copa"))
        with pytest.raises(EventError, match="no event named"):
            load_event(archive, "Nada")


def test_duplicate_boards_are_stored_and_ranked(tmp_path: Path) -> None:
    with Archive(tmp_path / "club.duckdb") as archive:
        create_event(archive, Event(name="Dup", format="duplicate", boards_per_round=1, seed=12))
        add_entrants(archive, "Dup", PAIRS)
        rnd = pair_round(archive, "Dup")
        for t, points in zip(rnd.tables, [(90, 40), (60, 70)]):
            enter_board(archive, "Dup", 1, BoardResult(table=t.number, board=1, points=points))
        with pytest.raises(EventError, match="board 2 is not played"):
            enter_board(archive, "Dup", 1, BoardResult(table=1, board=2, points=(1, 2)))
        event = load_event(archive, "Dup")
    lines = {line.entrant: line.percentage for line in ranking(event)}
    first = rnd.tables[0]
    assert first.away is not None and (lines[first.home], lines[first.away]) == (100.0, 0.0)
