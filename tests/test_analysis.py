"""The analysis of played deals: values as the mover could know them and double dummy, costs, luck, marks by the loss
of deal-win probability, par, what each side gave the others, and the identity that ties them, with cantes or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutepgn import Play, preset
from tutepgn.analysis.annotate import analyse_record, deal_of
from tutepgn.analysis.deal_analysis import DEFAULT_WORLDS, analyse
from tutepgn.analysis.outcome import mark_for_loss, move_accuracy
from tutepgn.analysis.pimc import mover_knows_all
from tutepgn.analysis.solve import C_AVAILABLE
from tutepgn.cards import card_code
from tutepgn.notation import tpgn
from tutepgn.recording.simulate import simulate_deals

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ["python", "c"] if C_AVAILABLE else ["python"]
PRESETS = ("playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p", "ludoteka-pairs")
SAMPLES = sorted((ROOT / "samples").glob("*.tpgn"))


def finished(name: str, count: int, seed: int) -> list:
    """Simulated deals played to the last trick (a tute ends a deal before the values' end)."""
    return [d for d in simulate_deals(preset(name), count, seed=seed) if d.tute_event is None]


def test_san_jose_deal_one_counts_the_cantes_as_the_score_sheet_does() -> None:
    """Deal 1 of the San José match was won by NS 87-83 with two cantes of 20: the analysis says so by default."""
    record = tpgn.loads((ROOT / "samples" / "ludoteka-match.tpgn").read_text(encoding="utf-8"))[0]
    analysis = analyse_record(record, pimc=0)
    assert analysis.cantes and analysis.totals == (87, 83) == analysis.actual  # valued from the first lead
    assert analysis.outcome.winner == 0 and not analysis.outcome.tute and analysis.outcome.totals == (87, 83)
    assert analysis.trick_values[-1] == (87, 83) and analysis.win_graph[-1] == (1.0, 0.0)
    assert analysis.identity_holds()
    plain = analyse_record(record, cantes=False, pimc=0)
    assert plain.totals == (47, 83) and plain.identity_holds()  # the two cantes of 20 left out
    assert analysis.match is not None and (analysis.match.target, analysis.match.standing) == (4, (0, 0))
    assert analysis.match.win_after[0] > analysis.match.win_before[0]  # NS won the deal


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_identity_holds_on_every_sample(path: Path) -> None:
    for record in tpgn.loads(path.read_text(encoding="utf-8")):
        for cantes in (True, False):
            try:
                analysis = analyse_record(record, cantes=cantes, pimc=0, up_to_illegal=True)
            except ValueError:  # a record without a starting position (no Deal tag)
                continue
            assert analysis.identity_holds(), (path.name, record.index, cantes)
            if analysis.complete and not analysis.outcome.tute:
                assert analysis.actual == analysis.reached
            sheet = deal_of(record, up_to_illegal=True).score()
            if cantes:
                assert analysis.totals == tuple(sheet.totals)
                assert analysis.outcome.winner == sheet.winner


def identity_everywhere(count: int, bigger: int) -> None:
    """``count`` simulated deals of each 2-player preset and ``bigger`` of the others, with and without cantes."""
    for name in PRESETS:
        for deal in simulate_deals(preset(name), count if preset(name).players == 2 else bigger, seed=33):
            for cantes in (True, False):
                analysis = analyse(deal, cantes=cantes, pimc=0)
                assert analysis.identity_holds(), (name, cantes)
                if not cantes and len(analysis.par) == 2:
                    assert analysis.given == (analysis.side_costs(1), analysis.side_costs(0))


@pytest.mark.skipif(not C_AVAILABLE, reason="whole deals of 3 and 4 players need the C core to be quick")
def test_the_identity_holds_on_simulated_deals_of_every_preset() -> None:
    identity_everywhere(30, 6)  # 3 and 4 players: a few seconds a deal on a busy machine; make test-slow runs 200


@pytest.mark.slow
@pytest.mark.skipif(not C_AVAILABLE, reason="whole deals of 3 and 4 players need the C core to be quick")
def test_the_identity_holds_on_200_simulated_deals_of_every_preset() -> None:
    identity_everywhere(200, 200)


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_cantes_the_double_dummy_figures_are_the_first_versions(backend: str) -> None:
    """``cantes=False`` keeps the figures of the first version: a play's cost is its best value less its own, par
    is the value at the first lead after the stock, and the other side's costs are what it gave."""
    deals = finished("playcard-2p", 8, seed=3) + finished("torofun-2p", 8, seed=4)
    assert len(deals) >= 10
    for deal in deals:
        analysis = analyse(deal, cantes=False, pimc=0, backend=backend)
        assert analysis.identity_holds() and analysis.given == (analysis.side_costs(1), analysis.side_costs(0))
        valued = analysis.valued
        assert len(valued) == 16  # the 8 tricks after the stock, every card
        assert len(analysis.plays) == sum(type(a) is Play for a in deal.log)  # every card, in log order
        replayed = deal.restart()
        by_index = {p.index: p for p in analysis.plays}
        for index, action in enumerate(deal.log):
            p = by_index.get(index)
            if p is not None and p.double_dummy:
                assert p.values is not None and p.best is not None and p.cost is not None
                assert (p.seat, p.card) == (action.seat, action.card)
                assert sorted(c for v in p.values for c in v.cards) == sorted(replayed.legal_plays())
                assert p.value_before == max(v.value for v in p.values)
                assert p.cost == p.value_before - next(v.value for v in p.values if p.card in v.cards)
                assert p.cost >= 0 and (p.cost == 0) == (p.card in p.best)
                assert p.exact and p.method == "exact"  # 2 players after the stock: every card knowable, no worlds needed
            elif p is not None:
                assert p.method is None and p.values is None and p.win_before is None  # pimc=0: not valued
            replayed.apply(action)


@pytest.mark.skipif(not C_AVAILABLE, reason="whole 4-player deals need the C core to be quick")
def test_four_players_par_costs_and_the_graph() -> None:
    for name in ("torofun-4p", "ludoteka-pairs"):
        for deal in finished(name, 3, seed=21):
            plain = analyse(deal, cantes=False, pimc=0)
            assert plain.par[0] + plain.par[1] == 130 == sum(plain.actual)
            for seat in range(4):
                assert plain.costs[seat] == sum(p.cost or 0 for p in plain.plays if p.seat == seat)
            assert len(plain.trick_values) == 11 == len(plain.win_graph)  # the first lead, then each trick
            assert plain.trick_values[0] == plain.par and plain.trick_values[-1] == plain.actual
            sung = analyse(deal, pimc=0)
            assert sung.identity_holds() and sung.totals == tuple(deal.score().totals)
            assert all(p.cost is not None and p.cost >= 0 for p in sung.valued)  # the search sings at its best
            assert all(s >= p for s, p in zip(sung.par, plain.par))  # cantes only add to a side's value


def test_exact_plays_are_their_double_dummy_values_and_the_mark_follows_the_loss() -> None:
    """With 2 players after the stock the mover sees every card: one world, the deal; the loss of deal-win
    probability gives the mark and the accuracy."""
    deal = finished("playcard-2p", 2, seed=16)[0]
    analysis = analyse(deal, pimc=3, seed=5)
    replayed = deal.restart()
    by_index = {p.index: p for p in analysis.plays}
    for index, action in enumerate(deal.log):
        p = by_index.get(index)
        if p is not None:
            assert p.exact == mover_knows_all(replayed) == (not replayed.stock_left)
            if p.exact:
                assert p.method == "exact" and p.pimc is not None and p.values is not None
                exact = {c: v.value for v in p.values for c in v.cards}
                assert {v.card: (v.mean, v.stderr) for v in p.pimc} == {c: (float(v), 0.0) for c, v in exact.items()}
                assert p.pimc_cost is not None and p.luck == 0 and p.pimc_cost == p.cost - (p.cost - p.pimc_cost)
            else:
                assert p.method in ("pimc", "rollout") and not p.double_dummy and p.pimc is not None
            assert p.win_before is not None and p.win_after is not None and p.loss is not None
            assert p.loss == p.win_before - p.win_after >= -1e-9
            assert p.mark == mark_for_loss(p.loss) and p.accuracy == move_accuracy(p.win_before, p.win_after)
        replayed.apply(action)
    assert analyse(deal, pimc=3, seed=5).to_dict() == analysis.to_dict()  # the seed gives the same worlds


@pytest.mark.skipif(not C_AVAILABLE, reason="PIMC over a 4-player deal needs the C core to be quick")
def test_hidden_decisions_are_valued_by_pimc_and_the_cost_splits_into_information_and_luck() -> None:
    deal = finished("torofun-4p", 1, seed=14)[0]
    analysis = analyse(deal, pimc=4, seed=2)
    assert analysis.worlds == 4 and DEFAULT_WORLDS == 20
    for p in analysis.plays:
        assert p.double_dummy and p.method in ("exact", "pimc") and p.pimc is not None
        assert p.exact == (p.method == "exact")
        assert p.luck is not None and p.cost is not None and p.pimc_cost is not None
        assert p.luck == pytest.approx(p.cost - p.pimc_cost)
        assert p.mark == (None if p.loss is None else mark_for_loss(p.loss))
    assert any(not p.exact for p in analysis.plays) and analysis.plays[-1].exact  # the last trick is forced
    accuracy = [analysis.accuracy(s) for s in range(4)]
    assert all(a is not None and 0 <= a <= 100 for a in accuracy)
    data = analysis.to_dict()
    assert data["accuracy"] == [round(a, 1) for a in accuracy if a is not None]


def test_a_tute_is_the_outcome() -> None:
    deal = next(d for d in simulate_deals(preset("torofun-2p"), 1000, seed=1) if d.tute_event is not None)
    analysis = analyse(deal, pimc=0)
    sheet = deal.score()
    assert analysis.outcome.tute and analysis.outcome.winner == sheet.winner and not analysis.complete
    assert analysis.identity_holds()


def test_to_dict_lists_every_card_with_the_documented_keys() -> None:
    from tutepgn.analysis.model import AnalysisModel, PlayAnalysisModel

    deal = finished("playcard-2p", 3, seed=15)[0]
    analysis = analyse(deal, pimc=2)
    data = json.loads(json.dumps(analysis.to_dict()))
    played = [a for a in deal.log if type(a) is Play]
    assert [p["card"] for p in data["plays"]] == [card_code(a.card) for a in played]
    assert list(data) == list(AnalysisModel.model_fields)
    assert all(list(p) == list(PlayAnalysisModel.model_fields) for p in data["plays"])
    stock = [p for p in data["plays"] if not p["double_dummy"]]
    assert len(stock) == len(played) - 16 and all(p["value"] is None and p["cost"] is None for p in stock)
    assert all(p["method"] in ("pimc", "rollout") and p["pimc"] for p in stock)  # valued, not listed as hidden
    assert data["version"] == 2 and data["complete"] is True and data["worlds"] == 2 and data["cantes"] is True
    assert data["par"] == list(analysis.par) and data["given"] == list(analysis.given)
    assert data["outcome"]["totals"] == list(deal.score().totals)


def test_one_model_is_the_json_form_and_the_service_serves_it(tmp_path: Path) -> None:
    """``DealAnalysis.model()`` is the library's :class:`AnalysisModel`, ``to_dict`` its dump, in its order; the
    service documents that same class (no copy of the shape in api/), and reading the shape loads no solver."""
    import subprocess
    import sys

    from tutepgn.analysis.model import AnalysisModel
    from tutepgn.api.app import Settings, create_app

    deal = finished("torofun-2p", 2, seed=21)[0]
    analysis = analyse(deal, pimc=2, seed=1)
    model = analysis.model()
    assert isinstance(model, AnalysisModel) and model.model_dump(mode="json") == analysis.to_dict()
    assert {p.double_dummy for p in model.plays} == {True, False}  # stock plays and double-dummy ones, one model
    assert AnalysisModel.model_validate_json(model.model_dump_json()) == model
    schemas = create_app(Settings(db=tmp_path / "a.duckdb")).openapi()["components"]["schemas"]
    assert schemas["AnalysisModel"]["properties"] == AnalysisModel.model_json_schema(
        ref_template="#/components/schemas/{model}")["properties"]
    code = "import sys, tutepgn.analysis.model; print(sorted(m for m in sys.modules if m in ('tutepgn.analysis.position', 'tutepgn.analysis.alphabeta', 'tutepgn.analysis.solve')))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"


def test_the_best_line_starts_with_a_best_card_and_plays_every_card_left() -> None:
    """Each play's best line (the solver's, which replays legally: tests/test_solver*) in the notation: the mover
    and one of its best cards first, then every card still to play once (and the cantes the search sings)."""
    import re

    card = re.compile(r"^[A-Z] (?:[1-7]|1[012])[OCEB]$")
    deal = finished("torofun-4p", 1, seed=9)[0]
    analysis = analyse(deal, pimc=0)
    for played, p in enumerate(analysis.plays[:8]):
        assert p.best_line is not None and p.best is not None
        assert p.best_line[0] in {f"{analysis.seats[p.seat]} {card_code(c)}" for c in p.best}
        assert sum(bool(card.match(a)) for a in p.best_line) == 40 - played
