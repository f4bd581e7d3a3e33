"""The analysis of played deals: per play values, costs and marks, par, and the identity that ties them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutepgn import Play, preset
from tutepgn.analysis.deal_analysis import CANTES_WITH_STOCK, MARKS, NOT_SEEN, STOCK_HORIZON, analyse, mark
from tutepgn.cards import card_code
from tutepgn.recording.simulate import simulate_deals
from tutepgn.analysis.solve import C_AVAILABLE

BACKENDS = ["python", "c"] if C_AVAILABLE else ["python"]


def finished(name: str, count: int, seed: int) -> list:
    """Simulated deals played to the last trick (a tute ends a deal before the values' end)."""
    return [d for d in simulate_deals(preset(name), count, seed=seed) if d.tute_event is None]


def test_marks_come_from_one_table() -> None:
    assert [mark(c) for c in (0, 2, 3, 9, 10, 19, 20, 60)] == [None, None, "?!", "?!", "?", "?", "??", "??"]
    assert [text for _, text in MARKS] == ["??", "?", "?!"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_players_identity_and_per_play_facts(backend: str) -> None:
    deals = finished("playcard-2p", 8, seed=3) + finished("torofun-2p", 8, seed=4)
    assert len(deals) >= 10
    for deal in deals:
        analysis = analyse(deal, backend=backend)
        assert analysis.identity_holds()
        assert len(analysis.plays) == 16  # the 8 tricks after the stock, every card
        replayed = deal.restart()
        by_index = {p.index: p for p in analysis.plays}
        for index, action in enumerate(deal.log):
            p = by_index.get(index)
            if p is not None:
                assert type(action) is Play and (p.seat, p.card) == (action.seat, action.card)
                legal = sorted(replayed.legal_plays())
                assert sorted(c for v in p.values for c in v.cards) == legal
                assert p.value_before == max(v.value for v in p.values)
                assert p.cost >= 0 and (p.cost == 0) == (p.card in p.best)
                assert p.mark == mark(p.cost) and p.trick == len(replayed.tricks) + 1
            replayed.apply(action)


@pytest.mark.skipif(not C_AVAILABLE, reason="whole 4-player deals need the C core to be quick")
def test_four_players_identity_and_seat_costs() -> None:
    for name in ("torofun-4p", "ludoteka-pairs"):
        for deal in finished(name, 3, seed=21):
            analysis = analyse(deal)
            assert analysis.identity_holds()
            assert len(analysis.plays) == 40
            assert analysis.par[0] + analysis.par[1] == 130 == sum(analysis.actual)
            for seat in range(4):
                assert analysis.costs[seat] == sum(p.cost for p in analysis.plays if p.seat == seat)
            assert analysis.actual_minus_par[0] == analysis.side_costs(1) - analysis.side_costs(0)


def test_cantes_only_add_to_a_sides_par() -> None:
    for deal in finished("playcard-2p", 6, seed=8):
        plain, sung = analyse(deal), analyse(deal, cantes=True)
        assert all(s >= p for s, p in zip(sung.par, plain.par))
        assert all(p.cost >= 0 for p in sung.plays)
        with pytest.raises(ValueError, match="two sides without cantes"):
            sung.identity_holds()


@pytest.mark.skipif(not C_AVAILABLE, reason="whole 3-player deals need the C core to be quick")
def test_three_players_each_seat_against_the_others() -> None:
    deal = finished("torofun-3p", 3, seed=5)[0]
    analysis = analyse(deal)
    assert len(analysis.par) == 3 and len(analysis.plays) == 36
    assert all(p.cost >= 0 for p in analysis.plays)
    with pytest.raises(ValueError):
        analysis.identity_holds()


def test_projection_after_the_last_card_is_the_deals_result() -> None:
    """After the last card nothing is left to play: the projected totals are the score's own."""
    deals = finished("playcard-2p", 6, seed=11) + finished("torofun-4p", 2, seed=12)
    for deal in deals:
        analysis = analyse(deal)
        sheet = deal.score()
        last = analysis.plays[-1]
        assert last.after is not None and last.after.totals == sheet.totals
        assert last.after.winner == (None if sheet.tie_break else sheet.winner)
        assert last.after.doubled == (sheet.doubled and not sheet.tie_break)
        for p in analysis.plays:
            assert p.before is not None and p.after is not None
            assert sum(p.before.totals) == sum(p.after.totals)
            assert p.changed_result == (p.before.result != p.after.result)
            assert p.cost or not p.changed_result  # a best card changes nothing
        assert analysis.turning_points == tuple(p for p in analysis.plays if p.changed_result)


def test_a_turning_point_is_found() -> None:
    """Across simulated deals (random bots blunder), some play flips the projected winner or the double."""
    turning = [p for deal in finished("playcard-2p", 20, seed=13) for p in analyse(deal).turning_points]
    assert turning and all(p.cost > 0 for p in turning)


@pytest.mark.skipif(not C_AVAILABLE, reason="whole 4-player deals need the C core to be quick")
def test_value_after_every_trick() -> None:
    deal = finished("torofun-4p", 2, seed=14)[0]
    analysis = analyse(deal)
    assert len(analysis.trick_values) == 11  # the first lead, then after each of the 10 tricks
    assert analysis.trick_values[0] == analysis.par  # nothing won yet at the first lead
    assert analysis.trick_values[-1] == analysis.actual
    leads = [p for p in analysis.plays if p.index % 4 == 0]
    for lead, values in zip(leads, analysis.trick_values):
        assert values[analysis.seat_sides[lead.seat]] >= lead.value_before  # points so far + the value


def test_to_dict_lists_every_card_and_marks_the_hidden_ones() -> None:
    deal = finished("playcard-2p", 3, seed=15)[0]
    analysis = analyse(deal)
    data = json.loads(json.dumps(analysis.to_dict()))
    played = [a for a in deal.log if type(a) is Play]
    assert [p["card"] for p in data["plays"]] == [card_code(a.card) for a in played]
    hidden = [p for p in data["plays"] if not p["double_dummy"]]
    assert len(hidden) == len(analysis.hidden) == len(played) - 16
    assert all(p["value"] is None and p["cost"] is None for p in hidden)
    assert data["par"] == list(analysis.par) and data["costs"] == list(analysis.costs)
    assert data["turning_points"] == [p.index for p in analysis.turning_points]
    assert data["version"] == 1 and data["complete"] is True


def test_pimc_in_the_analysis_is_double_dummy_when_nothing_is_hidden() -> None:
    """With 2 players after the stock the mover sees every card: each world is the deal, PIMC its exact values."""
    deal = finished("playcard-2p", 2, seed=16)[0]
    analysis = analyse(deal, pimc=3, seed=5)
    for p in analysis.plays:
        assert p.pimc is not None and p.pimc_cost == p.cost
        exact = {c: v.value for v in p.values for c in v.cards}
        assert {v.card: (v.mean, v.stderr) for v in p.pimc} == {c: (float(v), 0.0) for c, v in exact.items()}
    assert analyse(deal, pimc=3, seed=5).to_dict() == analysis.to_dict()
    assert analyse(deal).plays[0].pimc is None


def test_late_stock_plays_get_pimc_values_and_the_others_a_reason() -> None:
    """With --pimc, the plays made with at most stock_horizon cards in the stock are valued over worlds that also
    order the stock; earlier ones, and every one without PIMC or with cantes, say why they are not."""
    deal = finished("torofun-2p", 2, seed=21)[0]
    replayed, left = deal.restart(), {}
    for index, action in enumerate(deal.log):
        if type(action) is Play:
            left[index] = replayed.stock_left
        replayed.apply(action)
    analysis = analyse(deal, pimc=4, seed=3)
    late = [h for h in analysis.hidden if left[h.index] <= STOCK_HORIZON]
    assert [left[h.index] for h in late] == [4, 4, 2, 2]
    for h in analysis.hidden:
        if h in late:
            assert h.reason is None and h.pimc is not None and h.pimc_cost is not None and h.pimc_cost >= 0
            assert h.card in {v.card for v in h.pimc}
        else:
            assert h.pimc is None and h.reason == "more than 4 cards in the stock (the stock horizon)"
    data = {p["index"]: p for p in analysis.to_dict()["plays"]}
    assert all(not data[h.index]["double_dummy"] and data[h.index]["pimc"] for h in late)
    assert analyse(deal, pimc=4, seed=3) == analysis
    assert {h.reason for h in analyse(deal).hidden} == {NOT_SEEN}
    assert {h.reason for h in analyse(deal, pimc=2, stock_horizon=0).hidden} != {None}
    assert {h.reason for h in analyse(deal, pimc=2, cantes=True).hidden} == {CANTES_WITH_STOCK}


def test_one_model_is_the_json_form_and_the_service_serves_it(tmp_path: Path) -> None:
    """``DealAnalysis.model()`` is the library's :class:`AnalysisModel`, ``to_dict`` its dump, in its order; the
    service documents that same class (no copy of the shape in api/), and reading the shape loads no solver."""
    import subprocess
    import sys

    from tutepgn.analysis.model import AnalysisModel, PlayAnalysisModel
    from tutepgn.api.app import Settings, create_app

    deal = finished("torofun-2p", 2, seed=21)[0]
    analysis = analyse(deal, pimc=2, seed=1)
    model = analysis.model()
    assert isinstance(model, AnalysisModel) and model.model_dump(mode="json") == analysis.to_dict()
    data = analysis.to_dict()
    assert list(data) == list(AnalysisModel.model_fields)
    assert all(list(p) == list(PlayAnalysisModel.model_fields) for p in data["plays"])
    assert {p.double_dummy for p in model.plays} == {True, False}  # valued and hidden plays, one model
    assert AnalysisModel.model_validate_json(model.model_dump_json()) == model
    schemas = create_app(Settings(db=tmp_path / "a.duckdb")).openapi()["components"]["schemas"]  # not the default archive
    assert schemas["AnalysisModel"]["properties"] == AnalysisModel.model_json_schema(
        ref_template="#/components/schemas/{model}")["properties"]
    code = "import sys, tutepgn.analysis.model; print(sorted(m for m in sys.modules if m in ('tutepgn.analysis.position', 'tutepgn.analysis.alphabeta', 'tutepgn.analysis.solve')))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"
